"""Run code as a reader runs it: each job alone, in a new process, in an empty folder.

A fresh interpreter spends about 1.3 s importing torch, and 0.4 s more importing matplotlib's
Figure, and the site has hundreds of blocks. So one parent interpreter, started with a plain
`python -c` (the path a reader's interpreter has: site-packages and an installed attnlit, never
this repository), imports these two and nothing else, then forks one child per job. Each child
starts from that state, as a new interpreter would after those imports, changes into an empty
folder of its own outside the repository, runs the job's cells in one fresh namespace and
reports what each cell printed. Nothing one job does (imports of attnlit, the random state,
files) can reach another. (What the head start cannot tell: a block that writes
`matplotlib.figure` after a bare `import matplotlib` would pass here; the blocks import what
they use by name, `from matplotlib.figure import Figure`.)

Where fork is missing (Windows) or unsafe once torch is imported (macOS), each job gets an
interpreter of its own instead: slower, and just as alone.

The interpreters start in the runner's own empty folder, so that nothing lying in the current
or temporary folder (a stray numpy.py) can shadow what the jobs import.

Warnings are errors in the children, as in the rest of the test suite: a warning in a block
is a bug on the page. Results stream back as the jobs finish.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest_codeblocks

import notebooks
import site_config

PARENT = r'''
import io, json, os, sys, tempfile, traceback, warnings
import torch  # what every job imports first; the fork saves it the 1.3 s
import matplotlib.backends.backend_svg, matplotlib.figure  # what figures import: 0.4 s more

jobs, parallel, scratch = json.loads(sys.stdin.read()), int(sys.argv[1]), sys.argv[3]
fork = sys.argv[4] == "fork"  # else: one job, run here
torch.set_num_threads(int(sys.argv[2]))  # before any parallel work, so that forks are safe
running = {}
report = sys.stdout


def run(job, result):
    os.chdir(tempfile.mkdtemp(dir=scratch))  # empty, outside the repository
    warnings.simplefilter("error")
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
    name, result = running.pop(pid)
    report_result(name, result, status)


def report_result(name, result, status):
    try:
        with open(result) as file:
            done = json.load(file)
    except (OSError, ValueError):
        done = {"printed": [], "error": f"the process died (wait status {status})"}
    report.write(json.dumps({"name": name, **done}) + "\n")
    report.flush()


for number, job in enumerate(jobs):
    if not fork:
        result = os.path.join(scratch, f"{number}.json")
        run(job, result)
        sys.stdout = report
        report_result(job["name"], result, 0)
        continue
    while len(running) >= parallel:
        reap()
    result = os.path.join(scratch, f"{number}.json")
    pid = os.fork()
    if pid == 0:
        try:
            run(job, result)
        finally:
            os._exit(0)
    running[pid] = (job["name"], result)
while running:
    reap()
'''


@dataclass
class Job:
    name: str
    cells: list[str]


# One parent forks a child per job where fork is safe after torch's import; elsewhere each
# job gets an interpreter of its own.
FORK = sys.platform == "linux"


def kill(process: subprocess.Popen) -> None:
    """Stop a process started in a session of its own, with everything it started."""
    if process.poll() is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)
            else:  # Windows
                process.kill()
        except ProcessLookupError:
            pass
    process.wait()


class Runner:
    """Start the jobs now, in the background; collect each job's result when it is done."""

    def __init__(self, jobs: list[Job], parallel: int = os.cpu_count() or 1, threads: int = 1,
                 tmp: str | None = None, fork: bool = FORK):
        """tmp: the temporary folder of the runner and its jobs (default: the system's)."""
        tmp = tmp or tempfile.gettempdir()
        self.errors = tempfile.TemporaryFile(mode="w+", dir=tmp)  # a file: a full pipe would block
        # The jobs' folders: made and removed here, since stop() kills the parents mid-way.
        self.scratch = tempfile.mkdtemp(prefix="attnlit-alone-", dir=tmp)
        self.done: dict[str, dict] = {}
        self.finished = threading.Condition()
        self.over = self.stopped = False
        self.processes: list[subprocess.Popen] = []
        command = [sys.executable, "-c", PARENT, str(parallel if fork else 1), str(threads),
                   self.scratch, "fork" if fork else "alone"]
        batches = [jobs] if fork else [[job] for job in jobs]
        self.driver = threading.Thread(target=self.drive, daemon=True,
                                       args=(command, dict(os.environ, TMPDIR=tmp), batches,
                                             1 if fork else parallel))
        self.driver.start()

    def drive(self, command: list[str], env: dict, batches: list[list[Job]], workers: int) -> None:
        with ThreadPoolExecutor(workers) as pool:
            for batch in batches:
                pool.submit(self.run, command, env, batch)
        with self.finished:
            self.over = True
            self.finished.notify_all()

    def run(self, command: list[str], env: dict, batch: list[Job]) -> None:
        """One parent interpreter on a batch of jobs; results as its lines arrive."""
        with self.finished:
            if self.stopped:
                return
            process = subprocess.Popen(
                command, cwd=self.scratch, env=env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=self.errors, text=True, start_new_session=True,
            )
            self.processes.append(process)
        try:  # the parent reads its jobs once torch is imported, then answers
            process.stdin.write(json.dumps([{"name": job.name, "cells": job.cells} for job in batch]))
            process.stdin.close()
        except (BrokenPipeError, OSError, ValueError):  # stopped before it read its jobs
            pass
        for line in process.stdout:
            result = json.loads(line)
            with self.finished:
                self.done[result.pop("name")] = result
                self.finished.notify_all()
        process.wait()

    def alive(self) -> bool:
        """Whether some job may still report."""
        with self.finished:
            return not self.over

    def result(self, name: str, timeout: float = 600) -> dict:
        """The job's {"printed": [stdout of each cell], "error": traceback or None}."""
        with self.finished:
            self.finished.wait_for(lambda: name in self.done or self.over, timeout)
            if name in self.done:
                return self.done[name]
            state = "ended" if self.over else "still runs"
        self.errors.seek(0)
        codes = [process.returncode for process in self.processes]
        raise RuntimeError(f"no result for {name}: the runner {state} (exit codes {codes})\n"
                           f"{self.errors.read()}")

    def stop(self) -> None:
        """Stop every parent and every job still running; remove the jobs' folders."""
        with self.finished:
            self.stopped = True
            processes = list(self.processes)
        for process in processes:
            kill(process)
        self.driver.join()  # its parents' output has ended
        for process in self.processes:
            process.stdout.close()
        self.errors.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def block_jobs(pages: list[Path], root: Path) -> dict[str, tuple[Job, "pytest_codeblocks.CodeBlock"]]:
    """Every ```python block of these pages, as pytest-codeblocks reads them, by "path:line"."""
    jobs = {}
    for page in pages:
        for block in pytest_codeblocks.extract_from_file(page):
            if block.syntax == "python":
                name = f"{page.relative_to(root).as_posix()}:{block.lineno}"
                jobs[name] = (Job(name, [block.code]), block)
    return jobs


def notebook_jobs(root: Path) -> dict[str, tuple[Job, list[str] | None]]:
    """Every page's notebook download, as the site writes it (tools/notebooks.py).

    Maps the page's path to (a job of its code cells, the outputs they must print, or None
    for a lab, whose outputs are made when the site is built).
    """
    jobs = {}
    for page in site_config.nav_pages(root):
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
