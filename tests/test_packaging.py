"""What `pip install attnlit` and its source distribution carry: the package, its data, where it
comes from; no tests that could not run without the repository."""

import email
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_source_distribution_holds_the_package_and_says_where_it_comes_from(tmp_path):
    """Built from the project as it is. Its tests are left out: they test the site and its docs
    (conftest.py, tests/alone.py, tools/, docs/), which the package does not hold."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "site", ".cache", "__pycache__", "*.egg-info", "screenshots", "build", "dist"))
    built = subprocess.run([sys.executable, "-c", "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))",
                            str(tmp_path / "dist")], cwd=source, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    with tarfile.open(tmp_path / "dist" / built.stdout.split()[-1]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
        info = email.message_from_bytes(sdist.extractfile(f"{sdist.getnames()[0].split('/')[0]}/PKG-INFO").read())
    assert {"attnlit/multihead.py", "attnlit/train/results/tiny_gpt.pt", "README.md", "LICENSE",
            "attnlit/train/results/sink/text_gpt.pt", "attnlit/train/results/gate/text_gpt.pt",
            "attnlit/train/results/stream.csv", "attnlit/train/sinks/__main__.py",
            "attnlit/train/results/state/copy.csv", "attnlit/bench/results/latent-cpu.csv",
            "attnlit/train/state/__main__.py", "attnlit/bench/latent/__main__.py"} <= names
    assert not [name for name in names if name.startswith(("tests", "docs", "tools"))], "tests or docs in the sdist"
    urls = dict(value.split(", ", 1) for value in info.get_all("Project-URL") or [])
    assert {"Source", "Issues"} <= set(urls) and all(url.startswith("https://") for url in urls.values())
    assert "Programming Language :: Python :: 3.11" in info.get_all("Classifier")
