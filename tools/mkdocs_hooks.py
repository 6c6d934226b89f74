"""MkDocs hooks: title tangled blocks, draw figure blocks, and turn TeX into MathML at build time."""

import html
import logging
import re
import sys
import textwrap
from pathlib import Path

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).parent))
from tangle import MARKER, TangleError, fences  # noqa: E402  (one reading of markers and fences, shared with the tangler)

log = logging.getLogger("mkdocs.hooks.attnlit")
OUTPUT = "<!--pytest-codeblocks:expected-output-->"
FIGURE = re.compile(r"^<!--\s*figure:\s*(?P<caption>.+?)\s*-->\s*$")
# pymdownx.arithmatex with `generic: true` wraps TeX as \(...\) in a span or \[...\] in a div.
MATH = re.compile(r'<(span|div) class="arithmatex">\\[(\[](.*?)\\[)\]]</\1>', re.DOTALL)
UNKNOWN_MACRO = re.compile(r"<m[io]>(\\[A-Za-z]+)</m[io]>")
ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")
MARKUP = {ord("<"), ord(">"), ord("&")}  # stay escaped
CODE_BLOCK = re.compile(r'<div class="(?:language-\w+ )?highlight"')
# Pygments wraps each name and each run of spaces in a span that Material draws in the plain
# code colour: unwrapped, code blocks are a third smaller and look the same.
PLAIN_TOKEN = re.compile(r'<span class="[nw]">([^<]*)</span>')
SVG_SLOT = re.compile(r'<div class="attnlit-svg" data-figure="([^"]+)"></div>')
svgs: dict[str, str] = {}  # slot key -> drawn SVG, from on_page_markdown to on_page_content


def draw(code: str, key: str) -> str:
    """Run a figure block in a fresh namespace and return its `fig` as inline SVG."""
    from matplotlib.figure import Figure

    from attnlit.plots import to_svg

    namespace = {"__name__": "__main__"}
    exec(compile(code, key, "exec"), namespace)
    fig = namespace.get("fig")
    if not isinstance(fig, Figure):
        raise ValueError(f"the block must leave a matplotlib Figure in `fig`, found {type(fig).__name__}")
    return to_svg(fig, name=key)


def figure(caption: str, fence: list[str], key: str) -> list[str]:
    """A drawn figure with its caption, then its code folded into a collapsible box."""
    svgs[key] = draw("\n".join(fence[1:-1]), key)
    return [
        '<figure class="attnlit-figure" data-search-exclude markdown="1">',
        f'<div class="attnlit-svg" data-figure="{key}"></div>',
        f'<figcaption markdown="span">{caption}</figcaption>',
        "</figure>",
        "",
        '??? example "Code for this figure"',
        "",
        textwrap.indent("\n".join(fence), "    "),
    ]


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """Title tangled blocks with their module and asserted outputs with "Output"; draw figures."""
    lines, out, i = markdown.split("\n"), [], 0
    try:
        spans = fences(lines, page.file.src_uri)  # markers inside fenced blocks are code
    except TangleError as error:
        raise PluginError(str(error)) from error
    while i < len(lines):
        line, following = lines[i], lines[i + 1] if i + 1 < len(lines) else ""
        marker, caption = MARKER.match(line), FIGURE.match(line)
        if i in spans:
            out += lines[i:spans[i] + 1]
            i = spans[i] + 1
        elif marker and following.strip() == "```python":
            out.append(f'{following} title="{marker["module"]}"')
            i += 2
        elif line.strip() == OUTPUT and following.lstrip().startswith("```"):
            out += [line, f'{following} title="Output"']
            i += 2
        elif caption:
            key = f"{page.file.src_uri}:{i + 1}"
            if following != "```python":
                raise PluginError(f"{key}: a figure marker must sit right above a top-level ```python block")
            end = spans[i + 1]
            try:
                out += figure(caption["caption"], lines[i + 1:end + 1], key)
            except Exception as error:
                raise PluginError(f"{key}: figure failed to draw: {type(error).__name__}: {error}") from error
            i = end + 1
        else:
            out.append(line)
            i += 1
    return "\n".join(out)


def compact(mathml: str) -> str:
    """The same MathML in fewer bytes: HTML needs no xmlns, and ω is shorter than &#x003C9;."""
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)
    return ENTITY.sub(lambda m: m[0] if int(m[1], 16) in MARKUP else chr(int(m[1], 16)), mathml)


def on_page_content(content: str, page, **kwargs) -> str:
    """Put drawn figures in their slots; replace each TeX formula by MathML."""

    def to_mathml(match: re.Match) -> str:
        tex = html.unescape(match[2]).strip()
        mathml = convert(tex, display="block" if match[1] == "div" else "inline")
        for macro in UNKNOWN_MACRO.findall(mathml):
            log.warning("%s: unknown TeX macro %s in $%s$", page.file.src_uri, macro, tex)
        return compact(mathml)

    content = SVG_SLOT.sub(lambda match: svgs.pop(match[1]), content)
    # Every page loads the whole search index, so code blocks stay out of it: the prose
    # names every function it uses (in inline code, which is indexed).
    content = CODE_BLOCK.sub(r"\g<0> data-search-exclude", content)
    content = PLAIN_TOKEN.sub(r"\1", content)
    return MATH.sub(to_mathml, content)
