"""The MkDocs hooks: block titles from markers, figures and their widgets, notebook pages."""

import json
import re
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

import mkdocs_hooks
import thai_words
from mkdocs_hooks import OUTPUT

MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display='  # as latex2mathml writes it
PAGE = SimpleNamespace(file=SimpleNamespace(src_uri="chapter.md"), meta={}, url="chapter/")


def test_markers_become_titles():
    markdown = "\n".join([
        "    <!-- tangle: attnlit/toy.py -->",
        "    ```python",
        "    x = 1",
        "    ```",
        "<!--pytest-codeblocks:expected-output-->",
        "```text",
        "1",
        "```",
    ])
    lines = mkdocs_hooks.on_page_markdown(markdown, PAGE).split("\n")
    assert lines[0] == '    ```python title="attnlit/toy.py"'
    assert lines[3:5] == [OUTPUT, '```text title="Output"']


FIGURE_PAGE = """Text.

<!-- figure: A line. -->
```python
from matplotlib.figure import Figure

fig = Figure(figsize=(2, 1))
fig.subplots().plot([0, 1], [0, 1]{extra})
```

More text.
"""


def test_figure_block_is_drawn_and_its_code_folded():
    markdown = mkdocs_hooks.on_page_markdown(FIGURE_PAGE.format(extra=""), PAGE)
    assert '<figcaption id="figure-caption-3" markdown="span">A line.</figcaption>' in markdown
    assert '??? example "Code for this figure"\n\n    ```python\n    from matplotlib.figure import Figure' in markdown
    assert markdown.endswith("    ```\n\nMore text.\n")
    slot = mkdocs_hooks.SVG_SLOT.search(markdown)[0]
    html = mkdocs_hooks.on_page_content(f"<p>{slot}</p>", PAGE)
    assert html.startswith('<p><svg role="img" aria-labelledby="figure-caption-3" ') and "currentColor" in html


@pytest.mark.parametrize("extra, message", [
    (")\nfig = None  #", "must leave a matplotlib Figure in `fig`, found NoneType"),
    (")\n1 / 0  #", "ZeroDivisionError: division by zero"),
])
def test_a_figure_that_fails_to_draw_fails_the_build(extra, message):
    with pytest.raises(PluginError, match="chapter.md:3: figure failed to draw") as error:
        mkdocs_hooks.on_page_markdown(FIGURE_PAGE.format(extra=extra), PAGE)
    assert message in str(error.value)


WIDGET = ')\nwidget = {"kind": "query", "ends": [0.5, "</script>"]}  #'


def test_a_figure_that_leaves_a_widget_gets_its_data_beside_the_drawing(tmp_path, monkeypatch):
    monkeypatch.setattr(mkdocs_hooks, "FIGURES", tmp_path)  # drawn now, not from the cache
    markdown = mkdocs_hooks.on_page_markdown(FIGURE_PAGE.format(extra=WIDGET), PAGE)
    start = '<figure class="attnlit-figure" data-widget="query" data-search-exclude markdown="1">'
    assert start in markdown
    slot = mkdocs_hooks.SVG_SLOT.search(markdown)[0]
    page = SimpleNamespace(**{**vars(PAGE), "url": "a/chapter/"})
    html = mkdocs_hooks.on_page_content(f"{start}<p>{slot}</p></figure>", page)
    data = re.fullmatch(r'<figure [^>]*><p><svg .*</svg>\s*<div class="attnlit-data" hidden>(.*)</div></p>'
                        r'</figure>\s*<script src="../../javascripts/widgets.js" defer></script>'
                        r'\s*<script src="../../javascripts/widgets/query.js" defer></script>', html, re.DOTALL)
    assert data, "the drawing, then its data; the page loads what widgets share, then its kind"
    assert "<" not in data[1]  # text, escaped: a string of the data is no markup
    assert json.loads(unescape(data[1])) == {"kind": "query", "ends": [0.5, "</script>"]}


