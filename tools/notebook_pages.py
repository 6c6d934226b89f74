"""A notebook page as mkdocs-jupyter renders it (nbconvert's HTML), made to look and weigh like a
chapter, by an HTML parser that copies what it keeps as it was written.

nbconvert inlines JupyterLab's whole stylesheet (about 570 KB), MathJax and mermaid loaders
and a clipboard script; Material already provides what the page needs. So:

- scripts, comments, page styles and nbconvert's copy buttons go; a figure's own <style>,
  inside its <svg>, stays (without it, its text and lines lose their sizes and colours);
- code cells become Material code blocks (styled, with Material's copy buttons);
- outputs stay out of the search index, like the chapters' code;
- TeX in the text of markdown cells (not in code, outputs or figures) is marked as
  pymdownx.arithmatex marks a chapter's, for tools/mathml.py to make MathML of.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements with no end tag: never on the stack of open elements.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CODE_CELL = "highlight-ipynb hl-python"  # the class of the <div> around a code cell's <pre>
OUTPUT_AREA = "jp-OutputArea jp-Cell-outputArea"  # printed text and figures
COPY_BUTTONS = {"zeroclipboard-container", "clipboard-copy-txt"}
DISPLAY_TEX = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
INLINE_TEX = re.compile(r"\$([^$\n]+?)\$")
NOT_PROSE = {"pre", "code", "svg", "script", "style"}  # whose text holds no formula


def marked_tex(text: str) -> str:
    """Text with its $$display$$ and $inline$ formulas marked as arithmatex marks them."""
    text = DISPLAY_TEX.sub(r'<div class="arithmatex">\\[\1\\]</div>', text)
    return INLINE_TEX.sub(r'<span class="arithmatex">\\(\1\\)</span>', text)


class NotebookPage(HTMLParser):
    """The rewriting (see the module's docstring), one tag or text at a time."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.text: list[str] = []  # the run of text since the last tag, as written
        self.open: list[tuple[str, str]] = []  # each open element: its tag, and what it is to us

    def within(self, *roles: str) -> bool:
        return any(role in roles for _, role in self.open)

    def flush(self) -> None:
        text, self.text = "".join(self.text), []
        if text and not self.within("dropped"):
            prose = not any(tag in NOT_PROSE for tag, _ in self.open)
            self.out.append(marked_tex(text) if prose else text)

    def role(self, tag: str, classes: str) -> str:
        if (tag in ("script", "style") and not any(open_tag == "svg" for open_tag, _ in self.open)
                or classes in COPY_BUTTONS):
            return "dropped"
        if tag == "div" and classes == CODE_CELL:
            return "code cell"
        if tag == "pre" and self.open and self.open[-1][1] == "code cell":
            return "code"
        return ""

    def handle_starttag(self, tag, attrs):
        self.flush()
        classes = dict(attrs).get("class") or ""
        role = self.role(tag, classes)
        if not self.within("dropped") and role != "dropped":
            written = self.get_starttag_text()
            if role == "code cell":
                written = '<div class="highlight">'
            elif role == "code":
                written = "<pre><code>"
            elif tag == "div" and classes == OUTPUT_AREA:
                written = written[:-1] + " data-search-exclude>"
            self.out.append(written)
        if tag not in VOID:
            self.open.append((tag, role))

    def handle_startendtag(self, tag, attrs):
        self.flush()
        if not self.within("dropped"):
            self.out.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        self.flush()
        if not any(open_tag == tag for open_tag, _ in self.open):
            self.out.append(f"</{tag}>")  # a stray end tag, kept as written
            return
        while self.open:  # an element left open ends with its parent, as a browser reads it
            open_tag, role = self.open.pop()
            if open_tag == tag:
                break
        if role != "dropped" and not self.within("dropped"):
            self.out.append("</code></pre>" if role == "code" else f"</{tag}>")

    def handle_data(self, data):
        self.text.append(data)

    def handle_entityref(self, name):
        self.text.append(f"&{name};")

    def handle_charref(self, name):
        self.text.append(f"&#{name};")

    def handle_comment(self, data):
        self.flush()  # comments go

    def handle_decl(self, decl):
        self.flush()
        self.out.append(f"<!{decl}>")


def light(html: str) -> str:
    """nbconvert's HTML of a notebook page, light (see the module's docstring)."""
    page = NotebookPage()
    page.feed(html)
    page.close()
    page.flush()
    return "".join(page.out) + (page.rawdata or "")
