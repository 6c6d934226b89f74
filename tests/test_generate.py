"""Generation (chapter 11): the mask from positions, the KV cache, TinyGPT.generate, the benchmark."""

import csv

import pytest
import torch

from attnlit import MultiHeadAttention, bench
from attnlit.bench import generate as generate_bench
from attnlit import gpt
from attnlit.gpt import TinyGPT, ablate, load_trained, next_token
from attnlit.kvcache import KVCache, cached_attention, visible


@pytest.fixture
def model():
    torch.manual_seed(0)
    return TinyGPT(vocab_size=50, context_length=24, d_model=16, num_heads=4, num_layers=2).eval()


# The mask, from positions

def test_visible_with_equal_positions_is_chapter_7s_mask_inverted():
    mha = MultiHeadAttention(4, 4, 7, 0.0, num_heads=2)
    positions = torch.arange(7)
    assert torch.equal(~visible(positions, positions), mha.mask)


def test_new_tokens_see_every_cached_key_and_nothing_after_themselves():
    allowed = visible(torch.arange(5, 7), torch.arange(7))  # 2 new tokens after 5 cached
    assert allowed.tolist() == [[True] * 6 + [False], [True] * 7]


def test_a_window_keeps_the_query_and_the_keys_just_before_it():
    positions = torch.arange(6)
    allowed = visible(positions, positions, window=2)
    assert allowed.sum(dim=1).tolist() == [1, 2, 2, 2, 2, 2]
    assert all(allowed[m, m] and allowed[m, m - 1] for m in range(1, 6))
    assert torch.equal(visible(positions, positions, window=6), visible(positions, positions))


@pytest.mark.parametrize("window, error", [(0, ValueError), (1.5, TypeError)])
def test_a_window_must_be_a_positive_integer(window, error):
    with pytest.raises(error, match="window must be"):
        visible(torch.arange(3), torch.arange(3), window=window)
    with pytest.raises(error, match="window must be"):
        KVCache(window=window)


# The cache

def test_the_cache_appends_counts_and_returns_positions():
    cache = KVCache()
    keys, values, positions = cache.update(torch.zeros(2, 3, 4, 5), torch.ones(2, 3, 4, 5))
    assert keys.shape == values.shape == (2, 3, 4, 5) and positions.tolist() == [0, 1, 2, 3]
    keys, values, positions = cache.update(torch.ones(2, 3, 1, 5), torch.zeros(2, 3, 1, 5))
    assert keys.shape == (2, 3, 5, 5) and positions.tolist() == [0, 1, 2, 3, 4]
    assert cache.seen == 5 and torch.equal(cache.keys, keys)
    assert (keys[:, :, 4] == 1).all() and (keys[:, :, :4] == 0).all()  # the new one last
    assert cache.nbytes == 2 * 2 * 3 * 5 * 5 * 4


def test_a_rolling_cache_returns_what_the_new_tokens_may_see_and_keeps_the_last_window():
    cache = KVCache(window=3)
    _, _, positions = cache.update(torch.randn(1, 1, 5, 2), torch.randn(1, 1, 5, 2))
    assert positions.tolist() == [0, 1, 2, 3, 4] and cache.keys.shape[2] == 3
    new = torch.randn(1, 1, 1, 2)
    keys, _, positions = cache.update(new, new)
    assert positions.tolist() == [2, 3, 4, 5] and torch.equal(keys[:, :, -1:], new)
    assert cache.keys.shape[2] == 3 and cache.seen == 6 and torch.equal(cache.keys[:, :, -1:], new)


@pytest.mark.parametrize("keys, values", [
    (torch.zeros(2, 3, 4), torch.zeros(2, 3, 4)),        # not 4-D
    (torch.zeros(1, 2, 3, 4), torch.zeros(1, 2, 4, 4)),  # different numbers of tokens
])
def test_the_cache_refuses_keys_and_values_that_do_not_match(keys, values):
    with pytest.raises(ValueError, match="keys and values must be"):
        KVCache().update(keys, values)


def test_the_cache_refuses_keys_of_another_batch_or_head_count():
    cache = KVCache()
    cache.update(torch.zeros(1, 2, 3, 4), torch.zeros(1, 2, 3, 4))
    with pytest.raises(ValueError, match="do not continue the cache's"):
        cache.update(torch.zeros(2, 2, 1, 4), torch.zeros(2, 2, 1, 4))


