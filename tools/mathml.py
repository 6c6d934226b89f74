"""TeX as MathML at build time: a Python-Markdown extension, and the function it applies.

pymdownx.arithmatex (`generic: true`) marks each formula of a page, `\\(...\\)` in a <span
class="arithmatex"> and `\\[...\\]` in a <div>; this extension turns each into MathML with
latex2mathml once the page's HTML is whole, so that pages need no JavaScript math library and
no network. mkdocs.yml names it after arithmatex: `attnlit_tools.mathml` (tools/ is installed
as the package attnlit_tools: tools/pyproject.toml). The notebook pages, which nbconvert
renders, wrap their TeX the same way and go through `as_mathml` (tools/mkdocs_hooks.py).
"""

from __future__ import annotations

import html
import logging
import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert
from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor

MARKED = re.compile(r'<(span|div) class="arithmatex">\\[(\[](.*?)\\[)\]]</\1>', re.DOTALL)
# latex2mathml passes a macro it does not know through as text: a typo would show as \sofmax.
UNKNOWN_MACRO = re.compile(r"<m[io]>(\\[A-Za-z]+)</m[io]>")
XMLNS = ' xmlns="http://www.w3.org/1998/Math/MathML"'  # HTML needs none
# Under "mkdocs": the builder counts its warnings, and `build --strict` fails on one.
log = logging.getLogger("mkdocs.attnlit.mathml")


def minus_infinity(mathml: str) -> str:
    """∞ and −∞ as TeX sets them: ∞ an ordinary symbol, a minus before it stuck to it.

    latex2mathml writes ∞ as an operator, and `-\\infty` as two operators; inside a row, as in
    exp(−∞), MathML then spaces the minus as a binary one, 10 px from the ∞. Every ∞ becomes
    an identifier, and a minus before one that follows no operand becomes a prefix.
    """
    if "&#x0221E;" not in mathml:
        return mathml
    root = ET.fromstring(mathml.replace(XMLNS, "", 1))
    for parent in root.iter():
        children = list(parent)
        for before, minus, after in zip([None, *children], children, [*children[1:], None]):
            if minus.tag == "mo" and minus.text == "\u221e":
                minus.tag = "mi"
            elif minus.tag == "mo" and minus.text == "\u2212" and after is not None \
                    and after.text == "\u221e" and (before is None or before.tag == "mo"
                                                    and before.text not in ")]}|"):
                minus.set("form", "prefix")
    return ET.tostring(root, encoding="unicode")


def as_mathml(content: str, where: str = "") -> str:
    """The HTML with every formula arithmatex marked as MathML; a displayed one is kept out of
    the search index, as code blocks are. `where` names the page in a warning."""

    def one(match: re.Match) -> str:
        tex = html.unescape(match[2]).strip()
        mathml = convert(tex, display="block" if match[1] == "div" else "inline")
        if match[1] == "div":
            mathml = mathml.replace(' display="block">', ' display="block" data-search-exclude>', 1)
        for macro in UNKNOWN_MACRO.findall(mathml):
            log.warning("%sunknown TeX macro %s in $%s$", f"{where}: " if where else "", macro, tex)
        return minus_infinity(mathml)

    return MARKED.sub(one, content)


class MathMLPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return as_mathml(text)


class MathML(Extension):
    """Every formula of the page as MathML (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:
        # Last, on the page's whole HTML: after Python-Markdown's own (raw HTML put back at 30,
        # ampersands at 20), where an `&` or a `<` of the TeX is the HTML's entity.
        md.postprocessors.register(MathMLPostprocessor(md), "attnlit_mathml", 5)


def makeExtension(**kwargs) -> MathML:  # noqa: N802: Python-Markdown's name
    return MathML(**kwargs)
