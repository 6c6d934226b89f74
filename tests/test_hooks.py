"""The MkDocs hooks: notebook pages, the scripts a page loads, what search leaves out; and two checks
of the theme beside them."""

import json
import re
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

import mkdocs_hooks
import thai_words

MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display='  # as latex2mathml writes it
PAGE = SimpleNamespace(file=SimpleNamespace(src_uri="chapter.md"), meta={}, url="chapter/")


def test_a_notebook_page_is_made_light_and_its_math_mathml():
    """tools/notebook_pages.py makes it light (tests/test_notebook_pages.py); here, as the hook
    puts it together: its TeX as MathML, the notebook it offers."""
    page = SimpleNamespace(file=SimpleNamespace(src_uri="labs/lab.py"), meta={})
    html = mkdocs_hooks.on_page_content("<style>.jp{}</style><p>Scores $\\omega$ grow.</p>", page)
    assert html == f'<p>Scores {MATH}"inline"><mrow><mi>&#x003C9;</mi></mrow></math> grow.</p>'
    assert page.meta["notebook"] == "lab.ipynb"


def test_a_playground_loads_its_script_and_no_other():
    page = SimpleNamespace(**{**vars(PAGE), "url": "a/chapter/"})
    html = mkdocs_hooks.on_page_content('<div class="attnlit-playground" data-playground="tinygpt"></div>', page)
    assert html.endswith('</div>\n<script src="../../javascripts/tinygpt.js" defer></script>')
    assert html.count("<script") == 1
    # Markdown writes a box's attributes in its own order: a translation's phrase comes first.
    html = mkdocs_hooks.on_page_content(
        '<div class="attnlit-playground" data-phrase="สวัสดี" data-playground="tinygpt"></div>', page)
    assert html.endswith('</div>\n<script src="../../javascripts/tinygpt.js" defer></script>')
    with pytest.raises(PluginError, match="chapter.md: no script docs/javascripts/chess.js"):
        mkdocs_hooks.on_page_content('<div class="attnlit-playground" data-playground="chess"></div>', page)


@pytest.mark.parametrize("language, strings, carried", [
    ("en", {}, None),
    ("th", {"in_english": "ภาษาอังกฤษ", "playground": {"Start the model": "เริ่มโมเดล", "a \"b\" & c": "<d>"}},
     {"Start the model": thai_words.kept_whole("เริ่มโมเดล"), "a \"b\" & c": "<d>"}),  # Thai words kept whole
])
def test_a_translated_pages_playground_carries_its_languages_words(monkeypatch, language, strings, carried):
    """As a widget's data carries them: docs/javascripts/tinygpt.js reads them from data-strings."""
    monkeypatch.setattr(mkdocs_hooks.Build, "language", language)
    monkeypatch.setattr(mkdocs_hooks.Build, "strings", strings)
    monkeypatch.setattr(mkdocs_hooks, "stale_notice", lambda content, page: content)
    page = SimpleNamespace(**{**vars(PAGE), "url": "a/chapter/"})
    html = mkdocs_hooks.on_page_content(
        '<div class="attnlit-playground" data-playground="tinygpt" data-weights="tinygpt.bin"></div>', page)
    found = re.findall(r'<div class="attnlit-playground" data-playground="tinygpt" (?:data-strings="([^"]*)" )?'
                       r'data-weights="tinygpt.bin">', html)
    assert len(found) == 1 and html.count("<script") == 1
    assert (json.loads(unescape(found[0])) if found[0] else None) == carried


def test_code_spans_of_the_plain_colour_go():
    code = ('<pre><code>x = <span class="kc">None</span> <span class="k">if</span> '
            '<span class="sa">f</span><span class="s2">&quot;a </span><span class="si">{</span>'
            '<span class="n">b</span><span class="si">}</span><span class="s2">&quot;</span></code></pre>')
    assert mkdocs_hooks.on_page_content(code, PAGE) == (
        '<pre><code>x = None <span class="k">if</span> f<span class="s2">&quot;a </span><span class="si">{</span>'
        'b<span class="si">}</span><span class="s2">&quot;</span></code></pre>')


def test_lighthouse_reports_no_gap_where_a_score_is_missing():
    """A page or an empty page that Lighthouse could not measure has no gap (it was once
    counted as a score of 0, making every page look 90 points better than it was)."""
    import lighthouse

    assert lighthouse.gap(95, 100) == -5
    assert lighthouse.gap(90, None) is None and lighthouse.gap(None, 100) is None


ROOT = Path(__file__).resolve().parent.parent
# Each override of a Material partial is Material's file with the changes named here, and
# nothing else: after an upgrade of Material, this shows what moved under them.
OVERRIDDEN = {
    "partials/palette.html": [(' data-md-component="palette"', "")],
    "partials/source.html": [(' data-md-component="source"', "")],
    "partials/search.html": [('role="dialog">', "role=\"dialog\" aria-label=\"{{ lang.t('search') }}\">")],
}


@pytest.mark.parametrize("partial", OVERRIDDEN)
def test_overridden_partials_are_materials_with_one_change(partial):
    import material

    theirs = (Path(material.__file__).parent / "templates" / partial).read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / partial).read_text(encoding="utf-8")
    for old, new in OVERRIDDEN[partial]:
        assert theirs.count(old) == 1, f"Material's {partial} changed where ours differs: {old!r}"
        theirs = theirs.replace(old, new)
    # Each file opens with its own Jinja comment: Material's says it is generated, ours why.
    without_comment = [re.sub(r"^\{#-.*?-#\}\n", "", text, flags=re.DOTALL) for text in (theirs, ours)]
    assert without_comment[1] == without_comment[0]


def test_a_translated_lab_whose_code_differs_fails_the_build_in_a_line(monkeypatch, tmp_path):
    """tools/labs.py refuses it; the build says why as a plugin error, not a traceback."""
    def refused(lab, english):
        raise ValueError(f"{lab}: its code differs from {english}'s")

    monkeypatch.setattr(mkdocs_hooks.labs, "rendered", refused)
    lab = SimpleNamespace(src_uri="labs/why-scale.py", abs_src_path=str(tmp_path / "why-scale.py"),
                          is_documentation_page=lambda: True)
    with pytest.raises(PluginError, match="its code differs from"):
        mkdocs_hooks.on_files([lab], SimpleNamespace())
