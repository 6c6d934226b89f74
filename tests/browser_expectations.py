"""What the browser tests expect of the site, page by page: which pages there are, their
budgets, what searching finds, what each widget shows in each state (from what its page
prints), the data each widget is tried with, the pages each journey visits.

The visits (tests/browsing.py) and the tests (tests/test_browser_*.py) read these tables.
"""

import re
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path

import i18n
import site_config
import tangle
import thai_words


ROOT = Path(__file__).resolve().parent.parent

FLOOR = "404.html"  # the empty page: its HTML, the theme's script and styles, which every page loads
# The translations (tools/i18n.py): each language's site lies in site/<lang>/, with its own
# empty page; its pages are named here by their path there, "th/attention-without-weights.md".
LANGUAGES = i18n.languages(ROOT)
FLOORS = [FLOOR, *(f"{language}/{FLOOR}" for language in LANGUAGES)]
FLOOR_BUDGET = 75_000  # bytes sent on a first visit, search aside

SEARCH_BUDGET = 150_000  # bytes sent
# Bytes sent for a page, over the floor's. A chapter's went from 40 KB to 41 KB when the
# widgets' rows of numbers became a grid, lined up in any language (0.2 KB more of
# widgets.js), and to 44 KB when chapter 10, the heaviest, gained the measurements an
# expert asked for (issue 35: chance levels, the trace, a path patch): it sends 43.2 KB.
# Issue 34 asked for a picture every 6,000 px at most: chapter 10, with nine figures and two
# widgets, sends 54.0 KB (its six new figures 7.8 KB of the 10.8 it gained), chapter 12,
# with seven figures and a widget, 44.3 KB. Readers asked for the pictures; the budget follows.
BUDGET = {"markdown": 56_000, "notebook": 60_000}

