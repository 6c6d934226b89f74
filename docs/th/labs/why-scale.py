# ---
# jupyter:
#   translated_from: "cc9d9d41f5b9"
# ---

# %% [markdown]
# # แล็บ: ทำไมต้องสเกล
#
# บทที่ 4 ให้เหตุผลว่าต้องหารคะแนนด้วย $\sqrt{c}$: dot product ของเวกเตอร์สองตัวซึ่งมีสมาชิก
# $c$ ตัวที่อิสระต่อกันและมีความแปรปรวน 1 จะมีความแปรปรวน $c$
# และ softmax ของคะแนนที่ใหญ่จะกลายเป็น arg-max ที่แทบไม่ส่ง gradient กลับเลย
# ถ้าจะรันการทดลองนั้นด้วยจำนวนมิติ จำนวน key และจำนวนครั้งที่สุ่มตามที่คุณเลือก
# ให้ดาวน์โหลดหน้านี้เป็น notebook (ลิงก์ใต้ชื่อหน้า) เปลี่ยนค่าเหล่านั้นข้างล่าง แล้วรันทุกเซลล์

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
# ## การอิ่มตัวและ gradient
#
# สำหรับจำนวนมิติแต่ละค่า: ค่าเฉลี่ยของน้ำหนักที่ใหญ่ที่สุด และค่ามัธยฐานของ norm ของ gradient
# ที่อินพุตของ softmax ทั้งแบบสเกลและไม่สเกล

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
for ax in (weight_ax, grad_ax):  # ป้ายแกนเป็น 16 ไม่ใช่ 10 ที่มีเลขชี้กำลังเป็นตัวยก
    ax.set_xticks(widths[::2], [str(c) for c in widths[::2]])
grad_ax.yaxis.set_major_formatter("{x:g}")
weight_ax.legend(frameon=False)
display(HTML(to_svg(fig, name="saturation")))

# %% [markdown]
# ## ส่องดู query ตัวเดียวใกล้ ๆ
#
# น้ำหนักที่ query หนึ่งตัวให้กับ key แต่ละตัว เมื่อมีมิติน้อยและเมื่อมีมิติมาก ถ้าไม่สเกล
# มิติที่มากจะให้น้ำหนักเกือบทั้งหมดแก่ key ตัวเดียว

# %%
torch.manual_seed(seed)
fig = Figure(figsize=(6.8, 2.8), layout="constrained")
panels = [sub.subplots() for sub in fig.subfigures(1, 2)]  # บนมือถือจะเรียงซ้อนกัน
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
