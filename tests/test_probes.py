"""The browser tests' probes (tests/probes/*.js): their geometry passes its tests in node, and
every probe the browser tests call is one the files define, and every one defined is called.

Without node these tests skip, as the browser tests do without a browser, and fail where the
browser tests are required (`.ci/run`, which installs node)."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "tests" / "probes"
NODE = shutil.which("node")
if NODE is None and os.environ.get("ATTNLIT_BROWSER_TESTS") == "required":
    pytest.fail("the probes' tests are required but need node (apt-get install nodejs)", pytrace=False)
if NODE is None:
    pytest.skip("the probes' tests need node (apt-get install nodejs)", allow_module_level=True)
SCRIPTS = sorted(path for path in PROBES.glob("*.js") if not path.name.endswith(".test.js"))
CALLED = re.compile(r'\bprobe\("(\w+)"\)|\battnlitProbes\.(\w+)')
USED_INSIDE = re.compile(r"\bprobes\.(\w+)\b(?!\s*=[^=])")  # a use, not the definition


def node(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_probes_geometry_passes_its_tests_in_node():
    ran = node("--test", str(PROBES))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert re.search(r"^# pass [1-9]", ran.stdout, re.MULTILINE), ran.stdout  # tests found and run


def test_every_probe_called_is_defined_and_every_one_defined_is_used():
    listed = node("-e", "for (const file of process.argv.slice(1)) require(file);"
                        "console.log(JSON.stringify(Object.keys(globalThis.attnlitProbes)))",
                  *map(str, SCRIPTS))
    assert listed.returncode == 0, listed.stderr
    defined = json.loads(listed.stdout)
    browser = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").glob("*.py")
                      if path.name == "browsing.py" or path.name.startswith("test_browser_"))
    called = {first or second for first, second in CALLED.findall(browser)}
    assert sorted(called - set(defined)) == []
    inside = {name for script in SCRIPTS for name in USED_INSIDE.findall(script.read_text(encoding="utf-8"))}
    assert sorted(set(defined) - called - inside) == []
    assert len(defined) >= 40  # the files were read