WIDGET_DATA_BUDGET = 30_000  # bytes sent, per page
# Issue 26 set a translated chapter's budget when budgets counted bytes as stored: 160 KB over
# its language's empty page, a third more than the English 120 KB of then (a Thai letter is 3
# bytes in UTF-8). Budgets now count bytes sent (issue 27): a translated chapter may send a
# third more than an English one over its language's empty page.
TRANSLATED_BUDGET = {kind: budget * 4 // 3 for kind, budget in BUDGET.items()}
# A translation's search may send a third more too (a Thai letter is 3 bytes; the Thai index
# also holds the word pairs a reader types as one word).
TRANSLATED_SEARCH_BUDGET = SEARCH_BUDGET * 4 // 3
ENGLISH = [page.removeprefix("docs/") for page in site_config.nav_pages(ROOT)]
TRANSLATED = [f"{language}/{page}" for language in LANGUAGES for page in i18n.pages(language, ROOT)]
PAGES = ENGLISH + TRANSLATED

# Checks that run on one or two pages only, within the same visits.
SEARCHED = "index.md"
# Queries as a reader types them: (pages one of which Material must list first, because its title or
# a heading names the query; pages it must list among the first five).
SEARCHES = {
    "KV cache": (["generation/"], []),  # chapter 11's title; 11b's names "caches" only
    "induction": (["trained-gpt/"], []),  # no title names it: chapter 10 explains induction heads
    # Both words on chapter 10 only: Material put chapter 7 (head, head, head) first (issue 34).
    "induction head": (["trained-gpt/"], []),
    "softmax": (["scaling/"], ["attention-without-weights/"]),
    "RoPE": (["word-order/"], []),
    "causal mask": (["causal-attention/"], []),
    "dropout": (["dropout/"], []),
    "grouped-query attention": (["smaller-caches/"], []),
    "online softmax": (["flash-attention/"], []),
    "nn.MultiheadAttention": (["production-attention/"], []),
    "register_buffer": ([], ["causal-attention/"]),  # code in prose, split as the index splits it
}
SEPARATOR = re.compile(next(plugin["search"]["separator"] for plugin in site_config.read_config(ROOT)["plugins"]
                            if isinstance(plugin, dict) and "search" in plugin))  # as Material splits
# Words as Thai and Vietnamese readers type them, a key press a letter and no space after: each
# must find its page, and a preview that holds it. Thai writes no space between words: บริบท
# (context) stands inside เวกเตอร์บริบท (context vector) on the page; ความยาว (length), one
# word to a reader, is two in PyThaiNLP's dictionary; เวกเตอร์บริบท is two words typed as one.
# Words of a translated page that no other page of its language holds, typed as a reader types
# them: whole, and (Thai, written without spaces) one word of a compound, which only word
# segmentation finds. Common words (softmax, บริบท) are on most pages: which comes first is a
# matter of ranking, which the English queries above test.
TYPED = {
    "th/attention-without-weights.md": ["แมวอ้วน", "อ้วน", "เปลือกนูน"],
    "vi/attention-without-weights.md": ["bao lồi", "mèo béo"],
}
# Queries of a translation, searched from its home page: the page that its title or a heading
# names them, which Material must list first. Thai: phrases of several words typed as one, as
# Thai is written (chapter 11's title, การสร้างข้อความ); Vietnamese: syllables of one word,
# which common syllables (số, ma) must not swamp.
TRANSLATED_SEARCHES = {
    "th/index.md": {"การสร้างข้อความ": "generation/", "ความแปรปรวน": "scaling/", "เมทริกซ์": "projections/",
                    "การฉาย": "projections/"},
    "vi/index.md": {"ma trận": "projections/", "bão hòa": "scaling/", "sao chép": "generation/",
                    "chia tỉ lệ": "scaling/"},
}
# Spellings a reader may type for a word that the pages write otherwise, and that word, which
# must find the same pages: a Thai spelling of a term the glossary keeps in English, in the
# same order; a Vietnamese word typed without its diacritics, which finds what it finds with
# them (it may find more: bao also stands for bão), the same page first.
SAME_RESULTS = {
    "th/index.md": {"มาสก์": "mask", "แคช": "cache", "โทเค็น": "token", "เทนเซอร์": "tensor"},
    "vi/index.md": {"bao hoa": "bão hòa", "sao chep": "sao chép", "chia ti le": "chia tỉ lệ", "ma tran": "ma trận"},
}
SEARCHED_ON = {SEARCHED: list(SEARCHES), **{
    name: list(dict.fromkeys([*TRANSLATED_SEARCHES[name], *(word for pair in SAME_RESULTS[name].items() for word in pair)]))
    for name in TRANSLATED_SEARCHES}}
COPIED = ["attention-without-weights.md", "multi-head-attention.md", "training-code.md"]  # the last: folded listings
PALETTE_SHOWN = "projections.md"  # its first figure's screenshots, in both palettes
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")  # 3, -0.5, 0.1385; not Backward0


@dataclass
class Printed:
    """Lines (from 0) of the asserted output of the page's block whose code holds `block`."""

    block: str
    lines: list[int]


@dataclass
class Shown:
    """A state of a page's widget and where the page prints what it must show.

    `state` sets controls by label to values as shown ({} is the state the widget starts in);
    `printed` are the output lines that hold its numbers, in order, or a function of the
    state that computes them with PyTorch; `rows` are the widget's rows of numbers to compare
    (all if None).
    """

    state: dict[str, str]
    printed: list[Printed] | Callable[[dict[str, str]], list[str]]
    rows: list[int] | None = None


def scaled_weights(state: dict[str, str]) -> list[str]:
    """Chapter 4's block at another width and temperature: scores, unscaled, scaled."""
    import torch

    c, temperature = int(state["width c"]), float(state["temperature T"])
    torch.manual_seed(123)
    q, keys = torch.randn(c), torch.randn(8, c)
    scores = keys @ q
    rows = [scores, torch.softmax(scores / temperature, dim=0),
            torch.softmax(scores / (c**0.5 * temperature), dim=0)]
    return [" ".join(f"{v:.4f}" for v in row) for row in rows]


def dropped_weights(state: dict[str, str]) -> list[str]:
    """Chapter 6's block at another rate and seed: the weights after dropout, then row sums."""
    import torch
    from torch import nn

    from attnlit import SelfAttentionV2
    from attnlit.toy import inputs

    torch.manual_seed(789)
    sa_v2 = SelfAttentionV2(d_in=3, d_out=2)
    queries, keys = sa_v2.W_query(inputs), sa_v2.W_key(inputs)
    future = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    masked = (queries @ keys.T).masked_fill(future, -torch.inf)
    attn_weights = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)
    torch.manual_seed(int(state["seed"]))
    dropped = nn.Dropout(float(state["dropout rate p"]))(attn_weights)
    return [" ".join(f"{v:.4f}" for v in row) for row in [*dropped, dropped.sum(dim=-1)]]


