# ---
# jupyter:
#   translated_from: "225c27493da7"
# ---

# %% [markdown]
# # Bài thực hành: quan sát các trọng số
#
# Bài này vẽ mọi bước của attention trong hướng dẫn thành heatmap cho một câu: tích vô hướng
# (dot product) đơn thuần (chương 1), query và key học được (chương 3), causal mask (chương 5),
# dropout (chương 6) và hai head (chương 7), tất cả đều dùng trọng số ngẫu nhiên; rồi đến các
# head của một mô hình đã huấn luyện (chương 10). Hàng là query, cột là key.
#
# Để chạy lại bài này, hãy tải trang này về dưới dạng notebook (liên kết dưới tiêu đề), đổi
# `sentence` hoặc `seed` bên dưới, rồi chạy lại tất cả các ô. Câu của cuốn sách dùng các
# embedding của cuốn sách; mọi câu khác nhận các embedding 3 chiều ngẫu nhiên, sinh từ seed.

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
    inputs = torch.rand(len(words), 3)  # (n, d) với d = 3
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
# ## Tích vô hướng và softmax (chương 1)
#
# Khi chưa có trọng số học được nào, $A = \operatorname{softmax}(X X^\top)$: mỗi token chú ý
# nhiều nhất đến những token có embedding dài và gần cùng hướng với nó.

# %%
scores = inputs @ inputs.T                              # (n, n)
show({"softmax(X Xᵀ)": torch.softmax(scores, dim=-1)}, "dot-products")

# %% [markdown]
# ## Query và key (chương 3)
#
# Với các phép chiếu học được, $A = \operatorname{softmax}(Q K^\top / \sqrt{c})$. Khi chưa
# được huấn luyện, các trọng số gần như đều nhau: mô hình chưa học được nó cần tìm gì.

# %%
torch.manual_seed(seed)
sa = SelfAttentionV2(d_in=3, d_out=2)
with torch.no_grad():
    queries, keys = sa.W_query(inputs), sa.W_key(inputs)   # mỗi tensor (n, 2)
    scores = queries @ keys.T / keys.shape[-1] ** 0.5
    show({"softmax(QKᵀ/√c)": torch.softmax(scores, dim=-1)}, "queries-keys")

# %% [markdown]
# ## Causal mask và dropout (chương 5 và 6)
#
# Một forward hook gắn vào tầng dropout của module bắt lấy các trọng số: trước tiên ở chế độ
# đánh giá (dropout tắt), rồi ở chế độ huấn luyện với $p = 0.2$, khi đó các phần tử còn
# lại được nhân lên gấp $1.25$ lần.

# %%
torch.manual_seed(seed)
ca = CausalAttention(d_in=3, d_out=2, context_length=n, dropout=0.2)
caught = []  # trọng số (n, n) của mỗi lần gọi, từ hook trên tầng dropout
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
# ## Hai head (chương 7)
#
# Mỗi head của `MultiHeadAttention` có trọng số riêng của nó trên các token đứng trước.

# %%
torch.manual_seed(seed)
mha = MultiHeadAttention(
    d_in=3, d_out=4, context_length=n, dropout=0.0, num_heads=2
)
caught = []  # trọng số (h, n, n)
mha.dropout.register_forward_hook(
    lambda module, args, out: caught.append(out.detach()[0])
)
mha(inputs[None])
show({f"head {h + 1}": caught[0][h] for h in range(2)}, "heads")

# %% [markdown]
# ## Một mô hình đã huấn luyện (chương 10)
#
# Mọi trọng số ở trên đều ngẫu nhiên. Chương 10 huấn luyện một GPT nhỏ, hai tầng, mỗi tầng hai
# head, để viết tiếp một đoạn token lặp lại; nó có một previous-token head (head nhìn về
# token liền trước), là head 0.0, và hai induction head (1.0, 1.1). Nó được huấn luyện trên các
# ID token ngẫu nhiên từ 0 đến 255, và các ID này có thể coi là các byte: nó đọc được mọi văn
# bản ASCII dài tối đa 32 ký tự. Hãy gõ một `text` tự lặp lại, hoặc đặt `text = ""` để sinh
# `length` token ngẫu nhiên từ `seed` rồi lặp lại chúng (nên `length` tối đa là 16).
# Head `l.h` là head `h` của tầng `l`, đếm từ 0. Trọng số 0 có màu gần màu nền trang nhất,
# trọng số 1 có màu xanh lam nổi bật nhất.

# %%
from attnlit.gpt import load_trained

text = "one step; one step"
length = 12  # dùng khi text rỗng: ngần ấy token ngẫu nhiên, rồi lặp lại
seed = 123

model = load_trained()
if text:
    ids = torch.tensor(list(text.encode()))    # mỗi byte một ID token
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

# Mỗi head một panel với nhãn riêng: hai panel cạnh nhau, hoặc xếp dọc
# trên điện thoại.
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
# Head 0.0 nhìn lùi lại một token. Trong đoạn lặp, head 1.0 và 1.1 nhìn vào token đã đứng
# sau lần xuất hiện trước đó của token hiện tại, và chia trọng số ra nhiều chỗ khi token
# hiện tại đã xuất hiện hơn một lần. Bên dưới là phỏng đoán tham lam (greedy) của mô hình
# cho từng token tiếp theo, đánh dấu ✓ ở chỗ đoán đúng: trước đoạn lặp, không thể đoán trước
# điều gì, và các head chỉ vào đâu thì mô hình đoán theo đó; trong đoạn lặp, mô hình sao
# chép.

# %%
with torch.no_grad():
    guesses = model(ids[None]).argmax(dim=-1)[0]   # (n,)
for m in range(n - 1):
    right = "  ✓" if guesses[m] == ids[m + 1] else ""
    print(f"{m:2} {labels[m]:>3} -> guess {label(guesses[m].item()):>3}, "
          f"next {labels[m + 1]:>3}{right}")
