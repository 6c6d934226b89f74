"""The site's config as plain data: mkdocs.yml, its languages and the pages of its nav.

One reader for the tools and the tests (tangle.py, i18n.py, the hooks, tests/): a translation's
own file, mkdocs.<lang>.yml, is read with `read_yaml` too (tools/i18n.py).
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def read_yaml(path: Path) -> dict:
    """A config file as plain data; tagged values such as !ENV [...] read as None."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


def read_config(root: Path = ROOT) -> dict:
    """mkdocs.yml as plain data."""
    return read_yaml(root / "mkdocs.yml")


def translations(root: Path = ROOT) -> list[str]:
    """The languages the site is translated into (mkdocs.yml's extra.alternate, English aside),
    each in docs/<code>/ (tools/i18n.py)."""
    alternate = (read_config(root).get("extra") or {}).get("alternate") or []
    return [entry["lang"] for entry in alternate if entry["lang"] != "en"]


def english_docs(root: Path = ROOT) -> list[Path]:
    """Every Markdown page under docs/ but the translations': the English pages are the only
    source of the package, and of the code that runs."""
    translated = set(translations(root))
    return [path for path in sorted((root / "docs").rglob("*.md"))
            if path.relative_to(root / "docs").parts[0] not in translated]


def nav_pages(root: Path = ROOT) -> list[str]:
    """The Markdown pages of mkdocs.yml's nav, in order, as docs/... paths."""
    config = read_config(root)
    docs_dir = config.get("docs_dir") or "docs"
    pages = []

    def walk(item):
        if isinstance(item, str):
            pages.append(f"{docs_dir}/{item}")
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(config.get("nav") or [])
    return pages


def nav_titles(nav: list) -> dict[str, str]:
    """page -> its title, for each titled page of a config's nav, in order."""
    titles = {}
    for item in nav:
        for title, value in (item.items() if isinstance(item, dict) else ()):
            titles |= {value: title} if isinstance(value, str) else nav_titles(value)
    return titles