def cache_costs(state: dict[str, str]) -> list[str]:
    """Chapter 11b's calculator in another state: attnlit.cachesize's rows for it."""
    from attnlit.cachesize import PRESETS, cost_table

    n = state["tokens n"]  # as the slider shows it: 1K is 1,024 tokens
    tokens = int(n.removesuffix("K")) * (1024 if n.endswith("K") else 1)
    return cost_table(PRESETS[state["model"]], tokens, int(state["batch b"]))


def snapshot_row(state: dict[str, str]) -> list[str]:
    """Chapter 10's table of the snapshots, at another step: its header and the step's row."""
    from attnlit.train import training_snapshots

    snapshots = training_snapshots()
    i = snapshots["step"].index(int(state["step"]))
    scores = [f"{score:.2f}" for key in ("previous", "prefix") for layer in snapshots[key][i] for score in layer]
    return ["0.0 0.1 1.0 1.1 0.0 0.1 1.0 1.1",
            f"{snapshots['step'][i]} {snapshots['loss'][i]:.2f} {snapshots['accuracy'][i]:.2f} {' '.join(scores)}"]


TRAINING_TABLE = "for step in (0, 250, 500, 525, 550, 575, 600, 625, 650, 700, 800, 1200):"
# The widgets of each page, in states whose numbers a tested block of the page prints (or,
# where noted, PyTorch or the shipped data give here). A page with one widget lists its states;
# a page with several, each widget's by its kind, in the page's order.
WIDGETS = {
    "attention-without-weights.md": [
        Shown({}, [Printed("attn_scores_2 = inputs @ inputs[1]  #", [0]),
                   Printed("attn_weights_2 = softmax_naive(inputs @ inputs[1])", [0]),
                   Printed("print(attn_weights_2 @ inputs)", [0])]),
        Shown({"query": "step"}, [Printed("all_context_vecs = attn_weights @ inputs  ", [5, 11, 18])]),
    ],
    "scaling.md": [
        Shown({}, [Printed('print(f"{name:9}" + " ".join(f"{v:.4f}"', [0, 1, 2])]),
        Shown({"width c": "16", "temperature T": "0.3"}, scaled_weights),
        Shown({"width c": "1024", "temperature T": "5"}, scaled_weights),
        Shown({"width c": "1024", "temperature T": "10"}, scaled_weights),
    ],
    "causal-attention.md": [
        Shown({}, [Printed("masked = attn_scores.masked_fill(future, -torch.inf)", list(range(7, 13)))]),
        Shown({"masking": "softmax, zero, renormalise"}, [Printed("print(masked_simple / row_sums)", list(range(6)))]),
        Shown({"masking": "0 before softmax (wrong)"},
              [Printed("print(torch.softmax(zeroed / keys.shape[-1] ** 0.5, dim=-1)[0])", [0])], rows=[0]),
    ],
    "dropout.md": [
        Shown({}, [Printed("dropped = nn.Dropout(0.5)(attn_weights)", [0, 1, 2, 3, 4, 5, 7])]),
        Shown({"dropout rate p": "0.2", "seed": "7"}, dropped_weights),
        Shown({"dropout rate p": "0.9", "seed": "0"}, dropped_weights),
    ],
    "multi-head-attention.md": [
        Shown({}, [Printed("for head, query in ((0, 5), (2, 1)):", [1, 2, 3])]),
        Shown({"head": "3", "query": "journey"}, [Printed("for head, query in ((0, 5), (2, 1)):", [5, 6, 7])]),
    ],
    "word-order.md": [
        Shown({}, [Printed("score={q_at[m] @ k_at[p]:.4f}", [1])]),
        Shown({"shift of m and p": "100"}, [Printed("score={q_at[m] @ k_at[p]:.4f}", [2])]),
        Shown({"shift of m and p": "1000"}, [Printed("score={q_at[m] @ k_at[p]:.4f}", [3])]),
        Shown({"shift of m and p": "0", "offset m − p": "-3"}, [Printed("score={q_at[m] @ k_at[p]:.4f}", [4])]),
    ],
    "trained-gpt.md": {
        "training": [
            Shown({}, [Printed(TRAINING_TABLE, [2, 8])]),  # step 575
            Shown({"step": "500"}, [Printed(TRAINING_TABLE, [2, 5])]),
            Shown({"step": "650"}, [Printed(TRAINING_TABLE, [2, 11])]),
            Shown({"step": "1200"}, [Printed(TRAINING_TABLE, [2, 14])]),
            Shown({"step": "350"}, snapshot_row),  # a step the table leaves out
        ],
        "heads": [
            Shown({}, [Printed("weights = model.attention_weights(idx)[1][0, 0]", [0, 1, 2, 3])]),
        ],
    },
    "generation.md": [
        Shown({}, [Printed("for step in range(4):  ", [1, 2, 3, 4])]),
        Shown({"step": "3"}, [Printed("for step in range(4):  ", [6, 7, 8, 9])]),
    ],
    "flash-attention.md": [
        Shown({}, [Printed("if step in (1, 6, 8):", [0, 1, 2])]),
        Shown({"step": "6"}, [Printed("if step in (1, 6, 8):", [3, 4, 5])]),
        Shown({"step": "8"}, [Printed("if step in (1, 6, 8):", [6, 7, 8])]),
    ],
    "attention-sinks.md": [
        Shown({}, [Printed('for model, byte in (("plain", 1023)', [0])]),
        Shown({"model": "with a sink logit", "byte": "2047"}, [Printed('for model, byte in (("plain", 1023)', [1])]),
        Shown({"model": "with a gate", "byte": "511"}, [Printed('for model, byte in (("plain", 1023)', [2])]),
    ],
    # Every model, at lengths from 16 tokens to 128K (below, at and above a window) and
    # batches from 1 to 256: sizes from KiB to TiB.
    "smaller-caches.md": [
        Shown({}, [Printed("for name, n, batch in cases]", list(range(7)))]),
        Shown({"tokens n": "32K", "batch b": "16"}, [Printed("for name, n, batch in cases]", list(range(8, 15)))]),
        Shown({"model": "DeepSeek-V3", "tokens n": "128K", "batch b": "1"},
              [Printed("for name, n, batch in cases]", list(range(16, 23)))]),
        Shown({"model": "TinyGPT", "tokens n": "32", "batch b": "1"},
              [Printed("for name, n, batch in cases]", list(range(24, 31)))]),
        Shown({"model": "GPT-2 small", "tokens n": "1K", "batch b": "1"}, cache_costs),
        Shown({"model": "GPT-2 small", "tokens n": "128K", "batch b": "256"}, cache_costs),
        Shown({"model": "Llama 3 8B", "tokens n": "8K", "batch b": "1"}, cache_costs),
        Shown({"model": "Llama 3 8B", "tokens n": "128K", "batch b": "64"}, cache_costs),
        Shown({"model": "Mistral 7B", "tokens n": "4K", "batch b": "2"}, cache_costs),
        Shown({"model": "Mistral 7B", "tokens n": "64K", "batch b": "256"}, cache_costs),
        Shown({"model": "DeepSeek-V3", "tokens n": "4K", "batch b": "16"}, cache_costs),  # experts
        Shown({"model": "DeepSeek-V3", "tokens n": "16", "batch b": "256"}, cache_costs),
        Shown({"model": "DeepSeek-V3", "tokens n": "128K", "batch b": "256"}, cache_costs),
        Shown({"model": "TinyGPT", "tokens n": "16", "batch b": "4"}, cache_costs),
        Shown({"model": "TinyGPT", "tokens n": "512", "batch b": "128"}, cache_costs),
    ],
}


