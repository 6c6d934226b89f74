"""MkDocs hooks: show where tangled blocks go, and turn TeX into MathML at build time (no JavaScript)."""

import html
import logging
import re
import sys
from pathlib import Path

from latex2mathml.converter import convert

sys.path.insert(0, str(Path(__file__).parent))
from tangle import MARKER  # noqa: E402  (one definition of the marker, shared with the tangler)

log = logging.getLogger("mkdocs.hooks.attnlit")
OUTPUT = "<!--pytest-codeblocks:expected-output-->"
# pymdownx.arithmatex with `generic: true` wraps TeX as \(...\) in a span or \[...\] in a div.
MATH = re.compile(r'<(span|div) class="arithmatex">\\[(\[](.*?)\\[)\]]</\1>', re.DOTALL)
UNKNOWN_MACRO = re.compile(r"<m[io]>(\\[A-Za-z]+)</m[io]>")


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """Title each tangled block with its module and each asserted output with "Output"."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines[:-1]):
        marker = MARKER.match(line)
        if marker and lines[i + 1].strip() == "```python":
            lines[i] = ""
            lines[i + 1] += f' title="{marker["module"]}"'
        elif line.strip() == OUTPUT and lines[i + 1].lstrip().startswith("```"):
            lines[i + 1] += ' title="Output"'
    return "\n".join(lines)


def on_page_content(content: str, page, **kwargs) -> str:
    """Replace each TeX formula by MathML; warn (an error under --strict) on macros MathML lacks."""

    def to_mathml(match: re.Match) -> str:
        tex = html.unescape(match[2]).strip()
        mathml = convert(tex, display="block" if match[1] == "div" else "inline")
        for macro in UNKNOWN_MACRO.findall(mathml):
            log.warning("%s: unknown TeX macro %s in $%s$", page.file.src_uri, macro, tex)
        return mathml

    return MATH.sub(to_mathml, content)
