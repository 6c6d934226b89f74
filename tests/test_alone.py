"""The runner of code alone (tests/alone.py): each job as a reader runs it, on every platform."""

import pytest

import alone  # tests/, on the path from conftest.py

# Two jobs that would see each other if they shared a process or a folder.
JOBS = [
    alone.Job("first", ["import os\nopen('left.txt', 'w').close()\nshared = 1\n"
                        "print(sorted(os.listdir('.')))", "print(shared)"]),
    alone.Job("second", ["import os\nprint(sorted(os.listdir('.')), 'shared' in globals())",
                         "raise ValueError('on purpose')", "print('never runs')"]),
]


def results(runner: alone.Runner) -> dict[str, dict]:
    try:
        return {job.name: runner.result(job.name) for job in JOBS}
    finally:
        runner.stop()


# Fork where the suite forks (Linux); an interpreter per job, as on macOS and Windows, everywhere.
@pytest.mark.parametrize("fork", sorted({alone.FORK, False}))
def test_each_job_runs_in_a_fresh_namespace_and_an_empty_folder(tmp_path, fork):
    done = results(alone.Runner(JOBS, parallel=2, tmp=str(tmp_path), fork=fork))
    assert done["first"] == {"printed": ["['left.txt']\n", "1\n"], "error": None}
    assert done["second"]["printed"] == ["[] False\n", ""]
    assert done["second"]["error"].rstrip().endswith("ValueError: on purpose")
    assert list(tmp_path.iterdir()) == [], "the runner left files behind"


def test_a_stray_module_in_the_temporary_folder_shadows_nothing(tmp_path):
    (tmp_path / "numpy.py").write_text("raise ImportError('the stray numpy.py was imported')\n")
    runner = alone.Runner([alone.Job("numpy", ["import numpy\nprint(numpy.ones(2).sum())"])],
                          tmp=str(tmp_path))
    try:
        assert runner.result("numpy") == {"printed": ["2.0\n"], "error": None}
    finally:
        runner.stop()
