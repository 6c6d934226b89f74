"""The translations: the site in other languages, each page proven to hold the English code.

The English pages (docs/) stay the only source: of the package, of every number. A page
translated into a language (a code of mkdocs.yml's `extra.alternate`, e.g. th) is
docs/<code>/<page>, at the same path as docs/<page>; mkdocs.<code>.yml (`INHERIT: mkdocs.yml`)
builds the language's pages into site/<code>/. A translated page:

- holds the English page's code blocks and printed outputs, in the same order: code equal token
  by token once comments are removed (comments may be translated; a block of shell commands'
  too), everything else byte for byte (`identity_errors`). So its code is never run again: it is the code that runs in English.
  A lab (docs/labs/*.py, a jupytext percent script) holds the English code cells likewise; its
  markdown cells are its prose;
- writes each term of its language's glossary (docs/<code>/glossary.yml) one way
  (`glossary_errors`); the first use of a term on a page may give both forms, "A (B)";
- records in its front matter (a lab: in its jupytext header) the English page it was made
  from, as `translated_from: <hash>` (`english_hash`: of the English words and comments, not of
  the code and outputs). When they change, the built page says so (tools/mkdocs_hooks.py)
  until a translator brings it up to date and records the new hash (`stamp`).

An edit of the English code or outputs is carried into every translation by `sync`: each
block takes the English block's code and outputs, paired by position, and keeps its
translated comments on the lines whose code did not change. A block added, removed or moved
in English is the translator's to add, remove or move (with its prose); until then sync
names it and changes nothing.

    python tools/i18n.py status                             # per language: done, missing, stale
    python tools/i18n.py sync                               # English code and outputs into every
                                                            # translation (or name pages: th/x.md)
    python tools/i18n.py stamp th/attention-without-weights.md  # record the English page followed
                                                            # (several pages at once, too)
"""

from __future__ import annotations

import difflib
import hashlib
import io
import re
import sys
import tokenize
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from site_config import nav_pages, read_config, read_yaml  # noqa: E402
from site_config import translations as languages  # noqa: E402, F401: the codes, from mkdocs.yml
from tangle import FENCE, FIGURE, MARKER, OUTPUT, fences  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = "en"
HASH_KEY = "translated_from"
FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(.*?\n)?(?:-{3}|\.{3})[ \t]*\n", re.DOTALL)
# Material's code annotations are comments, `# (1)!`: a translation keeps them, in order.
ANNOTATION = re.compile(r"\((\d+)\)!")
# Other marker comments that pytest-codeblocks reads above a fence.
CODEBLOCKS = re.compile(r"^\s*<!--\s*pytest-codeblocks:[^>]*-->\s*$")
# What is not prose on a page: fenced blocks are taken out first; then front matter, HTML
# comments (a figure's caption is kept), inline code, formulas, link targets and HTML tags.
NOT_PROSE = re.compile(
    r"<!--.*?-->|(`+)(?!`).*?(?<!`)\1(?!`)|\$\$.*?\$\$|\$[^$\n]+\$|\]\([^)\s]*\)|<[^>\n]+>",
    re.DOTALL,
)
FIGURE_COMMENT = re.compile(r"(<!--\s*figure:)(.*?)(-->)", re.DOTALL)
LATIN = re.compile(r"[A-Za-z]")


def docs_dir(language: str, root: Path = ROOT) -> Path:
    return root / "docs" if language == ENGLISH else root / "docs" / language


def config_file(language: str, root: Path = ROOT) -> Path:
    return root / ("mkdocs.yml" if language == ENGLISH else f"mkdocs.{language}.yml")


def language_config(language: str, root: Path = ROOT) -> dict:
    """A language's own config file as plain data (what it adds to mkdocs.yml)."""
    return read_yaml(config_file(language, root))


def alternates(root: Path = ROOT) -> list[dict]:
    """The site's languages as its language selector lists them (mkdocs.yml's extra.alternate)."""
    return read_config(root)["extra"]["alternate"]


