"""Tangle the attnlit package out of the chapters in docs/: the docs are its source.

A chapter marks a code block as library code with an HTML comment right above its fence:

    <!-- tangle: attnlit/toy.py -->
    ```python
    ...
    ```

The comment is invisible on the page (tools/block_titles.py makes it the block's title), and the
fence stays exactly ```python, so pytest-codeblocks still runs the block.

A module is the concatenation of its blocks, in page order, pages in mkdocs.yml `nav` order.
Each block is self-contained, so each repeats its imports: its leading import statements are
gathered once at the top of the module, and imports from the module itself are dropped.

A later chapter may grow a class of an earlier one, and its page shows only the lines it
adds: a class that opens with `...` continues the class of that name and bases that an
earlier block of the module defines, and its other lines move into that class.

    class TinyGPT(nn.Module):  # chapter 10's class, continued
        ...

        def generate(self, idx: torch.Tensor, max_new_tokens: int) -> torch.Tensor:

Nothing is written unless every page reads cleanly and every module compiles. An HTML comment
that looks like a marker but is not one (`<!-- Tangle: ... -->`, `<!-- tangel: ... -->`, a
marker with extra words) stops the tangler with its file:line: a block must never drop out of
the package silently.

    python tools/tangle.py           # rewrite the generated modules
    python tools/tangle.py --check   # exit 1 and name each module that differs from the docs
"""

from __future__ import annotations

import ast
import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from site_config import english_docs, nav_pages  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "make tangle"
# Every generated module, by path. A marker naming anything else is a typo.
MODULES = (
    "attnlit/checks.py",
    "attnlit/toy.py",
    "attnlit/self_attention.py",
    "attnlit/causal.py",
    "attnlit/multihead.py",
    "attnlit/fused.py",
    "attnlit/flash.py",
    "attnlit/bench/__init__.py",
    "attnlit/bench/flash/__init__.py",
    "attnlit/bench/generate/__init__.py",
    "attnlit/scaling.py",
    "attnlit/plots.py",
    "attnlit/positions.py",
    "attnlit/gpt.py",
    "attnlit/kvcache.py",
    "attnlit/export.py",
    "attnlit/gqa.py",
    "attnlit/cachesize.py",
    "attnlit/train/__init__.py",
    "attnlit/text/__init__.py",
    "attnlit/textgpt.py",
    "attnlit/textheads.py",
    "attnlit/train/text/__init__.py",
    "attnlit/sinks.py",
    "attnlit/train/sinks/__init__.py",
    "attnlit/train/stream/__init__.py",
    "attnlit/latent.py",
    "attnlit/bench/latent/__init__.py",
    "attnlit/linear.py",
    "attnlit/train/state/__init__.py",
)

