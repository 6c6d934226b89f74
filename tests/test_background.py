"""What the test session starts in the background (site builds, code run alone) stops with it."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import alone  # tests/, on the path from conftest.py

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")


def tagged(tag: str) -> list[str]:
    """The command lines of the live processes whose environment carries the tag."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and tag.encode() in (entry / "environ").read_bytes():
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:  # gone, or not ours; a zombie has no environment left
            pass
    return found


def wait_until(condition, running) -> None:
    """Poll the condition while running() holds, leaving the CPU to others between polls."""
    while not condition() and running():
        time.sleep(0.02)  # a busy loop would take a core from the process it waits for


def session(*args: str, tmp: Path) -> tuple[subprocess.Popen, str]:
    """A pytest session whose processes carry a tag and whose temporary files go into tmp."""
    tag = f"ATTNLIT_TEST_TAG={uuid.uuid4().hex}"
    env = dict(os.environ, ATTNLIT_TEST_TAG=tag.split("=")[1], TMPDIR=str(tmp))
    # Ctrl-C reaches the session as it would from a terminal: a shell that runs this suite in
    # the background (`... &`) ignores SIGINT, and the session would inherit that.
    process = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return process, tag


def test_a_deselected_run_leaves_nothing_behind(tmp_path):
    process, tag = session("tests/test_site.py", "tests/test_notebooks.py", "docs/scaling.md",
                           "-k", "no_such_test", tmp=tmp_path)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 5, out.decode()  # 5: no test ran
    assert tagged(tag) == [], "background processes outlived the session"
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "temporary folders left behind"


def test_ctrl_c_while_waiting_for_the_builds_stops_them(tmp_path):
    process, tag = session("tests/test_site.py::test_link_to_a_missing_anchor_fails_the_strict_build",
                           tmp=tmp_path)
    # Wait until the session has started a build (its log comes first): the session then waits
    # for it, seconds at least. Watching for the build's process instead raced with it: on a
    # loaded machine a scan of /proc could take longer than the build, and the session ended.
    wait_until(lambda: any(tmp_path.rglob("build.log")), lambda: process.poll() is None)
    assert process.poll() is None, "the session ended before it started a build"
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=120)
    assert b"KeyboardInterrupt" in out, out.decode()
    assert tagged(tag) == [], "background processes outlived the session"
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "temporary folders left behind"


def test_stopping_the_runner_mid_job_removes_its_folders(tmp_path):
    # The folder is the runner's own: setting TMPDIR for the whole test process would also
    # send there the temporary files of whatever else runs meanwhile (the browser the browser
    # tests start in the background left its profile there once).
    started = tmp_path / "started"
    runner = alone.Runner([alone.Job("busy", [f"open({str(started)!r}, 'w').close()\n"
                                              "import time\ntime.sleep(600)"])], tmp=str(tmp_path))
    try:
        wait_until(started.exists, runner.alive)
        assert started.exists(), "the job never started"
    finally:
        runner.stop()
    started.unlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "temporary folders left behind"
