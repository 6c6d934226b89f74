"""Figures drawn from a page's code at build time (tools/figures.py), as the site renders them."""

import json
import os
import re
from html import unescape

import pytest

import figures
import post_build
import thai_words
from site_markdown import rendered

FIGURE_PAGE = """Text.

<!-- figure: A line. -->
```python
from matplotlib.figure import Figure

fig = Figure(figsize=(2, 1))
fig.subplots().plot([0, 1], [0, 1]{extra})
```

More text.
"""
WIDGET = ')\nwidget = {"kind": "query", "ends": [0.5, "</script>"]}  #'
DATA = re.compile(r'<div class="attnlit-data" hidden>(.*?)</div>', re.DOTALL)


@pytest.fixture(autouse=True)
def cold(tmp_path, monkeypatch):
    """A cache of its own: each test draws anew."""
    monkeypatch.setenv("ATTNLIT_CACHE", str(tmp_path / "cache"))


def test_a_figure_block_is_drawn_with_its_caption_and_its_code_folded():
    html = rendered(FIGURE_PAGE.format(extra=""))
    figure = re.search(r'<figure class="attnlit-figure" data-search-exclude[^>]*>\s*<svg role="img" '
                       r'aria-labelledby="figure-caption-1" .*?</svg>\s*'
                       r'<figcaption id="figure-caption-1">A line.</figcaption>\s*</figure>', html, re.DOTALL)
    assert figure and "currentColor" in figure[0]
    assert re.search(r'<details class="example">\s*<summary>Code for this figure</summary>\s*'
                     r'<div class="[^"]*highlight">', html)
    assert html.rstrip().endswith("<p>More text.</p>") and "attnlit-svg" not in html


def test_a_pages_figures_are_numbered_in_order_each_with_classes_of_its_own():
    html = rendered(FIGURE_PAGE.format(extra="") + FIGURE_PAGE.format(extra=""))
    assert re.findall(r'aria-labelledby="(figure-caption-\d)"', html) == ["figure-caption-1", "figure-caption-2"]
    styles = re.findall(r"<style[^>]*>(.*?)</style>", html, re.DOTALL)
    assert len(styles) == 2 and styles[0] != styles[1]


def test_a_translated_figure_is_in_its_languages_words():
    html = rendered(FIGURE_PAGE.format(extra=')\nfig.axes[0].set_xlabel("scores")  #'), "th")
    assert f"<summary>{thai_words.kept_whole('โค้ดของภาพนี้')}</summary>" in html
    assert ">คะแนน</text>" in html and ">scores<" not in html


@pytest.mark.parametrize("extra, message", [
    (")\nfig = None  #", "must leave a matplotlib Figure in `fig`, found NoneType"),
    (")\n1 / 0  #", "ZeroDivisionError: division by zero"),
])
def test_a_figure_that_fails_to_draw_fails_the_build(extra, message):
    with pytest.raises(ValueError, match=r"figure-1 \(A line.\) failed to draw") as error:
        rendered(FIGURE_PAGE.format(extra=extra))
    assert message in str(error.value)


def test_a_figure_that_leaves_a_widget_gets_its_data_beside_the_drawing():
    html = rendered(FIGURE_PAGE.format(extra=WIDGET))
    drawn = re.search(r'<figure class="attnlit-figure"[^>]* data-widget="query"[^>]*>\s*<svg .*?</svg>\s*'
                      r'<div class="attnlit-data" hidden>(.*?)</div>', html, re.DOTALL)
    assert drawn, "the drawing, then its data"
    assert "<" not in drawn[1]  # text, escaped: a string of the data is no markup
    assert json.loads(unescape(drawn[1])) == {"kind": "query", "ends": [0.5, "</script>"]}


def test_a_figure_without_a_widget_has_no_data():
    html = rendered(FIGURE_PAGE.format(extra=""))
    assert "data-widget" not in html and "attnlit-data" not in html


def test_a_translated_widget_carries_the_words_its_kind_and_its_data_ask_for_only():
    """Not the language's every widget word: a page would carry them once a widget."""
    words = {"scores": "S", "context vector": "C", "rope's": "R", "a word of the data": "W", "deep": "D",
             "window, w = {w}": "fenêtre, w = {w}", "unused {x}": "U {x}"}
    data = {"kind": "query", "words": ["a word of the data", "other", "window, w = 16"],
            "fetched": {"x": [{"label": "deep"}]}}
    # A word of the data that a key with {names} translates comes translated: the script looks
    # words up as they are.
    assert figures.widget_strings(data, words) == {"scores": "S", "context vector": "C", "a word of the data": "W",
                                                   "deep": "D", "window, w = 16": "fenêtre, w = 16"}
    html = rendered(FIGURE_PAGE.format(extra=WIDGET), "th")
    strings = json.loads(unescape(DATA.search(html)[1]))["strings"]
    assert strings["scores"] == thai_words.kept_whole("คะแนน")  # Thai words kept whole


