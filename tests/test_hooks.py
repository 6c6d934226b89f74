"""The MkDocs hooks: block titles from markers, and TeX to MathML."""

import logging
from types import SimpleNamespace

import mkdocs_hooks

PAGE = SimpleNamespace(file=SimpleNamespace(src_uri="chapter.md"))


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
    assert lines[:2] == ["", '    ```python title="attnlit/toy.py"']
    assert lines[5] == '```text title="Output"'


def test_tex_becomes_mathml_and_html_entities_are_tex_again():
    content = '<p><span class="arithmatex">\\(a &lt; b\\)</span></p><div class="arithmatex">\\[\nx\n\\]</div>'
    html = mkdocs_hooks.on_page_content(content, PAGE)
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert "<mo>&#x0003C;</mo>" in html  # the < came through as an operator, not as text
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "arithmatex" not in html


def test_unknown_macro_warns_so_that_strict_builds_fail(caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        mkdocs_hooks.on_page_content('<span class="arithmatex">\\(\\sofmax(x)\\)</span>', PAGE)
    assert "chapter.md: unknown TeX macro \\sofmax" in caplog.text