def test_an_empty_cache_holds_no_bytes():
    assert KVCache().nbytes == 0


# Attention with a cache

def test_cached_attention_on_a_whole_sequence_is_chapter_7s_forward():
    torch.manual_seed(1)
    mha = MultiHeadAttention(6, 8, 10, 0.0, num_heads=2).double()
    x = torch.randn(3, 10, 6, dtype=torch.float64)
    assert torch.allclose(cached_attention(mha, x, KVCache()), mha(x), atol=1e-12)


@pytest.mark.parametrize("chunks", [[1] * 9, [4, 1, 1, 3], [2, 5, 2]])
def test_cached_attention_in_chunks_equals_the_whole_sequence(chunks):
    torch.manual_seed(2)
    mha = MultiHeadAttention(6, 8, 9, 0.0, num_heads=4).double()
    x = torch.randn(2, 9, 6, dtype=torch.float64)
    cache, outputs, start = KVCache(), [], 0
    for size in chunks:
        outputs.append(cached_attention(mha, x[:, start:start + size], cache))
        start += size
    assert torch.allclose(torch.cat(outputs, dim=1), mha(x), atol=1e-12)
    assert cache.keys.shape == (2, 4, 9, 2)


def test_cached_attention_refuses_another_layer_and_bad_input():
    with pytest.raises(TypeError, match="att must be a MultiHeadAttention"):
        cached_attention(torch.nn.Linear(2, 2), torch.zeros(1, 1, 2), KVCache())
    mha = MultiHeadAttention(6, 8, 9, 0.0, num_heads=2)
    with pytest.raises(ValueError, match="d_in"):
        cached_attention(mha, torch.zeros(1, 2, 5), KVCache())


def test_chapter_10s_hooks_fire_on_the_cached_path(model):
    seen = []
    hook = model.trf_blocks[0].att.dropout.register_forward_hook(
        lambda module, args, out: seen.append(tuple(out.shape)))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(torch.randint(50, (1, 5)), caches)
        model(torch.randint(50, (1, 1)), caches)
    hook.remove()
    assert seen == [(1, 4, 5, 5), (1, 4, 1, 6)]  # (b, h, L, S)


# The whole model

def test_the_model_on_empty_caches_is_the_model_without_them(model):
    idx = torch.randint(50, (3, 11))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        assert torch.allclose(model(idx, caches), model(idx), atol=1e-6)
    assert [cache.seen for cache in caches] == [11, 11]


def test_the_model_one_token_at_a_time_gives_every_position_its_logits(model):
    idx = torch.randint(50, (2, 12))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        steps = [model(idx[:, :3], caches)]
        steps += [model(idx[:, m:m + 1], caches) for m in range(3, 12)]
        assert torch.allclose(torch.cat(steps, dim=1), model(idx), atol=1e-5)


def test_each_new_token_needs_its_own_position(model):
    """Chapter 9's pitfall with learned positions: the same token at position 0 differs."""
    idx = torch.randint(50, (1, 6))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(idx[:, :5], caches)
        right = model(idx[:, 5:], caches)[0, -1]
        alone = model(idx[:, 5:])[0, -1]  # the token as if it stood at position 0
        assert torch.allclose(right, model(idx)[0, -1], atol=1e-5)
        assert not torch.allclose(right, alone, atol=1e-3)


def test_the_model_refuses_positions_past_the_context_and_missing_caches(model):
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(torch.randint(50, (1, 20)), caches)
        with pytest.raises(ValueError, match="the caches hold 20 tokens and idx adds 5: 25, more than "
                                             "context_length=24"):
            model(torch.randint(50, (1, 5)), caches)
    with pytest.raises(ValueError, match="one KVCache per layer, 2, got 1"):
        model(torch.randint(50, (1, 2)), [KVCache()])
    with pytest.raises(ValueError, match="outside 0..49"):
        model(torch.tensor([[50]]), [KVCache(), KVCache()])
    with pytest.raises(TypeError, match="caches must be a list, got <class 'attnlit.kvcache.KVCache'>"):
        model(torch.randint(50, (1, 2)), KVCache())  # the block's argument, not the model's


def test_the_model_takes_the_caches_itself_one_forward_for_both_paths(model):
    """No second forward beside TinyGPT.forward (issue 24): a hook on the model fires on both paths."""
    assert not hasattr(gpt, "cached_forward")
    seen = []
    hook = model.register_forward_hook(lambda module, args, out: seen.append(tuple(out.shape)))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(torch.randint(50, (2, 5)))
        model(torch.randint(50, (2, 4)), caches)
        model(torch.randint(50, (2, 1)), caches)
    hook.remove()
    assert seen == [(2, 5, 50), (2, 4, 50), (2, 1, 50)] and caches[0].seen == 5


