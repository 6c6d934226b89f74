"""The MkDocs hooks: block titles from markers, and TeX to MathML."""

import logging
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

import mkdocs_hooks
from mkdocs_hooks import OUTPUT

PAGE = SimpleNamespace(file=SimpleNamespace(src_uri="chapter.md"), meta={})


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


def test_tex_becomes_mathml_and_html_entities_are_tex_again():
    content = '<p><span class="arithmatex">\\(a &lt; b\\)</span></p><div class="arithmatex">\\[\nx\n\\]</div>'
    html = mkdocs_hooks.on_page_content(content, PAGE)
    assert '<math display="inline">' in html
    assert "<mo>&#x0003C;</mo>" in html  # the < came through as an operator, not as text
    assert '<math display="block">' in html
    assert "arithmatex" not in html


def test_unknown_macro_warns_so_that_strict_builds_fail(caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        mkdocs_hooks.on_page_content('<span class="arithmatex">\\(\\sofmax(x)\\)</span>', PAGE)
    assert "chapter.md: unknown TeX macro \\sofmax" in caplog.text


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


def test_figure_markers_in_code_examples_are_left_alone():
    example = "````markdown\n" + FIGURE_PAGE.format(extra="") + "````\n"
    assert mkdocs_hooks.on_page_markdown(example, PAGE) == example


def test_notebook_pages_lose_jupyterlab_weight_and_keep_their_math():
    content = (
        "<style>.jp{}</style><script src=''></script>"
        '<div class="jp-RenderedMarkdown"><p>Scores $\\omega$ grow.</p><p>$$\nA = B\n$$</p></div>'
        '<div class="highlight-ipynb hl-python"><pre><span class="n">x</span> = 1</pre></div>'
        "<pre>cost: $5 and $6</pre>"
    )
    page = SimpleNamespace(file=SimpleNamespace(src_uri="labs/lab.py"), meta={})
    html = mkdocs_hooks.on_page_content(content, page)
    assert "<style" not in html and "<script" not in html
    assert '<math display="inline"><mrow><mi>ω</mi></mrow></math>' in html
    assert '<math display="block">' in html
    assert '<div class="highlight" data-search-exclude><pre><code>x = 1</code></pre></div>' in html
    assert "<pre>cost: $5 and $6</pre>" in html  # outputs keep their dollars
    assert page.meta["notebook"] == "lab.ipynb"
