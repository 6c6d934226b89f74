"""Titles on code blocks from the markers above them: a Python-Markdown extension.

A tangled block (`<!-- tangle: attnlit/toy.py -->`, tools/tangle.py) is titled with its
module, and an asserted output (`<!--pytest-codeblocks:expected-output-->`) with "Output" in
the page's language (its config's `extra.strings.output`). The fence itself stays exactly
```python in the Markdown file, which pytest-codeblocks collects only so: the title is added
here, as the page is rendered.

mkdocs.yml names it `attnlit_tools.block_titles`; a translation's config gives it its
`language`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

sys.path.insert(0, str(Path(__file__).parent))
import i18n  # noqa: E402
from tangle import MARKER, OUTPUT, under_markers  # noqa: E402

OUTPUT_MARKER = re.compile(rf"^\s*{re.escape(OUTPUT)}\s*$")


def titled(lines: list[str], output: str) -> list[str]:
    """The lines with each marked block's opening fence titled: a tangled block with its module,
    an asserted output with `output`."""

    def module(found: re.Match[str], block: list[str]) -> list[str]:
        if not block or block[0].strip() != "```python":
            return [found.string, *block]  # no tangled block: tools/tangle.py says why
        return [f'{block[0]} title="{found["module"]}"', *block[1:]]  # the title says what the marker said

    def printed(found: re.Match[str], block: list[str]) -> list[str]:
        return [found.string, f'{block[0]} title="{output}"', *block[1:]] if block else [found.string]

    return under_markers(under_markers(lines, MARKER, module), OUTPUT_MARKER, printed)


class BlockTitlesPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, output: str):
        super().__init__(md)
        self.output = output

    def run(self, lines: list[str]) -> list[str]:
        return titled(lines, self.output)


class BlockTitles(Extension):
    """Title marked code blocks (see the module's docstring)."""

    def __init__(self, **kwargs):
        self.config = {"language": [i18n.ENGLISH, "the page's language, whose words the titles are in"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        output = i18n.strings(self.getConfig("language"))["output"]
        # Before the fenced blocks and the raw HTML are taken out of the text (superfences at 25,
        # HTML at 20) and before the benchmark tables are read in (snippets, 32).
        md.preprocessors.register(BlockTitlesPreprocessor(md, output), "attnlit_block_titles", 34)


def makeExtension(**kwargs) -> BlockTitles:  # noqa: N802: Python-Markdown's name
    return BlockTitles(**kwargs)