def strings(language: str, root: Path = ROOT) -> dict:
    """The site's own interface strings in a language (its config's `extra.strings`)."""
    return (language_config(language, root).get("extra") or {}).get("strings") or {}


def is_translation(path: Path, root: Path = ROOT) -> bool:
    """Whether a file under docs/ belongs to a translation."""
    relative = path.resolve().relative_to((root / "docs").resolve())
    return len(relative.parts) > 1 and relative.parts[0] in languages(root)


def english_pages(root: Path = ROOT) -> list[str]:
    """The English pages in nav order, relative to docs/ (index.md, labs/why-scale.py...)."""
    return [page.removeprefix("docs/") for page in nav_pages(root)]


def pages(language: str, root: Path = ROOT) -> list[str]:
    """The pages translated into a language, in the English nav's order."""
    folder = docs_dir(language, root)
    return [page for page in english_pages(root) if (folder / page).exists()]


def home(language: str, root: Path = ROOT) -> str | None:
    """A language's first page: its home once translated, until then its first translated page."""
    return next(iter(pages(language, root)), None)


def english_hash(page: str, root: Path = ROOT) -> str:
    """What a translation follows of the English page docs/<page>, as it is now: its words, its
    blocks' comments and everything else but its blocks' code and outputs (which `sync` carries),
    the first 12 hex digits of a SHA-256."""
    text = (root / "docs" / page).read_text(encoding="utf-8").replace("\r\n", "\n")  # any checkout
    lines = text.splitlines(keepends=True)
    for block in reversed(fenced_blocks(text, page)):
        lines[block.first:block.end] = [comment + "\n" for comment in comments(block)]
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()[:12]


def front_matter(text: str) -> dict:
    match = FRONT_MATTER.match(text)
    return (yaml.safe_load(match[1] or "") or {}) if match else {}


# A lab's jupytext header: YAML in comments, above its first cell; `jupyter:` is its notebook's
# metadata, where a translated lab records the English lab it follows.
LAB_HEADER = re.compile(r"\A# ---[ \t]*\n((?:#.*\n)*?)# ---[ \t]*\n")
# A cell of a percent script starts at `# %%`, a markdown cell at `# %% [markdown]`.
CELL = re.compile(r"^# %%(?P<markdown>[ \t]+\[markdown\])?(?:[ \t].*)?$")


def is_lab(page: str) -> bool:
    return page.endswith(".py")


def lab_header(text: str) -> dict:
    match = LAB_HEADER.match(text)
    if match is None:
        return {}
    return yaml.safe_load(re.sub(r"^# ?", "", match[1], flags=re.MULTILINE)) or {}


def recorded_hash(text: str, page: str = "page.md") -> str | None:
    """The hash of the English page that a translated page says it follows."""
    if is_lab(page):
        value = (lab_header(text).get("jupyter") or {}).get(HASH_KEY)
    else:
        value = front_matter(text).get(HASH_KEY)
    return None if value is None else str(value)


def stale(language: str, root: Path = ROOT) -> list[str]:
    """The translated pages whose English page has changed since they were made."""
    return [page for page in pages(language, root)
            if recorded_hash((docs_dir(language, root) / page).read_text(encoding="utf-8"), page)
            != english_hash(page, root)]


