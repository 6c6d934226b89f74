"""CausalAttention and the multi-head classes against PyTorch's fused attention, and their checks."""

import pytest
import torch
import torch.nn.functional as F

from attnlit import CausalAttention, MultiHeadAttention, MultiHeadAttentionWrapper

SHAPES = [  # (b, n, d_in, d_out, num_heads, context_length)
    (1, 1, 1, 1, 1, 1),
    (2, 6, 3, 2, 2, 6),
    (3, 5, 8, 12, 3, 9),
    (2, 16, 7, 16, 4, 16),
]


def reference(module: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """The module's forward pass rebuilt on F.scaled_dot_product_attention(is_causal=True)."""
    if isinstance(module, MultiHeadAttentionWrapper):
        return torch.cat([reference(head, x) for head in module.heads], dim=-1)
    b, n, _ = x.shape
    h = getattr(module, "num_heads", 1)
    q, k, v = (
        layer(x).view(b, n, h, -1).transpose(1, 2)  # (b, h, n, hd)
        for layer in (module.W_query, module.W_key, module.W_value)
    )
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out = out.transpose(1, 2).reshape(b, n, -1)
    return module.out_proj(out) if hasattr(module, "out_proj") else out


def build(cls, d_in, d_out, num_heads, context_length, dropout=0.0):
    if cls is CausalAttention:
        return cls(d_in, d_out, context_length, dropout, qkv_bias=True)
    return cls(d_in, d_out, context_length, dropout, num_heads, qkv_bias=True)


def gradients(module, x, output):
    """Gradients of a fixed random projection of output, w.r.t. x and every parameter."""
    torch.manual_seed(0)
    (output * torch.randn_like(output)).sum().backward()
    grads = [x.grad.clone()] + [p.grad.clone() for p in module.parameters()]
    x.grad = None
    module.zero_grad()
    return grads


CLASSES = [CausalAttention, MultiHeadAttentionWrapper, MultiHeadAttention]


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("b, n, d_in, d_out, num_heads, context_length", SHAPES)
def test_equals_scaled_dot_product_attention_gradients_included(
    cls, b, n, d_in, d_out, num_heads, context_length
):
    torch.manual_seed(b * n + d_in)
    module = build(cls, d_in, d_out, num_heads, context_length).double()
    x = torch.randn(b, n, d_in, dtype=torch.float64, requires_grad=True)
    ours, theirs = module(x), reference(module, x)
    torch.testing.assert_close(ours, theirs, rtol=1e-12, atol=1e-12)
    for mine, ref in zip(gradients(module, x, ours), gradients(module, x, theirs)):
        torch.testing.assert_close(mine, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", CLASSES)
def test_later_tokens_never_change_earlier_outputs(cls):
    torch.manual_seed(1)
    module = build(cls, 5, 8, 2, 10, dropout=0.3).eval()
    x = torch.randn(3, 10, 5)
    for m in range(10):
        changed = x.clone()
        changed[:, m:] = torch.randn(3, 10 - m, 5) * 10
        torch.testing.assert_close(module(changed)[:, :m], module(x)[:, :m], rtol=0, atol=0)


@pytest.mark.parametrize("cls", CLASSES)
def test_eval_mode_is_deterministic_and_train_mode_is_not(cls):
    torch.manual_seed(2)
    module = build(cls, 4, 8, 2, 6, dropout=0.5)
    x = torch.randn(2, 6, 4)
    assert not torch.equal(module(x), module(x))
    module.eval()
    assert torch.equal(module(x), module(x))


def test_multihead_parameters_are_created_in_the_books_order():
    module = MultiHeadAttention(3, 4, 6, 0.0, num_heads=2)
    assert [name for name, _ in module.named_parameters()] == [
        "W_query.weight", "W_key.weight", "W_value.weight", "out_proj.weight", "out_proj.bias"
    ]
    assert list(module.state_dict())[0] == "mask"


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("shape, message", [
    ((2, 7, 3), "x has 7 tokens, more than context_length=6"),
    ((6, 3), "x must have shape (batch, num_tokens, d_in) with d_in=3, got (6, 3)"),
    ((2, 6, 4), "x must have shape (batch, num_tokens, d_in) with d_in=3, got (2, 6, 4)"),
    ((1, 2, 6, 3), "x must have shape (batch, num_tokens, d_in) with d_in=3, got (1, 2, 6, 3)"),
])
def test_bad_input_is_a_value_error_that_says_what_was_expected(cls, shape, message):
    module = build(cls, 3, 4, 2, 6)
    with pytest.raises(ValueError) as error:
        module(torch.ones(shape))
    assert str(error.value) == message


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("dropout, error, message", [
    (1.0, ValueError, "dropout must be in [0, 1), got 1.0"),
    (-0.1, ValueError, "dropout must be in [0, 1), got -0.1"),
    ("0.1", TypeError, "dropout must be a real number, got '0.1'"),
])
def test_bad_dropout_is_refused(cls, dropout, error, message):
    with pytest.raises(error) as raised:
        build(cls, 3, 4, 2, 6, dropout=dropout)
    assert str(raised.value) == message


@pytest.mark.parametrize("kwargs, message", [
    ({"d_out": 5, "num_heads": 2}, "d_out must be divisible by num_heads, got d_out=5 and num_heads=2"),
    ({"d_out": 4, "num_heads": 0}, "num_heads must be positive, got 0"),
    ({"d_out": 4, "num_heads": 2, "context_length": 0}, "context_length must be positive, got 0"),
])
def test_bad_sizes_are_refused_at_construction(kwargs, message):
    arguments = {"d_in": 3, "context_length": 6, "dropout": 0.0, **kwargs}
    with pytest.raises(ValueError) as error:
        MultiHeadAttention(**arguments)
    assert str(error.value) == message


def test_numpy_floats_are_dropout_rates_too():
    import numpy as np

    module = CausalAttention(3, 2, 6, np.float32(0.1))
    assert module.dropout.p == pytest.approx(0.1)
