"""The four commands refuse nonsense before any work, and import where `resource` does not exist."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from attnlit import bench, train
from attnlit.bench import flash, generate

COMMANDS = {"train": train, "bench": bench, "bench.generate": generate, "bench.flash": flash}
NO_CUDA = pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA is available here")

# (command, arguments, the option the error names); each reproduces a case of issue 24.
BAD = [
    ("train", ["--steps", "0"], "--steps"),                    # was an IndexError
    ("train", ["--steps", "ten"], "--steps"),
    ("train", ["--context", "1"], "--context"),                # was "context_length must be positive, got 0"
    ("train", ["--context", "6"], "--context"),                # no room for --min-length 4 twice
    ("train", ["--threads", "0"], "--threads"),                # was a torch RuntimeError
    ("train", ["--context", "2", "--min-length", "1"], "--context"),  # was nan, exit 0
    ("train", ["--min-length", "1"], "--min-length"),          # a stretch of 1: nothing to copy
    ("train", ["--steps", "300", "--batch", "1", "--min-length", "1"], "--min-length"),  # nan losses
    ("train", ["--warmup", "-5"], "--warmup"),                 # was exit 0
    ("train", ["--lr", "nan"], "--lr"),
    ("train", ["--lr", "0"], "--lr"),
    ("train", ["--batch", "0"], "--batch"),
    ("train", ["--vocab", "1"], "--vocab"),
    ("train", ["--width", "10", "--heads", "3"], "--heads"),
    ("train", ["--seed", "-1"], "--seed"),
    ("train", ["--threads", "99999"], "--threads"),            # was a segfault, exit 139
    ("train", ["--seed", "99999999999999999999"], "--seed"),   # was torch's overflow, folder made
    ("train", ["--seed", str(2**64 - 1)], "--seed"),           # the test's seed, + 1, would overflow
    ("bench", ["--repeats", "0"], "--repeats"),                # was a StatisticsError
    ("bench", ["--batch", "0"], "--batch"),                    # was exit 0
    ("bench", ["--sizes", "0"], "--sizes"),
    ("bench", ["--sizes", "8", "16", "8"], "--sizes"),
    ("bench", ["--width", "10", "--heads", "3"], "--heads"),
    ("bench", ["--device", "tpu"], "--device"),
    pytest.param("bench", ["--device", "cuda"], "--device", marks=NO_CUDA),  # was an AssertionError
    ("bench.generate", ["--repeats", "0"], "--repeats"),
    ("bench.generate", ["--threads", "0"], "--threads"),
    ("bench.generate", ["--threads", "99999"], "--threads"),
    ("bench.generate", ["--sizes", "1"], "--sizes"),           # no token to cache before the step
    ("bench.generate", ["--sizes", "4", "4"], "--sizes"),
    ("bench.generate", ["--vocab", "0"], "--vocab"),
    ("bench.generate", ["--width", "10", "--heads", "4"], "--heads"),
    pytest.param("bench.generate", ["--device", "cuda"], "--device", marks=NO_CUDA),
    ("bench.flash", ["--head-dim", "0"], "--head-dim"),        # was a ZeroDivisionError
    ("bench.flash", ["--sizes", "0"], "--sizes"),              # was exit 0
    ("bench.flash", ["--sizes", "8", "8"], "--sizes"),         # was duplicated rows
    ("bench.flash", ["--repeats", "0"], "--repeats"),
    ("bench.flash", ["--threads", "0"], "--threads"),
    ("bench.flash", ["--threads", "99999"], "--threads"),
    ("bench.flash", ["--block-size", "0"], "--block-size"),
    ("bench.flash", ["--heads", "0"], "--heads"),
    pytest.param("bench.flash", ["--device", "cuda"], "--device", marks=NO_CUDA),
]


@pytest.mark.parametrize("command, argv, option", BAD)
def test_a_bad_option_is_an_error_naming_it_before_any_work(command, argv, option, tmp_path,
                                                            monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    module = COMMANDS[command]
    with pytest.raises(SystemExit) as exit:
        bench.arguments(module.options(), argv)
    assert exit.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith(f"python -m attnlit.{command}: error: ") and option in error, error
    assert list(tmp_path.iterdir()) == [], "a refused command created its output folder"


# What torch 2.13's CPU allocator raises for `--vocab 100000000` (issue 40).
TOO_BIG = ("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
           "memory: you tried to allocate 25600000000 bytes. Error code 12 (Cannot allocate memory)")
WORK = {"train": ("TinyGPT", "--vocab"), "bench": ("measure", "--sizes"),
        "bench.generate": ("measure_generation", "--sizes"),
        "bench.flash": ("measure_attention", "--sizes")}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_tensor_too_big_for_memory_ends_the_command_in_one_line(command, tmp_path, monkeypatch,
                                                                  capsys):
    module, (work, option) = COMMANDS[command], WORK[command]

    def allocate(*args, **kwargs):
        raise RuntimeError(TOO_BIG)

    monkeypatch.setattr(module, work, allocate)
    with pytest.raises(SystemExit) as exit:
        module.main(["--out", str(tmp_path / "out")])
    assert exit.value.code == 1
    error = capsys.readouterr().err.splitlines()
    assert len(error) == 1 and error[0].startswith(
        f"python -m attnlit.{command}: error: out of memory (25.6 GB at once): try a smaller "
        f"{option}"), error


@pytest.mark.parametrize("command", COMMANDS)
def test_any_other_runtime_error_is_not_taken_for_memory(command, tmp_path, monkeypatch):
    module, (work, _) = COMMANDS[command], WORK[command]

    def fail(*args, **kwargs):
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied")

    monkeypatch.setattr(module, work, fail)
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        module.main(["--out", str(tmp_path / "out")])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_says_what_it_is(command):
    actions = COMMANDS[command].options()._actions  # argparse has no public list of them
    assert len(actions) > 5
    for action in actions:
        assert action.help and len(action.help) > 10, action.option_strings


@pytest.mark.parametrize("command", COMMANDS)
def test_a_help_text_states_the_real_default(command):
    """What `--help` says an option's default is, is the value the option gets."""
    stated = 0
    for action in COMMANDS[command].options()._actions:
        said = re.search(r"\(default: ([^)]*)\)", action.help % {**vars(action), "prog": command})
        if said is None or action.dest == "device":  # the device's depends on the machine
            continue
        default = action.default
        shown = (" ".join(map(str, default)) if isinstance(default, list)
                 else f"./{default}" if isinstance(default, Path) else str(default))
        assert said[1] == shown, f"{action.option_strings}: help says {said[1]!r}, default {shown!r}"
        stated += 1
    assert stated >= 4


