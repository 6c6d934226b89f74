# ---
# jupyter:
#   translated_from: "cc9d9d41f5b9"
# ---

# %% [markdown]
# # Bài thực hành: vì sao phải chia tỉ lệ
#
# Chương 4 đã lập luận rằng điểm số phải được chia cho $\sqrt{c}$: tích vô hướng (dot product)
# của hai vector có $c$ phần tử độc lập, mỗi phần tử có phương sai 1, thì có phương sai $c$, và
# softmax của các điểm số lớn biến thành một phép arg-max gần như không truyền ngược gradient
# nào. Để tự chạy thí nghiệm với số chiều, số key và số lần lấy mẫu của riêng mình, hãy tải
# trang này về dưới dạng notebook (liên kết dưới tiêu đề), đổi các giá trị đó bên dưới, rồi
# chạy lại tất cả các ô.

# %%
import torch
from IPython.display import HTML, display
from matplotlib.figure import Figure

from attnlit.plots import ORANGE, to_svg
from attnlit.scaling import saturation

widths = [2**k for k in range(2, 13)]   # c = 4 ... 4096
num_keys = 16
trials = 200
seed = 123

# %% [markdown]
# ## Sự bão hòa và gradient
#
# Với mỗi số chiều: trung bình của trọng số lớn nhất, và trung vị của chuẩn gradient tại đầu
# vào của softmax, khi có và khi không chia tỉ lệ.

# %%
torch.manual_seed(seed)
runs = {scaled: [saturation(c, scaled, num_keys, trials) for c in widths]
        for scaled in (True, False)}
print("    c  largest weight (scaled, unscaled)  gradient (scaled, unscaled)")
for c, (w_s, g_s), (w_u, g_u) in zip(widths, runs[True], runs[False]):
    print(f"{c:5d}  {w_s:14.2f} {w_u:9.2f}  {g_s:19.2e} {g_u:10.2e}")

# %%
fig = Figure(figsize=(6.8, 3), layout="constrained")
weight_ax, grad_ax = (panel.subplots() for panel in fig.subfigures(1, 2))
for scaled, color in ((True, "C0"), (False, ORANGE)):
    largest, grads = zip(*runs[scaled])
    label = "scaled by √c" if scaled else "unscaled"
    weight_ax.plot(widths, largest, "o-", color=color, label=label)
    grad_ax.plot(widths, grads, "o-", color=color, label=label)
weight_ax.set(xscale="log", xlabel="width c", ylabel="largest weight",
              ylim=(0, 1.05))
grad_ax.set(xscale="log", yscale="log", xlabel="width c",
            ylabel="gradient norm")
for ax in (weight_ax, grad_ax):  # ghi 16, không ghi 10 kèm số mũ nhỏ
    ax.set_xticks(widths[::2], [str(c) for c in widths[::2]])
grad_ax.yaxis.set_major_formatter("{x:g}")
weight_ax.legend(frameon=False)
display(HTML(to_svg(fig, name="saturation")))

# %% [markdown]
# ## Nhìn cận cảnh một query
#
# Trọng số của một query trên các key của nó, khi số chiều nhỏ và khi số chiều lớn. Khi không
# chia tỉ lệ, số chiều lớn dồn gần như toàn bộ trọng số vào một key duy nhất.

# %%
torch.manual_seed(seed)
fig = Figure(figsize=(6.8, 2.8), layout="constrained")
panels = [sub.subplots() for sub in fig.subfigures(1, 2)]  # xếp dọc ở di động
for ax, c in zip(panels, (4, 4096)):
    query, keys = torch.randn(c), torch.randn(num_keys, c)
    scores = keys @ query                               # (num_keys,)
    for offset, (scale, color) in enumerate(((c**0.5, "C0"), (1.0, ORANGE))):
        weights = torch.softmax(scores / scale, dim=0)
        label = "scaled" if scale != 1.0 else "unscaled"
        ax.bar(torch.arange(num_keys) + 0.4 * offset, weights.tolist(),
               width=0.4, color=color, label=label)
    ax.set(title=f"c = {c}", xlabel="key", ylabel="weight", ylim=(0, 1.05))
panels[0].legend(frameon=False)
display(HTML(to_svg(fig, name="one-query")))
