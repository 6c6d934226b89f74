# %% [markdown]
# # Lab: see the weights
#
# Every stage of the guide's attention, drawn as a heatmap for one sentence: plain dot
# products (chapter 1), learned queries and keys (chapter 3), the causal mask (chapter 5),
# dropout (chapter 6) and two heads (chapter 7), all with random weights; then the heads
# of a trained model (chapter 10). Rows are queries, columns keys.
#
# To rerun it, download this page as a notebook (the link under its title), change
# `sentence` or `seed` below, then run all cells. The book's sentence uses the book's
# embeddings; any other sentence gets random 3-D embeddings drawn from the seed.

# %%
import torch
from IPython.display import HTML, display
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
    """Draw (n, n) weight matrices side by side (a phone stacks them) as SVG."""
    fig = Figure(figsize=(3.4 * len(panels), 3.4), layout="constrained")
    subfigures = fig.subfigures(1, len(panels), squeeze=False).flat
    for panel, (title, weights) in zip(subfigures, panels.items()):
        heatmap(panel.subplots(), weights, words, title=title)
    display(HTML(to_svg(fig, name=name)))


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

# %% [markdown]
# ## A trained model (chapter 10)
#
# Every weight above is random. Chapter 10 trains a small GPT, two layers of two heads, to
# continue a repeated stretch of tokens; it has a previous-token head (0.0) and two
# induction heads (1.0, 1.1). It was trained on random token ids from 0 to 255, which can
# stand for bytes: any ASCII text of up to 32 characters is something it can read. Type a
# `text` that repeats itself, or set `text = ""` to draw `length` random tokens from
# `seed` and repeat them (so `length` is at most 16). Head `l.h` is head `h` of layer `l`,
# counted from 0. A weight of 0 is the colour nearest the page's, a weight of 1 the
# strongest blue.

# %%
from attnlit.gpt import load_trained

text = "one step; one step"
length = 12  # used when text is empty: this many random tokens, then again
seed = 123

model = load_trained()
if text:
    ids = torch.tensor(list(text.encode()))    # one byte, one token id
else:
    torch.manual_seed(seed)
    first = torch.randint(model.vocab_size, (length,))
    ids = torch.cat([first, first])
n = len(ids)


def label(token: int) -> str:
    """A token as text shows it: a character (␣ for space, · if unprintable)."""
    if not text:
        return str(token)
    char = chr(token)
    return "␣" if char == " " else char if char.isprintable() else "·"


labels = [label(token) for token in ids.tolist()]
weights = model.attention_weights(ids[None])   # 2 x (1, h, n, n)

# Each head a panel with its own labels: two side by side, or stacked on a
# phone.
fig = Figure(figsize=(6.4, 6.6), layout="constrained")
heads = [(0, 0), (0, 1), (1, 0), (1, 1)]
for (layer, head), panel in zip(heads, fig.subfigures(2, 2).flat):
    ax = panel.subplots()
    ax.imshow(weights[layer][0, head].numpy(), cmap="Blues", vmin=0, vmax=1,
              interpolation="none")
    ax.set_title(f"head {layer}.{head}")
    ax.set_xticks(range(n), labels)
    ax.set_yticks(range(n), labels)
    ax.tick_params(length=0, labelsize=9)
    ax.set(xlabel="key", ylabel="query")
display(HTML(to_svg(fig, name="trained")))

# %% [markdown]
# Head 0.0 looks one token back. In the repeat, heads 1.0 and 1.1 look at the token that
# followed the earlier occurrence of the current one, and split their weight where the
# current token occurred more than once. Below, the model's greedy guess of each next
# token, ticked where it is right: before the repeat, nothing can be predicted and the
# guesses are whatever the heads point at; in the repeat, the model copies.

# %%
with torch.no_grad():
    guesses = model(ids[None]).argmax(dim=-1)[0]   # (n,)
for m in range(n - 1):
    right = "  ✓" if guesses[m] == ids[m + 1] else ""
    print(f"{m:2} {labels[m]:>3} -> guess {label(guesses[m].item()):>3}, "
          f"next {labels[m + 1]:>3}{right}")
