"""Every block of the site runs alone, as a reader runs it, and prints what the page shows.

pytest-codeblocks runs the blocks one after another in this process, with the repository as
the working folder. Here each runs in a new process, in an empty folder outside the
repository (tests/alone.py): a block that reads a file of the repository, or leans on
something an earlier block left behind, fails here.
"""

from pathlib import Path

import pytest

import alone

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = alone.block_jobs(ROOT)


@pytest.mark.parametrize("name", BLOCKS)
def test_block_runs_alone_and_prints_its_output(ran_alone, name):
    result, (_, expected) = ran_alone[name], BLOCKS[name]
    assert result["error"] is None, f"{name} failed alone:\n{result['error']}"
    if expected is not None:
        assert result["printed"] == [expected], f"{name} printed something else alone"
