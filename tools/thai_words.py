"""Thai words kept whole at the end of a line: a Python-Markdown extension.

Thai puts no spaces between words. A browser breaks a Thai line where its own dictionary says
a word ends: inside words it lacks (เม|ทริกซ์, matrix) and inside compounds (น้ำ|หนัก, weight).
Here the build cuts each run of Thai letters into words (PyThaiNLP's newmm, a nominaliser such
as ความ or การ kept with the word it makes a noun of, as Thai typesetters keep them), puts a
word joiner (U+2060, which forbids a line break on either side of it and shows nothing)
between the letters of each word, and a zero-width space (which allows one) between two words:
a line then breaks between words only. Characters, not an element around each word: a caption
of a hundred words in elements would be cut short as a figure's accessible name (Chromium
stops at a hundred descendants), and find-in-page still finds the words. Code, formulas and drawings are left as they are. The notebook
pages (the labs), which nbconvert renders, get the same from `wrap_html`.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

THAI = re.compile(r"[\u0e00-\u0e7f]+")
JOINER, SPACE = "\u2060", "\u200b"  # a word joiner; a zero-width space
# Vowels and tone marks above and below their letter, and sara am (ำ), whose circle sits over
# the letter before it: a joiner before one would part it from its letter.
MARK = re.compile(r"[\u0e31\u0e33-\u0e3a\u0e47-\u0e4e]")
# Nominalisers: ความยาว (length) and การสร้าง (making) are one word to a Thai reader, two to
# PyThaiNLP's dictionary.
BOUND = frozenset({"ความ", "การ"})
# What is not prose: its text is code, TeX or a drawing.
SKIPPED = frozenset({"code", "pre", "kbd", "samp", "script", "style", "math", "svg"})


# Words PyThaiNLP's dictionary lacks, which it cuts wrongly: บอกว่า (says that) as บอ|กว่า,
# อีกรอบ (once more) as อี|กรอบ (frame), ทดลอง (to try) before ใน or ของ as ทด|ลองใน, so that
# สนามทดลอง (the playground) broke inside its word. The browser test of line breaks finds
# them (tests/test_browser_languages.py).
MORE_WORDS = frozenset({"บอกว่า", "อีกรอบ", "ถูกวาด", "ยาวกว่า", "สนามทดลอง", "มิลลิวินาที"})


@functools.cache
def _tokenize():
    from pythainlp.corpus.common import thai_words
    from pythainlp.tokenize import word_tokenize
    from pythainlp.util import dict_trie

    dictionary = dict_trie(thai_words() | MORE_WORDS)
    return functools.partial(word_tokenize, custom_dict=dictionary, engine="newmm")


def words(run: str) -> list[str]:
    """A run of Thai letters as its words, a nominaliser joined to the word after it."""
    word_tokenize = _tokenize()
    found: list[str] = []
    for word in word_tokenize(run, keep_whitespace=False):
        if found and found[-1] in BOUND:
            found[-1] += word
        else:
            found.append(word)
    return found


def joined(word: str) -> str:
    """A word with a joiner between each two of its letters, none before a mark."""
    return "".join(JOINER + letter if i and not MARK.fullmatch(letter) else letter for i, letter in enumerate(word))


def kept_whole(text: str) -> str:
    """Text with each of its Thai words kept on one line, and a line break allowed between two
    (a browser's dictionary would otherwise cut the few letters around a word's end as it
    likes, น้|ำ)."""
    return THAI.sub(lambda run: SPACE.join(map(joined, words(run[0]))), text)


def kept_whole_in(strings: dict[str, str]) -> dict[str, str]:
    """A table of interface strings with the Thai words of each translation kept whole."""
    return {english: kept_whole(said) for english, said in strings.items()}


def wrap(element: ET.Element) -> None:
    """Keep the Thai words of an element's text and its children's whole, in place."""
    if element.tag in SKIPPED or "arithmatex" in (element.get("class") or "").split():
        return
    if element.text:
        element.text = kept_whole(element.text)
    for child in element:
        wrap(child)
        if child.tail:
            child.tail = kept_whole(child.tail)


class ThaiWordsTreeprocessor(Treeprocessor):
    def run(self, root: ET.Element) -> None:
        wrap(root)


class ThaiWords(Extension):
    """Keep each Thai word of a page on one line (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:
        # Late: after the inline patterns made the text, and after the table of contents read
        # the headings.
        md.treeprocessors.register(ThaiWordsTreeprocessor(md), "thai_words", 1)


def makeExtension(**kwargs) -> ThaiWords:  # noqa: N802: Python-Markdown's name
    return ThaiWords(**kwargs)


class _Rewriter(HTMLParser):
    """HTML with the Thai words of its text kept whole, as `wrap` does to a tree."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.skipping: list[str] = []  # the skipped elements open here

    def handle_starttag(self, tag, attrs):
        self.out.append(self.get_starttag_text())
        if tag in SKIPPED:
            self.skipping.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.out.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(data if self.skipping else kept_whole(data))

    def handle_entityref(self, name):
        self.out.append(f"&{name};")

    def handle_charref(self, name):
        self.out.append(f"&#{name};")

    def handle_comment(self, data):
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl):
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data):
        self.out.append(f"<?{data}>")


def wrap_html(html: str) -> str:
    """HTML with the Thai words of its text kept whole."""
    rewriter = _Rewriter()
    rewriter.feed(html)
    rewriter.close()
    return "".join(rewriter.out) + (rewriter.rawdata or "")