def stamp(path: Path, root: Path = ROOT) -> str:
    """Record in a translated page the hash of its English page as it is now; the hash."""
    relative = path.resolve().relative_to((root / "docs").resolve())
    page = Path(*relative.parts[1:]).as_posix()
    digest, text = english_hash(page, root), path.read_text(encoding="utf-8")
    line = f'{HASH_KEY}: "{digest}"\n'  # quoted: YAML would read 123456789012 as a number
    if is_lab(page):
        header = lab_header(text)
        if set(header) - {"jupyter"} or set(header.get("jupyter") or {}) - {HASH_KEY}:
            raise ValueError(f"{path}: its jupytext header holds more than {HASH_KEY}: {header}")
        text = LAB_HEADER.sub("", text).lstrip("\n")
        path.write_text(f"# ---\n# jupyter:\n#   {line}# ---\n\n{text}", encoding="utf-8")
        return digest
    match = FRONT_MATTER.match(text)
    if match is None:
        text = f"---\n{line}---\n\n{text}"
    elif re.search(rf"^{HASH_KEY}:", match[0], re.MULTILINE):
        text = re.sub(rf"^{HASH_KEY}:.*\n", line, text, count=1, flags=re.MULTILINE)
    else:  # after the opening ---
        first = text.index("\n") + 1
        text = text[:first] + line + text[first:]
    path.write_text(text, encoding="utf-8")
    return digest


@dataclass
class Fenced:
    """A fenced block of a page, as the identity test compares it and sync rewrites it."""

    line: int  # of its opening fence, from 1
    indent: int  # its nesting: in a tab or an admonition, 4 a level
    info: str  # python, text, console...
    marker: str  # the marker right above it that tools read: tangle, output, figure, ""
    body: str  # without its indentation
    first: int = 0  # its body is the page's lines[first:end], each after `prefix`
    end: int = 0
    prefix: str = ""  # its indentation; in a lab's markdown cell, "# " before it


def marker_of(line: str) -> str:
    """What a marker line means to the tools, whatever its words (a figure's caption)."""
    tangled = MARKER.match(line)
    if tangled:
        return f"tangle: {tangled['module']}"
    if line.strip() == OUTPUT:
        return "expected output"
    if FIGURE.match(line):
        return "figure"
    return line.strip() if CODEBLOCKS.match(line) else ""


def lab_cells(text: str) -> list[tuple[int, bool, list[str]]]:
    """A lab's cells, in order: the line of each one's `# %%` (from 1), whether it is
    markdown, and its lines (a markdown cell's without their `# `)."""
    cells = []
    for number, line in enumerate(LAB_HEADER.sub(lambda m: "\n" * m[0].count("\n"), text).splitlines(), 1):
        found = CELL.match(line)
        if found:
            cells.append((number, bool(found["markdown"]), []))
        elif cells:
            cells[-1][2].append(re.sub(r"^# ?", "", line) if cells[-1][1] else line)
    return cells


def fenced_blocks(text: str, name: str) -> list[Fenced]:
    """Every top-level fenced block of a page, in order; a lab's code cells are blocks, and
    so are the fenced blocks of its markdown cells."""
    if is_lab(name):
        blocks = []
        for line, markdown, rows in lab_cells(text):
            if markdown:  # rows[k] is the lab's line line + k, from 0
                blocks += [replace(block, line=line + block.line, first=line + block.first,
                                   end=line + block.end, prefix="# " + block.prefix)
                           for block in fenced_blocks("\n".join(rows), "cell.md")]
            else:
                written = [k for k, row in enumerate(rows) if row != ""] or [0]  # strip("\n")'s
                first, end = line + written[0], line + written[-1] + (rows != [] and rows[written[-1]] != "")
                blocks.append(Fenced(line, 0, "python", "", "\n".join(rows).strip("\n"), first, end))
        return blocks
    lines = text.splitlines()
    blocks = []
    for start, end in fences(lines, name).items():
        opening = FENCE.match(lines[start])
        indent = len(opening["indent"])
        body = "\n".join(line[indent:] for line in lines[start + 1:end])
        above = lines[start - 1] if start else ""
        blocks.append(Fenced(start + 1, indent, opening["info"].strip(), marker_of(above), body,
                             start + 1, end, opening["indent"]))
    return blocks


