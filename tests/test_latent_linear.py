"""Chapter 15: latent attention's two decode paths, the fixed-state rules, their layers and commands."""

import csv

import pytest
import torch
import torch.nn.functional as F

from attnlit.bench import latent as bench_latent
from attnlit.gpt import TinyGPT
from attnlit.kvcache import KVCache
from attnlit.latent import LatentAttention
from attnlit.linear import (StateAttention, StateGPT, delta_rule_chunked, delta_rule_recurrent,
                            feature_map, linear_attention_parallel, linear_attention_recurrent)
from attnlit.train import state as train_state


def layer(**sizes) -> LatentAttention:
    torch.manual_seed(1)
    widths = dict(d_model=24, num_heads=3, q_lora_rank=10, kv_lora_rank=6, qk_nope_head_dim=5,
                  qk_rope_head_dim=4, v_head_dim=7, context_length=16) | sizes
    return LatentAttention(**widths).double()


def heads(n: int = 11, dk: int = 4, dv: int = 3, seed: int = 0):
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(2, 2, n, dk, generator=generator, dtype=torch.float64)
    k = F.normalize(torch.randn(2, 2, n, dk, generator=generator, dtype=torch.float64), dim=-1)
    v = torch.randn(2, 2, n, dv, generator=generator, dtype=torch.float64)
    beta = torch.rand(2, 2, n, generator=generator, dtype=torch.float64)
    decay = 0.3 + 0.7 * torch.rand(2, 2, n, generator=generator, dtype=torch.float64)
    return q, k, v, beta, decay


@pytest.mark.parametrize("absorb", [False, True])
def test_latent_attention_reads_any_split_of_the_sequence_as_the_whole(absorb):
    """Widths unlike the page's (d_v != d_h, d_c < d_h), chunks of 4, 1, 6 tokens after 5."""
    mla = layer()
    x = torch.randn(2, 16, 24, dtype=torch.float64)
    cache = KVCache()
    with torch.no_grad():
        whole = mla(x)
        parts = [mla(x[:, a:b], cache, absorb) for a, b in ((0, 5), (5, 9), (9, 10), (10, 16))]
    assert (torch.cat(parts, dim=1) - whole).abs().max() < 1e-12
    assert cache.keys.shape == (2, 1, 16, 6) and cache.values.shape == (2, 1, 16, 4)
    assert cache.nbytes == 2 * 16 * (6 + 4) * 8       # b * S * (d_c + d_r) float64 numbers


def test_latent_attention_is_causal_and_turns_its_rope_key_by_position():
    mla = layer()
    x = torch.randn(1, 8, 24, dtype=torch.float64)
    changed = x.clone()
    changed[:, 5] += 1.0
    with torch.no_grad():
        assert torch.equal(mla(x)[:, :5], mla(changed)[:, :5])
        # the same two tokens read at positions 0, 1 and at 6, 7: RoPE makes them differ
        cache = KVCache()
        mla(torch.randn(1, 6, 24, dtype=torch.float64), cache)
        late = mla(x[:, :2], cache)
    with torch.no_grad():
        lone = KVCache()
        early = mla(x[:, :2], lone)
    assert not torch.allclose(late, early)


@pytest.mark.parametrize("sizes, error, message", [
    ({"qk_rope_head_dim": 3}, ValueError, "qk_rope_head_dim must be even"),
    ({"kv_lora_rank": 0}, ValueError, "kv_lora_rank must be positive, got 0"),
    ({"v_head_dim": 2.0}, TypeError, "v_head_dim must be an integer, got 2.0"),
])
def test_a_latent_layer_that_cannot_work_is_refused(sizes, error, message):
    with pytest.raises(error, match=message):
        layer(**sizes)


def test_latent_attention_refuses_bad_input_in_words():
    mla = layer()
    with pytest.raises(ValueError, match=r"x must have shape \(batch, num_tokens, d_in\) with d_in=24"):
        mla(torch.zeros(1, 3, 23, dtype=torch.float64))
    with pytest.raises(TypeError, match="x must have the weights' dtype torch.float64"):
        mla(torch.zeros(1, 3, 24))
    with pytest.raises(TypeError, match="absorb must be a bool"):
        mla(torch.zeros(1, 3, 24, dtype=torch.float64), absorb=1)
    cache = KVCache()
    mla(torch.zeros(1, 14, 24, dtype=torch.float64), cache)
    with pytest.raises(ValueError, match="the cache holds 14 tokens and x adds 3: more than context_length=16"):
        mla(torch.zeros(1, 3, 24, dtype=torch.float64), cache)
    with pytest.raises(ValueError, match="LatentAttention takes a KVCache without a window, got window=4"):
        mla(torch.zeros(1, 3, 24, dtype=torch.float64), KVCache(window=4))


