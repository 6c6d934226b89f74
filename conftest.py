"""The test session: site builds and code run alone in the background, for the tests chosen.

At the repository's root, so that it applies to the code blocks of docs/ and README.md (which
pytest-codeblocks collects) as well as to tests/.
"""

import contextlib
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
import pytest_codeblocks

ROOT = Path(__file__).resolve().parent
# The tangler and the MkDocs hooks are tooling, not part of the attnlit package; tests/
# holds the runner of code alone.
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
# The suite runs several processes at once (builds, blocks run alone, a browser): torch's
# thread pool on every core of each would make their small operations wait on each other.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import alone  # noqa: E402
import site_config  # noqa: E402

BUILDS = pytest.StashKey[dict]()
RUNNER = pytest.StashKey[alone.Runner]()
SCRATCH = pytest.StashKey[Path]()
PAGES = site_config.english_docs(ROOT) + [ROOT / "README.md"]  # pytest's order
# A translated page (docs/<lang>/) holds its English page's code blocks and outputs, which
# tests/test_translations.py proves equal token by token: they run once, on the English page.
collect_ignore = [f"docs/{code}" for code in site_config.translations(ROOT)]
# The translations' sites (mkdocs.<lang>.yml), built beside the English one and put in it.
LANGUAGES = site_config.translations(ROOT)
# The fixtures of the tests that read what runs in the background: the built sites, the code
# run alone, the browser's visits of the built site.
NEEDS_SITE = {"builds", "site", "browsed"}
WAITING = NEEDS_SITE | {"ran_alone"}
# The loops a maintainer runs (CONTRIBUTING.md), by marker; each test gets its markers from
# what it is (pytest_collection_modifyitems), so a new test needs none written.
MARKERS = {
    "site": "needs the built site (its tests, the browser's, the notebooks' downloads)",
    "browser": "reads the site in a real browser (tests/test_browser_*.py)",
    "i18n": "about a translation: its page, its language, its words",
}
TRANSLATION_FILES = ("test_translations.py", "test_words.py")

ASSEMBLING = threading.Lock()
BROKEN_PAGE = "# A page\n\nSee [nowhere](#no-such-anchor).\n"