def states(page_name: str) -> dict[str | None, list[Shown]]:
    """A page's widgets by kind (None: the page's one widget, whatever its kind)."""
    shown = WIDGETS.get(page_name, [])
    return shown if isinstance(shown, dict) else {None: shown}


# Controls whose options a widget shows in the page's language (chapter 5's ways and chapter 10's
# sequences, which the data names in English); the others show numbers, or the data's words as
# they are (chapter 1's query is "step" in every language).
TRANSLATED_OPTIONS = {"masking", "sequence", "model"}


def in_language(language: str, states: list[Shown] | dict[str, list[Shown]]) -> list[Shown] | dict[str, list[Shown]]:
    """A page's widgets' states on a page translated into `language`: its labels and values in
    the language's words (mkdocs.<lang>.yml's extra.strings); a function of the state still
    gets them in English."""
    if isinstance(states, dict):  # a page with several widgets: each kind's states
        return {kind: in_language(language, shown) for kind, shown in states.items()}
    # As the page has them: Thai words kept whole on a line (tools/thai_words.py).
    words = {english: thai_words.kept_whole(said) for english, said in (i18n.strings(language, ROOT).get("figures") or {}).items()}
    # Back to English: the controls' labels first (two words may share a translation).
    english = {translated: original for original, translated in words.items()}
    english.update({words.get(label, label): label for shown in states for label in shown.state})

    def said(state: dict[str, str]) -> dict[str, str]:
        """A state as the translated widget shows it."""
        return {words.get(label, label): words.get(value, value) if label in TRANSLATED_OPTIONS else value
                for label, value in state.items()}

    def unsaid(state: dict[str, str]) -> dict[str, str]:
        """Its labels in English again, for the functions that compute a state's numbers."""
        return {english.get(label, label): value for label, value in state.items()}

    return [Shown(said(shown.state),
                  (lambda state, compute=shown.printed: compute(unsaid(state)))
                  if callable(shown.printed) else shown.printed, shown.rows) for shown in states]