# Choosing the next token

def test_temperature_zero_is_greedy():
    logits = torch.tensor([[0.1, 2.0, -1.0], [3.0, 0.0, 2.9]])
    assert next_token(logits).tolist() == [[1], [0]]


def test_top_k_draws_only_among_the_k_best_and_a_generator_repeats_the_draw():
    logits = torch.tensor([[5.0, 0.0, 4.0, 3.0, -1.0]]).expand(2000, 5)
    draw = next_token(logits, temperature=10.0, top_k=3, generator=torch.Generator().manual_seed(0))
    assert set(draw.flatten().tolist()) == {0, 2, 3}  # every one of the 3, nothing else
    again = next_token(logits, temperature=10.0, top_k=3, generator=torch.Generator().manual_seed(0))
    assert torch.equal(draw, again)


def test_temperature_sharpens_and_flattens():
    logits = torch.tensor([[1.0, 0.0]]).expand(4000, 2)

    def share_of_best(temperature):
        gen = torch.Generator().manual_seed(1)
        return (next_token(logits, temperature, generator=gen) == 0).float().mean().item()

    # softmax of (1, 0) / T: 0.73 at T = 1, 0.99995 at T = 0.1, 0.52 at T = 10
    assert share_of_best(0.1) > 0.99 and 0.70 < share_of_best(1.0) < 0.76 and share_of_best(10.0) < 0.56


@pytest.mark.parametrize("kwargs, error, message", [
    ({"temperature": -1.0}, ValueError, "temperature must be finite and >= 0"),
    ({"temperature": "hot"}, TypeError, "temperature must be a real number"),
    ({"temperature": True}, TypeError, "temperature must be a real number"),
    ({"top_k": 0}, ValueError, "top_k must be positive"),
    ({"top_k": 4}, ValueError, "top_k must be at most the vocabulary size 3, got 4"),
    ({"top_k": 2.0}, TypeError, "top_k must be an integer"),
    ({"generator": 0}, TypeError, "generator must be a torch.Generator"),
])
def test_bad_sampling_settings_are_refused_by_name(kwargs, error, message):
    with pytest.raises(error, match=message):
        next_token(torch.zeros(1, 3), **{"temperature": 1.0, **kwargs})


# TinyGPT.generate

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generate_with_the_cache_equals_generate_without_on_random_weights(seed):
    torch.manual_seed(seed)
    model = TinyGPT(50, 24, 32, num_heads=4, num_layers=3).eval()
    prompts = torch.randint(50, (4, 5))
    greedy = [model.generate(prompts, 19, use_cache=cache) for cache in (True, False)]
    assert greedy[0].shape == (4, 24) and torch.equal(*greedy)
    assert torch.equal(greedy[0][:, :5], prompts)
    sampled = [model.generate(prompts, 19, use_cache=cache, temperature=1.5, top_k=10,
                              generator=torch.Generator().manual_seed(seed)) for cache in (True, False)]
    assert torch.equal(*sampled) and not torch.equal(sampled[0], greedy[0])


def test_generate_with_the_cache_equals_generate_without_on_the_trained_model():
    model = load_trained()
    prompts = torch.randint(model.vocab_size, (64, 9), generator=torch.Generator().manual_seed(3))
    assert torch.equal(model.generate(prompts, 23), model.generate(prompts, 23, use_cache=False))


def test_the_logits_of_the_two_paths_agree_at_every_step():
    model = load_trained()
    idx = torch.randint(model.vocab_size, (8, 4), generator=torch.Generator().manual_seed(4))
    caches = [KVCache() for _ in model.trf_blocks]
    unread = idx
    with torch.no_grad():
        for _ in range(28):
            cached = model(unread, caches)[:, -1]
            assert torch.allclose(cached, model(idx)[:, -1], atol=1e-5)
            unread = next_token(cached)
            idx = torch.cat([idx, unread], dim=1)


def test_the_trained_model_copies_the_rest_of_the_repeat():
    model = load_trained()
    half = model.context_length // 2
    gen = torch.Generator().manual_seed(11)
    first = torch.stack([torch.randperm(model.vocab_size, generator=gen)[:half] for _ in range(300)])
    out = model.generate(torch.cat([first, first[:, :1]], dim=1), half - 1)
    assert (out[:, half + 1:] == first[:, 1:]).float().mean() >= 0.95


