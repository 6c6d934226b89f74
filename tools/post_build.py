"""The build's last step, over the whole built site of one language.

1. Files beside pages. An extension that makes a file for its page (a site-file block's bytes,
   tools/site_files.py; a widget's fetched data, tools/figures.py) cannot know where the page
   will be written: it keeps the file in the build's cache and leaves a comment in the page,
   `beside(name, kind, key)`. Here each comment goes and its file is written beside the page.
2. The site's own scripts, served without their comment lines and indentation.
3. The search index: what keeps a Thai word on one line is no part of it, a Thai index's words
   are split, and a translation's index carries the spellings its search takes.

The MkDocs hook runs it after the search plugin has written its index; a builder without hooks
runs `python tools/post_build.py <site folder> <language>` after its build.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import i18n  # noqa: E402
import thai_words  # noqa: E402
from cache_key import cache  # noqa: E402

BESIDE = re.compile(r"<!-- attnlit-beside: (?P<name>[\w.-]+) (?P<kind>[a-z-]+)/(?P<key>[\w.-]+) -->\n*")
SCRIPTS = "javascripts"


def beside(name: str, kind: str, key: str) -> str:
    """The comment that has the file `key` of the cache `kind` written beside its page as `name`."""
    comment = f"<!-- attnlit-beside: {name} {kind}/{key} -->"
    if not BESIDE.fullmatch(comment):
        raise ValueError(f"a file beside a page needs a plain name, got {name!r} ({kind}/{key})")
    return comment


def files_beside_pages(site: Path, language: str) -> list[Path]:
    """Write the files that each page's comments name beside it, and take the comments out."""
    written, others = [], set(i18n.languages()) if language == i18n.ENGLISH else set()
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] in others:
            continue  # a translation's site, which lies under the English one's
        html = page.read_text(encoding="utf-8")
        wanted = list(BESIDE.finditer(html))
        for found in wanted:
            source = cache(found["kind"]) / found["key"]
            if not source.exists():
                raise FileNotFoundError(f"{page.relative_to(site)}: {found['name']} should be "
                                        f"{source}, which the build did not make")
            (page.parent / found["name"]).write_bytes(source.read_bytes())
            written.append(page.parent / found["name"])
        if wanted:
            page.write_text(BESIDE.sub("", html), encoding="utf-8")
    return written


def stripped_script(source: str, name: str) -> str:
    """JavaScript without its comment lines and indentation: the same program, a third lighter.

    Line by line, which is safe as long as no template literal spans lines: that fails.
    """
    lines = [line.strip() for line in source.splitlines()]
    if any(line.count("`") % 2 for line in lines):
        raise ValueError(f"{name}: a template literal spans lines; keep each on one line")
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("//"))


def strip_scripts(site: Path) -> None:
    for script in sorted((site / SCRIPTS).rglob("*.js")):
        name = script.relative_to(site)
        script.write_text(stripped_script(script.read_text(encoding="utf-8"), str(name)), encoding="utf-8")


def search_index(site: Path, language: str) -> None:
    """Thai words unjoined and split in the search index; a translation's spellings."""
    index = site / "search" / "search_index.json"
    if not index.exists():
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    fields = [(doc, field) for doc in data["docs"] for field in ("title", "text")]
    unjoined = re.compile(f"[{thai_words.JOINER}{thai_words.SPACE}]")
    joined = any(unjoined.search(doc[field]) for doc, field in fields)
    for doc, field in fields:  # what keeps a Thai word on one line is no part of it
        doc[field] = unjoined.sub("", doc[field])
        if language in i18n.SEGMENTED:
            doc[field] = i18n.segmented(doc[field], language)
    if language == i18n.ENGLISH and not joined:
        return
    if language != i18n.ENGLISH:
        # The spellings a reader may type for a word the pages write otherwise, which the search
        # worker searches as that word (docs/assets/javascripts/workers/attnlit-search.js).
        data["config"]["attnlit"] = {"synonyms": i18n.synonyms(language)}
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def finish(site: Path, language: str) -> None:
    """The build's last step (see the module's docstring)."""
    files_beside_pages(site, language)
    strip_scripts(site)
    search_index(site, language)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="the built site of one language, e.g. site/ or site/th/")
    parser.add_argument("language", choices=[i18n.ENGLISH, *i18n.languages()])
    args = parser.parse_args(argv)
    if not args.site.is_dir():
        parser.error(f"no built site at {args.site}")
    try:
        finish(args.site, args.language)
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
