"""Files of the site that a page's code builds: a Python-Markdown extension.

A block under `<!-- site-file: tinygpt.bin -->` runs at build time, in a fresh namespace and on
one torch thread; what it leaves in `data` (bytes, or plain JSON data) becomes that file beside
the page, which the page's scripts fetch. The block stays on the page, titled with what it
writes; what it prints is its asserted output, which the tests check, not the build.

The bytes are cached by the block's code, its comments aside (`.cache/site-files/<digest>/`,
tools/cache_key.py); the page keeps a comment naming them, which the build's last step turns
into the file (tools/post_build.py). mkdocs.yml names it `attnlit_tools.site_files`; a translation's config
gives it its `language`, whose words the title is in.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import sys
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

sys.path.insert(0, str(Path(__file__).parent))
import i18n  # noqa: E402
from cache_key import cache, once  # noqa: E402
from figures import one_thread  # noqa: E402
from post_build import beside  # noqa: E402
from tangle import SITE_FILE, under_markers  # noqa: E402

KIND = "site-files"  # the cache's folder


def built(code: str) -> str:
    """The name in the cache of a site-file block's `data`, as bytes, run once.

    Keyed by the code's tokens, comments aside: a translation's block, the English one with its
    comments translated (tools/i18n.py proves it), is not run again, and a build that wants it
    while another runs it waits for it (tools/cache_key.py).
    """
    key = hashlib.sha1(repr(i18n.code_tokens(code) or code).encode()).hexdigest()
    once(cache(KIND) / key, lambda: run(code))
    return key


def run(code: str) -> bytes:
    """Run a site-file block in a fresh namespace: its `data`, as bytes."""
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()), one_thread():
        exec(compile(code, "<site-file block>", "exec"), namespace)
    if "data" not in namespace:
        raise ValueError("the block must leave the file's contents in `data`: bytes, or plain JSON data")
    data = namespace["data"]
    if not isinstance(data, bytes):  # plain JSON only: no NaN or infinity
        data = json.dumps(data, allow_nan=False, separators=(",", ":")).encode()
    return data


def with_files(lines: list[str], title: str) -> list[str]:
    """The lines with each site-file block built and titled, the file named for the last step."""

    def build(found: re.Match[str], block: list[str]) -> list[str]:
        indent, name = found["indent"], found["name"]
        if not block or block[0] != f"{indent}```python":
            raise ValueError(f"{found.string.strip()}: the marker must sit right above a ```python block "
                             "with the same indentation")
        try:
            key = built("\n".join(row[len(indent):] for row in block[1:-1]))
        except Exception as error:
            raise ValueError(f"{name} failed to build: {type(error).__name__}: {error}") from error
        return [indent + beside(name, KIND, key), f'{block[0]} title="{title.format(name=name)}"', *block[1:]]

    return under_markers(lines, SITE_FILE, build)


class SiteFilesPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, title: str):
        super().__init__(md)
        self.title = title

    def run(self, lines: list[str]) -> list[str]:
        return with_files(lines, self.title)


class SiteFiles(Extension):
    """Build the files of site-file blocks (see the module's docstring)."""

    def __init__(self, **kwargs):
        self.config = {"language": [i18n.ENGLISH, "the page's language, whose words the titles are in"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        title = i18n.strings(self.getConfig("language"))["writes_file"]
        # As the block titles: before fenced blocks and raw HTML are taken out of the text.
        md.preprocessors.register(SiteFilesPreprocessor(md, title), "attnlit_site_files", 34)


def makeExtension(**kwargs) -> SiteFiles:  # noqa: N802: Python-Markdown's name
    return SiteFiles(**kwargs)
