"""Run code as a reader runs it: each job alone, in a new process, in an empty folder.

A fresh interpreter spends about 1.3 s importing torch, and the site has over a hundred
blocks. So one parent interpreter, started with a plain `python -c` (the path a reader's
interpreter has: site-packages and an installed attnlit, never this repository), imports torch
and nothing else, then forks one child per job. Each child starts from that state, as a new
interpreter would after `import torch`, changes into an empty folder of its own outside the
repository, runs the job's cells in one fresh namespace and reports what each cell printed.
Nothing one job does (imports of attnlit, the random state, files) can reach another.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest_codeblocks

import notebooks
import tangle

PARENT = r'''
import io, json, os, shutil, sys, tempfile, traceback
import torch  # what every job imports first; the fork saves it the 1.3 s

jobs, parallel = json.loads(sys.stdin.read()), int(sys.argv[1])
scratch, running = tempfile.mkdtemp(prefix="attnlit-alone-"), {}


def run(job, result):
    os.chdir(tempfile.mkdtemp(dir=scratch))  # empty, outside the repository
    namespace, printed, error = {"__name__": "__main__"}, [], None
    for number, cell in enumerate(job["cells"]):
        sys.stdout = io.StringIO()
        try:
            exec(compile(cell, f"{job['name']} cell {number + 1}", "exec"), namespace)
        except BaseException:
            error = traceback.format_exc()
        printed.append(sys.stdout.getvalue())
        if error:
            break
    with open(result, "w") as file:
        json.dump({"printed": printed, "error": error}, file)


def reap():
    pid, status = os.wait()
    number, result = running.pop(pid)
    try:
        with open(result) as file:
            results[number] = json.load(file)
    except (OSError, ValueError):
        results[number] = {"printed": [], "error": f"the process died (wait status {status})"}


results = [None] * len(jobs)
for number, job in enumerate(jobs):
    while len(running) >= parallel:
        reap()
    result = os.path.join(scratch, f"{number}.json")
    pid = os.fork()
    if pid == 0:
        try:
            run(job, result)
        finally:
            os._exit(0)
    running[pid] = (number, result)
while running:
    reap()
shutil.rmtree(scratch, ignore_errors=True)
sys.__stdout__.write(json.dumps(results))
'''


@dataclass
class Job:
    name: str
    cells: list[str]


class Runner:
    """Start a parent interpreter on the jobs now; collect what they printed later."""

    def __init__(self, jobs: list[Job], parallel: int = os.cpu_count() or 1):
        self.process = subprocess.Popen(
            [sys.executable, "-c", PARENT, str(parallel)], cwd=tempfile.gettempdir(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )
        payload = json.dumps([{"name": job.name, "cells": job.cells} for job in jobs])
        self.output: tuple[str, str] | None = None
        # The parent reads its jobs after importing torch: write from a thread, so that a
        # payload bigger than the pipe never blocks the caller.
        self.thread = threading.Thread(target=self.communicate, args=(payload,), daemon=True)
        self.thread.start()

    def communicate(self, payload: str) -> None:
        self.output = self.process.communicate(payload)

    def results(self, timeout: float = 600) -> list[dict]:
        """Each job's {"printed": [stdout of each cell], "error": traceback or None}."""
        self.thread.join(timeout)
        if self.output is None:
            self.stop()
            raise RuntimeError(f"the jobs did not finish within {timeout:g} s")
        out, err = self.output
        if self.process.returncode != 0:
            raise RuntimeError(f"the parent interpreter failed ({self.process.returncode}):\n{err}")
        return json.loads(out)

    def stop(self) -> None:
        """Stop the parent and every job it still runs."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()


def block_jobs(root: Path) -> dict[str, tuple[Job, str | None]]:
    """Every ```python block of docs/ and README.md, as pytest-codeblocks reads them.

    Maps "path:line" to (a one-cell job, the asserted output or None).
    """
    pages = sorted((root / "docs").rglob("*.md")) + [root / "README.md"]
    jobs = {}
    for page in pages:
        for block in pytest_codeblocks.extract_from_file(page):
            if block.syntax == "python":
                name = f"{page.relative_to(root).as_posix()}:{block.lineno}"
                jobs[name] = (Job(name, [block.code]), block.expected_output)
    return jobs


def notebook_jobs(root: Path) -> dict[str, tuple[Job, list[str] | None]]:
    """Every page's notebook download, as the site writes it (tools/notebooks.py).

    Maps the page's path to (a job of its code cells, the outputs they must print, or None
    for a lab, whose outputs are made when the site is built).
    """
    jobs = {}
    for page in tangle.nav_pages(root):
        path = root / page
        if path.name == "index.md":
            continue
        if path.suffix == ".py":
            notebook, expected = notebooks.lab_notebook(path), None
        else:
            notebook = notebooks.chapter_notebook(path.read_text(encoding="utf-8"), page)
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        if path.suffix == ".md":
            expected = ["".join(output.text for output in cell.outputs) for cell in code]
        jobs[page] = (Job(page, [cell.source for cell in code]), expected)
    return jobs
