"""SelfAttentionV1 and V2 against an independent reference, and their input checks."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attnlit import SelfAttentionV1, SelfAttentionV2


def projections(module, x):
    """Queries, keys and values of x, whichever way the module stores its weights."""
    if isinstance(module, SelfAttentionV1):
        return x @ module.W_query, x @ module.W_key, x @ module.W_value
    return module.W_query(x), module.W_key(x), module.W_value(x)


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
@pytest.mark.parametrize("n, d_in, d_out", [(1, 1, 1), (6, 3, 2), (5, 8, 16), (17, 12, 4)])
def test_matches_pytorch_sdpa_in_float64(cls, n, d_in, d_out):
    torch.manual_seed(n + d_in + d_out)
    module = cls(d_in, d_out).double()
    x = torch.randn(n, d_in, dtype=torch.float64)
    reference = F.scaled_dot_product_attention(*projections(module, x))
    torch.testing.assert_close(module(x), reference, rtol=1e-12, atol=1e-12)
    assert module(x).shape == (n, d_out)


def test_qkv_bias_adds_three_bias_vectors():
    torch.manual_seed(0)
    module = SelfAttentionV2(4, 3, qkv_bias=True)
    assert [name for name, _ in module.named_parameters()] == [
        "W_query.weight", "W_query.bias", "W_key.weight", "W_key.bias",
        "W_value.weight", "W_value.bias",
    ]
    x = torch.randn(5, 4)
    torch.testing.assert_close(module(x), F.scaled_dot_product_attention(*projections(module, x)))


def test_weights_are_created_query_key_value():
    torch.manual_seed(123)
    expected = [torch.rand(3, 2) for _ in range(3)]
    torch.manual_seed(123)
    module = SelfAttentionV1(3, 2)
    assert list(module.state_dict()) == ["W_query", "W_key", "W_value"]
    for tensor, name in zip(expected, ["W_query", "W_key", "W_value"]):
        assert torch.equal(getattr(module, name), tensor)


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
@pytest.mark.parametrize("shape", [(6,), (6, 2), (6, 4), (2, 6, 3), ()])
def test_wrong_rank_or_width_is_a_value_error_naming_the_shape(cls, shape):
    module = cls(3, 2)
    with pytest.raises(ValueError) as error:
        module(torch.ones(shape))
    assert str(error.value) == (
        f"x must have shape (num_tokens, d_in) with d_in=3, got {shape}"
    )


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
def test_a_list_is_a_type_error(cls):
    with pytest.raises(TypeError, match="x must be a torch.Tensor, got list"):
        cls(3, 2)([[1.0, 2.0, 3.0]])


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
@pytest.mark.parametrize("d_in, d_out, error, message", [
    (0, 2, ValueError, "d_in must be positive, got 0"),
    (3, -1, ValueError, "d_out must be positive, got -1"),
    (3, 2.0, TypeError, "d_out must be an integer, got 2.0"),
    (True, 2, TypeError, "d_in must be an integer, got True"),
    ("3", 2, TypeError, "d_in must be an integer, got '3'"),
])
def test_bad_sizes_are_refused_at_construction(cls, d_in, d_out, error, message):
    with pytest.raises(error) as raised:
        cls(d_in, d_out)
    assert str(raised.value) == message


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
def test_numpy_and_tensor_integers_are_sizes_too(cls):
    module = cls(np.int64(3), torch.tensor(2))
    assert module(torch.ones(4, 3)).shape == (4, 2)


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
def test_a_dtype_other_than_the_weights_is_a_type_error(cls):
    with pytest.raises(TypeError) as error:
        cls(3, 2)(torch.ones(4, 3, dtype=torch.float64))
    assert str(error.value) == "x must have the weights' dtype torch.float32, got torch.float64"
