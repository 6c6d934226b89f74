import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The tangler and the MkDocs hooks are tooling, not part of the attnlit package.
sys.path.insert(0, str(ROOT / "tools"))

import alone  # noqa: E402

BUILDS = pytest.StashKey[dict]()
RUNNER = pytest.StashKey[alone.Runner]()
SCRATCH = pytest.StashKey[Path]()
# The test files that wait for the builds, or for the code run alone; what they wait for starts
# with the session, and only when one of them may run.
BUILD_USERS = ("test_site.py", "test_browser.py", "test_notebooks.py")
ALONE_USERS = ("test_alone.py", "test_notebooks.py")

BROKEN_PAGE = "# A page\n\nSee [nowhere](#no-such-anchor).\n"


def start_build(config_dir: Path, out: Path, cache: Path | None = None) -> subprocess.Popen:
    """`mkdocs build --strict` of config_dir into out/site, in the background.

    Executed labs and drawn figures come from `cache`, or from the folders that `make
    serve` uses, keyed on attnlit's code and the pinned environment (tools/cache_key.py).
    """
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("ATTNLIT_CACHE", None)
    if cache is not None:
        env["ATTNLIT_CACHE"] = str(cache)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "build.log", "w") as log:  # a file, not a pipe: a full pipe would block
        return subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out / "site")],
            cwd=config_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped with its kernels
        )


def stop(process: subprocess.Popen) -> None:
    """Stop a background process and everything it started."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait()


def broken_copy(where: Path) -> Path:
    """A one-page site with the real config and a link to a missing anchor."""
    (where / "docs").mkdir(parents=True)
    for tooling in ("tools", "overrides"):
        (where / tooling).symlink_to(ROOT / tooling)
    (where / "docs" / "page.md").write_text(BROKEN_PAGE)
    (where / "mkdocs.yml").write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\nnav:\n  - page.md\n")
    return where


def wanted(session, names: tuple[str, ...]) -> bool:
    """Whether the command line names one of these test files, or a folder above one."""
    paths = [Path(arg.split("::")[0]).resolve() for arg in session.config.args]
    users = [ROOT / "tests" / name for name in names]
    return any(user == path or path in user.parents for user in users for path in paths)


@contextlib.contextmanager
def interrupts_deferred():
    """Hold Ctrl-C back until every process started is on record, so that all are stopped."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def pytest_sessionstart(session):
    """Start the site builds and the code run alone now, beside the code blocks.

    The real site builds with the caches that `make serve` uses, keyed on attnlit's code and
    the pinned environment (tools/cache_key.py): labs run and figures are drawn again
    whenever something they depend on changes, and a fresh clone builds cold.
    """
    with interrupts_deferred():
        start_background(session)


def start_background(session) -> None:
    if wanted(session, ALONE_USERS):
        jobs = [job for job, _ in [*alone.block_jobs(ROOT).values(), *alone.notebook_jobs(ROOT).values()]]
        session.config.stash[RUNNER] = alone.Runner(jobs)
    if not wanted(session, BUILD_USERS):
        return
    scratch = session.config.stash[SCRATCH] = Path(tempfile.mkdtemp(prefix="attnlit-builds-"))
    builds = session.config.stash[BUILDS] = {}  # filled as they start: all are stopped
    builds["site"] = start_build(ROOT, scratch / "site"), scratch / "site"
    broken = broken_copy(scratch / "broken")
    builds["broken"] = start_build(broken, scratch / "broken-out", scratch / "broken-cache"), scratch / "broken-out"


def pytest_collection_finish(session):
    """Deselected or not collected: nobody will wait for the builds, so stop them now."""
    started = session.config.stash.get(BUILDS, {})
    if started and not any({"builds", "site"} & set(getattr(item, "fixturenames", ())) for item in session.items):
        for process, _ in started.values():
            stop(process)


def pytest_unconfigure(config):
    """Stop whatever still runs (after -x, Ctrl-C or a failure) and remove the scratch folder.

    pytest calls this however the session ends, even when it ends before it began.
    """
    for process, _ in config.stash.get(BUILDS, {}).values():
        stop(process)
    if RUNNER in config.stash:
        config.stash[RUNNER].stop()
    scratch = config.stash.get(SCRATCH, None)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def builds(request):
    """Wait for the builds started with the session: {name: (returncode, log, site dir)}."""
    started = request.config.stash.get(BUILDS, None)
    if started is None:
        pytest.fail("the site builds were not started: run the tests with pytest")
    return {
        name: (process.wait(timeout=600), (out / "build.log").read_text(), out / "site")
        for name, (process, out) in started.items()
    }


@pytest.fixture(scope="session")
def ran_alone(request) -> dict[str, dict]:
    """What each block and notebook did alone (tests/alone.py), by job name."""
    runner = request.config.stash.get(RUNNER, None)
    if runner is None:
        pytest.fail("the code was not started alone: run the tests with pytest")
    jobs = [*alone.block_jobs(ROOT), *alone.notebook_jobs(ROOT)]
    return dict(zip(jobs, runner.results()))


@pytest.fixture(scope="session")
def site(builds) -> Path:
    """The real site, built with --strict."""
    returncode, log, site_dir = builds["site"]
    assert returncode == 0, f"mkdocs build --strict failed:\n{log}"
    return site_dir
