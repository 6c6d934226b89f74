"""Chapter 13's model: chapter 10's GPT over bytes, its positions by RoPE, one path with a cache."""

import pytest
import torch

from attnlit.gpt import ablate
from attnlit.kvcache import KVCache
from attnlit.textgpt import RotaryAttention, TextGPT


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    return TextGPT(context_length=32, d_model=32, num_heads=4, num_layers=2).double().eval()


@pytest.mark.parametrize("cuts", [(1,), (7, 8), (3, 11, 20)])
def test_the_cached_path_gives_the_logits_of_the_whole_sequence(model, cuts):
    ids = torch.randint(256, (2, 24), generator=torch.Generator().manual_seed(1))
    caches = [KVCache() for _ in model.trf_blocks]
    with torch.no_grad():
        parts = [model(ids[:, a:b], caches) for a, b in zip((0, *cuts), (*cuts, 24))]
        assert torch.allclose(torch.cat(parts, 1), model(ids), atol=1e-12, rtol=0)


def test_scores_depend_on_distance_not_on_position():
    """RoPE: a query and a key the same distance apart score the same wherever they are."""
    torch.manual_seed(0)
    att = RotaryAttention(8, 1, 16).double()
    x = 10 * torch.randn(1, 1, 8, dtype=torch.float64).expand(1, 16, 8)  # one vector everywhere
    seen = []
    att.dropout.register_forward_hook(lambda module, args, out: seen.append(out))
    att(x)
    weights = seen[0][0, 0]                                          # (16, 16)
    assert weights[15].max() > 2 * weights[15].min()  # not uniform: distance matters
    # Every query sees the same vector at every key: its weights over the keys 0..i depend on
    # i - j alone, so each row is the next row's tail, renormalized.
    for i in range(1, 15):
        tail = weights[i + 1, 1:i + 2] / weights[i + 1, 1:i + 2].sum()
        assert torch.allclose(weights[i, :i + 1], tail, atol=1e-12)


def test_its_weights_are_causal_rows_and_a_head_switched_off_changes_the_logits(model):
    ids = torch.randint(256, (1, 16), generator=torch.Generator().manual_seed(2))
    weights = model.attention_weights(ids)
    assert len(weights) == 2 and weights[0].shape == (1, 4, 16, 16)
    assert torch.allclose(weights[1].sum(-1), torch.ones(1, 4, 16, dtype=torch.float64))
    assert (weights[0].triu(1) == 0).all()
    with torch.no_grad():
        before = model(ids)
        with ablate(model, [(1, 2)]):
            changed = model(ids)
        assert not torch.allclose(changed, before) and torch.equal(model(ids), before)


def test_generation_with_and_without_the_cache_writes_the_same_bytes(model):
    prompt = torch.tensor([[72, 65, 77]])
    drawn = [model.generate(prompt, 20, use_cache=cached, temperature=0.9, top_k=10,
                            generator=torch.Generator().manual_seed(3)) for cached in (True, False)]
    assert torch.equal(*drawn) and drawn[0].shape == (1, 23)


@pytest.mark.parametrize("make, error, message", [
    (lambda: TextGPT(d_model=12, num_heads=4), ValueError, "head_dim must be even"),
    (lambda: TextGPT(d_model=30, num_heads=4), ValueError, "divisible"),
    (lambda: TextGPT(context_length=0), ValueError, "context_length"),
])
def test_a_model_that_cannot_be_built_is_refused(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_too_many_bytes_are_refused_with_or_without_a_cache(model):
    with pytest.raises(ValueError, match="more than context_length=32"):
        model(torch.zeros(1, 33, dtype=torch.long))
    caches = [KVCache() for _ in model.trf_blocks]
    model(torch.zeros(1, 30, dtype=torch.long), caches)
    with pytest.raises(ValueError, match="the caches hold 30 tokens"):
        model(torch.zeros(1, 3, dtype=torch.long), caches)
