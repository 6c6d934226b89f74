"""Where the build keeps what it computed: folders named after what their contents depend on.

mkdocs-jupyter keys its cache of executed labs on each notebook's own text, and the figure
hook keys each drawn SVG on the figure's code. Both also depend on the attnlit package and
on the pinned environment, so their folders are named after a digest of those: change
either and everything is computed again. Both live under .cache/, or under the folder that
the environment variable ATTNLIT_CACHE names (a throwaway folder builds cold).
"""

import hashlib
import os
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


def cache(kind: str, root: Path = ROOT) -> Path:
    """The folder for one kind of cache ("mkdocs-jupyter", "figures") of this attnlit."""
    base = Path(os.environ["ATTNLIT_CACHE"]) if os.environ.get("ATTNLIT_CACHE") else root / ".cache"
    return base / kind / digest(root)
