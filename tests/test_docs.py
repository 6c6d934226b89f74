"""House rules for the chapters that no other test checks."""

from pathlib import Path

import jupytext

import tangle

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80  # wider code lines scroll sideways in Material's content column


def test_code_lines_fit_the_page():
    too_wide = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for start, end in tangle.fences(lines, path.name).items():
            indent = len(lines[start]) - len(lines[start].lstrip())
            too_wide += [
                f"{path.relative_to(ROOT)}:{i + 1}: {len(line) - indent} characters"
                for i, line in enumerate(lines[start + 1:end], start=start + 1)
                if len(line) - indent > WIDTH
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
