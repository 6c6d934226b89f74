"""House rules for the chapters that no other test checks."""

import re
import unicodedata
from pathlib import Path

import jupytext

import notebooks
import site_config
import tangle

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80  # wider code lines scroll sideways in Material's content column


def columns(text: str) -> int:
    """How many columns a line takes in a monospaced font: a Thai vowel or tone mark takes
    none (it sits on its letter), nor does a zero-width space."""
    return sum(0 if unicodedata.category(c) in ("Mn", "Me", "Cf") else 1 for c in text)


def test_code_lines_fit_the_page():
    too_wide = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for start, end in tangle.fences(lines, path.name).items():
            indent = len(lines[start]) - len(lines[start].lstrip())
            too_wide += [
                f"{path.relative_to(ROOT)}:{i + 1}: {columns(line[indent:])} columns"
                for i, line in enumerate(lines[start + 1:end], start=start + 1)
                if columns(line[indent:]) > WIDTH
            ]
    assert not too_wide, "\n".join(too_wide)


def test_lab_code_fits_the_page():
    too_wide = [
        f"{path.relative_to(ROOT)}: {line!r}"
        for path in sorted((ROOT / "docs" / "labs").glob("*.py"))
        for cell in jupytext.read(path).cells if cell.cell_type == "code"
        for line in cell.source.splitlines() if len(line) > WIDTH
    ]
    assert not too_wide, "\n".join(too_wide)


def test_headings_hold_no_tex():
    """Headings feed the table of contents, which MkDocs renders without the MathML hook."""
    with_tex = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        inside = {i for start, end in tangle.fences(lines, path.name).items()
                  for i in range(start, end + 1)}
        with_tex += [f"{path.relative_to(ROOT)}:{i + 1}: {line}"
                     for i, line in enumerate(lines)
                     if i not in inside and line.startswith("#") and "$" in line]
    assert not with_tex, "\n".join(with_tex)


def nav_labels(item=None) -> list[tuple[str, str]]:
    """(label, page) of every page mkdocs.yml's nav names, in order."""
    item = site_config.read_config(ROOT)["nav"] if item is None else item
    if isinstance(item, list):
        return [pair for value in item for pair in nav_labels(value)]
    return [pair for label, value in item.items()
            for pair in ([(label, value)] if isinstance(value, str) else nav_labels(value))]


def title(page: str) -> str:
    """A chapter's title: its first heading, as the page shows it."""
    text = notebooks.FRONT_MATTER.sub("", (ROOT / "docs" / page).read_text(encoding="utf-8"))
    heading = next(line for line in text.splitlines() if line.startswith("# "))
    return heading.removeprefix("# ").replace("`", "")


def test_the_nav_names_each_page_by_its_title():
    """The home page is "Home"; the labs' notebooks sit under "Labs" without the word."""
    pages = [(label, page) for label, page in nav_labels() if page.endswith(".md") and page != "index.md"]
    assert len(pages) >= 15
    assert [label for label, _ in pages] == [title(page) for _, page in pages]


def test_the_home_page_names_each_chapter_by_its_title():
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    links = re.findall(r"\[(\d+b?\. [^]]+)\]\(([\w-]+\.md)\)", home)
    assert len(links) >= 14
    assert [text for text, _ in links] == [title(page) for _, page in links]
