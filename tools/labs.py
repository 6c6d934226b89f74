"""The labs run once for every language: the notebook that mkdocs-jupyter renders for a lab.

A lab is a jupytext percent script (docs/labs/*.py); a translation's (docs/<lang>/labs/*.py) has
its English lab's code, token for token, with its own prose and comments (tools/i18n.py proves
it). So the English lab runs once, in a kernel (nbclient, as mkdocs-jupyter would run it), its
outputs kept in the cache under its code's tokens; each language's notebook is its own cells with
those outputs, cell by cell, written in the cache for mkdocs-jupyter to render without running
it again. The three sites build at once: the first builder to need a lab runs it, the others
wait for it (tools/cache_key.py). Cells are numbered, not given random ids: the same lab always
renders the same page.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import jupytext
import nbformat

import i18n
from cache_key import cache, once
from notebooks import KERNEL, numbered

KIND = "labs"  # the cache's folder


def code_of(notebook: nbformat.NotebookNode) -> list:
    """The code cells' tokens, without comments: what the outputs depend on."""
    return [i18n.code_tokens(cell.source) or cell.source for cell in notebook.cells if cell.cell_type == "code"]


def run(path: Path) -> str:
    """The lab at path, run top to bottom in a fresh kernel, from the repository's root (where
    mkdocs-jupyter ran it): the executed notebook, as JSON."""
    from nbclient import NotebookClient

    notebook = numbered(jupytext.read(path))
    notebook.metadata.update(KERNEL)
    NotebookClient(notebook, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(i18n.ROOT)}}).execute()
    return nbformat.writes(notebook)


def executed(english: Path) -> nbformat.NotebookNode:
    """The English lab, run once for every language and build, keyed by its code."""
    key = hashlib.sha1(repr(code_of(jupytext.read(english))).encode()).hexdigest()
    return nbformat.reads(once(cache(KIND) / f"{key}.ipynb", lambda: run(english)).read_text(encoding="utf-8"),
                          as_version=4)


def rendered(lab: Path, english: Path) -> Path:
    """The notebook mkdocs-jupyter renders for the lab at `lab` (English or translated): its
    own cells, the English run's outputs."""
    notebook, ran = numbered(jupytext.read(lab)), executed(english)
    if code_of(notebook) != code_of(ran):
        raise ValueError(f"{lab}: its code differs from {english}'s, whose outputs it would show "
                         "(tools/i18n.py check says where)")
    code = iter(cell for cell in ran.cells if cell.cell_type == "code")
    for cell in notebook.cells:
        if cell.cell_type == "code":
            done = next(code)
            cell.outputs, cell.execution_count = done.outputs, done.execution_count
    notebook.metadata.update(ran.metadata)
    text = nbformat.writes(notebook)
    key = hashlib.sha1(text.encode()).hexdigest()[:16]
    # In a folder labs/, where mkdocs.yml has mkdocs-jupyter look for labs.
    return once(cache(KIND) / key / "labs" / f"{lab.stem}.ipynb", lambda: text)
