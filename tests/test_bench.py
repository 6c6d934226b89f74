"""The benchmark command runs, at tiny sizes, so that it cannot rot."""

import csv

from attnlit import bench


def test_benchmark_writes_its_table_and_ratios(tmp_path, capsys):
    bench.main(["--sizes", "8", "16", "--batch", "2", "--width", "16", "--heads", "2",
                "--repeats", "1", "--out", str(tmp_path), "--device", "cpu"])
    with open(tmp_path / "cpu.csv") as table:
        rows = list(csv.DictReader(table))
    names = [*bench.LAYERS, *bench.PARTS]
    assert [(int(r["n"]), r["layer"]) for r in rows] == [(n, name) for n in (8, 16) for name in names]
    for row in rows:
        assert float(row["forward_ms"]) > 0
        layer = row["layer"] in bench.LAYERS
        assert (float(row["forward_backward_ms"]) > 0) if layer else row["forward_backward_ms"] == ""
        assert (int(row["peak_mib"]) >= 0) if layer else row["peak_mib"] == ""
    report = (tmp_path / "cpu.md").read_text()
    assert report.startswith("Measured on ") and "| 16 | fused |" in report
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 and printed[0].startswith("n = 8: fused / its parts ")
