"""Every chapter and lab can be downloaded as a notebook; each chapter's runs top to bottom."""

import contextlib
import io
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted(p.stem for p in (ROOT / "docs").glob("*.md") if p.stem != "index")
LABS = sorted(p.stem for p in (ROOT / "docs" / "labs").glob("*.py"))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_notebook_runs_top_to_bottom_and_prints_the_page(site, chapter):
    notebook = nbformat.read(site / chapter / f"{chapter}.ipynb", as_version=4)
    nbformat.validate(notebook)
    namespace = {"__name__": "__main__"}  # one namespace, as in a Jupyter kernel
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "no code cell"
    for number, cell in enumerate(code, start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(cell.source, f"{chapter}.ipynb cell {number}", "exec"), namespace)
        expected = "".join(output.text for output in cell.outputs)
        assert printed.getvalue() == expected, f"code cell {number} printed something else"


@pytest.mark.parametrize("lab", LABS)
def test_lab_notebook_holds_the_labs_cells(site, lab):
    notebook = nbformat.read(site / "labs" / lab / f"{lab}.ipynb", as_version=4)
    nbformat.validate(notebook)
    source = jupytext.read(ROOT / "docs" / "labs" / f"{lab}.py")
    assert [c.source for c in notebook.cells] == [c.source for c in source.cells]
    assert notebook.metadata["kernelspec"]["name"] == "python3"


def test_chapter_notebook_keeps_prose_and_drops_markers(site):
    notebook = nbformat.read(site / "causal-attention" / "causal-attention.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert "*The next cell is the source of `attnlit/causal.py`.*" in text
    assert "<!--" not in text and "!!! " not in text and "??? " not in text
    assert "**Pitfall: zeros instead of $-\\infty$**" in text