@pytest.mark.parametrize("n", [1, 2, 13])
def test_linear_attention_is_the_same_in_parallel_and_a_token_at_a_time(n):
    q, k, v, _, _ = heads(n)
    q, k = feature_map(q), feature_map(k)
    assert (linear_attention_parallel(q, k, v) - linear_attention_recurrent(q, k, v)).abs().max() < 1e-13


@pytest.mark.parametrize("chunk", [1, 3, 11, 40])
@pytest.mark.parametrize("gated", [False, True])
def test_the_delta_rule_is_the_same_in_chunks_of_any_size(chunk, gated):
    q, k, v, beta, decay = heads(11)
    decay = decay if gated else None
    one = delta_rule_recurrent(q, k, v, beta, decay)
    assert (delta_rule_chunked(q, k, v, beta, decay, chunk=chunk) - one).abs().max() < 1e-13


def test_a_full_write_replaces_the_value_of_its_key_and_a_zero_decay_forgets_everything():
    """beta = 1 on orthonormal keys: each key reads back its latest value; decay 0 at token t:
    the outputs from t on do not depend on the tokens before t."""
    keys = torch.eye(4, dtype=torch.float64)[[0, 1, 0, 2]][None, None]     # key 0 written twice
    values = torch.arange(12, dtype=torch.float64).view(1, 1, 4, 3)
    beta = torch.ones(1, 1, 4, dtype=torch.float64)
    _, state = delta_rule_recurrent(keys, keys, values, beta, final=True)
    read = torch.eye(4, dtype=torch.float64)[:3] @ state[0, 0]             # keys 0, 1, 2
    assert torch.equal(read, values[0, 0, [2, 1, 3]])
    q, k, v, beta, decay = heads(9)
    decay[..., 4] = 0.0
    changed = v.clone()
    changed[..., :4, :] += 1.0
    for rule in (delta_rule_recurrent, delta_rule_chunked):
        assert (rule(q, k, v, beta, decay)[..., 4:, :]
                - rule(q, k, changed, beta, decay)[..., 4:, :]).abs().max() < 1e-12


@pytest.mark.parametrize("change, message", [
    (lambda q, k, v, b: (q, k[..., :3], v, b), r"q, k, v must be \(b, h, L, hd\), \(b, h, S, hd\)"),
    (lambda q, k, v, b: (q, k, v[:, :, :5], b), r"q, k, v must be \(b, h, L, hd\), \(b, h, S, hd\)"),
    (lambda q, k, v, b: (q[:, :, :5], k, v, b), "q and k must hold the same n tokens, got 5 and 11"),
    (lambda q, k, v, b: (q.float(), k, v, b), "q, k and v must share one floating-point dtype"),
    (lambda q, k, v, b: (q, k, v, b[..., :5]), r"beta must be \(b, h, n\) = \(2, 2, 11\)"),
])
def test_heads_that_do_not_fit_are_refused_in_words(change, message):
    q, k, v, beta, _ = heads()
    q, k, v, beta = change(q, k, v, beta)
    error = TypeError if "dtype" in message else ValueError
    for call in (lambda: delta_rule_recurrent(q, k, v, beta), lambda: delta_rule_chunked(q, k, v, beta)):
        with pytest.raises(error, match=message):
            call()
    with pytest.raises(ValueError, match="chunk must be a positive integer, got 0"):
        delta_rule_chunked(*heads()[:4], chunk=0)
    q, k, v, beta, decay = heads()
    decay[0, 0, 3] = 1.5
    with pytest.raises(ValueError, match="decay must be between 0 and 1"):
        delta_rule_chunked(q, k, v, beta, decay)
    with pytest.raises(ValueError, match="beta must be between 0 and 1"):
        delta_rule_recurrent(q, k, v, beta + 1.0)
    with pytest.raises(TypeError, match="beta must be a Tensor"):
        delta_rule_recurrent(q, k, v, None)
    with pytest.raises(ValueError, match="at least one token, got n = 0"):
        delta_rule_chunked(q[:, :, :0], k[:, :, :0], v[:, :, :0], beta[:, :, :0])
    with pytest.raises(TypeError, match="must be float32 or float64, got torch.bfloat16"):
        delta_rule_chunked(q.bfloat16(), k.bfloat16(), v.bfloat16(), beta.bfloat16())
    for linear in (linear_attention_parallel, linear_attention_recurrent):
        with pytest.raises(ValueError, match="q and k must not be negative: pass them through feature_map"):
            linear(q, k, v)


