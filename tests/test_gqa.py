"""Grouped-query attention and sliding windows (page 11b), against chapter 7's layer and PyTorch's kernel."""

import pytest
import torch
import torch.nn.functional as F

from attnlit import GroupedQueryAttention, MultiHeadAttention
from attnlit.kvcache import KVCache, visible


def projections(gqa: GroupedQueryAttention, x: torch.Tensor):
    """The layer's queries (b, h, n, hd), keys and values (b, g, n, hd)."""
    return (gqa.split(gqa.W_query(x), gqa.num_heads), gqa.split(gqa.W_key(x), gqa.num_kv_groups),
            gqa.split(gqa.W_value(x), gqa.num_kv_groups))


def merged(gqa: GroupedQueryAttention, context: torch.Tensor) -> torch.Tensor:
    b, _, n, _ = context.shape
    return gqa.out_proj(context.transpose(1, 2).reshape(b, n, gqa.d_out))


@pytest.mark.parametrize("qkv_bias", [False, True])
def test_one_group_per_head_draws_and_computes_exactly_chapter_7s_layer(qkv_bias):
    torch.manual_seed(5)
    mha = MultiHeadAttention(6, 12, 8, 0.0, num_heads=3, qkv_bias=qkv_bias)
    torch.manual_seed(5)
    gqa = GroupedQueryAttention(6, 12, 8, 0.0, num_heads=3, num_kv_groups=3, qkv_bias=qkv_bias)
    assert gqa.state_dict().keys() == mha.state_dict().keys()
    assert all(torch.equal(a, b) for a, b in zip(gqa.state_dict().values(), mha.state_dict().values()))
    x = torch.randn(2, 8, 6)
    assert torch.equal(gqa(x), mha(x))


def test_a_multi_head_state_dict_loads_and_computes_the_same():
    torch.manual_seed(6)
    mha = MultiHeadAttention(10, 16, 12, 0.0, num_heads=4, qkv_bias=True)
    gqa = GroupedQueryAttention(10, 16, 12, 0.0, num_heads=4, num_kv_groups=4, qkv_bias=True)
    gqa.load_state_dict(mha.state_dict())
    x = torch.randn(3, 12, 10)
    assert torch.equal(gqa(x), mha(x))


@pytest.mark.parametrize("heads, groups", [(8, 8), (8, 4), (8, 2), (8, 1), (6, 3), (3, 1)])
def test_equal_to_sdpa_with_shared_heads_and_with_repeated_heads(heads, groups):
    torch.manual_seed(7)
    gqa = GroupedQueryAttention(9, heads * 4, 11, 0.0, heads, groups, qkv_bias=True).double()
    x = torch.randn(2, 11, 9, dtype=torch.float64)
    q, k, v = projections(gqa, x)
    assert k.shape == v.shape == (2, groups, 11, 4)
    shared = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    size = heads // groups
    repeated = F.scaled_dot_product_attention(q, k.repeat_interleave(size, dim=1),
                                              v.repeat_interleave(size, dim=1), is_causal=True)
    expected = gqa(x)
    assert torch.allclose(merged(gqa, shared), expected, atol=1e-12)
    assert torch.allclose(merged(gqa, repeated), expected, atol=1e-12)


def test_query_head_i_uses_the_key_value_head_of_its_group():
    """Change key/value head 1 of 2: only query heads 2 and 3 (of 4) see it."""
    torch.manual_seed(8)
    gqa = GroupedQueryAttention(4, 8, 5, 0.0, num_heads=4, num_kv_groups=2)
    caught = []
    gqa.out_proj.register_forward_pre_hook(lambda module, args: caught.append(args[0].detach()))
    x = torch.randn(1, 5, 4)
    gqa(x)
    with torch.no_grad():
        gqa.W_value.weight[2:4] += 1.0  # rows of key/value head 1 (head width 2)
    gqa(x)
    before, after = caught  # (1, 5, 8): 4 query heads of width 2
    changed = (before != after).any(dim=1)[0].view(4, 2).any(dim=1)
    assert changed.tolist() == [False, False, True, True]


def test_multi_query_attention_has_one_key_and_one_value_head():
    gqa = GroupedQueryAttention(32, 32, 4, 0.0, num_heads=8, num_kv_groups=1)
    assert gqa.W_key.weight.shape == gqa.W_value.weight.shape == (4, 32)
    assert gqa.group_size == 8 and gqa.head_dim == 4


@pytest.mark.parametrize("kwargs, error, message", [
    ({"num_kv_groups": 3}, ValueError, "num_heads=4 must be divisible by num_kv_groups=3"),
    ({"num_kv_groups": 8}, ValueError, "num_heads=4 must be divisible by num_kv_groups=8"),
    ({"num_kv_groups": 0}, ValueError, "num_kv_groups must be positive"),
    ({"num_kv_groups": 2.0}, TypeError, "num_kv_groups must be an integer"),
    ({"d_out": 6}, ValueError, "d_out must be divisible by num_heads"),
    ({"dropout": -0.1}, ValueError, r"dropout must be in \[0, 1\)"),
])
def test_bad_sizes_are_refused_by_name(kwargs, error, message):
    sizes = {"d_in": 8, "d_out": 8, "context_length": 4, "dropout": 0.0, "num_heads": 4,
             "num_kv_groups": 2}
    with pytest.raises(error, match=message):
        GroupedQueryAttention(**{**sizes, **kwargs})