def test_generation_with_ablated_heads_uses_the_ablation_on_both_paths():
    model = load_trained()
    half = model.context_length // 2
    gen = torch.Generator().manual_seed(12)
    first = torch.stack([torch.randperm(model.vocab_size, generator=gen)[:half] for _ in range(100)])
    prompt = torch.cat([first, first[:, :1]], dim=1)
    with ablate(model, [(1, 0), (1, 1)]):  # both induction heads
        cached, full = (model.generate(prompt, half - 1, use_cache=c) for c in (True, False))
    assert torch.equal(cached, full)
    assert (cached[:, half + 1:] == first[:, 1:]).float().mean() < 0.1  # no copying left


def test_a_rolling_cache_generates_what_the_banded_mask_gives_the_whole_sequence(model):
    window = 4
    positions = torch.arange(model.context_length)
    for block in model.trf_blocks:  # full recomputation under the banded mask
        block.att.mask = ~visible(positions, positions, window)
    prompt = torch.randint(50, (3, 6))
    full = model.generate(prompt, 18, use_cache=False)
    caches = [KVCache(window=window) for _ in model.trf_blocks]
    idx, unread = prompt, prompt
    with torch.no_grad():
        for _ in range(18):
            unread = next_token(model(unread, caches)[:, -1])
            idx = torch.cat([idx, unread], dim=1)
            assert all(cache.keys.shape[2] <= window for cache in caches)
    assert torch.equal(idx, full)
    for block in model.trf_blocks:  # and the window changed what the model writes
        block.att.mask = ~visible(positions, positions)
    assert not torch.equal(model.generate(prompt, 18, use_cache=False), full)


@pytest.mark.parametrize("prompt, new, error, message", [
    (torch.zeros(1, 20, dtype=torch.long), 5, ValueError,
     "idx has 20 tokens, 25 with max_new_tokens=5: more than context_length=24"),
    (torch.zeros(1, 0, dtype=torch.long), 3, ValueError, "idx must hold at least one token"),
    (torch.zeros(1, 2, dtype=torch.long), 0, ValueError, "max_new_tokens must be positive"),
    (torch.zeros(1, 2, dtype=torch.long), 2.0, TypeError, "max_new_tokens must be an integer"),
    (torch.zeros(2, dtype=torch.long), 3, ValueError, r"idx must have shape \(batch, num_tokens\)"),
])
def test_generate_refuses_bad_requests_by_name(model, prompt, new, error, message):
    with pytest.raises(error, match=message):
        model.generate(prompt, new)


def test_generate_reaches_exactly_the_context_length(model):
    assert model.generate(torch.zeros(1, 20, dtype=torch.long), 4).shape == (1, 24)


def test_generate_is_a_method_of_every_tinygpt_and_leaves_no_gradient(model):
    assert TinyGPT.generate.__module__ == "attnlit.gpt"
    assert not model.generate(torch.zeros(1, 2, dtype=torch.long), 3).requires_grad


# The benchmark

def test_generation_benchmark_writes_its_table_and_ratios(tmp_path, capsys):
    generate_bench.main(["--sizes", "8", "16", "--width", "16", "--heads", "2", "--layers", "2",
                         "--vocab", "20", "--repeats", "1", "--out", str(tmp_path), "--device", "cpu"])
    with open(tmp_path / "generate-cpu.csv") as table:
        rows = list(csv.DictReader(table))
    assert [(int(r["n"]), r["cache"]) for r in rows] == [(8, "without"), (8, "with"),
                                                         (16, "without"), (16, "with")]
    for row in rows:
        assert 0 < float(row["step_s"]) < 10
        # 2 layers, keys and values, 2 heads of width 8, n tokens, 4 bytes
        expected = "" if row["cache"] == "without" else str(2 * 2 * 16 * int(row["n"]) * 4)
        assert row["cache_bytes"] == expected
    report = (tmp_path / "generate-cpu.md").read_text()
    assert report.startswith("Measured on ") and "load average" in report
    lines = report.splitlines()
    assert lines[2] == "| n | without the cache | with the cache |"
    assert lines[-1].startswith("| 16 |  | 0.00 |")  # no cache without it; 4 KiB with it
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 and printed[1].startswith("n = 16: with the cache, ")


