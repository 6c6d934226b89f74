"""RoPE (attnlit.positions): what the rotation keeps, what the score sees, and bad input."""

import math

import pytest
import torch

from attnlit.positions import apply_rope, rope_angles


def complex_rope(x: torch.Tensor, base: float = 10_000.0) -> torch.Tensor:
    """The same rotation written independently: pair i as x_i + j x_{i+hd/2}, times e^{j m theta_i}."""
    n, hd = x.shape[-2:]
    theta = base ** (-2 * torch.arange(hd // 2, dtype=torch.float64) / hd)
    turn = torch.polar(torch.ones(n, hd // 2, dtype=torch.float64),
                       torch.arange(n, dtype=torch.float64)[:, None] * theta)  # (n, hd/2)
    z = torch.complex(x[..., : hd // 2].double(), x[..., hd // 2:].double()) * turn
    return torch.cat((z.real, z.imag), dim=-1)


@pytest.mark.parametrize("head_dim, context_length, base", [
    (2, 1, 10_000.0), (8, 16, 10_000.0), (64, 300, 10_000.0), (128, 40, 500_000.0), (6, 9, 2),
])
def test_tables_hold_cos_and_sin_of_m_theta_in_both_halves(head_dim, context_length, base):
    cos, sin = rope_angles(head_dim, context_length, base)
    assert cos.shape == sin.shape == (context_length, head_dim)
    assert cos.dtype == sin.dtype == torch.float32
    half = head_dim // 2
    for m in sorted({0, min(1, context_length - 1), context_length - 1}):
        for i in range(half):
            angle = m * base ** (-2 * i / head_dim)
            for table, f in ((cos, math.cos), (sin, math.sin)):
                assert table[m, i].item() == pytest.approx(f(angle), abs=1e-7)
                assert table[m, i + half] == table[m, i]


@pytest.mark.parametrize("shape", [(2, 3, 5, 8), (1, 1, 16, 64), (7, 4), (3, 9, 10)])
def test_equals_the_rotation_written_with_complex_numbers(shape):
    torch.manual_seed(0)
    x = torch.randn(shape, dtype=torch.float64)
    cos, sin = rope_angles(shape[-1], shape[-2] + 3)  # tables longer than x: first n rows
    torch.testing.assert_close(apply_rope(x, cos, sin), complex_rope(x), rtol=0, atol=1e-6)


def test_a_different_base_is_used():
    torch.manual_seed(0)
    x = torch.randn(2, 2, 12, 16)
    cos, sin = rope_angles(16, 12, base=100.0)
    torch.testing.assert_close(apply_rope(x, cos, sin), complex_rope(x, base=100.0).float())
    assert not torch.allclose(apply_rope(x, *rope_angles(16, 12)), apply_rope(x, cos, sin))


def test_position_zero_is_left_unchanged_and_later_ones_are_not():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 5, 8)
    rotated = apply_rope(x, *rope_angles(8, 5))
    assert torch.equal(rotated[:, :, 0], x[:, :, 0])
    assert not torch.isclose(rotated[:, :, 1:], x[:, :, 1:]).all(dim=-1).any()


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_lengths_are_kept_at_every_position(dtype):
    torch.manual_seed(0)
    x = torch.randn(2, 4, 200, 64, dtype=dtype) * 10
    rotated = apply_rope(x, *rope_angles(64, 200))
    torch.testing.assert_close(rotated.norm(dim=-1), x.norm(dim=-1), rtol=1e-6, atol=1e-6)


def test_the_score_depends_only_on_the_offset():
    """q rotated to every m and k to every p: the (m, p) scores are constant along diagonals."""
    torch.manual_seed(0)
    hd, n = 64, 256
    q, k = torch.randn(hd, dtype=torch.float64), torch.randn(hd, dtype=torch.float64)
    cos, sin = rope_angles(hd, n)
    scores = apply_rope(q.expand(n, hd), cos, sin) @ apply_rope(k.expand(n, hd), cos, sin).T
    # Diagonal o of the (m, p) matrix holds every pair with p - m = o.
    diagonals = {-o: torch.diagonal(scores, offset=o) for o in range(1 - n, n)}
    spread = max((d.max() - d.min()).item() for d in diagonals.values())
    assert spread < 1e-5
    torch.testing.assert_close(diagonals[0], (q @ k).expand(n), rtol=0, atol=1e-5)
    assert abs(diagonals[3][0] - diagonals[-3][0]) > 0.1  # which token comes first matters


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_shape_and_dtype_follow_x(dtype):
    x = torch.ones(2, 3, 7, 8, dtype=dtype)
    rotated = apply_rope(x, *rope_angles(8, 10))
    assert rotated.shape == x.shape and rotated.dtype == dtype


def test_empty_batches_and_sequences_work():
    cos, sin = rope_angles(8, 4)
    assert apply_rope(torch.empty(0, 2, 4, 8), cos, sin).shape == (0, 2, 4, 8)
    assert apply_rope(torch.empty(1, 2, 0, 8), cos, sin).shape == (1, 2, 0, 8)


def test_gradients_flow_through_the_rotation():
    torch.manual_seed(0)
    cos, sin = rope_angles(6, 5)
    x = torch.randn(2, 5, 6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: apply_rope(t, cos, sin), (x,))


@pytest.mark.parametrize("args, error, message", [
    ((7, 16), ValueError, "head_dim must be even"),
    ((0, 16), ValueError, "head_dim must be positive"),
    ((8.0, 16), TypeError, "head_dim must be an integer"),
    ((8, 0), ValueError, "context_length must be positive"),
    ((8, True), TypeError, "context_length must be an integer"),
    ((8, 16, "10000"), TypeError, "base must be a real number"),
    ((8, 16, True), TypeError, "base must be a real number"),
    ((8, 16, 1.0), ValueError, "base must be finite and greater than 1"),
    ((8, 16, -5.0), ValueError, "base must be finite and greater than 1"),
    ((8, 16, math.nan), ValueError, "base must be finite and greater than 1"),
    ((8, 16, math.inf), ValueError, "base must be finite and greater than 1"),
])
def test_bad_tables_are_refused(args, error, message):
    with pytest.raises(error, match=message):
        rope_angles(*args)


COS, SIN = rope_angles(8, 16)


@pytest.mark.parametrize("x, cos, sin, error, message", [
    ([[1.0] * 8], COS, SIN, TypeError, "x must be a floating-point tensor, got list"),
    (torch.ones(2, 8, dtype=torch.int64), COS, SIN, TypeError,
     "x must be a floating-point tensor, got torch.int64"),
    (torch.ones(2, 8), COS.tolist(), SIN, TypeError, "cos must be a torch.Tensor"),
    (torch.ones(2, 8), COS, None, TypeError, "sin must be a torch.Tensor"),
    (torch.ones(2, 8), COS, SIN[:, :4], ValueError, r"same shape .* got \(16, 8\) and \(16, 4\)"),
    (torch.ones(2, 8), COS[0], SIN[0], ValueError, "cos and sin must have the same shape"),
    (torch.ones(2, 6), COS, SIN, ValueError, r"head_dim of cos and sin, 8, got \(2, 6\)"),
    (torch.ones(8), COS, SIN, ValueError, r"x must have shape \(\.\.\., n, head_dim\)"),
    (torch.ones(1, 2, 17, 8), COS, SIN, ValueError,
     r"x has 17 positions but cos and sin cover 16 \(context_length too small\)"),
])
def test_bad_input_is_refused(x, cos, sin, error, message):
    with pytest.raises(error, match=message):
        apply_rope(x, cos, sin)


def test_hand_made_tables_of_an_odd_width_are_refused():
    """Issue 24: rotate_half cannot pair an odd number of dimensions; it rotated wrongly."""
    angle = torch.outer(torch.arange(16.0), torch.ones(5))    # (16, 5)
    with pytest.raises(ValueError, match="cos and sin have an odd head_dim, 5: dimensions turn in pairs"):
        apply_rope(torch.ones(1, 4, 5), angle.cos(), angle.sin())