def code_tokens(code: str) -> tuple[list[tuple[str, str]], list[str]] | None:
    """Python code as its tokens without comments and blank lines, and its annotation
    markers (`# (1)!`) in order; None if it does not tokenize."""
    kept, annotations = [], []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code + "\n").readline):
            if token.type == tokenize.COMMENT:
                annotations += ANNOTATION.findall(token.string)
            elif token.type not in (tokenize.NL, tokenize.ENCODING):
                kept.append((tokenize.tok_name[token.type], token.string))
    except (tokenize.TokenError, SyntaxError):
        return None
    return kept, annotations


# Blocks of commands: a translation may translate their comments, as a Python block's.
SHELLS = {"console", "shell", "sh", "bash"}
SHELL_COMMENT = re.compile(r"(?:^|\s+)#.*$", re.MULTILINE)


def shell_lines(body: str) -> list[str]:
    """The commands of a block, without the comments after them or on lines of their own."""
    return SHELL_COMMENT.sub("", body).splitlines()


def without_comments(block: Fenced) -> list[str]:
    """Each line of a block without its comment: a Python block's (if it tokenizes) or a block of
    commands'; the lines of any other block whole."""
    lines = block.body.split("\n")
    if block.info in SHELLS:
        return [SHELL_COMMENT.sub("", line) for line in lines]
    if block.info != "python":
        return lines
    kept = list(lines)
    try:
        for token in tokenize.generate_tokens(io.StringIO(block.body + "\n").readline):
            if token.type == tokenize.COMMENT:
                row, column = token.start
                kept[row - 1] = lines[row - 1][:column].rstrip()
    except (tokenize.TokenError, SyntaxError):
        return lines
    return kept


def comments(block: Fenced) -> list[str]:
    """A block's comments, in order (what a translation translates in it)."""
    return [line[len(code):] for line, code in zip(block.body.split("\n"), without_comments(block))
            if line != code]


def placed_otherwise(english: Fenced, translated: Fenced) -> str | None:
    """Which of a block's info, marker and nesting differs from the English block's: a block
    that is not the English one's pair, which no sync can mend."""
    return next((what for what in ("info", "marker", "indent") if getattr(english, what) != getattr(translated, what)),
                None)


def block_difference(english: Fenced, translated: Fenced) -> str | None:
    """Why a translated block is not the English one, or None if it is."""
    if what := placed_otherwise(english, translated):
        return f"its {what} is {getattr(translated, what)!r}, the English block's {getattr(english, what)!r}"
    if english.info == "python":
        ours, theirs = code_tokens(english.body), code_tokens(translated.body)
        if ours is not None and theirs is not None:
            if ours[0] != theirs[0]:
                at = next((i for i, (a, b) in enumerate(zip(ours[0], theirs[0])) if a != b),
                          min(len(ours[0]), len(theirs[0])))
                got = theirs[0][at][1] if at < len(theirs[0]) else "the end"
                want = ours[0][at][1] if at < len(ours[0]) else "the end"
                return f"its code differs at token {at + 1}: {got!r} where English has {want!r}"
            if ours[1] != theirs[1]:
                return f"its annotation markers are {theirs[1]}, the English block's {ours[1]}"
            return None
    if english.info in SHELLS and shell_lines(english.body) == shell_lines(translated.body):
        return None  # the same commands, their comments translated
    if english.body != translated.body:
        line = next((i for i, (a, b) in enumerate(zip(english.body.splitlines(), translated.body.splitlines()))
                     if a != b), None)
        return f"it differs from the English block (at its line {line + 1 if line is not None else 'count'})"
    return None


def identity_errors(english: str, translated: str, name: str) -> list[str]:
    """Where a translated page's code blocks and outputs are not the English page's."""
    ours, theirs = fenced_blocks(english, name), fenced_blocks(translated, name)
    errors = [f"{name}:{block.line}: block {i + 1} ({block.info or 'no language'}): {why}"
              for i, (english_block, block) in enumerate(zip(ours, theirs))
              if (why := block_difference(english_block, block))]
    if len(ours) != len(theirs):
        errors.append(f"{name}: {len(theirs)} fenced blocks, the English page has {len(ours)}")
    return errors