def start_build(config_dir: Path, out: Path, cache: Path | None = None,
                config: str = "mkdocs.yml") -> subprocess.Popen:
    """`properdocs build --strict` of config_dir's `config` into out/site, in the background.

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
            [sys.executable, "-m", "properdocs", "build", "--strict", "--config-file", config,
             "--site-dir", str(out / "site")],
            cwd=config_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped with its kernels
        )


stop = alone.kill  # a background process and everything it started


def broken_copy(where: Path) -> Path:
    """A one-page site with the real config and a link to a missing anchor."""
    (where / "docs").mkdir(parents=True)
    for tooling in ("tools", "overrides"):
        (where / tooling).symlink_to(ROOT / tooling)
    (where / "docs" / "page.md").write_text(BROKEN_PAGE)
    (where / "mkdocs.yml").write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\nnav:\n  - page.md\n")
    return where


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


def pytest_configure(config):
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")


def translated(item) -> bool:
    """A test of a translation: in a translation's test file, or one of its parameters names a
    language or a translated page ("th", "th/dropout.md", "docs/vi/lab.py")."""
    if item.path.name in TRANSLATION_FILES:
        return True
    values = getattr(getattr(item, "callspec", None), "params", {}).values()
    return any(isinstance(value, str) and (value in LANGUAGES or value.removeprefix("docs/").split("/")[0] in LANGUAGES)
               for value in values)


@pytest.hookimpl(tryfirst=True)  # before -m and -k deselect: they read the markers given here
def pytest_collection_modifyitems(config, items):
    """Each test's markers; pytest-codeblocks' Python blocks each run alone (tests/alone.py).

    The tests that only read what the background computes (the blocks run alone, the builds,
    the browser's visits) go last, in their order: the others run first, on a core the
    background leaves, instead of after it on one core while the other waits.
    """
    waiting = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        browser = item.path.name.startswith("test_browser_")
        if browser:
            item.add_marker("browser")
        if NEEDS_SITE & fixtures or browser:
            item.add_marker("site")
        if translated(item):
            item.add_marker("i18n")
        if block_name(item):
            item.runtest = functools.partial(run_alone, item, item.obj)
            waiting.append(item)
        elif WAITING & fixtures:
            waiting.append(item)
    ids = set(map(id, waiting))
    items[:] = [item for item in items if id(item) not in ids] + waiting


def pytest_collection_finish(session):
    """Start what the selected tests read, once -m, -k and paths have chosen them: the code
    blocks and notebooks run alone, the site builds, the browser's visits of the built site.

    The browser visits every page in the background as soon as the site is built
    (tests/browsing.py), so that the visits overlap with the tests that run first.
    """
    with interrupts_deferred():
        start_background(session)
    if any(item.get_closest_marker("browser") for item in session.items):
        import browsing  # only now: without a browser, its import skips the browser tests
        browsing.start_browsing(functools.partial(built_site, session.config))


def block_name(item) -> str | None:
    """A Python code block's name, "docs/page.md:12", as alone.block_jobs names its job."""
    block = getattr(item, "obj", None)
    if isinstance(block, pytest_codeblocks.CodeBlock) and block.syntax == "python":
        return f"{item.path.relative_to(ROOT).as_posix()}:{block.lineno}"
    return None


def start_background(session) -> None:
    items = session.items
    blocks = {name for name in map(block_name, items) if name}
    jobs = [job for name, (job, _) in alone.block_jobs(PAGES, ROOT).items() if name in blocks]
    notebooks = {item.callspec.params["page"] for item in items
                 if "ran_alone" in getattr(item, "fixturenames", ()) and hasattr(item, "callspec")}
    jobs += [job for page, (job, _) in alone.notebook_jobs(ROOT).items() if page in notebooks]
    if jobs:
        session.config.stash[RUNNER] = alone.Runner(jobs)
    if not any(NEEDS_SITE & set(getattr(item, "fixturenames", ())) for item in items):
        return
    scratch = session.config.stash[SCRATCH] = Path(tempfile.mkdtemp(prefix="attnlit-builds-"))
    builds = session.config.stash[BUILDS] = {}  # filled as they start: all are stopped
    builds["site"] = start_build(ROOT, scratch / "site"), scratch / "site"
    for code in LANGUAGES:  # each put in the English site's folder once built (built_site)
        builds[code] = start_build(ROOT, scratch / code, config=f"mkdocs.{code}.yml"), scratch / code
    broken = broken_copy(scratch / "broken")
    builds["broken"] = start_build(broken, scratch / "broken-out", scratch / "broken-cache"), scratch / "broken-out"


def run_alone(item, block: pytest_codeblocks.CodeBlock) -> None:
    """What pytest-codeblocks checks, of the block run alone: it runs, and prints its output."""
    name = block_name(item)
    result = item.config.stash[RUNNER].result(name)
    if result["error"] is not None:
        raise RuntimeError(f"{name}: the block failed, run alone:\n{result['error']}")
    printed, expected = result["printed"][0], block.expected_output
    if expected is None:
        return
    if block.expected_output_ignore_whitespace:
        printed, expected = re.sub(r"\s+", "", printed), re.sub(r"\s+", "", expected)
    if printed != expected:
        raise RuntimeError(f"{name}:\nExpected output\n```\n{block.expected_output}```\n"
                           f"but got\n```\n{result['printed'][0]}```")


def built_site(config) -> Path:
    """Wait for the real site's builds; its folder, with each language's site in its own
    (site/th/...), as `make build` lays them out; or AssertionError with a failed build's log."""
    builds = config.stash[BUILDS]
    for name in ["site", *LANGUAGES]:
        process, out = builds[name]
        returncode = process.wait(timeout=600)
        assert returncode == 0, f"properdocs build --strict ({name}) failed:\n{(out / 'build.log').read_text()}"
    site = builds["site"][1] / "site"
    with ASSEMBLING:  # the browsing thread and the tests may ask at once
        for code in LANGUAGES:
            if not (site / code).exists():
                (builds[code][1] / "site").replace(site / code)
    return site


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
    say_what_was_skipped_whole(config)
    say_which_visits_stalled(config)


def say_which_visits_stalled(config) -> None:
    """End the run with a line for each browser visit run again after Chromium stopped drawing
    its page (tests/browsing.py, once_more_if_stalled): in CI's log, not only in
    screenshots/stalls.md. A visit named here run after run is a bug of ours to find."""
    browsing = sys.modules.get("browsing")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if browsing is None or reporter is None:
        return
    for line in browsing.Browsing.stalled:
        reporter.write_line(f"RUN AGAIN, a stalled browser visit: {line}", yellow=True, bold=True)


def say_what_was_skipped_whole(config) -> None:
    """End the run with a line for each test file skipped whole (the browser tests without a
    browser): why, and so how to run it. Easy to miss among the dots otherwise."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    files = {}  # why: the files skipped for it (the browser tests: a file a topic)
    for report in reporter.stats.get("skipped", []):
        if isinstance(report, pytest.CollectReport) and isinstance(report.longrepr, tuple):
            files.setdefault(report.longrepr[2], []).append(report.nodeid)
    for why, names in files.items():
        reporter.write_line(f"SKIPPED, every test of {', '.join(names)}: {why}", yellow=True, bold=True)


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
def ran_alone(request) -> alone.Runner:
    """The runner of the blocks and notebooks started with the session (tests/alone.py)."""
    runner = request.config.stash.get(RUNNER, None)
    if runner is None:
        pytest.fail("the code was not started alone: run the tests with pytest")
    return runner


@pytest.fixture(scope="session")
def browsed(site) -> dict:
    """Every page's record from the browser's visits (tests/browsing.py), once they are done."""
    import browsing
    return browsing.visited(site)


@pytest.fixture(scope="session")
def site(request) -> Path:
    """The real site, built with --strict."""
    if BUILDS not in request.config.stash:
        pytest.fail("the site builds were not started: run the tests with pytest")
    return built_site(request.config)