@pytest.mark.parametrize("rule", ["linear", "delta", "gated"])
def test_each_state_layer_is_causal_and_learns_through_its_own_parameters(rule):
    torch.manual_seed(0)
    att = StateAttention(16, 2, rule)
    x = torch.randn(2, 10, 16)
    changed = x.clone()
    changed[:, 6] += 1.0
    assert torch.allclose(att(x)[:, :6], att(changed)[:, :6], atol=1e-6)
    assert not torch.allclose(att(x)[:, 6:], att(changed)[:, 6:])
    att(x).sum().backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in att.parameters())


def test_a_state_gpt_of_softmax_layers_is_chapter_10s_tinygpt():
    torch.manual_seed(0)
    plain = TinyGPT(32, 8, 16, 2, 2)
    torch.manual_seed(0)
    same = StateGPT(32, 8, 16, 2, 2, rules=("softmax", "softmax"))
    ids = torch.randint(32, (2, 8))
    assert torch.equal(plain(ids), same(ids))
    torch.manual_seed(0)
    hybrid = StateGPT(32, 8, 16, 2, 2, rules=("gated", "softmax"))
    extra = sum(p.numel() for p in hybrid.parameters()) - sum(p.numel() for p in plain.parameters())
    assert extra == 2 * (16 * 2 + 2)                  # W_beta and W_decay, one number per head
    assert hybrid.generate(ids[:, :3], 2, use_cache=False).shape == (2, 5)
    with pytest.raises(ValueError, match="StateGPT reads whole sequences"):
        hybrid.generate(ids[:, :3], 2)


@pytest.mark.parametrize("make, error, message", [
    (lambda: StateAttention(16, 2, "softmax"), ValueError, "rule must be one of"),
    (lambda: StateAttention(15, 2, "linear"), ValueError, "d_model=15 must be divisible by num_heads=2"),
    (lambda: StateGPT(32, 8, 16, 2, 2, rules=("gated",)), ValueError, "rules must name one of"),
    (lambda: StateGPT(32, 8, 16, 2, 2, rules=("gated", "lstm")), ValueError, "rules must name one of"),
])
def test_a_state_layer_or_model_that_cannot_work_is_refused(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_the_copy_command_trains_each_model_at_each_length(tmp_path):
    train_state.main(["--models", "softmax", "hybrid", "--lengths", "2", "3", "--steps", "2",
                      "--batch", "2", "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "copy.csv").read_text().splitlines()))
    assert [(row["model"], row["length"]) for row in rows] == [
        ("softmax", "2"), ("softmax", "3"), ("hybrid", "2"), ("hybrid", "3")]
    assert all(0 <= float(row["accuracy"]) <= 1 for row in rows)
    assert int(rows[2]["parameters"]) - int(rows[0]["parameters"]) == 2 * (64 * 2 + 2)
    assert "2 steps of 2 sequences each, seed 0" in (tmp_path / "copy.md").read_text()


@pytest.mark.parametrize("argv, option", [
    (["--lengths", "1"], "--lengths"),
    (["--models", "lstm"], "--models"),
    (["--steps", "0"], "--steps"),
])
def test_the_copy_command_refuses_nonsense_before_any_work(argv, option, tmp_path, capsys):
    with pytest.raises(SystemExit):
        train_state.main([*argv, "--out", str(tmp_path)])
    assert f"argument {option}" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_shipped_copy_runs_are_every_model_at_the_commands_lengths():
    runs = train_state.copy_results()
    defaults = train_state.options().parse_args([])
    assert [(run["model"], int(run["length"])) for run in runs] == [
        (name, length) for name in train_state.MODELS for length in defaults.lengths]


def test_the_decode_benchmark_times_each_design_and_counts_its_cache(tmp_path):
    bench_latent.main(["--sizes", "4", "9", "--repeats", "1", "--width", "32", "--heads", "4",
                       "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "latent-cpu.csv").read_text().splitlines()))
    held = {(row["design"], row["n"]): int(row["cache_bytes"]) for row in rows}
    hd = 32 // 4
    assert held["multi-head", "9"] == 9 * 2 * 4 * hd * 4                 # float32
    assert held["grouped-query", "9"] == 9 * 2 * 1 * hd * 4
    assert held["naive", "9"] == held["absorbed", "9"] == 9 * (4 * hd + hd // 2) * 4
    assert all(float(row["step_s"]) > 0 for row in rows)

@pytest.mark.parametrize("width, heads", [(30, 4), (96, 16), (72, 9)])
def test_the_decode_benchmark_refuses_widths_it_cannot_build(width, heads, tmp_path, capsys):
    """30 / 4 is no whole head; heads of 6 give an odd d_r of 3; 9 heads do not split into 2 groups."""
    with pytest.raises(SystemExit):
        bench_latent.main(["--width", str(width), "--heads", str(heads), "--out", str(tmp_path)])
    assert "argument --heads" in capsys.readouterr().err