def carried(english: Fenced, translated: Fenced) -> list[str]:
    """The English block's lines, each keeping the translated comment of the line it replaces: where
    a line's code is the translated block's, the translated line; where a line was changed (one
    for one) and both have a comment, the English code with the translated comment; where lines
    changed unevenly, the translated comment lines there in place of the English ones."""
    ours, theirs = english.body.split("\n"), translated.body.split("\n")
    our_code, their_code = without_comments(english), without_comments(translated)
    lines = []
    matcher = difflib.SequenceMatcher(None, our_code, their_code, autojunk=False)
    for kind, first, end, their_first, their_end in matcher.get_opcodes():
        if kind == "equal":
            lines += theirs[their_first:their_end]
            continue
        our_lines = list(zip(ours[first:end], our_code[first:end]))
        their_lines = list(zip(theirs[their_first:their_end], their_code[their_first:their_end]))
        # The translator's comment lines there come first, in place of the English ones.
        own = [line for line, code in their_lines if line.strip() and not code.strip()]
        our_lines = [(line, code) for line, code in our_lines if not own or code.strip() or not line.strip()]
        their_lines = [(line, code) for line, code in their_lines if code.strip() or not line.strip()]
        lines += own
        if len(our_lines) == len(their_lines):  # changed one for one: keep each line's comment
            lines += [code + their[len(bare):] if line != code and their != bare and code.strip()
                      else line for (line, code), (their, bare) in zip(our_lines, their_lines)]
        else:
            lines += [line for line, _ in our_lines]
    # A comment cannot change code; if a merge ever did (a `#` inside a string), English whole.
    return lines if block_difference(english, replace(translated, body="\n".join(lines))) is None else ours


def synced(english: str, translated: str, name: str) -> tuple[str, list[str]]:
    """The translated page with the English page's code and outputs carried into its blocks, paired
    by position, and which blocks changed. A ValueError if the blocks do not pair up."""
    ours, theirs = fenced_blocks(english, name), fenced_blocks(translated, name)
    for number, (english_block, block) in enumerate(zip(ours, theirs), 1):
        if what := placed_otherwise(english_block, block):
            raise ValueError(
                f"{name}:{block.line}: block {number}'s {what} is {getattr(block, what)!r}, the English "
                f"block {number}'s (its line {english_block.line}) {getattr(english_block, what)!r}: add, "
                "remove or move the translation's blocks as the English page did, then sync")
    if len(ours) != len(theirs):
        raise ValueError(f"{name}: {len(theirs)} fenced blocks, the English page has {len(ours)}: add or "
                         "remove the translation's blocks as the English page did, then sync")
    lines, changed = translated.splitlines(keepends=True), []
    for number, english_block, block in reversed([(n, e, b) for n, (e, b) in enumerate(zip(ours, theirs), 1)]):
        if block_difference(english_block, block) is not None:  # from the last: lines keep their places
            body = carried(english_block, block)
            lines[block.first:block.end] = [block.prefix + line + "\n" if line else block.prefix.rstrip() + "\n"
                                            for line in body]
            changed.insert(0, f"block {number} ({block.info or 'no language'}, line {block.line})")
    text = "".join(lines)
    return (text if translated.endswith("\n") or not text.endswith("\n") else text[:-1]), changed


