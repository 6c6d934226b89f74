"""TeX as MathML at build time (tools/mathml.py), as the build runs it: a Markdown extension that
mkdocs.yml names, after pymdownx.arithmatex."""

import importlib
import logging

import markdown
import pytest
from markdown import Extension

import site_config

MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display='  # as latex2mathml writes it
EXTENSIONS = site_config.read_config()["markdown_extensions"]
OURS = [name for name in EXTENSIONS if name.startswith("attnlit_tools.")]


def rendered(text: str) -> str:
    """The Markdown as the site renders formulas: arithmatex's generic output, then MathML."""
    return markdown.markdown(text, extensions=["pymdownx.arithmatex", "attnlit_tools.mathml"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})


def test_the_sites_own_extensions_load_by_the_names_mkdocs_yml_gives_them():
    """A builder that runs no hooks (Zensical) loads them by name: tools/ is a package."""
    assert OURS == ["attnlit_tools.block_titles", "attnlit_tools.figures", "attnlit_tools.site_files",
                    "attnlit_tools.mathml", "attnlit_tools.thai_words", "attnlit_tools.glossary_table"]
    for name in OURS:
        assert isinstance(importlib.import_module(name).makeExtension(), Extension), name


def test_tex_becomes_mathml_and_html_entities_are_tex_again():
    html = rendered("Scores $a < b$ grow.\n\n$$\nx\n$$\n")
    assert f'{MATH}"inline">' in html
    assert "<mo>&#x0003C;</mo>" in html  # the < came through as an operator, not as text
    assert f'{MATH}"block" data-search-exclude>' in html  # out of search, as code blocks are
    assert "arithmatex" not in html


def test_unknown_macro_warns_so_that_strict_builds_fail(caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        rendered(r"The $\sofmax(x)$ of it.")
    assert [record.name for record in caplog.records] == ["mkdocs.attnlit.mathml"]
    assert r"unknown TeX macro \sofmax in $\sofmax(x)$" in caplog.text


@pytest.mark.parametrize(("tex", "found"), [
    (r"\exp(-\infty) - (x) - \infty", '<mo stretchy="false">(</mo><mo form="prefix">−</mo><mi>∞</mi>'),
])
def test_minus_infinity_is_a_prefix_minus_on_an_ordinary_infinity(tex, found):
    """As TeX sets it; a minus after an operand stays binary."""
    html = rendered(f"${tex}$")
    assert found in html
    assert html.count('form="prefix"') == 1 and html.count("<mi>∞</mi>") == 2 and "<mo>∞" not in html
