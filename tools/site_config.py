"""The site's config as plain data: mkdocs.yml, its languages and the pages of its nav.

One reader for the tools and the tests (tangle.py, i18n.py, the hooks, tests/): a translation's
own file, mkdocs.<lang>.yml, is read with `read_yaml` too (tools/i18n.py).
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's where PyYAML has it
    """YAML's safe loader; tagged values such as !ENV [...] read as None."""


Loader.add_multi_constructor("", lambda loader, suffix, node: None)


@functools.lru_cache(maxsize=64)
def parsed(path: Path, modified: int, size: int) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


def read_yaml(path: Path) -> dict:
    """A config file as plain data (a copy of its own: callers may change it); tagged values
    such as !ENV [...] read as None. Read once until the file changes: collecting the tests
    read the configs and glossaries 112 times, 40 % of the collection's time."""
    found = path.stat()
    return copy.deepcopy(parsed(Path(path).resolve(), found.st_mtime_ns, found.st_size))


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