def test_a_translated_widget_carries_the_words_its_kind_and_its_data_ask_for_only(monkeypatch):
    """Not the language's every widget word: a page would carry them once a widget."""
    words = {"scores": "S", "context vector": "C", "rope's": "R", "a word of the data": "W", "deep": "D",
             "window, w = {w}": "fenêtre, w = {w}", "unused {x}": "U {x}"}
    monkeypatch.setattr(mkdocs_hooks.Build, "strings", {"figures": words})
    data = {"kind": "query", "words": ["a word of the data", "other", "window, w = 16"],
            "fetched": {"x": [{"label": "deep"}]}}
    # A word of the data that a key with {names} translates comes translated: the script looks
    # words up as they are.
    assert mkdocs_hooks.widget_strings(data) == {"scores": "S", "context vector": "C", "a word of the data": "W",
                                                 "deep": "D", "window, w = 16": "fenêtre, w = 16"}


def test_a_widgets_heavy_data_becomes_a_file_of_the_site_that_its_page_fetches(tmp_path, monkeypatch):
    """What a widget holds under "fetched" leaves the page for a file named by its content."""
    monkeypatch.setattr(mkdocs_hooks, "FIGURES", tmp_path / "cache")
    monkeypatch.setattr(mkdocs_hooks, "fetched", {})
    heavy = ')\nwidget = {"kind": "query", "start": 2, "fetched": {"steps": [0, 25], "x": "</div>"}}  #'
    page = SimpleNamespace(**{**vars(PAGE), "url": "a/chapter/"})
    markdown = mkdocs_hooks.on_page_markdown(FIGURE_PAGE.format(extra=heavy), page)
    html = mkdocs_hooks.on_page_content(mkdocs_hooks.SVG_SLOT.search(markdown)[0], page)
    data = json.loads(unescape(re.search(r'<div class="attnlit-data" hidden>(.*?)</div>', html)[1]))
    (path, text), = mkdocs_hooks.fetched.items()
    assert re.fullmatch(r"widgets/[0-9a-f]{12}\.json", path)
    assert data == {"kind": "query", "start": 2, "fetched": f"../../{path}"}  # from a/chapter/
    mkdocs_hooks.on_post_build(SimpleNamespace(site_dir=str(tmp_path / "site")))
    assert json.loads((tmp_path / "site" / path).read_text()) == {"steps": [0, 25], "x": "</div>"}
    assert "steps" not in html  # the heavy data stayed out of the page
    # `make serve` builds again in the same process: what the last build's pages fetched is
    # not written again (this page is gone, or its widget changed).
    mkdocs_hooks.on_post_build(SimpleNamespace(site_dir=str(tmp_path / "rebuilt")))
    assert not (tmp_path / "rebuilt" / path).exists()


def test_the_scripts_are_served_without_comment_lines_and_indentation():
    source = "// what it does\n(() => {\n  // why\n  const a = `${1}`; // kept\n\n})();\n"
    assert mkdocs_hooks.stripped_script(source, "x.js") == "(() => {\nconst a = `${1}`; // kept\n})();\n"
    with pytest.raises(PluginError, match="x.js: a template literal spans lines"):
        mkdocs_hooks.stripped_script("const a = `one\n  // two`;\n", "x.js")


def test_figures_and_site_files_compute_on_one_thread_whatever_the_builders_cores(tmp_path, monkeypatch):
    """Threads change a sum's last digits: a figure drawn by `make build` (every core) and the
    same figure drawn by the tests' builds (one thread) once disagreed in chapter 11's widget."""
    import torch

    monkeypatch.setattr(mkdocs_hooks, "FIGURES", tmp_path / "figures")
    monkeypatch.setattr(mkdocs_hooks, "SITE_FILES", tmp_path / "files")
    counted = "import torch\nthreads = torch.get_num_threads()\n"
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        _, widget = mkdocs_hooks.render(counted + FIGURE_PAGE.split("```python\n")[1].split("```")[0].format(
            extra=')\nwidget = {"kind": "query", "threads": threads}  #'), "a.md:1")
        data = mkdocs_hooks.site_file(counted + "data = {'threads': threads}", "a.md:9")
        assert torch.get_num_threads() == 2  # given back
    finally:
        torch.set_num_threads(before)
    assert json.loads(widget)["threads"] == 1 and json.loads(data) == {"threads": 1}


