# ---
# jupyter:
#   translated_from: "225c27493da7"
# ---

# %% [markdown]
# # แล็บ: ดูน้ำหนัก
#
# ทุกขั้นของ attention ในคู่มือนี้ วาดเป็น heatmap สำหรับประโยคเดียว: dot product ธรรมดา
# (บทที่ 1) query และ key ที่เรียนรู้ได้ (บทที่ 3) causal mask (บทที่ 5)
# dropout (บทที่ 6) และ head สองตัว (บทที่ 7) ทั้งหมดใช้น้ำหนักสุ่ม จากนั้นคือ head
# ของโมเดลที่ฝึกแล้ว (บทที่ 10) แถวคือ query คอลัมน์คือ key
#
# ถ้าจะรันซ้ำ ให้ดาวน์โหลดหน้านี้เป็น notebook (ลิงก์ใต้ชื่อหน้า) เปลี่ยน `sentence` หรือ `seed`
# ข้างล่าง แล้วรันทุกเซลล์ ประโยคของหนังสือใช้ embedding ของหนังสือ
# ส่วนประโยคอื่นจะได้ embedding สามมิติที่สุ่มจาก seed

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
    inputs = torch.rand(len(words), 3)  # (n, d) โดย d = 3
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
# ## Dot product และ softmax (บทที่ 1)
#
# เมื่อยังไม่มีน้ำหนักที่เรียนรู้ได้ $A = \operatorname{softmax}(X X^\top)$: token แต่ละตัวให้ attention
# มากที่สุดกับ token ที่ embedding ชี้ไปทางเดียวกับของตัวเองและมีความยาวมาก

# %%
scores = inputs @ inputs.T                              # (n, n)
show({"softmax(X Xᵀ)": torch.softmax(scores, dim=-1)}, "dot-products")

# %% [markdown]
# ## Query และ key (บทที่ 3)
#
# เมื่อมีการฉายที่เรียนรู้ได้ จะได้ $A = \operatorname{softmax}(Q K^\top / \sqrt{c})$
# ตอนที่ยังไม่ได้ฝึก น้ำหนักเกือบสม่ำเสมอ: โมเดลยังไม่ได้เรียนรู้ว่าควรมองหาอะไร

# %%
torch.manual_seed(seed)
sa = SelfAttentionV2(d_in=3, d_out=2)
with torch.no_grad():
    queries, keys = sa.W_query(inputs), sa.W_key(inputs)   # (n, 2) ทั้งคู่
    scores = queries @ keys.T / keys.shape[-1] ** 0.5
    show({"softmax(QKᵀ/√c)": torch.softmax(scores, dim=-1)}, "queries-keys")

# %% [markdown]
# ## Causal mask และ dropout (บทที่ 5 และ 6)
#
# forward hook ที่ติดไว้กับ layer dropout ของโมดูลจะดักจับน้ำหนักไว้: ครั้งแรกในโหมดประเมินผล
# (ปิด dropout) จากนั้นในโหมดฝึกโดยใช้ $p = 0.2$ ซึ่งค่าที่รอดจะใหญ่ขึ้น $1.25$ เท่า

# %%
torch.manual_seed(seed)
ca = CausalAttention(d_in=3, d_out=2, context_length=n, dropout=0.2)
caught = []  # น้ำหนัก (n, n) ของการเรียกแต่ละครั้ง จาก hook บน layer dropout
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
# ## Head สองตัว (บทที่ 7)
#
# head แต่ละตัวของ `MultiHeadAttention` กระจายน้ำหนักบน token ที่ผ่านมาในแบบของตัวเอง

# %%
torch.manual_seed(seed)
mha = MultiHeadAttention(
    d_in=3, d_out=4, context_length=n, dropout=0.0, num_heads=2
)
caught = []  # น้ำหนัก (h, n, n)
mha.dropout.register_forward_hook(
    lambda module, args, out: caught.append(out.detach()[0])
)
mha(inputs[None])
show({f"head {h + 1}": caught[0][h] for h in range(2)}, "heads")

# %% [markdown]
# ## โมเดลที่ฝึกแล้ว (บทที่ 10)
#
# น้ำหนักทุกตัวข้างบนเป็นค่าสุ่ม บทที่ 10 ฝึก GPT ขนาดเล็ก (สอง layer แต่ละ layer มีสอง head)
# ให้เขียนต่อช่วงของ token ที่ซ้ำกัน โมเดลนี้มี previous-token head (0.0) และ induction head สองตัว (1.0, 1.1)
# โมเดลถูกฝึกด้วย id ของ token แบบสุ่มตั้งแต่ 0 ถึง 255 ซึ่งใช้แทนไบต์ได้:
# โมเดลจึงอ่านข้อความ ASCII ใด ๆ ที่ยาวไม่เกิน 32 ตัวอักษรได้ ลองพิมพ์ `text` ที่มีส่วนซ้ำกัน
# หรือตั้ง `text = ""` เพื่อสุ่ม token `length` ตัวจาก `seed` แล้วนำมาซ้ำอีกรอบ
# (`length` จึงต้องไม่เกิน 16)
# head `l.h` คือ head `h` ของ layer `l` โดยนับจาก 0 น้ำหนัก 0 ใช้สีที่ใกล้กับสีของหน้ามากที่สุด
# และน้ำหนัก 1 ใช้สีน้ำเงินที่เด่นที่สุด

# %%
from attnlit.gpt import load_trained

text = "one step; one step"
length = 12  # ใช้เมื่อ text ว่าง: token สุ่มจำนวนนี้ แล้วซ้ำอีกรอบ
seed = 123

model = load_trained()
if text:
    ids = torch.tensor(list(text.encode()))    # ไบต์ละหนึ่ง id ของ token
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

# head ละหนึ่งแผงภาพที่มีป้ายกำกับของตัวเอง: สองแผงวางเคียงกัน หรือซ้อนกันลงมา
# บนมือถือ
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
# head 0.0 มองย้อนไปหนึ่ง token เมื่อถึงส่วนที่ซ้ำ head 1.0 และ 1.1 จะมองไปที่ token
# ที่ตามหลัง token ปัจจุบันตอนที่ token นั้นปรากฏครั้งก่อน
# และแบ่งน้ำหนักออกไปเมื่อ token ปัจจุบันเคยปรากฏมากกว่าหนึ่งครั้ง
# ข้างล่างคือการเดาแบบ greedy ของโมเดลสำหรับ token ถัดไปแต่ละตัว
# พร้อมเครื่องหมายถูกตรงที่เดาถูก: ก่อนถึงส่วนที่ซ้ำ ไม่มีอะไรที่ทำนายได้
# และการเดาก็เป็นไปตามที่ head ชี้ไป ไม่ว่าจะเป็นอะไร พอถึงส่วนที่ซ้ำ โมเดลก็คัดลอก

# %%
with torch.no_grad():
    guesses = model(ids[None]).argmax(dim=-1)[0]   # (n,)
for m in range(n - 1):
    right = "  ✓" if guesses[m] == ids[m + 1] else ""
    print(f"{m:2} {labels[m]:>3} -> guess {label(guesses[m].item()):>3}, "
          f"next {labels[m + 1]:>3}{right}")
