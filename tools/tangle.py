"""Tangle the attnlit package out of the chapters in docs/: the docs are its source.

A chapter marks a code block as library code with an HTML comment right above its fence:

    <!-- tangle: attnlit/toy.py -->
    ```python
    ...
    ```

The comment is invisible on the page (a MkDocs hook turns it into the block's title), and the
fence stays exactly ```python, so pytest-codeblocks still runs the block.

A module is the concatenation of its blocks, in page order, pages in mkdocs.yml `nav` order.
Each block is self-contained, so each repeats its imports: leading import lines are gathered
once at the top of the module, and imports from the module itself are dropped.

    python tools/tangle.py           # rewrite the generated modules
    python tools/tangle.py --check   # exit 1 and name each module that differs from the docs
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "make tangle"
# Every generated module, by path. A marker naming anything else is a typo.
MODULES = (
    "attnlit/toy.py",
    "attnlit/self_attention.py",
    "attnlit/causal.py",
    "attnlit/multihead.py",
    "attnlit/fused.py",
    "attnlit/bench/__init__.py",
    "attnlit/scaling.py",
    "attnlit/plots.py",
)

MARKER = re.compile(r"^(?P<indent>\s*)<!--\s*tangle:\s*(?P<module>\S*)\s*-->\s*$")
# The other markers a chapter uses; the MkDocs hooks and the notebook converter read them.
FIGURE = re.compile(r"^<!--\s*figure:\s*(?P<caption>.+?)\s*-->\s*$")
OUTPUT = "<!--pytest-codeblocks:expected-output-->"
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
IMPORT = re.compile(r"^(import|from)\s")


class TangleError(Exception):
    """A marker or fence the tangler cannot make sense of; the message starts with file:line."""


@dataclass
class Block:
    module: str
    page: str  # path relative to the repository root, e.g. docs/foo.md
    line: int  # 1-based line of the marker
    code: str


def fences(lines: list[str], page: str) -> dict[int, int]:
    """Map the opening line index of each fenced block to its closing line index."""
    spans, i = {}, 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        mark = opening["fence"]  # closed by the same character, at least as many times, alone
        closing = re.compile(rf"\s*{re.escape(mark[0])}{{{len(mark)},}}\s*")
        end = next((j for j in range(i + 1, len(lines)) if closing.fullmatch(lines[j])), None)
        if end is None:
            raise TangleError(f"{page}:{i + 1}: fence {mark} is never closed")
        spans[i] = end
        i = end + 1
    return spans


def read_blocks(path: Path, root: Path = ROOT) -> list[Block]:
    """Return the marked blocks of one Markdown file, in order."""
    page = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    spans = fences(lines, page)
    inside = {i for start, end in spans.items() for i in range(start + 1, end)}
    blocks = []
    for i, text in enumerate(lines):
        marker = MARKER.match(text)
        if not marker or i in inside:
            continue
        where, module = f"{page}:{i + 1}", marker["module"]
        if module not in MODULES:
            raise TangleError(
                f"{where}: unknown module {module!r} in tangle marker; "
                f"known modules: {', '.join(MODULES)} (tools/tangle.py MODULES)"
            )
        if i + 1 == len(lines):
            raise TangleError(f"{where}: tangle marker at the end of the file, above no fence")
        if i + 1 not in spans:
            what = "a second tangle marker" if MARKER.match(lines[i + 1]) else "no ```python fence"
            raise TangleError(f"{where}: tangle marker is followed by {what} (line {i + 2})")
        opening = FENCE.match(lines[i + 1])
        if opening["fence"] != "```" or opening["info"] != "python":
            raise TangleError(
                f"{where}: tangle marker must sit right above a ```python fence, "
                f"found {lines[i + 1].strip()!r} (line {i + 2})"
            )
        indent = len(opening["indent"])
        body = [line[min(indent, len(line) - len(line.lstrip())):] for line in lines[i + 2:spans[i + 1]]]
        blocks.append(Block(module, page, i + 1, "\n".join(body) + "\n"))
    return blocks


def read_config(root: Path = ROOT) -> dict:
    """mkdocs.yml as plain data; tagged values such as !ENV [...] read as None."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


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


def import_order(line: str) -> tuple:
    """__future__ first, then other libraries, then attnlit; by module; ties by the line."""
    module = line.split()[1]
    return (module != "__future__", module.split(".")[0] == "attnlit", module,
            line.startswith("from"), line)


def join_blocks(module: str, blocks: list[Block]) -> str:
    """One module's text: gathered imports, sorted by module name, then each block's code."""
    # A block imports names from its own module to run alone; in the module they are defined.
    package = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    own = f"from {package} import "
    imports, bodies = set(), []
    for block in blocks:
        lines = block.code.splitlines()
        while lines and (IMPORT.match(lines[0]) or not lines[0].strip()):
            line = lines.pop(0)
            if line.strip() and not line.startswith(own):
                imports.add(line)
        bodies.append("\n".join(lines).strip("\n"))
    pages = list(dict.fromkeys(block.page for block in blocks))
    header = [
        f"# Generated by tools/tangle.py from {', '.join(pages)}: do not edit by hand.",
        f"# Change the chapter, then run `{COMMAND}`.",
    ]
    imports = sorted(imports, key=import_order)
    code = "\n\n\n".join(part for part in ["\n".join(imports), *bodies] if part)
    return "\n".join(header) + "\n\n" + code + "\n"


def tangle(root: Path = ROOT) -> dict[str, tuple[str, list[str]]]:
    """Map each module path to (its text, the pages it comes from). Raises TangleError."""
    order = nav_pages(root)
    found: dict[str, list[Block]] = {module: [] for module in MODULES}
    for path in sorted((root / "docs").rglob("*.md")):
        for block in read_blocks(path, root):
            found[block.module].append(block)
    modules = {}
    for module, blocks in found.items():
        if not blocks:
            raise TangleError(f"{module}: no block in docs/ is marked `<!-- tangle: {module} -->`")
        pages = list(dict.fromkeys(block.page for block in blocks))
        unordered = [page for page in pages if page not in order]
        if len(pages) > 1 and unordered:
            first = next(b for b in blocks if b.page == unordered[0])
            raise TangleError(
                f"{first.page}:{first.line}: {module} takes blocks from {', '.join(pages)}, "
                f"but {unordered[0]} is not in mkdocs.yml nav, so their order is not defined"
            )
        if len(pages) > 1:  # sort is stable: blocks keep their page order
            blocks.sort(key=lambda block: order.index(block.page))
        modules[module] = (join_blocks(module, blocks), list(dict.fromkeys(b.page for b in blocks)))
    return modules


def main(argv: list[str], root: Path = ROOT) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        modules = tangle(root)  # everything is read and checked before anything is written
    except TangleError as error:
        print(f"tangle: {error}", file=sys.stderr)
        return 1
    stale = []
    for module, (text, pages) in modules.items():
        path = root / module
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        if check:
            stale.append(f"{module} differs from {', '.join(pages)}: run `{COMMAND}`")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"tangle: wrote {module} from {', '.join(pages)}")
    for line in stale:
        print(f"tangle: {line}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