def test_a_figure_without_a_widget_has_no_data():
    markdown = mkdocs_hooks.on_page_markdown(FIGURE_PAGE.format(extra=""), PAGE)
    assert "data-widget" not in markdown
    html = mkdocs_hooks.on_page_content(mkdocs_hooks.SVG_SLOT.search(markdown)[0], PAGE)
    assert "attnlit-data" not in html and "<script" not in html


@pytest.mark.parametrize("widget, message", [
    ("[1]", "ValueError: a block's `widget` must be a dict with a str 'kind'"),
    ('{"ends": [0, 1]}', "ValueError: a block's `widget` must be a dict with a str 'kind'"),
    ('{"kind": "query", "ends": [float("nan")]}', "ValueError: Out of range float values are not JSON"),
    ('{"kind": "query", "ends": object()}', "TypeError: Object of type object is not JSON serializable"),
    ('{"kind": "line"}', "ValueError: no script docs/javascripts/widgets/line.js draws the widget's kind"),
])
def test_a_widget_that_is_not_plain_json_fails_the_build(widget, message):
    page = FIGURE_PAGE.format(extra=f")\nwidget = {widget}  #")
    with pytest.raises(PluginError, match="chapter.md:3: figure failed to draw") as error:
        mkdocs_hooks.on_page_markdown(page, PAGE)
    assert message in str(error.value)


def test_figure_markers_in_code_examples_are_left_alone():
    example = "````markdown\n" + FIGURE_PAGE.format(extra="") + "````\n"
    assert mkdocs_hooks.on_page_markdown(example, PAGE) == example


def test_notebook_pages_lose_jupyterlab_weight_and_keep_their_math():
    content = (
        "<style>.jp{}</style><script src=''></script>"
        '<div class="jp-RenderedMarkdown"><p>Scores $\\omega$ grow.</p><p>$$\nA = B\n$$</p></div>'
        '<div class="highlight-ipynb hl-python"><pre><span class="n">x</span> = 1</pre></div>'
        "<pre>cost: $5 and $6</pre>"
        '<div class="jp-RenderedHTML"><svg><defs><style type="text/css">.s1{font-size:10px}</style></defs>'
        '<text class="s1">0.5</text></svg></div>'
    )
    page = SimpleNamespace(file=SimpleNamespace(src_uri="labs/lab.py"), meta={})
    html = mkdocs_hooks.on_page_content(content, page)
    assert "<script" not in html
    # nbconvert's page styles go; a figure's own stays, for its classes.
    assert re.findall(r"<style.*?</style>", html) == ['<style type="text/css">.s1{font-size:10px}</style>']
    assert f'{MATH}"inline"><mrow><mi>&#x003C9;</mi></mrow></math>' in html
    assert f'{MATH}"block" data-search-exclude>' in html
    assert '<div class="highlight" data-search-exclude><pre><code>x = 1</code></pre></div>' in html
    assert "<pre>cost: $5 and $6</pre>" in html  # outputs keep their dollars
    assert page.meta["notebook"] == "lab.ipynb"


def test_lines_inside_blocks_that_look_like_markers_are_left_alone():
    markdown = "\n".join([
        "<!-- tangle: attnlit/toy.py -->",
        "```python",
        'print("<!-- tangle: attnlit/toy.py -->")',
        'print("```python")',
        "```",
        OUTPUT,
        "```text",
        "<!-- tangle: attnlit/toy.py -->",
        "```python",
        "```",
        "",
        "After.",
    ])
    lines = mkdocs_hooks.on_page_markdown(markdown, PAGE).split("\n")
    assert lines == ['```python title="attnlit/toy.py"', *markdown.split("\n")[2:6],
                     '```text title="Output"', *markdown.split("\n")[7:]]


def test_a_figure_inside_an_admonition_is_drawn():
    indented = "\n".join("    " + line if line else line for line in FIGURE_PAGE.format(extra="").split("\n"))
    markdown = mkdocs_hooks.on_page_markdown('!!! example "A figure in a box"\n\n' + indented, PAGE)
    assert '    <figcaption id="figure-caption-5" markdown="span">A line.</figcaption>' in markdown
    assert '    ??? example "Code for this figure"\n\n        ```python\n' in markdown
    assert mkdocs_hooks.SVG_SLOT.search(markdown), "no slot for the drawn figure"