# A translated page's widget shows the numbers its English page's does: its blocks are the same.
WIDGETS.update({name: in_language(name.split("/")[0], WIDGETS[name.split("/", 1)[1]])
                for name in TRANSLATED if name.split("/", 1)[1] in WIDGETS})
# Each widget, as (page, kind), translated pages' included: the tests of one widget run once for
# each.
WIDGET_CASES = [(page, kind) for page in WIDGETS for kind in states(page)]
# What a translated widget could only do as its English one does (its data and scripts are the
# English ones but for its words: tests/test_site.py), checked on the English page alone.
ENGLISH_WIDGETS = [page for page in WIDGETS if page not in TRANSLATED]
ENGLISH_WIDGET_CASES = [(page, kind) for page, kind in WIDGET_CASES if page in ENGLISH_WIDGETS]


def language_of(page_name: str) -> str:
    """The language of a page named as in PAGES or FLOORS."""
    first = page_name.split("/", 1)[0]
    return first if "/" in page_name and first in LANGUAGES else i18n.ENGLISH


def budget_of(page_name: str) -> int:
    """The bytes a page may send over its language's empty page."""
    return (TRANSLATED_BUDGET if page_name in TRANSLATED else BUDGET)[
        "notebook" if page_name.endswith(".py") else "markdown"]


def search_budget_of(floor_name: str) -> int:
    """The bytes a language's search (worker and index) may send."""
    return SEARCH_BUDGET if floor_name == FLOOR else TRANSLATED_SEARCH_BUDGET


def floor_of(page_name: str) -> str:
    """The empty page of a page's language, over which its weight counts."""
    language = language_of(page_name)
    return FLOOR if language == i18n.ENGLISH else f"{language}/{FLOOR}"


