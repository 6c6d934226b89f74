"""Every chapter and lab can be downloaded as a notebook, and each runs top to bottom alone."""

import re
from pathlib import Path

import nbformat
import pytest
import pytest_codeblocks

import i18n
import notebooks
import site_config

ROOT = Path(__file__).resolve().parent.parent
PAGES = [page for page in site_config.nav_pages(ROOT) if not page.endswith("index.md")]
CHAPTERS = [page for page in PAGES if page.endswith(".md")]
LABS = [page for page in PAGES if page.endswith(".py")]
# A translated lab downloads as its own notebook: its language's words, the English code.
TRANSLATED_LABS = [f"docs/{language}/{page}" for language in i18n.languages(ROOT)
                   for page in i18n.pages(language, ROOT) if i18n.is_lab(page)]


def downloaded(site: Path, page: str) -> nbformat.NotebookNode:
    """The notebook that the page's download button fetches."""
    stem = Path(page).with_suffix("").relative_to("docs")
    notebook = nbformat.read(site / stem / f"{stem.name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    return notebook


def lines(code: str) -> list[str]:
    """The code's non-blank lines."""
    return [line for line in code.splitlines() if line.strip()]


def code_cells(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


@pytest.mark.parametrize("page", CHAPTERS)
def test_chapter_notebook_holds_the_pages_blocks_and_outputs(site, page):
    """Read independently: the blocks pytest-codeblocks finds are the notebook's code cells."""
    blocks = [b for b in pytest_codeblocks.extract_from_file(ROOT / page) if b.syntax == "python"]
    cells = code_cells(downloaded(site, page))
    # pytest-codeblocks 0.18 drops blank lines from indented blocks (admonitions, tabs).
    assert [lines(cell.source.removesuffix("\nfig")) for cell in cells] == [lines(b.code) for b in blocks]
    assert ["".join(o.text for o in cell.outputs) for cell in cells] == [b.expected_output or "" for b in blocks]


@pytest.mark.parametrize("page", LABS + TRANSLATED_LABS)
def test_lab_notebook_holds_the_labs_cells(site, page):
    """Read independently: the script's `# %%` cells, markdown ones without their `# `."""
    chunks = re.split(r"^# %%(.*)\n", (ROOT / page).read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]
    expected = []
    for header, body in zip(chunks[::2], chunks[1::2]):
        if "[markdown]" in header:
            expected.append(("markdown", re.sub(r"^# ?", "", body.strip(), flags=re.MULTILINE)))
        else:
            expected.append(("code", body.strip()))
    notebook = downloaded(site, page)
    assert [(cell.cell_type, cell.source) for cell in notebook.cells] == expected
    assert notebook.metadata["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("page", PAGES)
def test_notebook_runs_top_to_bottom_alone_and_prints_the_page(ran_alone, page):
    """In one namespace, as a kernel runs it, in an empty folder outside the repository."""
    result = ran_alone.result(page)
    assert result["error"] is None, f"{page}'s notebook failed:\n{result['error']}"
    if page in CHAPTERS:
        expected = ["".join(o.text for o in cell.outputs) for cell in code_cells(chapter(page))]
        assert result["printed"] == expected


def chapter(page: str) -> nbformat.NotebookNode:
    return notebooks.chapter_notebook((ROOT / page).read_text(encoding="utf-8"), page)


def test_chapter_notebook_keeps_prose_and_drops_markers(site):
    notebook = downloaded(site, "docs/causal-attention.md")
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert "*The next cell is the source of `attnlit/causal.py`.*" in text
    assert "<!--" not in text and "!!! " not in text and "??? " not in text
    assert "**Pitfall: zeros instead of $-\\infty$**" in text


@pytest.mark.parametrize("header, title", [
    ('!!! note "A title"', "**A title**"),
    ("!!! note", "**Note**"),
    ("??? tip", "**Tip**"),
    ("???+ warning inline end", "**Warning**"),
    ('!!! note ""', None),
    ('=== "Tab"', "**Tab**"),
])
def test_admonition_headers_become_bold_titles(header, title):
    notebook = notebooks.chapter_notebook(f"Before.\n\n{header}\n\n    Inside.\n", "page.md")
    text = re.sub(r"\n{3,}", "\n\n", notebook.cells[0].source)  # blank lines are blank lines
    assert text == "\n\n".join(part for part in ("Before.", title, "Inside.") if part)


@pytest.mark.parametrize("markdown", [
    "Heading\n===\n\nText.\n",          # a setext heading, not a content tab
    "Heading\n=====\n\nText.\n",
    "!!!\n\nText.\n",                    # no type: Material shows it as text
    "Shout !!! here.\n",
])
def test_lines_that_only_look_like_boxes_stay_as_written(markdown):
    notebook = notebooks.chapter_notebook(markdown, "page.md")
    assert [cell.source for cell in notebook.cells] == [markdown.strip("\n")]


def test_list_continuations_keep_their_indentation():
    """Outside a box, four spaces continue a list item; inside one, they are the box's."""
    markdown = ("1. First step.\n\n    Still the first step.\n\n"
                '!!! note "Box"\n\n    - An item.\n\n        Its second paragraph.\n\nAfter.\n')
    notebook = notebooks.chapter_notebook(markdown, "page.md")
    assert notebook.cells[0].source == (
        "1. First step.\n\n    Still the first step.\n\n"
        "**Box**\n\n- An item.\n\n    Its second paragraph.\n\nAfter.")


def test_front_matter_stays_out_of_the_notebook():
    """It is for MkDocs (a page's search boost), not for the reader."""
    notebook = notebooks.chapter_notebook("---\nsearch:\n  boost: 2\n---\n\n# A title\n", "page.md")
    assert [cell.source for cell in notebook.cells] == ["# A title"]