def prose(text: str, name: str = "page.md") -> str:
    """A page's running text: no front matter, code, formulas, links' targets or markup; a
    lab's markdown cells.

    Lines keep their places (each removed part becomes spaces or its newlines), so that an
    offset in the prose is an offset in the page.
    """
    blank = lambda match: re.sub(r"[^\n]", " ", match[0])  # noqa: E731
    if is_lab(name):  # its markdown cells, each line in its place
        lines = [""] * len(text.splitlines())
        for line, markdown, rows in lab_cells(text):
            if markdown:
                lines[line:line + len(rows)] = rows
        text = "\n".join(lines) + "\n"
    text = FRONT_MATTER.sub(blank, text)
    lines = text.splitlines(keepends=True)
    for start, end in fences([line.rstrip("\n") for line in lines], "page").items():
        for i in range(start, end + 1):
            lines[i] = "\n"
    text = FIGURE_COMMENT.sub(lambda match: " " * len(match[1]) + match[2] + " " * len(match[3]), "".join(lines))
    return NOT_PROSE.sub(blank, text)


@dataclass
class Term:
    english: str
    use: str  # how the language writes it
    avoid: list[str]  # other renderings seen or likely, which its pages must not use
    note: str | None = None  # why, in the language: the glossary page shows it


def glossary(language: str, root: Path = ROOT) -> list[Term]:
    """A language's glossary (docs/<code>/glossary.yml)."""
    entries = yaml.safe_load((docs_dir(language, root) / "glossary.yml").read_text(encoding="utf-8"))
    return [Term(entry["en"], entry["use"], list(entry.get("not") or []), entry.get("note"))
            for entry in entries["terms"]]


def kept_names(language: str, root: Path = ROOT) -> list[str]:
    """Names a language writes as English does, which are no terms of its glossary: models,
    libraries, units (docs/<code>/glossary.yml's `names`)."""
    entries = yaml.safe_load((docs_dir(language, root) / "glossary.yml").read_text(encoding="utf-8"))
    return [str(name) for name in entries.get("names") or []]


def synonyms(language: str, root: Path = ROOT) -> dict[str, str]:
    """The language's own words for the terms it keeps in English (มาสก์, แคช; truy vấn), which
    its pages never write: what a reader may type instead, and the term to search."""
    return {spelling: term.use for term in glossary(language, root) if term.use == term.english
            for spelling in term.avoid if not spelling.isascii()}


def occurrences(form: str, text: str) -> list[tuple[int, int]]:
    """Where a form of a term occurs: Latin words whole (any case, plural -s too), any
    other script wherever its letters are (Thai writes no spaces between words); the words of
    a form of several may stand on two lines."""
    # Its words as one line of prose writes them or two: spaces, and one line break at most.
    words = r"(?=\s)[^\S\n]*\n?[^\S\n]*".join(map(re.escape, form.split()))
    if LATIN.search(form):
        pattern = rf"(?<![\w-]){words}(?:s|es)?(?![\w-])"
        return [match.span() for match in re.finditer(pattern, text, re.IGNORECASE)]
    return [match.span() for match in re.finditer(words, text)]


def glossary_errors(terms: list[Term], text: str, name: str) -> list[str]:
    """Each place where a term is rendered otherwise than the glossary's way.

    The first use of a term on a page may give both forms, one in brackets after the other:
    "เวกเตอร์บริบท (context vector)".
    """
    errors = []
    for term in terms:
        found = sorted([(*span, form, form == term.use)
                        for form in [term.use, *term.avoid] for span in occurrences(form, text)])
        # Where forms overlap (a rendering that holds another), keep the longest.
        found = [f for f in found if not any(o is not f and o[0] <= f[0] and f[1] <= o[1]
                                              and (o[1] - o[0]) > (f[1] - f[0]) for o in found)]
        if not any(not used for *_, used in found):
            continue
        first, both = found[0], set()
        for other in found[1:2]:
            between = text[first[1]:other[0]]
            if first[3] != other[3] and re.fullmatch(r"\s*\(\s*", between) \
                    and re.match(r"\s*\)", text[other[1]:]):
                both = {first[0], other[0]}
        for start, _, form, used in found:
            if not used and start not in both:
                line = text.count("\n", 0, start) + 1
                errors.append(f"{name}:{line}: {form!r} for {term.english!r}: "
                              f"this language writes {term.use!r}")
    return errors