def test_the_shipped_generation_results_load_as_numbers():
    rows = bench.results("generate-cpu")
    sizes = sorted({row["n"] for row in rows})
    assert len(rows) == 2 * len(sizes) and sizes[0] > 0
    assert all(row["step_s"] > 0 for row in rows)
    assert all(row["cache_bytes"] > 0 for row in rows if row["cache"] == "with")
    assert all(row["cache_bytes"] == "" for row in rows if row["cache"] == "without")


def test_results_fields_become_numbers_where_they_are_numbers():
    assert [bench.number(field) for field in ("12", "0.5", "1e-05", "", "fused")] == [12, 0.5, 1e-05, "", "fused"]


# Issue 24: what a maintainer tried

@pytest.mark.parametrize("window", [None, 2])
def test_an_empty_step_returns_an_empty_output_and_leaves_the_cache_alone(window):
    torch.manual_seed(5)
    mha = MultiHeadAttention(6, 8, 10, 0.0, num_heads=2).double()
    x = torch.randn(2, 7, 6, dtype=torch.float64)
    cache = KVCache(window=window)
    first = cached_attention(mha, x[:, :4], cache)
    held = cache.keys
    empty = cached_attention(mha, x[:, 4:4], cache)                 # no new token
    assert empty.shape == (2, 0, 8) and cache.seen == 4 and torch.equal(cache.keys, held)
    rest = cached_attention(mha, x[:, 4:], cache)
    positions = torch.arange(7)
    mha.mask = ~visible(positions, positions, window)
    assert torch.allclose(torch.cat([first, empty, rest], dim=1), mha(x), atol=1e-12)


def test_an_empty_step_of_the_model_gives_empty_logits(model):
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(torch.randint(50, (2, 3)), caches)
        empty = model(torch.zeros(2, 0, dtype=torch.long), caches)
    assert empty.shape == (2, 0, 50) and [cache.seen for cache in caches] == [3, 3]


def test_every_positive_finite_temperature_draws_from_the_limit_of_the_softmax():
    logits = torch.tensor([[2.0, 1.0, 2.0, -torch.inf, 0.5]]).expand(400, 5)
    for temperature in (1e-3, 1e-30, 1e-40, 1e-45, 1e-300, 5e-324):
        draw = next_token(logits, temperature, generator=torch.Generator().manual_seed(0))
        assert set(draw.flatten().tolist()) == {0, 2}, temperature  # the two best, tied
    huge = next_token(logits, 1e30, generator=torch.Generator().manual_seed(0))
    assert set(huge.flatten().tolist()) == {0, 1, 2, 4}  # near uniform, never the -inf one


@pytest.mark.parametrize("temperature", [float("nan"), float("inf")])
def test_a_temperature_that_is_not_finite_is_refused(temperature):
    with pytest.raises(ValueError, match="temperature must be finite and >= 0"):
        next_token(torch.zeros(1, 3), temperature)


@pytest.mark.parametrize("logits, error, message", [
    (torch.zeros(3), ValueError, r"logits must have shape \(batch, vocab_size\), got \(3,\)"),
    (torch.zeros(1, 2, 3), ValueError, r"logits must have shape \(batch, vocab_size\), got \(1, 2, 3\)"),
    (torch.zeros(1, 3, dtype=torch.long), TypeError, "logits must be a floating-point tensor"),
    ([[0.0, 1.0]], TypeError, "logits must be a floating-point tensor"),
])
@pytest.mark.parametrize("settings", [{}, {"temperature": 1.0, "top_k": 2}])
def test_logits_that_are_not_a_batch_of_rows_are_refused(logits, error, message, settings):
    with pytest.raises(error, match=message):
        next_token(logits, **settings)


def test_the_cache_refuses_keys_of_another_head_width():
    cache = KVCache()
    cache.update(torch.zeros(1, 2, 3, 4), torch.zeros(1, 2, 3, 4))
    with pytest.raises(ValueError, match=r"keys \(1, 2, 1, 8\) do not continue the cache's \(1, 2, 3, 4\)"):
        cache.update(torch.zeros(1, 2, 1, 8), torch.zeros(1, 2, 1, 4))
    with pytest.raises(ValueError, match=r"values \(1, 2, 1, 8\) do not continue the cache's \(1, 2, 3, 4\)"):
        cache.update(torch.zeros(1, 2, 1, 4), torch.zeros(1, 2, 1, 8))
    assert cache.seen == 3