@pytest.mark.parametrize("command", COMMANDS)
def test_the_defaults_pass_and_the_output_folder_is_made_first(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = bench.arguments(COMMANDS[command].options(), [])
    assert args.out.is_dir() and list(args.out.iterdir()) == []  # tried, and left empty
    assert args.out.name == ("tiny-gpt" if command == "train" else "bench-results")


def unwritable(tmp_path: Path) -> Path:
    """An existing folder that takes no new file, for whoever runs the tests."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # root writes through mode bits
        if not Path("/proc").is_dir():
            pytest.skip("running as root, and there is no /proc, which refuses root's files")
        return Path("/proc")
    if sys.platform == "win32":
        pytest.skip("Windows lets anyone write into a read-only folder")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("where", ["under a file", "read-only"])
def test_an_output_folder_that_cannot_take_the_results_stops_the_command_first(
        command, where, tmp_path, capsys):
    if where == "under a file":
        (tmp_path / "a-file").write_text("")
        out = tmp_path / "a-file" / "results"
    else:
        out = unwritable(tmp_path)
    with pytest.raises(SystemExit) as exit:
        bench.arguments(COMMANDS[command].options(), ["--out", str(out)])
    assert exit.value.code == 2
    assert f"argument --out: cannot write into {out}: " in capsys.readouterr().err


def test_peak_memory_is_refused_up_front_where_it_cannot_be_measured(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bench.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    for module in (bench, flash):
        with pytest.raises(SystemExit):
            bench.arguments(module.options(), ["--device", "cpu"])
        assert "cannot fork: use --no-memory" in capsys.readouterr().err
        assert bench.arguments(module.options(), ["--device", "cpu", "--no-memory"]).memory is False


# Every import and call that needs no memory measurement, in a Python where `import resource`
# fails as it does on Windows.
NO_RESOURCE = """
import sys

class NoResource:
    def find_spec(self, name, path=None, target=None):
        if name == "resource":
            raise ImportError("No module named 'resource' (as on Windows)")

sys.meta_path.insert(0, NoResource())
sys.modules.pop("resource", None)
try:
    import resource
except ImportError:
    pass
else:
    raise SystemExit("the hook does not work")

import pkgutil, importlib, attnlit
for module in pkgutil.walk_packages(attnlit.__path__, "attnlit."):
    if not module.name.endswith("__main__"):  # those run their command: below
        importlib.import_module(module.name)
from attnlit import bench, train
from attnlit.bench import flash, generate
assert bench.results() and bench.results("flash-cpu") and train.training_log()
tokens, targets = train.induction_batch(2, 10, 8, 2)
import contextlib, io, runpy
for command in ("train", "bench", "bench.generate", "bench.flash", "bench.latent",
                "train.state"):  # python -m ... --help
    sys.argv = [command, "--help"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        runpy.run_module(f"attnlit.{command}", run_name="__main__")
print("resource" in sys.modules)
"""


def test_the_package_and_its_commands_import_without_the_unix_only_resource(tmp_path):
    done = subprocess.run([sys.executable, "-c", NO_RESOURCE], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False\n"



def test_make_serve_names_a_taken_port_before_it_builds():
    import socket

    import port_free

    with socket.socket() as taken:
        taken.bind((port_free.HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = port_free.problem(port)
        assert port_free.main([str(port)]) == 1
    assert message.startswith(f"port {port} on 127.0.0.1 is taken") and f"PORT={port + 1}" in message
    assert port_free.problem(port) is None  # closed: free again
    assert port_free.main(["http"]) == 2
    makefile = (Path(__file__).parent.parent / "Makefile").read_text()
    for target in ("serve:", "$(addprefix serve-,$(LANGUAGES)):"):
        recipe = makefile.split("\n" + target, 1)[1].split("\n\n", 1)[0]
        assert recipe.index("port_free.py $(PORT)") < recipe.index("properdocs serve"), target
        assert "127.0.0.1:$(PORT)" in recipe, target
