"""Where mkdocs-jupyter keeps the executed labs: a folder named after what their outputs depend on.

mkdocs-jupyter keys its cache on each notebook's own text. A lab's outputs also depend on the
attnlit package and on the pinned environment, so the folder's name is a digest of those:
change either and the labs run again. The Makefile and the tests both use this folder.

    python3 tools/cache_key.py   # prints the folder, relative to the repository
"""

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("requirements.txt", "constraints.txt")


def notebook_cache(root: Path = ROOT) -> Path:
    """The cache folder for the current attnlit code and pinned environment."""
    digest = hashlib.sha1()
    package = [p for p in sorted((root / "attnlit").rglob("*"))
               if p.is_file() and "__pycache__" not in p.parts]
    for path in package + [root / name for name in INPUTS if (root / name).exists()]:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return root / ".cache" / "mkdocs-jupyter" / digest.hexdigest()[:12]


if __name__ == "__main__":
    print(notebook_cache().relative_to(ROOT).as_posix())