def test_a_figure_marker_above_a_differently_indented_block_fails():
    markdown = "!!! note\n\n    <!-- figure: A line. -->\n```python\nfig = None\n```\n"
    with pytest.raises(PluginError, match="chapter.md:3: a figure marker must sit right above"):
        mkdocs_hooks.on_page_markdown(markdown, PAGE)


def test_a_drawn_figure_is_cached_by_its_code(tmp_path, monkeypatch):
    monkeypatch.setattr(mkdocs_hooks, "FIGURES", tmp_path / "figures")
    runs = tmp_path / "runs"
    code = FIGURE_PAGE.format(extra="").split("```python\n")[1].split("```")[0]
    counted = f"import pathlib\nrun = pathlib.Path({str(runs)!r})\n" \
              "run.write_text(run.read_text() + 'x' if run.exists() else 'x')\n" + code
    first = mkdocs_hooks.draw(counted, "chapter.md:3")
    assert mkdocs_hooks.draw(counted, "chapter.md:3") == first and runs.read_text() == "x"
    mkdocs_hooks.draw(counted.replace("[0, 1], [0, 1]", "[0, 1], [1, 0]"), "chapter.md:3")
    mkdocs_hooks.draw(counted, "chapter.md:9")  # another place: other element ids
    assert runs.read_text() == "xxx"
    with_widget = counted + 'widget = {"kind": "query"}\n'
    drawn = mkdocs_hooks.draw(with_widget, "chapter.md:3")
    assert drawn[1] == '{"kind":"query"}' and first[1] is None
    assert mkdocs_hooks.draw(with_widget, "chapter.md:3") == drawn and runs.read_text() == "xxxx"


SITE_FILE_PAGE = """Text.

<!-- site-file: {name} -->
```python
print("made")
{code}
```

More text.
"""


@pytest.mark.parametrize("name, code, written", [
    ("weights.bin", 'data = bytes([0, 255]) + "é".encode()', bytes([0, 255, 0xc3, 0xa9])),
    ("reference.json", 'data = {"cases": [{"ids": [1, 2], "x": 0.5}]}', b'{"cases":[{"ids":[1,2],"x":0.5}]}'),
])
def test_a_site_file_block_is_shown_and_its_data_written_beside_its_page(tmp_path, monkeypatch, name, code, written):
    monkeypatch.setattr(mkdocs_hooks, "SITE_FILES", tmp_path / "cache")  # built now
    page = SimpleNamespace(file=SimpleNamespace(src_uri="a/chapter.md", dest_uri="a/chapter/index.html"), meta={})
    markdown = mkdocs_hooks.on_page_markdown(SITE_FILE_PAGE.format(name=name, code=code), page)
    assert f'```python title="writes {name}, beside this page, at build time"\nprint("made")\n{code}\n```' in markdown
    config = SimpleNamespace(site_dir=str(tmp_path / "site"))
    assert mkdocs_hooks.on_post_page("<html>", page, config) == "<html>"
    assert (tmp_path / "site" / "a" / "chapter" / name).read_bytes() == written
    assert list((tmp_path / "site" / "a" / "chapter").iterdir()) == [tmp_path / "site" / "a" / "chapter" / name]
    assert mkdocs_hooks.built == {}  # written once


@pytest.mark.parametrize("code, message", [
    ("x = 1", "ValueError: the block must leave the file's contents in `data`"),
    ('data = [float("nan")]', "ValueError: Out of range float values are not JSON"),
    ("data = 1 / 0", "ZeroDivisionError: division by zero"),
])
def test_a_site_file_block_that_fails_fails_the_build(tmp_path, monkeypatch, code, message):
    monkeypatch.setattr(mkdocs_hooks, "SITE_FILES", tmp_path)
    with pytest.raises(PluginError, match="chapter.md:3: out.json failed to build") as error:
        mkdocs_hooks.on_page_markdown(SITE_FILE_PAGE.format(name="out.json", code=code), PAGE)
    assert message in str(error.value)


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
