"""Notebook pages made light (tools/notebook_pages.py): nbconvert's HTML read by a parser."""

import re

from notebook_pages import light


def test_notebook_pages_lose_jupyterlab_weight_and_mark_their_math():
    content = (
        "<style>.jp{}</style><script src=''></script><!-- nbconvert -->"
        '<div class="jp-RenderedMarkdown"><p>Scores $\\omega$ grow.</p><p>$$\nA &lt; B\n$$</p></div>'
        '<div class="highlight-ipynb hl-python"><pre><span class="n">x</span> = 1</pre></div>'
        '<div class="jp-OutputArea jp-Cell-outputArea"><pre>cost: $5 and $6</pre></div>'
        '<div class="jp-RenderedHTML"><svg><defs><style type="text/css">.s1{font-size:10px}</style></defs>'
        '<text class="s1">0.5</text></svg></div>'
    )
    html = light(content)
    assert "<script" not in html and "<!--" not in html
    # nbconvert's page styles go; a figure's own stays, for its classes.
    assert re.findall(r"<style.*?</style>", html) == ['<style type="text/css">.s1{font-size:10px}</style>']
    assert '<p>Scores <span class="arithmatex">\\(\\omega\\)</span> grow.</p>' in html
    assert '<p><div class="arithmatex">\\[\nA &lt; B\n\\]</div></p>' in html  # the entity as written
    assert '<div class="highlight"><pre><code><span class="n">x</span> = 1</code></pre></div>' in html
    # Outputs keep their dollars, and stay out of search.
    assert '<div class="jp-OutputArea jp-Cell-outputArea" data-search-exclude><pre>cost: $5 and $6</pre>' in html


def test_copy_buttons_go_whole_and_code_keeps_its_dollars():
    content = (
        '<div class="jp-Cell"><div class="zeroclipboard-container"><clipboard-copy for="a">'
        '<div><svg><path d="M0"/></svg></div></clipboard-copy></div>'
        '<div class="clipboard-copy-txt" id="a">x = "$1"</div>'
        '<p>Run <code>f"$x$"</code>, then $y$.</p></div>'
    )
    assert light(content) == ('<div class="jp-Cell"><p>Run <code>f"$x$"</code>, then '
                              '<span class="arithmatex">\\(y\\)</span>.</p></div>')


def test_what_the_parser_does_not_change_is_copied_as_written():
    content = "<!DOCTYPE html><p class='a'  id=b>a<br>b &amp; c&#39;s<img src=x /></p></span>"
    assert light(content) == content
