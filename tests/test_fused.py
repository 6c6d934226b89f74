"""FusedMultiHeadAttention equals the textbook class, and handles padding without NaN."""

import pytest
import torch

from attnlit import FusedMultiHeadAttention, MultiHeadAttention

SHAPES = [(1, 1, 1, 1, 1), (2, 6, 3, 2, 2), (3, 9, 8, 12, 3), (2, 16, 16, 16, 4)]  # b, n, d_in, d_out, h


@pytest.mark.parametrize("dtype, tolerance", [(torch.float64, 1e-12), (torch.float32, 1e-5)])
@pytest.mark.parametrize("b, n, d_in, d_out, heads", SHAPES)
@pytest.mark.parametrize("qkv_bias", [False, True])
def test_from_textbook_computes_the_same_function(dtype, tolerance, b, n, d_in, d_out, heads, qkv_bias):
    torch.manual_seed(b + n + d_out)
    mha = MultiHeadAttention(d_in, d_out, n, 0.0, heads, qkv_bias=qkv_bias).to(dtype)
    fused = FusedMultiHeadAttention.from_textbook(mha)
    x = torch.randn(b, n, d_in, dtype=dtype, requires_grad=True)
    ours, theirs = fused(x), mha(x)
    torch.testing.assert_close(ours, theirs, rtol=tolerance, atol=tolerance)
    grad_ours, = torch.autograd.grad(ours.square().sum(), x)
    grad_theirs, = torch.autograd.grad(theirs.square().sum(), x)
    torch.testing.assert_close(grad_ours, grad_theirs, rtol=tolerance * 10, atol=tolerance * 10)


def test_right_padding_leaves_real_tokens_as_if_alone():
    torch.manual_seed(0)
    fused = FusedMultiHeadAttention(4, 8, 7, 0.0, 2).double()
    lengths = [7, 5, 2]
    x = torch.randn(3, 7, 4, dtype=torch.float64)
    padding_mask = torch.arange(7)[None] < torch.tensor(lengths)[:, None]   # (3, 7)
    together = fused(x, padding_mask)
    for row, length in enumerate(lengths):
        alone = fused(x[row:row + 1, :length])
        torch.testing.assert_close(together[row, :length], alone[0])


def test_left_padding_gives_zeros_not_nan_and_finite_gradients():
    torch.manual_seed(0)
    fused = FusedMultiHeadAttention(4, 8, 5, 0.0, 2)
    x = torch.randn(2, 5, 4, requires_grad=True)
    padding_mask = torch.tensor([[False, False, True, True, True], [True] * 5])
    out = fused(x, padding_mask)
    assert not out.isnan().any()
    for position in (0, 1):  # queries that see no real key: zero context, then out_proj
        torch.testing.assert_close(out[0, position], fused.out_proj.bias.detach())
    out.sum().backward()
    assert torch.isfinite(x.grad).all()


def test_dropout_only_in_training_mode():
    torch.manual_seed(0)
    fused = FusedMultiHeadAttention(4, 8, 6, 0.5, 2)
    x = torch.randn(2, 6, 4)
    assert not torch.equal(fused(x), fused(x))
    fused.eval()
    assert torch.equal(fused(x), fused(x))


@pytest.mark.parametrize("mask, message", [
    (torch.ones(2, 5, dtype=torch.bool), "padding_mask must have shape (2, 6), got (2, 5)"),
    (torch.ones(2, 6), "padding_mask must be a bool tensor of shape (batch, num_tokens), got torch.float32 (2, 6)"),
])
def test_bad_padding_masks_are_refused(mask, message):
    fused = FusedMultiHeadAttention(4, 8, 6, 0.0, 2)
    with pytest.raises(ValueError) as error:
        fused(torch.ones(2, 6, 4), mask)
    assert str(error.value) == message


def test_a_padding_mask_that_is_not_a_tensor_is_a_type_error_naming_it():
    fused = FusedMultiHeadAttention(4, 8, 6, 0.0, 2)
    with pytest.raises(TypeError) as error:  # was AttributeError: 'list' has no 'shape'
        fused(torch.ones(2, 6, 4), [[True] * 6] * 2)
    assert str(error.value) == "padding_mask must be a bool torch.Tensor, got list"


def test_bad_sizes_and_inputs_are_refused_like_the_textbook():
    with pytest.raises(ValueError, match="d_out must be divisible by num_heads"):
        FusedMultiHeadAttention(4, 6, 6, 0.0, 4)
    with pytest.raises(ValueError, match="x has 7 tokens, more than context_length=6"):
        FusedMultiHeadAttention(4, 8, 6, 0.0, 2)(torch.ones(1, 7, 4))


def test_from_textbook_keeps_the_mode():
    torch.manual_seed(0)
    mha = MultiHeadAttention(4, 8, 6, 0.2, 2).eval()
    fused = FusedMultiHeadAttention.from_textbook(mha)
    assert not fused.training
    x = torch.randn(2, 6, 4)
    torch.testing.assert_close(fused(x), mha(x))
