"""A figure's words in another language: every text that a matplotlib figure draws, put
through the language's table before the figure is drawn.

The table is the one the widgets' `t()` reads (mkdocs.<lang>.yml's `extra.strings.figures`):
English text -> its translation, where `{name}` stands for a part that is carried over as it
is (a number, a name): "cache {held}, read {read}" translates "cache 1.00 GiB, read 14.2 GiB".
A translated page shows its English page's code, which draws English words; the build runs that
code, translates what it drew, and only then lays the figure out, so that a longer or shorter
word gets the room it needs.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.ticker import Formatter

FIELD = re.compile(r"\{(\w+)\}")


class Words:
    """A language's table as a function of English text: its translation, or the text itself
    where the table has none."""

    def __init__(self, table: dict[str, str]):
        if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in table.items()):
            raise TypeError(f"table must map English text to translated text (str to str), got {table!r:.80}")
        self.table = table
        self.templates = []
        for english, translated in table.items():
            names = FIELD.findall(english)
            if not names:
                continue
            if sorted(set(FIELD.findall(translated))) != sorted(set(names)):
                raise ValueError(f"the translation of {english!r} must use the same {{names}}, "
                                 f"got {translated!r}")
            parts = FIELD.split(english)  # text, name, text, name, ..., text
            pattern = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
                              for i, part in enumerate(parts))
            self.templates.append((re.compile(pattern, re.DOTALL), translated))

    def __call__(self, text: str) -> str:
        if not isinstance(text, str):  # a formatter may give a number
            return text
        if text in self.table:
            return self.table[text]
        for pattern, translated in self.templates:
            found = pattern.fullmatch(text)
            if found:
                return FIELD.sub(lambda name: found[name[1]], translated)
        return text


class Translated(Formatter):
    """An axis's tick labels as its own formatter writes them, put through `words`; a label
    that is data (a token of the example sentence) stays as it is."""

    def __init__(self, formatter: Formatter, words: Words, data: frozenset[str]):
        self.formatter, self.words, self.data = formatter, words, data

    def said(self, label):
        return label if label in self.data else self.words(label)

    def __call__(self, x, pos=None) -> str:
        return self.said(self.formatter(x, pos))

    def format_ticks(self, values) -> list[str]:
        return [self.said(label) for label in self.formatter.format_ticks(values)]

    def set_axis(self, axis) -> None:
        self.formatter.set_axis(axis)

    def set_locs(self, locs) -> None:
        self.formatter.set_locs(locs)

    def get_offset(self) -> str:
        return self.words(self.formatter.get_offset())


def axes_of(ax: Axes) -> list:
    """An Axes' axis objects: x and y, and z in 3D."""
    return [getattr(ax, name) for name in ("xaxis", "yaxis", "zaxis") if hasattr(ax, name)]


def named(fig: Figure) -> set[int]:
    """The texts that name something, whatever their words: axis labels, titles, legends."""
    found = set()
    for ax in fig.findobj(Axes):
        labels = [axis.label for axis in axes_of(ax)]
        found |= {id(text) for text in [*labels, ax.title, ax._left_title, ax._right_title]}
    for legend in fig.findobj(Legend):
        found |= {id(text) for text in legend.get_texts()}
    return found


def translate(fig: Figure, words: Words, data: Collection[str] = ()) -> None:
    """Put every text the figure draws through `words`: titles, labels, legends, annotations,
    tick labels. A text in `data` that names nothing is data, not a word: the example
    sentence's "step", a token, labels a point or a tick; chapter 10's axis "step" is a word."""
    data, names = frozenset(data), named(fig)
    for text in fig.findobj(Text):
        if text.get_text() in data and id(text) not in names:
            continue
        said = words(text.get_text())
        if said != text.get_text():
            text.set_text(said)
    # Tick labels are made at each draw, by the axis's formatters.
    for ax in fig.findobj(Axes):
        for axis in axes_of(ax):
            if not isinstance(axis.get_major_formatter(), Translated):
                axis.set_major_formatter(Translated(axis.get_major_formatter(), words, data))
            if not isinstance(axis.get_minor_formatter(), Translated):
                axis.set_minor_formatter(Translated(axis.get_minor_formatter(), words, data))