def test_the_cache_refuses_values_that_are_not_4_d():
    with pytest.raises(ValueError, match="keys and values must be"):
        KVCache().update(torch.zeros(1, 2, 3, 4), torch.zeros(1, 2, 3))


@pytest.mark.parametrize("keys, values, cached, message", [
    (torch.float32, torch.float64, None, "keys and values must share one floating-point dtype, "
                                         "got torch.float32 and torch.float64"),
    (torch.long, torch.long, None, "keys and values must share one floating-point dtype"),
    (torch.float64, torch.float64, torch.float32, "keys must have the cache's dtype torch.float32, "
                                                  "got torch.float64"),
])
def test_the_cache_refuses_mixed_dtypes(keys, values, cached, message):
    cache = KVCache()
    if cached is not None:
        cache.update(torch.zeros(1, 2, 3, 4, dtype=cached), torch.zeros(1, 2, 3, 4, dtype=cached))
    with pytest.raises(TypeError, match=message):
        cache.update(torch.zeros(1, 2, 1, 4, dtype=keys), torch.zeros(1, 2, 1, 4, dtype=values))


def test_the_cache_refuses_what_is_not_a_tensor():
    with pytest.raises(TypeError, match="keys must be a Tensor"):
        KVCache().update([[0.0]], torch.zeros(1, 1, 1, 1))


@pytest.mark.parametrize("use_cache", ["no", 0, None])
def test_use_cache_must_be_a_bool(model, use_cache):
    with pytest.raises(TypeError, match="use_cache must be a bool"):
        model.generate(torch.zeros(1, 2, dtype=torch.long), 3, use_cache=use_cache)


def test_generate_is_defined_in_the_class_where_tools_can_see_it():
    assert "generate" in vars(TinyGPT) and TinyGPT.generate.__qualname__ == "TinyGPT.generate"


def test_the_cached_path_runs_each_block_through_its_own_forward(model):
    """One code path: hooks on a block fire with and without the cache, on the same inputs."""
    seen = []
    hooks = [block.register_forward_hook(lambda module, args, out: seen.append(tuple(out.shape)))
             for block in model.trf_blocks]
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        model(torch.randint(50, (1, 5)), caches)
        model(torch.randint(50, (1, 1)), caches)
    for hook in hooks:
        hook.remove()
    assert seen == [(1, 5, 16)] * 2 + [(1, 1, 16)] * 2


@pytest.mark.parametrize("settings", [{}, {"temperature": 1.0}, {"temperature": 1.0, "top_k": 2}])
def test_nan_logits_are_refused_by_name(settings):
    """Greedy would pick the NaN (argmax takes it as the largest); sampling fails in multinomial."""
    logits = torch.tensor([[1.0, 0.5, 0.0], [2.0, torch.nan, 0.0]])
    with pytest.raises(ValueError, match=r"logits must not be NaN, got NaN in rows \[1\]"):
        next_token(logits, **settings)


@pytest.mark.parametrize("settings", [{}, {"temperature": 1.0}, {"temperature": 1.0, "top_k": 2}])
def test_a_row_of_minus_inf_logits_is_refused_by_name(settings):
    """No token can be drawn: greedy would return id 0 and sampling an even draw."""
    logits = torch.tensor([[1.0, 0.5, 0.0], [-torch.inf] * 3])
    with pytest.raises(ValueError, match=r"logits must leave a token to draw: rows \[1\] are all -inf"):
        next_token(logits, **settings)


@pytest.mark.parametrize("settings", [{}, {"temperature": 1.0}, {"temperature": 1e-40}, {"temperature": 1e30},
                                      {"temperature": 1.0, "top_k": 1}])
def test_plus_inf_logits_are_certain_tokens(settings):
    """+inf is the limit of a logit that grows: its token gets all the probability, ties shared evenly."""
    logits = torch.tensor([[0.0, torch.inf, 5.0, -torch.inf]]).expand(200, 4)
    draw = next_token(logits, **settings, generator=torch.Generator().manual_seed(0))
    assert set(draw.flatten().tolist()) == {1}
    tied = torch.tensor([[torch.inf, 0.0, torch.inf]]).expand(400, 3)
    draw = next_token(tied, temperature=1.0, generator=torch.Generator().manual_seed(0))
    assert set(draw.flatten().tolist()) == {0, 2} and 0.4 < (draw == 0).float().mean() < 0.6
