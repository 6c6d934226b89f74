"""Where the build keeps what it computed: folders named after what their contents depend on.

mkdocs-jupyter keys its cache of executed labs on each notebook's own text, and the figure
hook keys each drawn SVG on the figure's code. Both also depend on the attnlit package and
on the pinned environment, so their folders are named after a digest of those: change
either and everything is computed again. The Makefile, the hooks and the tests use these.

    python3 tools/cache_key.py   # prints the notebook cache folder, relative to the repository
"""

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("requirements.txt", "constraints.txt")


def digest(root: Path = ROOT) -> str:
    """A short digest of the attnlit package and the pinned environment."""
    sha = hashlib.sha1()
    package = [p for p in sorted((root / "attnlit").rglob("*"))
               if p.is_file() and "__pycache__" not in p.parts]
    for path in package + [root / name for name in INPUTS if (root / name).exists()]:
        sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()[:12]


def notebook_cache(root: Path = ROOT) -> Path:
    """The executed-lab cache for the current attnlit code and pinned environment."""
    return root / ".cache" / "mkdocs-jupyter" / digest(root)


def figure_cache(root: Path = ROOT) -> Path:
    """The drawn-figure cache for the current attnlit code and pinned environment."""
    return root / ".cache" / "figures" / digest(root)


if __name__ == "__main__":
    print(notebook_cache().relative_to(ROOT).as_posix())
