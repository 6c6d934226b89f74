import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The tangler and the MkDocs hooks are tooling, not part of the attnlit package.
sys.path.insert(0, str(ROOT / "tools"))

BUILDS = pytest.StashKey[dict]()


def start_build(config_dir: Path, out: Path) -> subprocess.Popen:
    """`mkdocs build --strict` of config_dir into out/site, in the background, cold cache."""
    env = dict(os.environ, MKDOCS_JUPYTER_CACHE=str(out / "cache"), NO_MKDOCS_2_WARNING="1")
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "build.log", "w") as log:  # a file, not a pipe: a full pipe would block
        return subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out / "site")],
            cwd=config_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
        )


def broken_copy(where: Path) -> Path:
    """A one-chapter site with the real config and a link to a missing anchor."""
    (where / "docs").mkdir(parents=True)
    for tooling in ("tools", "overrides"):
        (where / tooling).symlink_to(ROOT / tooling)
    chapter = (ROOT / "docs" / "attention-without-weights.md").read_text(encoding="utf-8")
    (where / "docs" / "chapter.md").write_text(chapter + "\nSee [nowhere](#no-such-anchor).\n")
    (where / "mkdocs.yml").write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\nnav:\n  - chapter.md\n")
    return where


def pytest_sessionstart(session):
    """Start the site builds now, so that they run while the code blocks run."""
    users = [ROOT / "tests" / name for name in ("test_site.py", "test_browser.py", "test_notebooks.py")]
    wanted = [Path(arg.split("::")[0]).resolve() for arg in session.config.args]
    if not any(user == path or path in user.parents for user in users for path in wanted):
        return
    out = session.config._tmp_path_factory.mktemp("builds")
    session.config.stash[BUILDS] = {
        "site": (start_build(ROOT, out / "site"), out / "site"),
        "broken": (start_build(broken_copy(out / "broken"), out / "broken-out"), out / "broken-out"),
    }


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
def site(builds) -> Path:
    """The real site, built with --strict and an empty notebook cache."""
    returncode, log, site_dir = builds["site"]
    assert returncode == 0, f"mkdocs build --strict failed:\n{log}"
    return site_dir
