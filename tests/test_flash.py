"""tiled_attention is SDPA's attention, computed without any (n, n) tensor."""

import csv
import itertools

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attnlit import bench
from attnlit.bench import flash as flash_bench
from attnlit.flash import ShapeLog, hbm_traffic, textbook_attention, tiled_attention, tiled_forward

F64 = torch.float64
# Peak memory on the CPU is measured in a forked process: not on a platform without fork.
CANNOT = bench.memory_problem("cpu")
MEASURES = pytest.mark.skipif(CANNOT is not None, reason=CANNOT or "")
MEMORY = ["--no-memory"] if CANNOT else []  # the rest of the benchmark runs anywhere


def qkv(b, h, num_queries, num_keys, hd=8, hd_v=5, dtype=F64, requires_grad=False):
    q = torch.randn(b, h, num_queries, hd, dtype=dtype, requires_grad=requires_grad)
    k = torch.randn(b, h, num_keys, hd, dtype=dtype, requires_grad=requires_grad)
    v = torch.randn(b, h, num_keys, hd_v, dtype=dtype, requires_grad=requires_grad)
    return q, k, v


# Lengths that are not multiples of the block, blocks from 1 to longer than the sequence,
# as many, more and fewer keys than queries.
LENGTHS = [(1, 1), (7, 7), (10, 10), (13, 13), (5, 11), (11, 5), (16, 3)]
BLOCKS = [1, 2, 3, 4, 5, 16, 64]


@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize("num_queries, num_keys", LENGTHS)
def test_equals_sdpa_in_float64(num_queries, num_keys, is_causal):
    torch.manual_seed(0)
    q, k, v = qkv(2, 3, num_queries, num_keys)
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
    for block_size in BLOCKS:
        out = tiled_attention(q, k, v, block_size, is_causal=is_causal)
        assert out.shape == expected.shape and out.dtype == F64
        torch.testing.assert_close(out, expected, rtol=0, atol=1e-12,
                                   msg=f"block_size {block_size}")


@pytest.mark.parametrize("num_queries, num_keys", [(4, 9), (9, 4), (6, 6)])
def test_causal_mask_is_sdpas_top_left_tril(num_queries, num_keys):
    """is_causal=True means the explicit mask torch.ones(L, S).tril(diagonal=0)."""
    torch.manual_seed(1)
    q, k, v = qkv(1, 2, num_queries, num_keys)
    may_attend = torch.ones(num_queries, num_keys, dtype=torch.bool).tril(diagonal=0)
    explicit = F.scaled_dot_product_attention(q, k, v, attn_mask=may_attend)
    torch.testing.assert_close(tiled_attention(q, k, v, 3, is_causal=True), explicit,
                               rtol=0, atol=1e-12)
    torch.testing.assert_close(textbook_attention(q, k, v, is_causal=True), explicit,
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize("num_queries, num_keys, block_size",
                         [(9, 9, 4), (5, 11, 3), (11, 5, 2), (6, 6, 1), (6, 6, 50)])
def test_gradients_equal_sdpas(num_queries, num_keys, block_size, is_causal):
    torch.manual_seed(2)
    q, k, v = qkv(2, 2, num_queries, num_keys, requires_grad=True)
    grad_out = torch.randn(2, 2, num_queries, v.shape[-1], dtype=F64)
    tiled = torch.autograd.grad(tiled_attention(q, k, v, block_size, is_causal),
                                (q, k, v), grad_out)
    sdpa = torch.autograd.grad(F.scaled_dot_product_attention(q, k, v, is_causal=is_causal),
                               (q, k, v), grad_out)
    for name, mine, theirs in zip("qkv", tiled, sdpa):
        torch.testing.assert_close(mine, theirs, rtol=0, atol=1e-11, msg=f"d{name}")


@pytest.mark.parametrize("is_causal", [False, True])
def test_log_sum_exp_equals_torchs_and_its_cpu_kernels(is_causal):
    """The chapter's claim: SDPA's CPU kernel returns the same log-sum-exp per query."""
    torch.manual_seed(9)
    q, k, v = qkv(2, 2, 10, 10, hd_v=8)
    _, lse = tiled_forward(q, k, v, 4, is_causal)
    scores = q @ k.transpose(-2, -1) / 8**0.5
    if is_causal:
        scores = scores.masked_fill(torch.ones(10, 10, dtype=torch.bool).triu(1), -torch.inf)
    torch.testing.assert_close(lse.squeeze(-1), scores.logsumexp(dim=-1))
    kernel = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
    out, kernel_lse = kernel(q, k, v, is_causal=is_causal)
    torch.testing.assert_close(lse.squeeze(-1), kernel_lse)
    torch.testing.assert_close(out, tiled_attention(q, k, v, 4, is_causal))


def test_gradcheck():
    torch.manual_seed(3)
    inputs = qkv(1, 2, 5, 7, hd=3, hd_v=2, requires_grad=True)
    for is_causal in (False, True):
        assert torch.autograd.gradcheck(
            lambda q, k, v: tiled_attention(q, k, v, 2, is_causal), inputs)


def test_finite_on_scores_far_beyond_exp_range():
    """Scores in the tens of thousands: exp overflows float32 above about 88.7."""
    torch.manual_seed(4)
    q, k, v = qkv(1, 2, 12, 12, dtype=torch.float32)
    q, k = q * 100, k * 100                       # scores of order 10^4 / sqrt(8)
    scores = q @ k.transpose(-2, -1) / 8**0.5
    assert scores.abs().max() > 1000 and torch.exp(scores).isinf().any()
    for is_causal in (False, True):
        out = tiled_attention(q, k, v, 5, is_causal)
        assert out.isfinite().all()
        reference = F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                                   is_causal=is_causal)
        torch.testing.assert_close(out.double(), reference, rtol=1e-4, atol=1e-4)