MARKER = re.compile(r"^(?P<indent>\s*)<!-- tangle: (?P<module>\S+) -->\s*$")
# The other markers a chapter uses; the build's extensions and the notebook converter read them.
FIGURE = re.compile(r"^(?P<indent>\s*)<!--\s*figure:\s*(?P<caption>.+?)\s*-->\s*$")
# A block whose `data` (bytes, or plain JSON data) the build writes into a file beside its page.
SITE_FILE = re.compile(r"^(?P<indent>\s*)<!--\s*site-file:\s*(?P<name>[\w-]+\.[a-z]+)\s*-->\s*$")
OUTPUT = "<!--pytest-codeblocks:expected-output-->"
# CommonMark: a fence is 3+ backticks or tildes; a backtick fence's info string has no backtick
# (so "```python``` opens a block" in prose is inline code, not a fence).
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}(?=[^`]*$)|~{3,})(?P<info>.*)$")
COMMENT = re.compile(r"<!--(?P<text>.*?)-->", re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


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


def under_markers(lines: list[str], marker: re.Pattern[str],
                  rewrite: Callable[[re.Match[str], list[str]], list[str]], page: str = "page") -> list[str]:
    """The lines with each marker outside fenced blocks, and the block right under it, replaced
    by `rewrite(marker's match, the block's lines)`; the block is [] when no fence follows.

    Fenced blocks are copied whole: a line inside one that looks like a marker is code or
    printed output, never a marker. Shared by the build's Python-Markdown extensions.
    """
    spans, out, i = fences(lines, page), [], 0
    while i < len(lines):
        found = None if i in spans else marker.match(lines[i])
        if found is None:
            end = spans.get(i, i)
            out += lines[i:end + 1]
        else:
            end = spans.get(i + 1, i)
            out += rewrite(found, lines[i + 1:end + 1])
        i = end + 1
    return out


def looks_like_a_marker(comment: str) -> bool:
    """Whether an HTML comment's text reads like an attempt at a tangle marker."""
    text = comment.strip()
    if FIGURE.match(f"<!--{comment}-->") or text.startswith("pytest-codeblocks:"):
        return False
    first = re.split(r"[\s:]", text.lower(), maxsplit=1)[0]
    return ("tangle" in text.lower() or "attnlit/" in text
            or difflib.SequenceMatcher(None, first, "tangle").ratio() >= 0.7)


def check_comments(lines: list[str], inside: set[int], page: str) -> None:
    """Raise TangleError at the first comment outside code that looks like a bad marker."""
    prose = "\n".join("" if i in inside else CODE_SPAN.sub(lambda m: " " * len(m[0]), line)
                      for i, line in enumerate(lines))
    for comment in COMMENT.finditer(prose):
        line = prose.count("\n", 0, comment.start())
        if looks_like_a_marker(comment["text"]) and not MARKER.match(lines[line]):
            raise TangleError(
                f"{page}:{line + 1}: {comment[0]!r} is not a tangle marker; a marker is "
                "`<!-- tangle: attnlit/module.py -->` alone on the line above a ```python fence"
            )


def read_blocks(path: Path, root: Path = ROOT) -> list[Block]:
    """Return the marked blocks of one Markdown file, in order."""
    page = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    spans = fences(lines, page)
    inside = {i for start, end in spans.items() for i in range(start, end + 1)}
    check_comments(lines, inside, page)
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


def import_order(statement: ast.stmt, text: str) -> tuple:
    """__future__ first, then other libraries, then attnlit; by module; ties by the text."""
    if isinstance(statement, ast.ImportFrom):
        module = "." * statement.level + (statement.module or "")
    else:
        module = statement.names[0].name
    return (module != "__future__", module.split(".")[0] == "attnlit", module,
            isinstance(statement, ast.ImportFrom), text)


def leading_imports(block: Block) -> tuple[list[ast.stmt], int]:
    """The block's leading import statements, and the index of the first line after them.

    Imports are gathered while only blank lines separate them; a comment or any other
    statement ends the run (a comment stays with the code that follows it).
    """
    try:
        tree = ast.parse(block.code)
    except SyntaxError as error:  # block lines start two lines below the marker
        where = f"{block.page}:{block.line + 1 + (error.lineno or 1)}"
        raise TangleError(f"{where}: SyntaxError: {error.msg}") from error
    lines, imports, end = block.code.splitlines(), [], 0
    for statement in tree.body:
        between = lines[end:statement.lineno - 1]
        if not isinstance(statement, (ast.Import, ast.ImportFrom)) or any(map(str.strip, between)):
            break
        imports.append(statement)
        end = statement.end_lineno
    return imports, end


def opens_with_ellipsis(node: ast.ClassDef) -> bool:
    """Whether a class's first statement is `...`: the class continues an earlier one."""
    first = node.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and first.value.value is Ellipsis


def class_bases(node: ast.ClassDef) -> str:
    """A class's bases and keywords as written, e.g. `(nn.Module)`."""
    return f"({', '.join(ast.unparse(b) for b in [*node.bases, *node.keywords])})"


def continue_classes(module: str, blocks: list[Block], bodies: list[list[str]],
                     starts: list[int]) -> None:
    """Move the lines of each class that opens with `...` into the earlier class it continues.

    bodies[i] holds the lines of blocks[i] from 0-based line starts[i] of its code on.
    """
    defined: dict[str, tuple[int, str, str]] = {}  # name -> (body index, file:line, bases)
    for index, block in enumerate(blocks):
        tree = ast.parse(block.code)
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            where = f"{block.page}:{block.line + 1 + node.lineno}"
            bases = class_bases(node)
            if not opens_with_ellipsis(node):
                if node.name in defined:
                    raise TangleError(
                        f"{where}: class {node.name} is already defined at "
                        f"{defined[node.name][1]}; a later block adds to it by opening it "
                        "with `...`")
                defined[node.name] = (index, where, bases)
                continue
            if node.name not in defined:
                raise TangleError(
                    f"{where}: class {node.name} opens with `...` to continue a class, but no "
                    f"earlier block of {module} defines {node.name}")
            target, earlier, earlier_bases = defined[node.name]
            if bases != earlier_bases:
                raise TangleError(f"{where}: class {node.name}{bases} continues the class at "
                                  f"{earlier}, whose bases are {earlier_bases}")
            # Its lines after the `...`, from the block; then the class leaves the block.
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            added = block.code.splitlines()[node.body[0].end_lineno:node.end_lineno]
            lines, offset = bodies[index], starts[index]
            end = node.end_lineno - offset
            while end < len(lines) and not lines[end].strip():
                end += 1  # and the blank lines after it
            del lines[first - 1 - offset:end]
            while added and not added[0].strip():
                added.pop(0)
            # Into the earlier class, after its last line.
            target_lines = bodies[target]
            found = next(n for n in ast.parse("\n".join(target_lines)).body
                         if isinstance(n, ast.ClassDef) and n.name == node.name)
            target_lines[found.end_lineno:found.end_lineno] = ["", *added]


def join_blocks(module: str, blocks: list[Block]) -> str:
    """One module's text: gathered imports, sorted by module name, then each block's code."""
    # A block imports names from its own module to run alone; in the module they are defined.
    package = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    imports, bodies, starts = {}, [], []
    for block in blocks:
        lines = block.code.splitlines()
        statements, end = leading_imports(block)
        for statement in statements:
            if isinstance(statement, ast.ImportFrom) and statement.module == package:
                continue
            text = "\n".join(lines[statement.lineno - 1:statement.end_lineno])
            imports[text] = import_order(statement, text)
        bodies.append(lines[end:])
        starts.append(end)
    continue_classes(module, blocks, bodies, starts)
    bodies = ["\n".join(lines).strip("\n") for lines in bodies]
    pages = list(dict.fromkeys(block.page for block in blocks))
    header = [
        f"# Generated by tools/tangle.py from {', '.join(pages)}: do not edit by hand.",
        f"# Change the chapter, then run `{COMMAND}`.",
    ]
    gathered = sorted(imports, key=imports.get)
    code = "\n\n\n".join(part for part in ["\n".join(gathered), *bodies] if part)
    return "\n".join(header) + "\n\n" + code + "\n"


def tangle(root: Path = ROOT) -> dict[str, tuple[str, list[str]]]:
    """Map each module path to (its text, the pages it comes from). Raises TangleError."""
    order = nav_pages(root)
    found: dict[str, list[Block]] = {module: [] for module in MODULES}
    for path in english_docs(root):
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
        text = join_blocks(module, blocks)
        try:  # each block compiled alone; joined, they must still make a module
            compile(text, module, "exec")
        except SyntaxError as error:
            raise TangleError(f"{module}:{error.lineno}: SyntaxError: {error.msg} "
                              f"(in the module joined from {', '.join(pages)})") from error
        modules[module] = (text, list(dict.fromkeys(b.page for b in blocks)))
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