def test_input_longer_than_the_context_is_refused():
    gqa = GroupedQueryAttention(4, 4, 5, 0.0, num_heads=2, num_kv_groups=1)
    with pytest.raises(ValueError, match="6 tokens, more than context_length=5"):
        gqa(torch.zeros(1, 6, 4))


@pytest.mark.parametrize("chunks", [[1] * 10, [3, 1, 4, 2], [10]])
def test_with_a_cache_it_computes_the_whole_sequence_and_keeps_g_heads(chunks):
    torch.manual_seed(9)
    gqa = GroupedQueryAttention(8, 16, 10, 0.0, num_heads=8, num_kv_groups=2).double()
    x = torch.randn(2, 10, 8, dtype=torch.float64)
    cache, outputs, start = KVCache(), [], 0
    for size in chunks:
        outputs.append(gqa(x[:, start:start + size], cache))
        start += size
    assert torch.allclose(torch.cat(outputs, dim=1), gqa(x), atol=1e-12)
    assert cache.keys.shape == cache.values.shape == (2, 2, 10, 2)
    assert cache.nbytes == 2 * 2 * 2 * 10 * 2 * 8  # keys and values, b, g, n, hd, float64


def test_the_cache_shrinks_by_num_heads_over_num_kv_groups():
    torch.manual_seed(10)
    x = torch.randn(1, 6, 16)
    sizes = {}
    for groups in (8, 4, 2, 1):
        cache = KVCache()
        GroupedQueryAttention(16, 16, 6, 0.0, num_heads=8, num_kv_groups=groups)(x, cache)
        sizes[groups] = cache.nbytes
    assert [sizes[8] // sizes[g] for g in (8, 4, 2, 1)] == [1, 2, 4, 8]


@pytest.mark.parametrize("window", [1, 3, 7, 12])
def test_a_sliding_window_is_sdpa_with_a_banded_mask(window):
    torch.manual_seed(11)
    gqa = GroupedQueryAttention(8, 16, 12, 0.0, num_heads=4, num_kv_groups=2).double()
    positions = torch.arange(12)
    band = visible(positions, positions, window)
    gqa.mask = ~band
    x = torch.randn(3, 12, 8, dtype=torch.float64)
    q, k, v = projections(gqa, x)
    context = F.scaled_dot_product_attention(q, k, v, attn_mask=band, enable_gqa=True)
    assert torch.allclose(merged(gqa, context), gqa(x), atol=1e-12)
    assert band.sum(dim=1).max() == min(window, 12)


@pytest.mark.parametrize("window, chunks", [(3, [1] * 12), (4, [6, 1, 1, 4]), (2, [5, 5, 2]), (20, [1] * 12)])
def test_a_rolling_cache_gives_the_whole_sequence_under_the_banded_mask(window, chunks):
    torch.manual_seed(12)
    gqa = GroupedQueryAttention(8, 16, 12, 0.0, num_heads=4, num_kv_groups=2).double()
    positions = torch.arange(12)
    gqa.mask = ~visible(positions, positions, window)
    x = torch.randn(2, 12, 8, dtype=torch.float64)
    cache, outputs, start = KVCache(window=window), [], 0
    for size in chunks:
        outputs.append(gqa(x[:, start:start + size], cache))
        start += size
        assert cache.keys.shape[2] == min(window, start)
    assert torch.allclose(torch.cat(outputs, dim=1), gqa(x), atol=1e-12)


def test_a_window_changes_what_the_layer_computes_once_the_sequence_outgrows_it():
    torch.manual_seed(13)
    gqa = GroupedQueryAttention(8, 16, 12, 0.0, num_heads=4, num_kv_groups=2)
    x = torch.randn(1, 12, 8)
    full = gqa(x)
    positions = torch.arange(12)
    gqa.mask = ~visible(positions, positions, 4)
    windowed = gqa(x)
    assert torch.equal(windowed[:, :4], full[:, :4])  # the first 4 see the same keys
    assert not torch.allclose(windowed[:, 4:], full[:, 4:])


def test_an_empty_step_returns_an_empty_output_and_leaves_the_cache_alone():
    """Issue 24: positions[-0:] is every position; 0 new tokens must give 0 outputs."""
    torch.manual_seed(14)
    gqa = GroupedQueryAttention(8, 16, 12, 0.0, num_heads=4, num_kv_groups=2).double()
    x = torch.randn(2, 6, 8, dtype=torch.float64)
    cache = KVCache()
    first = gqa(x[:, :4], cache)
    empty = gqa(x[:, 4:4], cache)
    assert empty.shape == (2, 0, 16) and cache.seen == 4
    rest = gqa(x[:, 4:], cache)
    assert torch.allclose(torch.cat([first, empty, rest], dim=1), gqa(x), atol=1e-12)