def test_non_contiguous_inputs():
    """Heads split from (b, n, h, hd) by a transpose, as attention layers do."""
    torch.manual_seed(5)
    x = torch.randn(3, 2, 10, 3, 8, dtype=F64)               # (3, b, n, h, hd)
    q, k, v = x.transpose(2, 3)                             # (b, h, n, hd), strided
    assert not q.is_contiguous()
    torch.testing.assert_close(tiled_attention(q, k, v, 4, True),
                               F.scaled_dot_product_attention(q, k, v, is_causal=True))


@pytest.mark.parametrize("is_causal", [False, True])
def test_empty_inputs_behave_as_sdpa(is_causal):
    torch.manual_seed(6)
    for shape in [(2, 2, 4, 0), (2, 2, 0, 4), (0, 2, 4, 4), (2, 0, 4, 4)]:
        q, k, v = qkv(*shape)
        expected = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
        out = tiled_attention(q, k, v, 3, is_causal)
        assert out.shape == expected.shape
        assert torch.equal(out, expected), shape  # no keys: zeros, not NaN


def test_no_keys_gives_zeros_and_finite_gradients():
    q, k, v = qkv(1, 1, 3, 0, requires_grad=True)
    out = tiled_attention(q, k, v, 2, is_causal=True)
    out.sum().backward()
    assert torch.equal(out, torch.zeros(1, 1, 3, 5, dtype=F64))
    assert torch.equal(q.grad, torch.zeros_like(q))


@pytest.mark.parametrize("block_size, error", [
    (0, ValueError), (-3, ValueError), (1.5, TypeError), (True, TypeError), ("8", TypeError),
])
def test_bad_block_size_is_refused(block_size, error):
    q, k, v = qkv(1, 1, 4, 4)
    with pytest.raises(error, match="block_size"):
        tiled_attention(q, k, v, block_size)


