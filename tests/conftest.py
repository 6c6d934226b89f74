import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tangler and the MkDocs hooks are tooling, not part of the attnlit package.
sys.path.insert(0, str(ROOT / "tools"))
