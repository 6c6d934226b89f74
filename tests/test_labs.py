"""The labs run once for every language (tools/labs.py): each language's notebook, its own cells
with the English run's outputs, which mkdocs-jupyter renders without running it again."""

import nbformat
import pytest

import labs

ENGLISH = """# %% [markdown]
# # Lab: a count

# %%
import pathlib  # a comment in English
runs = pathlib.Path(RUNS)
runs.write_text(runs.read_text() + "x" if runs.exists() else "x")
print(6 * 7)
"""
THAI = """# ---
# jupyter:
#   translated_from: "0123456789ab"
# ---

# %% [markdown]
# # แล็บ: การนับ

# %%
import pathlib  # ความเห็นภาษาไทย
runs = pathlib.Path(RUNS)
runs.write_text(runs.read_text() + "x" if runs.exists() else "x")
print(6 * 7)
"""


@pytest.fixture
def lab_pair(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNLIT_CACHE", str(tmp_path / "cache"))
    runs = repr(str(tmp_path / "runs"))
    (tmp_path / "en").mkdir()
    (tmp_path / "th").mkdir()
    english, thai = tmp_path / "en" / "count.py", tmp_path / "th" / "count.py"
    english.write_text(ENGLISH.replace("RUNS", runs), encoding="utf-8")
    thai.write_text(THAI.replace("RUNS", runs), encoding="utf-8")
    return english, thai, tmp_path / "runs"


def test_a_lab_runs_once_and_each_language_shows_its_own_words_with_its_outputs(lab_pair):
    english, thai, runs = lab_pair
    shown = {name: nbformat.read(labs.rendered(lab, english), as_version=4) for name, lab in
             [("en", english), ("th", thai), ("en again", english)]}
    assert runs.read_text() == "x"  # one kernel, for both languages and both builds
    for name, notebook in shown.items():
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        assert [output.text for output in code[0].outputs] == ["42\n"], name
        assert [cell.id for cell in notebook.cells] == ["cell-1", "cell-2"]  # the same page each time
    assert shown["th"].cells[0].source == "# แล็บ: การนับ"
    assert "ความเห็นภาษาไทย" in shown["th"].cells[1].source
    assert labs.rendered(thai, english).parent.name == "labs"  # where mkdocs.yml looks


def test_a_translated_lab_whose_code_differs_is_refused(lab_pair, monkeypatch):
    english, thai, _ = lab_pair
    monkeypatch.setattr(labs, "run", lambda path: nbformat.writes(labs.numbered(labs.jupytext.read(path))))
    thai.write_text(thai.read_text(encoding="utf-8").replace("6 * 7", "7 * 6"), encoding="utf-8")
    with pytest.raises(ValueError, match="its code differs from"):
        labs.rendered(thai, english)