@pytest.mark.parametrize("shapes", [
    ((4, 8), (4, 8), (4, 8)),                              # not 4-D
    ((1, 2, 4, 8), (1, 2, 4, 8), (1, 2, 4)),
    ((1, 2, 4, 8), (2, 2, 4, 8), (2, 2, 4, 8)),            # batch
    ((1, 2, 4, 8), (1, 3, 4, 8), (1, 3, 4, 8)),            # heads
    ((1, 2, 4, 8), (1, 2, 5, 8), (1, 2, 6, 8)),            # keys and values
    ((1, 2, 4, 8), (1, 2, 5, 7), (1, 2, 5, 8)),            # query and key widths
])
def test_mismatched_shapes_are_refused(shapes):
    q, k, v = (torch.zeros(shape) for shape in shapes)
    for function in (tiled_attention, textbook_attention):
        with pytest.raises(ValueError, match=r"q, k, v must be \(b, h, L, hd\).*got \["):
            function(q, k, v)


def test_mismatched_or_integer_dtypes_are_refused():
    q, k, v = qkv(1, 1, 4, 4)
    with pytest.raises(TypeError, match="dtype"):
        tiled_attention(q, k.float(), v)
    with pytest.raises(TypeError, match="floating-point"):
        tiled_attention(*(torch.ones(1, 1, 4, 4, dtype=torch.long),) * 3)


def largest_results(run) -> list[torch.Size]:
    """Every shape that a forward and backward pass of `run` creates."""
    with ShapeLog() as log:
        run().sum().backward()
    return log.shapes


def too_large(shapes, b, h, n, hd, block_size) -> list[torch.Size]:
    """Results holding more numbers than the tiled version may: b h n max(hd, B)."""
    bound = b * h * n * max(hd, block_size)
    return [shape for shape in shapes if shape.numel() > bound]


def test_no_n_by_n_tensor_exists_forward_or_backward():
    b, h, n, hd, block_size = 2, 3, 200, 8, 16
    torch.manual_seed(7)
    q, k, v = qkv(b, h, n, n, hd=hd, hd_v=hd, dtype=torch.float32, requires_grad=True)
    for is_causal in (False, True):
        shapes = largest_results(lambda: tiled_attention(q, k, v, block_size, is_causal))
        assert not too_large(shapes, b, h, n, hd, block_size)
        assert not [s for s in shapes if tuple(s[-2:]) == (n, n)]
        assert len(shapes) > 100  # the mode saw the loops' operations


def test_the_shape_check_catches_the_textbook():
    """The same check, on a function that does build the (n, n) weights, fails."""
    b, h, n, hd, block_size = 2, 3, 200, 8, 16
    torch.manual_seed(7)
    q, k, v = qkv(b, h, n, n, hd=hd, hd_v=hd, dtype=torch.float32, requires_grad=True)
    shapes = largest_results(lambda: textbook_attention(q, k, v, is_causal=True))
    assert too_large(shapes, b, h, n, hd, block_size)
    assert max(shape.numel() for shape in shapes) == b * h * n * n


@MEASURES
def test_peak_memory_stays_far_below_one_n_by_n_matrix():
    """One head, n = 8192: a float32 (n, n) matrix alone is 256 MiB.

    The forked child's growth includes pages it copies from its parent, and it may reuse
    memory its parent freed, so the measurement first proves, in the same state, that it sees
    one (n, n) matrix; the tiled version must then need less than half of one. (The textbook
    needs several: chapter 12's table; building them took 10 s here.)
    """
    torch.manual_seed(8)
    q, k, v = qkv(1, 1, 8192, 8192, hd=16, hd_v=16, dtype=torch.float32, requires_grad=True)
    one = bench.peak_mib(lambda: q.sum() * torch.ones(8192, 8192), "cpu")
    tiled = bench.peak_mib(lambda: tiled_attention(q, k, v, 512, is_causal=True), "cpu")
    assert one >= 256 and tiled < 256 / 2, (one, tiled)