# Widgets given data their page never has: the page is served with its widget's data changed
# (or, for a widget whose data is a file of the site, that file). A case's name: (the page, the
# widget's kind as in WIDGET_CASES, the change). A widget counts what its data holds, and copes
# with data that draws a flat curve.
ALTERED = {
    "fewer words": ("dropout.md", None, lambda data: {**data, "words": data["words"][:4],
                                                      "weights": [row[:4] for row in data["weights"][:4]]}),
    "flat curve": ("word-order.md", None, lambda data: {**data, "q": [0.0] * len(data["q"]),
                                                        "k": [0.0] * len(data["k"])}),
}
# Each widget (as in WIDGET_CASES) with its data broken where only the drawing reads it: its
# controls are made, and its first drawing fails. The page must stay as it was served.
BROKEN = {
    ("attention-without-weights.md", None): lambda data: {**data, "scores": None},
    ("scaling.md", None): lambda data: {**data, "scores": None},
    ("causal-attention.md", None): lambda data: {**data, "ways": [[name, None] for name, _ in data["ways"]]},
    ("dropout.md", None): lambda data: {**data, "weights": None},
    ("word-order.md", None): lambda data: {**data, "pairs": None},
    ("trained-gpt.md", "training"): lambda data: {**data, "loss": None},
    ("trained-gpt.md", "heads"): lambda data: {**data, "sequences": [{**sequence, "shades": None}
                                                                     for sequence in data["sequences"]]},
    ("smaller-caches.md", None): lambda data: {**data, "models": [{**model, "designs": None}
                                                                  for model in data["models"]]},
    ("multi-head-attention.md", None): lambda data: {**data, "shares": None},
    ("generation.md", None): lambda data: {**data, "steps": [{**step, "weights": None} for step in data["steps"]]},
    ("flash-attention.md", None): lambda data: {**data, "steps": [{**step, "scores": None} for step in data["steps"]]},
    ("attention-sinks.md", None): lambda data: {**data, "loss": None},
}


# Pages a footer link apart: one without widgets, then three with one each (and their kinds).
INSTANT = ("queries-keys-values.md", ("scaling.md", "scale"), ("causal-attention.md", "mask"),
           ("dropout.md", "dropout"))


# The palette: a first visit in a system set to each scheme; then, in light, a switch by
# keyboard, the next page, and a switch back by pointer (overrides/partials/palette.html).
PALETTE_PAGES = ("attention-without-weights.md", "dropout.md")

# Chapter 10's timeline (docs/javascripts/widgets/training.js, with widgets.js's slider): its
# named moments, its play button, and on a phone its heads beside the slider (issue 34).
TIMELINE = "trained-gpt.md"

# Page 10c's playground (docs/javascripts/tinygpt.js): chapter 10's model, run in the browser.
LIVE = "talk-to-the-model.md"
LIVE_FILES = ("/talk-to-the-model/tinygpt.bin", "/talk-to-the-model/reference.json")

# Page 13b's playground (the same script): chapter 13's model of plays, run in the browser.
TEXT_LIVE = "write-with-the-model.md"
# Chapter 13's previous-byte heads (score >= 0.3), which the page says to switch off.
PREVIOUS_BYTE_HEADS = ("L1H1", "L1H3", "L2H1", "L2H3", "L3H0", "L3H2", "L3H3")

VIETNAMESE, THAI = "Trời xanh. Trời xanh. Tr", "สวัสดี 🙂"  # typed into the English playground
PHRASE = "Bright sky. Br"  # the playground's first text
CAT = "the cat sat. the cat sat."  # a token seen many times: the page explains its continuation

# The language selector, as a reader uses it: from a translated page, through each language in
# turn and back. (On a page not translated yet: tests/test_translations.py, as every page is.)
SELECTED = "attention-without-weights.md"


def printed(page_name: str, part: Printed) -> list[str]:
    """Lines of the asserted output of the one block of the page whose code holds part.block."""
    lines = (ROOT / "docs" / page_name).read_text(encoding="utf-8").splitlines()
    spans = tangle.fences(lines, page_name)
    starts, found = sorted(spans), []
    for this, following in zip(starts, starts[1:]):
        between = [line.strip() for line in lines[spans[this] + 1:following] if line.strip()]
        code = "\n".join(lines[this + 1:spans[this]])
        # The output marker may follow a code annotation's list, as pytest-codeblocks allows.
        if lines[this].strip() == "```python" and part.block in code and between[-1:] == [tangle.OUTPUT]:
            found.append(lines[following + 1:spans[following]])
    assert len(found) == 1, f"{page_name}: {len(found)} blocks with an output hold {part.block!r}"
    return [found[0][i] for i in part.lines]
