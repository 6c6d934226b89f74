"""Empty batches and empty sequences go through every attention class, forward and backward."""

import pytest
import torch

from attnlit import (CausalAttention, FusedMultiHeadAttention, MultiHeadAttention,
                     MultiHeadAttentionWrapper, SelfAttentionV1, SelfAttentionV2)

D_IN, D_OUT, CONTEXT, HEADS = 4, 6, 8, 2
BATCHED = {
    "CausalAttention": lambda: CausalAttention(D_IN, D_OUT, CONTEXT, 0.5),
    "MultiHeadAttentionWrapper": lambda: MultiHeadAttentionWrapper(D_IN, D_OUT // HEADS, CONTEXT, 0.5, HEADS),
    "MultiHeadAttention": lambda: MultiHeadAttention(D_IN, D_OUT, CONTEXT, 0.5, HEADS),
    "FusedMultiHeadAttention": lambda: FusedMultiHeadAttention(D_IN, D_OUT, CONTEXT, 0.5, HEADS),
}


@pytest.mark.parametrize("name", BATCHED)
@pytest.mark.parametrize("b, n", [(0, 5), (2, 0), (0, 0)])
@pytest.mark.parametrize("training", [False, True], ids=["eval", "train"])
def test_empty_batches_and_sequences(name, b, n, training):
    torch.manual_seed(0)
    layer = BATCHED[name]().train(training)
    x = torch.randn(b, n, D_IN, requires_grad=True)
    out = layer(x)
    assert out.shape == (b, n, D_OUT)
    out.sum().backward()
    assert x.grad.shape == x.shape


@pytest.mark.parametrize("b, n", [(0, 5), (2, 0)])
def test_empty_inputs_with_a_padding_mask(b, n):
    layer = FusedMultiHeadAttention(D_IN, D_OUT, CONTEXT, 0.0, HEADS)
    mask = torch.ones(b, n, dtype=torch.bool)
    assert layer(torch.randn(b, n, D_IN), padding_mask=mask).shape == (b, n, D_OUT)


@pytest.mark.parametrize("cls", [SelfAttentionV1, SelfAttentionV2])
def test_empty_sequences_without_a_batch(cls):
    torch.manual_seed(0)
    assert cls(D_IN, D_OUT)(torch.randn(0, D_IN)).shape == (0, D_OUT)
