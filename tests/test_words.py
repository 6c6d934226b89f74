"""The build's own words: figures' texts in a translation's words (tools/figure_words.py), Thai
words kept whole on a line (tools/thai_words.py), the glossary page's table
(tools/glossary_table.py)."""

import re

import markdown
import pytest
from matplotlib.figure import Figure

import figure_words
import glossary_table
import i18n
import thai_words
from attnlit.plots import to_svg

TABLE = {"width c": "มิติ c", "key": "key", "step": "ขั้น", "cache {held}, read {read}": "cache {held} อ่าน {read}",
         "pair {i}: {r} rad per position": "คู่ที่ {i}: {r} rad ต่อตำแหน่ง", "pair {i}": "คู่ที่ {i}"}


@pytest.mark.parametrize(("text", "said"), [
    ("width c", "มิติ c"),
    ("cache 1.00 GiB, read 14.2 GiB", "cache 1.00 GiB อ่าน 14.2 GiB"),
    ("pair 0: 1 rad per position", "คู่ที่ 0: 1 rad ต่อตำแหน่ง"),  # the longer key first: its order in the table
    ("pair 3", "คู่ที่ 3"),
    ("no entry", "no entry"),
    ("cache 1 GiB", "cache 1 GiB"),  # a key's text must match whole
])
def test_a_figures_text_is_translated_whole_or_through_a_key_with_fields(text, said):
    assert figure_words.Words(TABLE)(text) == said


def test_a_translation_must_keep_its_keys_fields():
    with pytest.raises(ValueError, match="the same {names}"):
        figure_words.Words({"cache {held}": "cache"})
    with pytest.raises(TypeError, match="str to str"):
        figure_words.Words({"width": 3})


def drawn_texts(fig) -> list[str]:
    return re.findall(r"<text\b[^>]*>(.*?)</text>", to_svg(fig))


def test_every_text_a_figure_draws_is_translated_but_its_data():
    """Labels, titles, legends, annotations, tick labels; a token of the example sentence as a
    tick label or beside a point stays ("step"), the same word as an axis label is a word."""
    fig = Figure(layout="constrained")
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="key")
    ax.annotate("step", (0.5, 0.5))
    ax.set_xticks([0, 1], ["step", "key"])
    ax.set(xlabel="step", ylabel="width c", title="cache 1 GiB, read 2 GiB")
    ax.legend()
    words = {"key": "Taste", "step": "Schritt", "width c": "Breite c", "cache {held}, read {read}": "{held} ({read})"}
    figure_words.translate(fig, figure_words.Words(words), data=["step"])  # Latin letters: DejaVu has them
    texts = drawn_texts(fig)
    assert texts[:2] == ["step", "Taste"]  # the ticks: data, then a word
    assert {"Schritt", "Breite c", "1 GiB (2 GiB)"} <= set(texts) and texts.count("Taste") == 2  # legend too
    assert texts.count("step") == 2 and texts.count("Schritt") == 1  # the point's label, the axis's


def test_a_nominaliser_stays_with_the_word_it_makes_a_noun_of():
    assert thai_words.words("ความยาวของเมทริกซ์") == ["ความยาว", "ของ", "เมทริกซ์"]
    assert thai_words.words("การสร้างข้อความ") == ["การสร้าง", "ข้อความ"]
    assert thai_words.words("บอกว่า") == ["บอกว่า"]  # PyThaiNLP alone: บอ|กว่า


J = thai_words.JOINER


def test_a_thai_word_is_joined_between_its_letters_but_not_before_a_mark():
    assert thai_words.joined("เมทริกซ์") == f"เ{J}ม{J}ท{J}ริ{J}ก{J}ซ์"
    assert thai_words.joined("น้ำ") == "น้ำ"  # tone mark and sara am stay with their letter
    S = thai_words.SPACE
    assert thai_words.kept_whole("ความยาวของ x") == f"ค{J}ว{J}า{J}ม{J}ย{J}า{J}ว{S}ข{J}อ{J}ง x"


def test_thai_words_are_kept_whole_and_code_formulas_and_drawings_left_alone():
    html = markdown.Markdown(extensions=[thai_words.ThaiWords()]).convert(
        "ความยาว `ความยาว` **น้ำหนัก**ของ\n\n```\nความยาว\n```")
    kept = thai_words.kept_whole
    assert html == (f"<p>{kept('ความยาว')} <code>ความยาว</code> <strong>{kept('น้ำหนัก')}</strong>{kept('ของ')}</p>\n"
                    "<p><code>ความยาว</code></p>"), html
    page = '<p>ก ความยาว &amp; <a href="x">เมทริกซ์</a></p><pre>ความยาว</pre><svg><text>ความยาว</text></svg><!-- ก -->'
    assert thai_words.wrap_html(page) == (
        f'<p>ก {kept("ความยาว")} &amp; <a href="x">{kept("เมทริกซ์")}</a></p>'
        "<pre>ความยาว</pre><svg><text>ความยาว</text></svg><!-- ก -->")


def test_the_glossary_marker_becomes_the_languages_table():
    md = markdown.Markdown(extensions=[glossary_table.GlossaryTable(), "tables", "md_in_html"])
    thai = md.convert("<!-- glossary: th -->")
    terms = i18n.glossary("th")
    words = i18n.strings("th")["glossary"]
    assert thai.count("<tr>") == len(terms) + 1 and f"<th>{words['written']}</th>" in thai
    assert re.match(r'<div class="attnlit-glossary" data-search-exclude', thai)  # readers search for chapters
    mask = next(term for term in terms if term.english == "mask")
    assert re.search(rf"<td>mask</td>\s*<td>mask</td>\s*<td>{', '.join(mask.avoid)}</td>\s*<td>{re.escape(mask.note)}</td>", thai)
    every = md.reset().convert("<!-- glossary -->")
    assert "<th>ไทย</th>" in every and "<th>Tiếng Việt</th>" in every
    english = {term.english for language in i18n.languages() for term in i18n.glossary(language)}
    assert every.count("<tr>") == len(english) + 1
    with pytest.raises(ValueError, match="no translation 'fr'"):
        md.reset().convert("<!-- glossary: fr -->")
