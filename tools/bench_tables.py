"""Rewrite the shipped benchmark reports from their CSV files, without measuring again.

    python tools/bench_tables.py

A report's first line says how it was measured (the machine, the date, the settings), which
the CSV does not hold: it is kept. The rest is what the benchmark's own code writes from the
rows (`report`, `attention_report`, `generation_report`, `latent_report`), so a new layout of the tables
needs no new run. tests/test_bench.py checks that the shipped reports are what this writes.
"""

from importlib.resources import files
from pathlib import Path

from attnlit import bench
from attnlit.bench import flash, generate, latent

REPORTS = {"cpu": bench.report, "flash-cpu": flash.attention_report,
           "generate-cpu": generate.generation_report, "latent-cpu": latent.latent_report}


def rewritten(name: str) -> str:
    """The shipped report `name`.md as the code writes it from `name`.csv today."""
    shipped = files("attnlit.bench").joinpath(f"results/{name}.md").read_text()
    return REPORTS[name](bench.results(name), shipped.splitlines()[0])


def main() -> None:
    for name in REPORTS:
        path = Path(str(files("attnlit.bench").joinpath(f"results/{name}.md")))
        path.write_text(rewritten(name))
        print(f"rewrote {path}")


if __name__ == "__main__":
    main()
