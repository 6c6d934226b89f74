"""Where the build keeps what it computed: folders named after what their contents depend on.

The labs' runs are keyed on their code (tools/labs.py), mkdocs-jupyter's rendered labs on each
notebook's own text, and each drawn figure on its code (tools/figures.py). All also depend on
the attnlit package and on the pinned environment, so their folders are named after a digest
of those: change either and everything is computed again. All live under .cache/, or under
the folder that the environment variable ATTNLIT_CACHE names (a throwaway folder builds cold).
"""

import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("requirements.txt", "constraints.txt")


def digest(root: Path = ROOT) -> str:
    """A short digest of the attnlit package and the pinned environment.

    Hashed once until a file changes (its size or time), as site_config reads a config: every
    figure and site file of a build asks for its folder, and hashing the package with its
    weights and plays takes about 14 ms.
    """
    package = [p for p in sorted((root / "attnlit").rglob("*"))
               if p.is_file() and "__pycache__" not in p.parts]
    paths = package + [root / name for name in INPUTS if (root / name).exists()]
    return hashed(root, tuple((path, found.st_mtime_ns, found.st_size)
                              for path in paths for found in [path.stat()]))


@functools.lru_cache(maxsize=16)
def hashed(root: Path, files: tuple[tuple[Path, int, int], ...]) -> str:
    """The digest of these files' names (relative to root) and contents."""
    sha = hashlib.sha1()
    for path, _, _ in files:
        sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()[:12]


def cache(kind: str, root: Path = ROOT) -> Path:
    """The folder for one kind of cache ("labs", "mkdocs-jupyter", "figures", "site-files")
    of this attnlit."""
    base = Path(os.environ["ATTNLIT_CACHE"]) if os.environ.get("ATTNLIT_CACHE") else root / ".cache"
    return base / kind / digest(root)


def store(path: Path, data: str | bytes) -> None:
    """Write a file of a cache whole: two builds may compute it at once, and a reader must
    find it complete or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    partial.replace(path)


def once(path: Path, compute: Callable[[], str | bytes]) -> Path:
    """The file at path, computed by one builder only: the three sites build at once, and a
    builder that finds another computing it waits for its result rather than compute it too.
    The lock stays beside the file, empty; a computation that fails leaves no file, and the
    next builder tries again."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(path.with_name(f"{path.name}.lock")):
            if not path.exists():
                store(path, compute())
    return path
