"""attnlit: the attention mechanism of GPT-style language models, tangled from its guide's chapters.

Every other module in this package is generated from docs/ by `make tangle`; edit the chapters.
"""

from attnlit.causal import CausalAttention
from attnlit.fused import FusedMultiHeadAttention
from attnlit.gpt import TinyGPT
from attnlit.gqa import GroupedQueryAttention
from attnlit.multihead import MultiHeadAttention, MultiHeadAttentionWrapper
from attnlit.self_attention import SelfAttentionV1, SelfAttentionV2

__all__ = [
    "CausalAttention",
    "FusedMultiHeadAttention",
    "GroupedQueryAttention",
    "MultiHeadAttention",
    "MultiHeadAttentionWrapper",
    "SelfAttentionV1",
    "SelfAttentionV2",
    "TinyGPT",
]