def test_a_translated_widgets_words_come_in_one_order_whatever_the_hash_seed():
    """A set's order follows Python's string hashing, random in each process: the Vietnamese
    cache widget's words once came in another order at each cold build."""
    import subprocess
    import sys

    code = ("from attnlit_tools import figures; print(list(figures.widget_strings({'kind': 'query', 'w': ["
            + ", ".join(f"'window, w = {w}'" for w in (16, 512, 4096, 32, 8, 64))
            + "]}, {'window, w = {w}': 'cửa sổ, w = {w}'})))")
    orders = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(4)}
    assert len(orders) == 1


def test_a_widgets_heavy_data_becomes_a_file_beside_its_page_that_the_page_fetches(tmp_path):
    """What a widget holds under "fetched" leaves the page for a file named by its content,
    which the build's last step writes beside the page."""
    heavy = ')\nwidget = {"kind": "query", "start": 2, "fetched": {"steps": [0, 25], "x": "</div>"}}  #'
    html = rendered(FIGURE_PAGE.format(extra=heavy))
    data = json.loads(unescape(DATA.search(html)[1]))
    assert re.fullmatch(r"[0-9a-f]{12}\.json", data["fetched"]) and data["start"] == 2
    assert "steps" not in DATA.search(html)[1]  # the heavy data stayed out of the page
    page = tmp_path / "site" / "a" / "chapter" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(html, encoding="utf-8")
    post_build.finish(tmp_path / "site", "en")
    assert json.loads((page.parent / data["fetched"]).read_text()) == {"steps": [0, 25], "x": "</div>"}
    assert "attnlit-beside" not in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("widget, message", [
    ("[1]", "ValueError: a block's `widget` must be a dict with a str 'kind'"),
    ('{"ends": [0, 1]}', "ValueError: a block's `widget` must be a dict with a str 'kind'"),
    ('{"kind": "query", "ends": [float("nan")]}', "ValueError: Out of range float values are not JSON"),
    ('{"kind": "query", "ends": object()}', "TypeError: Object of type object is not JSON serializable"),
    ('{"kind": "line"}', "ValueError: no script docs/javascripts/widgets/line.js draws the widget's kind"),
])
def test_a_widget_that_is_not_plain_json_fails_the_build(widget, message):
    with pytest.raises(ValueError, match="figure-1 .A line.. failed to draw") as error:
        rendered(FIGURE_PAGE.format(extra=f")\nwidget = {widget}  #"))
    assert message in str(error.value)


def test_figure_markers_in_code_examples_are_left_alone():
    html = rendered("````markdown\n" + FIGURE_PAGE.format(extra="") + "````\n")
    assert "&lt;!-- figure: A line. --&gt;" in html and "<svg" not in html


def test_a_figure_inside_an_admonition_is_drawn():
    indented = "\n".join("    " + line if line else line for line in FIGURE_PAGE.format(extra="").split("\n"))
    html = rendered('!!! example "A figure in a box"\n\n' + indented)
    assert re.search(r'<div class="admonition example">.*<figure class="attnlit-figure" data-search-exclude[^>]*>\s*'
                     r'<svg role="img".*<summary>Code for this figure</summary>', html, re.DOTALL)


def test_a_figure_marker_above_a_differently_indented_block_fails():
    markdown = "!!! note\n\n    <!-- figure: A line. -->\n```python\nfig = None\n```\n"
    with pytest.raises(ValueError, match="a figure marker must sit right above"):
        rendered(markdown)


def test_a_drawn_figure_is_cached_by_its_code_and_its_place(tmp_path):
    runs = tmp_path / "runs"
    code = FIGURE_PAGE.format(extra="").split("```python\n")[1].split("```")[0]
    counted = f"import pathlib\nrun = pathlib.Path({str(runs)!r})\n" \
              "run.write_text(run.read_text() + 'x' if run.exists() else 'x')\n" + code
    first = figures.draw(counted, "figure-1")
    assert figures.draw(counted, "figure-1") == first and runs.read_text() == "x"
    figures.draw(counted.replace("[0, 1], [0, 1]", "[0, 1], [1, 0]"), "figure-1")
    figures.draw(counted, "figure-2")  # another place: other classes
    assert runs.read_text() == "xxx"
    figures.draw(counted, "figure-1", "th", {"scores": "คะแนน"})  # a translation: its own drawing
    assert runs.read_text() == "xxxx"
    with_widget = counted + 'widget = {"kind": "query"}\n'
    drawn = figures.draw(with_widget, "figure-1")
    assert drawn[1] == '{"kind":"query"}' and first[1] is None
    assert figures.draw(with_widget, "figure-1") == drawn and runs.read_text() == "xxxxx"


def test_figures_compute_on_one_thread_whatever_the_builders_cores():
    """Threads change a sum's last digits: a figure drawn by `make build` (every core) and the
    same figure drawn by the tests' builds (one thread) once disagreed in chapter 11's widget."""
    import torch

    code = "import torch\nthreads = torch.get_num_threads()\n" + FIGURE_PAGE.split("```python\n")[1].split("```")[0]
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        _, widget = figures.render(code.format(extra=')\nwidget = {"kind": "query", "threads": threads}  #'), "f")
        assert torch.get_num_threads() == 2  # given back
    finally:
        torch.set_num_threads(before)
    assert json.loads(widget)["threads"] == 1
