"""The benchmark command runs, at tiny sizes, so that it cannot rot; its failures are reported."""

import csv
import os
import signal
import time
from importlib.resources import files

import pytest
import torch

from attnlit import bench

# Peak memory on the CPU is measured in a forked process: not on a platform without fork.
CANNOT = bench.memory_problem("cpu")
MEASURES = pytest.mark.skipif(CANNOT is not None, reason=CANNOT or "")
MEMORY = ["--no-memory"] if CANNOT else []  # the rest of the benchmark runs anywhere


def test_benchmark_writes_its_table_and_ratios(tmp_path, monkeypatch, capsys):
    """By default into ./bench-results: the shipped results change only on purpose."""
    shipped = files("attnlit.bench").joinpath("results/cpu.csv").read_bytes()
    monkeypatch.chdir(tmp_path)
    bench.main(["--sizes", "8", "16", "--batch", "2", "--width", "16", "--heads", "2",
                "--repeats", "1", "--device", "cpu", *MEMORY])
    assert files("attnlit.bench").joinpath("results/cpu.csv").read_bytes() == shipped
    tmp_path = tmp_path / "bench-results"
    with open(tmp_path / "cpu.csv") as table:
        rows = list(csv.DictReader(table))
    names = [*bench.LAYERS, *bench.PARTS]
    assert [(int(r["n"]), r["layer"]) for r in rows] == [(n, name) for n in (8, 16) for name in names]
    for row in rows:
        assert 0 < float(row["forward_s"]) < 10
        layer = row["layer"] in bench.LAYERS
        assert (0 < float(row["forward_backward_s"]) < 10) if layer else row["forward_backward_s"] == ""
        assert row["peak_mib"].isdigit() if layer and not MEMORY else row["peak_mib"] == ""
    report = (tmp_path / "cpu.md").read_text().splitlines()
    assert report[0].startswith("Measured on ")
    assert report[2] == ("| n | MultiHeadAttentionWrapper | MultiHeadAttention "
                         "| FusedMultiHeadAttention | nn.MultiheadAttention |")
    assert [line.split(" | ")[0] for line in report[4:]] == [
        "| **forward (ms)**", "| 8", "| 16", "| **forward + backward (ms)**", "| 8", "| 16",
        "| **peak memory (MiB)**", "| 8", "| 16"]
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 5 and printed[0] == "FusedMultiHeadAttention, times as fast as:"
    assert printed[-1].split()[0] == "16" and len(printed[-1].split()) == 6


def test_speedups_over_a_layer_too_fast_to_time_do_not_divide_by_zero():
    rows = [{"n": 1, "layer": name, "forward_s": 0.0 if name in bench.PARTS else 1e-6,
             "forward_backward_s": "" if name in bench.PARTS else 2e-6}
            for name in (*bench.LAYERS, *bench.PARTS)]
    assert bench.ratios(rows)[-1].split() == ["1", "1.00", "1.00", "1.00", "1.00", "0.00"]
    rows = [{**row, "forward_s": 0.0} if row["layer"] == "fused" else row for row in rows]
    assert bench.ratios(rows)[-1].split() == ["1", "n/a", "1.00", "n/a", "1.00", "n/a"]
    assert bench.milliseconds(4e-6) == "4.0e-03" and bench.milliseconds(0.0123456) == "12.35"


@MEASURES
def test_peak_memory_sees_what_one_step_allocates():
    mib = 64
    run = lambda: torch.ones(mib * 2**20 // 4, requires_grad=True) * 2  # noqa: E731
    assert mib <= bench.peak_mib(run, "cpu") < 3 * mib


@MEASURES
def test_a_failing_memory_measurement_reports_its_cause():
    def run():
        raise RuntimeError("out of ideas")

    with pytest.raises(RuntimeError) as failed:
        bench.peak_mib(run, "cpu")
    assert str(failed.value) == ("memory measurement failed with exit code 1: "
                                 "RuntimeError: out of ideas")  # not "out of memory"


@MEASURES
def test_a_killed_memory_measurement_is_reported():
    def run():
        os.kill(os.getpid(), signal.SIGKILL)  # what the kernel does when memory runs out

    with pytest.raises(RuntimeError, match="signal SIGKILL: it sent nothing .*out of memory"):
        bench.peak_mib(run, "cpu")


def test_where_the_cpu_cannot_fork_peak_memory_says_why(monkeypatch):
    monkeypatch.setattr(bench.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    with pytest.raises(RuntimeError, match="measured in a forked process, and .* cannot fork"):
        bench.peak_mib(lambda: torch.ones(1, requires_grad=True), "cpu")


@MEASURES
def test_a_memory_measurement_that_hangs_is_stopped():
    def run():
        time.sleep(60)

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="still ran after 0.5 s"):
        bench.peak_mib(run, "cpu", timeout=0.5)
    assert time.monotonic() - start < 30


def test_the_shipped_results_load_as_numbers():
    rows = bench.results("cpu")
    sizes = sorted({row["n"] for row in rows})
    assert len(rows) == len(sizes) * (len(bench.LAYERS) + len(bench.PARTS)) and sizes[0] > 0
    assert all(row["forward_s"] > 0 for row in rows)


@pytest.mark.parametrize("name", ["cpu", "flash-cpu", "generate-cpu", "latent-cpu"])
def test_the_shipped_reports_are_what_the_code_writes_from_the_shipped_csv(name):
    """A new layout of the tables is written from the CSV (tools/bench_tables.py), not typed."""
    import bench_tables

    shipped = files("attnlit.bench").joinpath(f"results/{name}.md").read_text()
    assert shipped == bench_tables.rewritten(name)
    assert shipped.count("\n| ") > 2 * len({row["n"] for row in bench.results(name)})
