"""Figures drawn from a page's code at build time: a Python-Markdown extension.

A block under `<!-- figure: its caption -->` runs in a fresh namespace, on one torch thread;
the matplotlib Figure it leaves in `fig` becomes inline SVG with the caption (its accessible
name), and the block itself folds into a box under it. A block that also leaves a `widget` (a
dict with a `kind`) gets it beside the drawing, as JSON that docs/javascripts/widgets/<kind>.js
turns into controls and a drawing that follows them; without JavaScript, the drawing stays.
What a widget holds under "fetched" leaves the page for a file beside it, named by its content,
which the widget fetches when the figure comes near the screen (tools/post_build.py writes it).

In a translation (the extension's `language`), every text the figure draws goes through the
language's table (its config's `extra.strings.figures`, tools/figure_words.py) before it is laid
out, and a widget carries the words its script asks for. Drawings are cached by their code,
and a translation's by its words too (`.cache/figures/<digest>/`, tools/cache_key.py).
mkdocs.yml names it `attnlit_tools.figures`.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json
import re
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

sys.path.insert(0, str(Path(__file__).parent))
import figure_words  # noqa: E402
import i18n  # noqa: E402
import thai_words  # noqa: E402
from cache_key import cache, store  # noqa: E402
from post_build import beside  # noqa: E402
from tangle import FIGURE, under_markers  # noqa: E402

KIND = "figures"  # the cache's folder
KIND_JS = "javascripts/widgets/{}.js"
# The words a widget's script, or a playground's, asks for in its page's language: t("...").
ASKED = re.compile(r'\bt\("([^"]+)"')
SVG_SLOT = re.compile(r'<div class="attnlit-svg" data-figure="([^"]+)"></div>')
# Fonts that matplotlib measures a language's figure text in, after DejaVu Sans (which has
# no Thai letters): the page draws it in its own Thai font (extra.css), of about that width.
FIGURE_FONTS = {"th": ["Loma", "Waree", "Thonburi", "Tahoma", "Leelawadee UI", "Noto Sans Thai"]}
# What the measuring font leaves on every text element of a translated figure: the page's
# fonts are the figure's, as in English.
MEASURED_FONT = re.compile(r"font-family:'DejaVu Sans', '[^']+';?|;font-family:'DejaVu Sans', '[^']+'")


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run a block's torch work on one thread, as the code blocks' tests do: how many threads
    share a sum changes its last digits (0.0423 or 0.0424 in chapter 11's decode widget), and a
    page's numbers must not depend on its builder's cores."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def figure_fonts(language: str) -> dict:
    """matplotlib's settings for a language's figures: DejaVu Sans, then a font that has its
    letters where DejaVu Sans lacks them, which the builder must have."""
    from matplotlib import font_manager

    wanted = FIGURE_FONTS.get(language)
    if not wanted:
        return {}
    for family in wanted:
        try:
            font_manager.findfont(family, fallback_to_default=False)
        except ValueError:
            continue
        return {"font.family": ["DejaVu Sans", family]}
    raise RuntimeError(f"the {language} figures need one of the fonts {', '.join(wanted)} to be laid out "
                       "(on Debian and Ubuntu: apt-get install fonts-thai-tlwg)")


def render(code: str, name: str, language: str = i18n.ENGLISH,
           words: dict[str, str] | None = None) -> tuple[str, str | None]:
    """Run a figure block in a fresh namespace: its `fig` as inline SVG (`name` makes its
    classes its own), its `widget` as JSON; with `words`, a translation's table, every text of
    the figure translated before it is laid out (tools/figure_words.py)."""
    import matplotlib
    from matplotlib.figure import Figure

    from attnlit.plots import to_svg

    namespace = {"__name__": "__main__"}
    fonts = figure_fonts(language) if words is not None else {}
    with matplotlib.rc_context(fonts), warnings.catch_warnings():
        # A letter that the fonts lack would be measured as a box: fail rather than draw it.
        warnings.filterwarnings("error", "Glyph .* missing from font", UserWarning)
        with one_thread():
            exec(compile(code, name, "exec"), namespace)
        fig, widget = namespace.get("fig"), namespace.get("widget")
        if not isinstance(fig, Figure):
            raise ValueError(f"the block must leave a matplotlib Figure in `fig`, found {type(fig).__name__}")
        if words is not None:
            from attnlit.toy import words as sentence  # tick labels that are tokens, not words

            figure_words.translate(fig, figure_words.Words(words), data=sentence)
        svg = to_svg(fig, name=name)
    if fonts:
        svg = MEASURED_FONT.sub("", svg).replace(' style=""', "")
    if widget is not None and not (isinstance(widget, dict) and isinstance(widget.get("kind"), str)):
        raise ValueError("a block's `widget` must be a dict with a str 'kind' (the widget that "
                         f"docs/javascripts/widgets/<kind>.js draws), found {widget!r:.80}")
    if widget is not None and not (re.fullmatch("[a-z]+", widget["kind"])
                                   and (i18n.ROOT / "docs" / KIND_JS.format(widget["kind"])).exists()):
        raise ValueError(f"no script docs/{KIND_JS.format(widget['kind'])} draws the widget's kind")
    if widget is not None:  # plain JSON only: no NaN or infinity, which JSON lacks
        widget = json.dumps(widget, allow_nan=False, separators=(",", ":"))
    return svg, widget


def draw(code: str, name: str, language: str = i18n.ENGLISH,
         words: dict[str, str] | None = None) -> tuple[str, str | None]:
    """`render`, cached by the block's code and name, and a translation's by its words too; a
    block without a widget has no JSON file."""
    parts = [name, code] if words is None else [name, code, language, json.dumps(words, sort_keys=True)]
    key = hashlib.sha1("\0".join(parts).encode()).hexdigest()
    cached, data = cache(KIND) / f"{key}.svg", cache(KIND) / f"{key}.json"
    if cached.exists():
        return cached.read_text(encoding="utf-8"), data.read_text(encoding="utf-8") if data.exists() else None
    svg, widget = render(code, name, language, words)
    if widget is not None:
        store(data, widget)
    store(cached, svg)  # last, so that its presence means both are there
    return svg, widget


def widget_strings(data: dict, table: dict[str, str]) -> dict[str, str]:
    """The language's words that a widget shows, not all of them: those its kind's script asks
    for, those of its data (chapter 5's ways come with their English names), and the words of
    its data that a key with {names} translates, translated here (11b's "window, w = 16")."""
    script = (i18n.ROOT / "docs" / KIND_JS.format(data["kind"])).read_text(encoding="utf-8")
    held = set(texts(data))
    asked, words = {*ASKED.findall(script), *held}, figure_words.Words(table)
    filled = {text: said for text in sorted(held - set(table)) if (said := words(text)) != text}
    return {english: said for english, said in table.items() if english in asked} | filled


def texts(value) -> Iterator[str]:
    """Every string that a JSON value holds."""
    if isinstance(value, str):
        yield value
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        yield from texts(item)


class FiguresPreprocessor(Preprocessor):
    """Each figure block drawn: its figure, the SVG's slot, its code folded under it."""

    def __init__(self, md: Markdown, language: str):
        super().__init__(md)
        self.language, self.strings = language, i18n.strings(language)
        self.words = None if language == i18n.ENGLISH else self.strings.get("figures") or {}
        self.svgs: dict[str, str] = {}  # slot -> the drawing (and its widget's data), for the postprocessor

    def run(self, lines: list[str]) -> list[str]:
        self.svgs.clear()
        return under_markers(lines, FIGURE, self.figure)

    def figure(self, found: re.Match[str], block: list[str]) -> list[str]:
        indent, caption = found["indent"], found["caption"]
        number = len(self.svgs) + 1  # the page's n-th figure: its classes and its caption's id
        name, caption_id = f"figure-{number}", f"figure-caption-{number}"
        if not block or block[0] != f"{indent}```python":
            raise ValueError(f"{found.string.strip()}: a figure marker must sit right above a ```python "
                             "block with the same indentation")
        fence = [row[len(indent):] for row in block]
        try:
            svg, widget = draw("\n".join(fence[1:-1]), name, self.language, self.words)
        except Exception as error:
            raise ValueError(f"{name} ({caption}) failed to draw: {type(error).__name__}: {error}") from error
        # The caption is the drawing's accessible name: a screen reader reads it as one image,
        # not the SVG's scattered tick labels. (A figure of panels is a <div> of <svg>s.)
        self.svgs[name] = re.sub("^<(svg|div) ", rf'<\1 role="img" aria-labelledby="{caption_id}" ', svg, count=1)
        kind, files = "", []
        if widget is not None:
            data, files = self.widget(json.loads(widget))
            # Text of a hidden element, not a <script type="application/json">: Material's
            # instant navigation runs every <script> of the page it brings in, whatever its type.
            text = json.dumps(data, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
            self.svgs[name] += f'\n<div class="attnlit-data" hidden>{html.escape(text, quote=False)}</div>'
            kind = f' data-widget="{html.escape(data["kind"])}"'
        drawn = [
            *files,
            f'<figure class="attnlit-figure"{kind} data-search-exclude markdown="1">',
            f'<div class="attnlit-svg" data-figure="{name}"></div>',
            f'<figcaption id="{caption_id}" markdown="span">{caption}</figcaption>',
            "</figure>",
            "",
            f'??? example "{self.strings["code_for_figure"]}"',
            "",
            textwrap.indent("\n".join(fence), "    "),
        ]
        return [indent + row if row else row for row in "\n".join(drawn).split("\n")]

    def widget(self, data: dict) -> tuple[dict, list[str]]:
        """A widget's data as its page carries it: in the page's words, its heavy part a file
        beside the page (the comment that has it written)."""
        if self.words is not None:  # Thai words kept whole on a line, as the page's own
            data["strings"] = thai_words.kept_whole_in(widget_strings(data, self.words))
        if "fetched" not in data:
            return data, []
        text = json.dumps(data["fetched"], allow_nan=False, separators=(",", ":"))
        name = f"{hashlib.sha1(text.encode()).hexdigest()[:12]}.json"
        if not (cache(KIND) / f"fetched-{name}").exists():
            store(cache(KIND) / f"fetched-{name}", text)
        data["fetched"] = name  # beside the page: relative to its address
        return data, [beside(name, KIND, f"fetched-{name}"), ""]


class DrawingsPostprocessor(Postprocessor):
    """The drawings in their slots, once the page's HTML is whole."""

    def __init__(self, md: Markdown, figures: FiguresPreprocessor):
        super().__init__(md)
        self.figures = figures

    def run(self, text: str) -> str:
        return SVG_SLOT.sub(lambda slot: self.figures.svgs[slot[1]], text)


class Figures(Extension):
    """Draw the figure blocks (see the module's docstring)."""

    def __init__(self, **kwargs):
        self.config = {"language": [i18n.ENGLISH, "the page's language, whose words the figures are in"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        figures = FiguresPreprocessor(md, self.getConfig("language"))
        # As the block titles: before fenced blocks and raw HTML are taken out of the text.
        md.preprocessors.register(figures, "attnlit_figures", 34)
        # Last: no other step reads or changes the drawings (TeX to MathML is at 5).
        md.postprocessors.register(DrawingsPostprocessor(md, figures), "attnlit_drawings", 1)


def makeExtension(**kwargs) -> Figures:  # noqa: N802: Python-Markdown's name
    return Figures(**kwargs)