def glossary_errors_of_page(language: str, page: str, root: Path = ROOT) -> list[str]:
    text = (docs_dir(language, root) / page).read_text(encoding="utf-8")
    return glossary_errors(glossary(language, root), prose(text, page), f"docs/{language}/{page}")


# Languages written without spaces between words. Material's search splits the index's text at
# its separator only, so that a Thai run of words would be one term, found from its first
# letters only. The Thai site's index gets a zero-width space (which the separator splits at,
# and a preview does not show) between the words that PyThaiNLP finds (`segmented`); the search
# worker cuts a reader's query into the same words (docs/assets/javascripts/workers/).
SEGMENTED = {"th"}
THAI_RUN = re.compile(r"[\u0e00-\u0e7f]+")
WORD_BREAK = "\u200b"


def segmented(text: str, language: str) -> str:
    """Text with a zero-width space between the words of each run of Thai letters."""
    if language != "th":
        return text
    from pythainlp.tokenize import word_tokenize

    return THAI_RUN.sub(lambda run: WORD_BREAK.join(word_tokenize(run[0], engine="newmm")), text)


def page_problem(command: str, page: str, root: Path = ROOT) -> str | None:
    """What is wrong with `<command> <page>`'s page, as <language>/<page> under docs/, or None."""
    codes = languages(root)
    language, _, english = page.partition("/")
    if language not in codes or not english:
        return (f"{command} {page}: expected <language>/<page>, the language one of "
                f"{', '.join(codes)}, e.g. {codes[0]}/attention-without-weights.md")
    if not (root / "docs" / english).is_file():
        return f"{command} {page}: there is no English page docs/{english}"
    if not (root / "docs" / page).is_file():
        return f"{command} {page}: docs/{page} is not translated yet"
    return None


def sync(targets: list[str], root: Path = ROOT) -> int:
    """Carry the English pages' code and outputs into the translated pages named (all if none);
    if any cannot be (a problem printed for each), change none."""
    targets = targets or [f"{language}/{page}" for language in languages(root) for page in pages(language, root)]
    problems = [problem for page in targets if (problem := page_problem("sync", page, root))]
    done = {}
    for page in targets if not problems else []:
        english = page.partition("/")[2]
        try:
            done[page] = synced(*((root / "docs" / path).read_text(encoding="utf-8") for path in (english, page)),
                                f"docs/{page}")
        except ValueError as error:
            problems.append(str(error))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    for page, (text, changed) in done.items():
        if changed:
            (root / "docs" / page).write_text(text, encoding="utf-8")
            print(f"{page}: carried {', '.join(changed)}")
        language, _, english = page.partition("/")
        if recorded_hash(text, english) != english_hash(english, root):
            print(f"{page}: its English page's words or comments changed too: translate them, then "
                  f"python tools/i18n.py stamp {page}")
    print(f"{sum(bool(changed) for _, changed in done.values())} of {len(done)} translated pages changed")
    return 0


def main(argv: list[str], root: Path = ROOT) -> int:
    if argv[:1] == ["status"] and len(argv) == 1:
        english = english_pages(root)
        for language in languages(root):
            done, old = pages(language, root), stale(language, root)
            print(f"{language}: {len(done)} of {len(english)} pages translated, {len(old)} stale")
            for page in english:
                state = "missing" if page not in done else "stale" if page in old else "up to date"
                print(f"  {page}: {state}")
        return 0
    if argv[:1] == ["stamp"] and len(argv) >= 2:
        problems = [problem for page in argv[1:] if (problem := page_problem("stamp", page, root))]
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 2
        for page in argv[1:]:
            print(f"{page}: {HASH_KEY}: {stamp(root / 'docs' / page, root)}")
        return 0
    if argv[:1] == ["sync"]:
        return sync(argv[1:], root)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
