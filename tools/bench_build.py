"""How much the executed labs cost the site build.

Prints, in seconds (the best of --repeat runs):
  a  the labs run as plain Python scripts, one after the other
  b  a build of the site without the notebook plugin and the labs, cold (figures drawn)
  c  a full build with cold caches (every lab executed, every figure drawn)
  d  the same build again, warm: nothing executed or drawn, far below b
and the ratio c / (a + b), which the project keeps at or below 1.5.

    python tools/bench_build.py [--repeat N]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from site_config import read_config  # tools/ is on sys.path: this script lives there

ROOT = Path(__file__).resolve().parent.parent
LABS = sorted((ROOT / "docs" / "labs").glob("*.py"))


def seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env={**os.environ, **(env or {})}, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def without_notebooks(config: Path) -> None:
    """A config that inherits mkdocs.yml but drops the notebook plugin and the Labs section."""
    parent = read_config(ROOT)
    names = [plugin if isinstance(plugin, str) else next(iter(plugin)) for plugin in parent["plugins"]]
    plugins = [p for p, name in zip(parent["plugins"], names) if name != "mkdocs-jupyter"]
    nav = [item for item in parent["nav"] if "Labs" not in item]
    config.write_text(yaml.safe_dump({"INHERIT": "mkdocs.yml", "plugins": plugins, "nav": nav}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    repeat = parser.parse_args().repeat
    build = [sys.executable, "-m", "properdocs", "build", "--quiet"]
    quiet = {"NO_MKDOCS_2_WARNING": "1"}
    config = ROOT / ".bench-mkdocs.yml"  # beside mkdocs.yml: hook and theme paths are relative
    without_notebooks(config)
    try:
        best = {"a": [], "b": [], "c": [], "d": []}
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                site = ["--site-dir", f"{tmp}/site"]
                cache = {**quiet, "ATTNLIT_CACHE": f"{tmp}/cache"}
                cold = {**quiet, "ATTNLIT_CACHE": f"{tmp}/cache-b"}
                best["a"].append(sum(seconds([sys.executable, str(lab)]) for lab in LABS))
                best["b"].append(seconds(build + ["--config-file", str(config)] + site, cold))
                best["c"].append(seconds(build + ["--config-file", "mkdocs.yml"] + site, cache))
                best["d"].append(seconds(build + ["--config-file", "mkdocs.yml"] + site, cache))
    finally:
        config.unlink()
    a, b, c, d = (min(best[key]) for key in "abcd")
    print(f"a  labs as scripts ({len(LABS)}):     {a:6.1f} s")
    print(f"b  build without notebooks:  {b:6.1f} s")
    print(f"c  full build, cold cache:   {c:6.1f} s")
    print(f"d  full build, warm cache:   {d:6.1f} s")
    print(f"c / (a + b) = {c / (a + b):.2f} (goal: at most 1.5)")


if __name__ == "__main__":
    main()
