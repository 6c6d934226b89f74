"""Turn a chapter (Markdown) or a lab (a jupytext percent script) into a Jupyter notebook.

Code blocks become code cells, their asserted outputs become the cells' outputs, and the
prose becomes markdown cells. Markers, invisible on the page, are dropped; Material's
admonition and tab headers become bold lines, and their indented content is dedented.
"""

import re
from pathlib import Path

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tangle import FENCE, FIGURE, MARKER, OUTPUT, fences

COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
# `!!! type "Title"`, `??? type`, `???+ type inline end`, `=== "Tab"`; no title: the type's.
# A bare `!!!` or a setext heading's `===` is text, as Material shows it.
BOX = re.compile(r'^(?P<indent>\s*)(?:(?:!!!|\?\?\?\+?)[ \t]+(?P<type>[\w-]+)(?:[ \t]+[\w-]+)*'
                 r'(?:[ \t]+"(?P<title>.*)")?|===[ \t]+"(?P<tab>.*)")[ \t]*$')
# YAML front matter, as MkDocs reads it: settings for the site (a page's search boost).
FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n.*?\n(?:-{3}|\.{3})[ \t]*\n", re.DOTALL)
KERNEL = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
          "language_info": {"name": "python"}}


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip())


def chapter_notebook(markdown: str, name: str) -> nbformat.NotebookNode:
    """The chapter as a notebook whose code cells run top to bottom."""
    # Front matter becomes blank lines: the reader does not need it, and lines keep their numbers.
    lines = FRONT_MATTER.sub(lambda match: "\n" * match[0].count("\n"), markdown).splitlines()
    spans = fences(lines, name)
    cells, text, figure = [], [], False
    boxes: list[int] = []  # indentation of each open admonition or tab, innermost last

    def dedent(line: str) -> str:
        """Without the open boxes' indentation, which Jupyter would read as code."""
        cut = 4 * len(boxes)
        return line[cut:] if not line[:cut].strip() else line.lstrip()

    def flush() -> None:
        body = "\n".join(text).strip("\n")
        if body.strip():
            cells.append(new_markdown_cell(body))
        text.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        while boxes and line.strip() and indent_of(line) <= boxes[-1]:
            boxes.pop()  # the line is outside the innermost box
        if i in spans:
            opening, end = FENCE.match(line), spans[i]
            code = "\n".join(row[len(opening["indent"]):] for row in lines[i + 1:end])
            previous = next((row.strip() for row in reversed(lines[:i]) if row.strip()), "")
            if opening["fence"] == "```" and opening["info"] == "python":
                flush()
                cells.append(new_code_cell(code + ("\nfig" if figure else "")))
                figure = False
            elif previous == OUTPUT and cells and cells[-1].cell_type == "code":
                cells[-1].outputs = [new_output("stream", name="stdout", text=code + "\n")]
            else:
                text.extend(dedent(row) for row in lines[i:end + 1])
            i = end + 1
            continue
        marker, caption, box = MARKER.match(line), FIGURE.match(line), BOX.match(line)
        if marker:
            text.append(f"*The next cell is the source of `{marker['module']}`.*")
        elif caption:
            text.append(f"*Figure: {caption['caption']}*")
            figure = True
        elif box:
            title = next((box[key] for key in ("title", "tab") if box[key] is not None), None)
            title = box["type"].capitalize() if title is None else title
            if title:  # `!!! note ""` has no title
                text.append(f"**{title}**")
            boxes.append(indent_of(line))
        elif not COMMENT.match(line):
            text.append(dedent(line))
        i += 1
    flush()
    return numbered(new_notebook(cells=cells, metadata=KERNEL))


def lab_notebook(path: Path) -> nbformat.NotebookNode:
    """A lab's percent script as a notebook."""
    notebook = jupytext.read(path)
    notebook.metadata = KERNEL
    return numbered(notebook)


def numbered(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Cell ids by position, not random: the same page always gives the same file."""
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{number}"
    return notebook