def test_flash_benchmark_writes_its_table_and_ratios(tmp_path, capsys):
    flash_bench.main(["--sizes", "8", "20", "--heads", "2", "--head-dim", "4",
                      "--block-size", "8", "--repeats", "1", "--out", str(tmp_path),
                      "--device", "cpu", *MEMORY])
    with open(tmp_path / "flash-cpu.csv") as table:
        rows = list(csv.DictReader(table))
    assert [(int(r["n"]), r["attention"]) for r in rows] == list(
        itertools.product((8, 20), flash_bench.FUNCTIONS))
    for row in rows:
        assert 0 < float(row["forward_s"]) < 10 and 0 < float(row["forward_backward_s"]) < 10
        assert row["peak_mib"].isdigit() if not MEMORY else row["peak_mib"] == ""
    report = (tmp_path / "flash-cpu.md").read_text()
    assert report.startswith("Measured on ") and "load average" in report
    assert "blocks of 8" in report
    lines = report.splitlines()
    assert lines[2] == "| n | textbook_attention | tiled_attention | SDPA |"
    assert [line.split(" | ")[0] for line in lines[4:]] == [
        "| **forward (ms)**", "| 8", "| 20", "| **forward + backward (ms)**", "| 8", "| 20",
        "| **peak memory (MiB)**", "| 8", "| 20"]
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 6 and printed[-1].split()[0] == "20"
    assert len(printed[-1].split()) == 5  # n, then four speed-ups


def test_the_shipped_flash_results_load_as_numbers():
    rows = bench.results("flash-cpu")
    sizes = sorted({row["n"] for row in rows})
    assert len(rows) == len(sizes) * len(flash_bench.FUNCTIONS) and sizes[0] > 0
    assert all(row["forward_s"] > 0 and row["peak_mib"] > 0 for row in rows)


# Issue 24: what a maintainer tried

@pytest.mark.parametrize("block_size", [np.int64(3), torch.tensor(3)])
def test_a_block_size_is_any_integer_python_accepts_as_an_index(block_size):
    q, k, v = qkv(1, 2, 7, 7)
    assert torch.equal(tiled_attention(q, k, v, block_size), tiled_attention(q, k, v, 3))


@pytest.mark.parametrize("function", [tiled_attention, textbook_attention])
@pytest.mark.parametrize("is_causal", ["no", 0, None])
def test_is_causal_must_be_a_bool(function, is_causal):
    q, k, v = qkv(1, 1, 4, 4)
    with pytest.raises(TypeError, match="is_causal must be a bool"):
        function(q, k, v, is_causal=is_causal)


@pytest.mark.parametrize("function", [tiled_attention, textbook_attention])
@pytest.mark.parametrize("which", ["q", "k", "v"])
def test_q_k_v_must_be_tensors(function, which):
    tensors = dict(zip("qkv", qkv(1, 1, 4, 4)))
    tensors[which] = tensors[which].tolist()
    with pytest.raises(TypeError, match=f"{which} must be a Tensor, got <class 'list'>"):
        function(**tensors)


def test_hbm_traffic_counts_what_each_kernel_reads_and_writes():
    """Counted by hand for n = 4 or 5 and hd = 2: the textbook reads Q, K (8 + 8) and writes
    the scores (16); softmax reads them and writes the weights (32); the product reads the
    weights and V (16 + 8) and writes O (8). The tiled loop reads Q and writes O once (8 + 8)
    and each query's log-sum-exp (4), and reads all of K and V (16) once a block of queries."""
    assert hbm_traffic(4, 2) == 8 + 8 + 16 + 32 + 16 + 8 + 8 == 96
    assert hbm_traffic(4, 2, 2) == 8 + 8 + 4 + 2 * 16
    assert hbm_traffic(4, 2, 4) == hbm_traffic(4, 2, 100) == 8 + 8 + 4 + 16  # one block
    assert hbm_traffic(5, 2, 2) == 10 + 10 + 5 + 3 * 20  # a short last block is a block


@pytest.mark.parametrize("args, error, message", [
    ((0, 2), ValueError, "num_tokens must be positive, got 0"),
    ((4, 2.0), TypeError, "head_dim must be an integer, got 2.0"),
    ((4, 2, 0), ValueError, "block_size must be positive, got 0"),
    ((4, 2, True), TypeError, "block_size must be an integer, got True"),
])
def test_hbm_traffic_refuses_sizes_that_are_not_positive_integers(args, error, message):
    with pytest.raises(error, match=message):
        hbm_traffic(*args)
