# %% [markdown]
# # Lab: see the weights
#
# Every stage of the guide's attention, drawn as a heatmap for one sentence: plain dot
# products (chapter 1), learned queries and keys (chapter 3), the causal mask (chapter 5),
# dropout (chapter 6) and two heads (chapter 7). Rows are queries, columns keys.
#
# Change `sentence` or `seed` below, then run all cells. The book's sentence uses the book's
# embeddings; any other sentence gets random 3-D embeddings drawn from the seed.

# %%
import torch
from IPython.display import SVG, display
from matplotlib.figure import Figure
from torch import nn

from attnlit import CausalAttention, MultiHeadAttention, SelfAttentionV2
from attnlit.plots import heatmap, to_svg
from attnlit.toy import inputs as book_inputs

sentence = "Your journey starts with one step"
seed = 123

words = sentence.split()
torch.manual_seed(seed)
if words == ["Your", "journey", "starts", "with", "one", "step"]:
    inputs = book_inputs
else:
    inputs = torch.rand(len(words), 3)  # (n, d) with d = 3
n = len(words)


def show(panels: dict[str, torch.Tensor], name: str) -> None:
    """Draw (n, n) weight matrices side by side, inline as SVG."""
    fig = Figure(figsize=(4 * len(panels), 4), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (title, weights) in zip(axes, panels.items()):
        heatmap(ax, weights, words, title=title)
    display(SVG(to_svg(fig, name=name)))


print(n, "tokens:", words)

# %% [markdown]
# ## Dot products and softmax (chapter 1)
#
# Without any weights, $A = \operatorname{softmax}(X X^\top)$: each token attends most to the
# tokens whose embeddings point its way and are long.

# %%
scores = inputs @ inputs.T                              # (n, n)
show({"softmax(X Xᵀ)": torch.softmax(scores, dim=-1)}, "dot-products")

# %% [markdown]
# ## Queries and keys (chapter 3)
#
# With learned projections, $A = \operatorname{softmax}(Q K^\top / \sqrt{c})$. Untrained,
# the weights are close to uniform: the model has not yet learned what to look for.

# %%
torch.manual_seed(seed)
sa = SelfAttentionV2(d_in=3, d_out=2)
with torch.no_grad():
    queries, keys = sa.W_query(inputs), sa.W_key(inputs)   # (n, 2) each
    scores = queries @ keys.T / keys.shape[-1] ** 0.5
    show({"softmax(QKᵀ/√c)": torch.softmax(scores, dim=-1)}, "queries-keys")

# %% [markdown]
# ## The causal mask and dropout (chapters 5 and 6)
#
# A forward hook on the module's dropout layer catches the weights: first in evaluation mode
# (dropout off), then in training mode with $p = 0.2$, where survivors become $1.25$ times
# larger.

# %%
torch.manual_seed(seed)
ca = CausalAttention(d_in=3, d_out=2, context_length=n, dropout=0.2)
caught = []  # the (n, n) weights of each call, from a hook on the dropout layer
ca.dropout.register_forward_hook(
    lambda module, args, out: caught.append(out.detach()[0])
)
ca.eval()
ca(inputs[None])
ca.train()
torch.manual_seed(seed)
ca(inputs[None])
show({"causal": caught[0], "causal, dropout p = 0.2": caught[1]},
     "causal-dropout")

# %% [markdown]
# ## Two heads (chapter 7)
#
# Each head of `MultiHeadAttention` has its own weights over the past.

# %%
torch.manual_seed(seed)
mha = MultiHeadAttention(
    d_in=3, d_out=4, context_length=n, dropout=0.0, num_heads=2
)
caught = []  # (h, n, n) weights
mha.dropout.register_forward_hook(
    lambda module, args, out: caught.append(out.detach()[0])
)
mha(inputs[None])
show({f"head {h + 1}": caught[0][h] for h in range(2)}, "heads")
