"""MkDocs hooks: block titles, figures, files built by blocks, light notebook pages (their TeX as
MathML, as tools/mathml.py makes a chapter's), a notebook per page; and the translations: one
site per language (tools/i18n.py), linked page to page."""

import contextlib
import functools
import hashlib
import html
import io
import json
import logging
import os
import posixpath
import re
import sys
import textwrap
import unicodedata
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import material
import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

sys.path.insert(0, str(Path(__file__).parent))
# One reading of markers and fences, shared with the tangler and the notebook converter.
import figure_words  # noqa: E402
import i18n  # noqa: E402
import mathml  # noqa: E402
import thai_words  # noqa: E402
from cache_key import cache  # noqa: E402
from notebooks import chapter_notebook, lab_notebook  # noqa: E402
from tangle import FIGURE, MARKER, OUTPUT, SITE_FILE, TangleError, fences  # noqa: E402

log = logging.getLogger("mkdocs.hooks.attnlit")
# pymdownx.arithmatex with `generic: true` wraps TeX as \(...\) in a span or \[...\] in a div.
SOLUTION = '<details class="success">'  # exercise solutions: the exercise itself is indexed
CODE_BLOCK = re.compile(r'<div class="(?:language-\w+ )?highlight"')
TABLE = re.compile(r"<table>(.*?)</table>", re.DOTALL)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)
# Pygments wraps each name, space, operator and punctuation mark in a span. Names and spaces
# Material draws in the plain code colour anyway; operators and punctuation only a shade
# lighter, and here in the plain colour too (extra.css). The same goes for constants (None,
# True: `kc`, in the name colour) and string prefixes (the f of an f-string: `sa`, which
# Material leaves plain). Unwrapped, each of the three heaviest pages sends 2.9 to 3.5 KB less
# (gzip -6; 70 to 80 KB less stored).
PLAIN_TOKEN = re.compile(r'<span class="(?:[nwop]|kc|sa)">([^<]*)</span>')
SVG_SLOT = re.compile(r'<div class="attnlit-svg" data-figure="([^"]+)"></div>')
# What nbconvert adds to a notebook page that Material already provides, or that needs a CDN:
# scripts, comments, copy buttons, and its page styles (outside SVG: a figure keeps its own,
# which its classes need).
NOTEBOOK_NOISE = re.compile(
    r"<script.*?</script>|<!--.*?-->"
    r'|<div class="zeroclipboard-container">.*?</clipboard-copy>\s*</div>'
    r'|<div class="clipboard-copy-txt".*?</div>',
    re.DOTALL,
)
PAGE_STYLE = re.compile(r"<style.*?</style>", re.DOTALL)
SVG_ELEMENT = re.compile(r"(<svg\b.*?</svg>)", re.DOTALL)
NOTEBOOK_CODE = re.compile(r'<div class="highlight-ipynb hl-python"><pre>(.*?)</pre></div>', re.DOTALL)
OUTPUT_AREA = '<div class="jp-OutputArea jp-Cell-outputArea">'  # printed text and figures
DISPLAY_TEX = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
INLINE_TEX = re.compile(r"\$([^$\n]+?)\$")
# Loaded by the pages that have a widget, only: what widgets share, then each kind's drawing.
WIDGETS_JS, KIND_JS = "javascripts/widgets.js", "javascripts/widgets/{}.js"
WIDGET_KIND = re.compile(r'<figure class="attnlit-figure"[^>]* data-widget="([a-z]+)"')
# A playground (a page's own interactive part, not a figure) loads its script, and only its.
PLAYGROUND_JS = "javascripts/{}.js"
PLAYGROUND = re.compile(r'<div class="attnlit-playground"[^>]* data-playground="([a-z]+)"')
# The words a widget's script, or a playground's, asks for in its page's language: t("...").
ASKED = re.compile(r'\bt\("([^"]+)"')
# A widget's data too heavy for its page: a file of the site, which widgets.js fetches when the
# figure comes near the screen.
FETCHED = "widgets/{}.json"
svgs: dict[str, str] = {}  # slot key -> drawn SVG, from on_page_markdown to on_page_content
fetched: dict[str, str] = {}  # site path -> JSON, from on_page_markdown to on_post_build
ROOT = Path(__file__).resolve().parent.parent
# Material's download icon, a picture beside the words of the link under each page's title.
DOWNLOAD_ICON = (Path(material.__file__).parent / "templates/.icons/material/download.svg") \
    .read_text(encoding="utf-8").replace("<svg ", '<svg aria-hidden="true" ', 1)
# Drawn SVGs by figure code, for this attnlit and environment: a warm build draws nothing.
FIGURES = cache("figures", ROOT)
# Files that blocks under a site-file marker build, by block code, likewise.
SITE_FILES = cache("site-files", ROOT)
built: dict[str, dict[str, bytes]] = {}  # page -> {file name: contents}, written beside the page


class Build:
    """What this build is: the site of one language (on_config)."""

    language = i18n.ENGLISH
    strings: dict = i18n.strings(i18n.ENGLISH, ROOT)  # the language's extra.strings (its config)
    alternate: list = []  # the site's languages (mkdocs.yml's extra.alternate)
    root_url = "/"  # the path of the English site's root: the languages' sites lie under it


def slugify(value: str, separator: str) -> str:
    """A heading's anchor: Markdown's own for English headings (letters, digits, _ and -,
    lowercase, runs of spaces and - as one -), letters of every script kept whole: Thai with
    its vowel and tone marks, Vietnamese with its accents."""
    value = "".join(c for c in unicodedata.normalize("NFC", value)
                    if unicodedata.category(c)[0] in "LMN" or c in "_-" or c.isspace())
    return re.sub(rf"[{re.escape(separator)}\s]+", separator, value.strip().lower())


def on_config(config, **kwargs):
    """Key mkdocs-jupyter's cache of executed labs on attnlit and the pinned environment;
    anchors for headings in any script; a translation's place under the English site.

    The plugin keys its cache on each notebook's text only; a lab's outputs depend on attnlit
    too. A translation (mkdocs.<lang>.yml) builds docs/<lang>/ for the address <site_url>/<lang>/;
    its logo leads to its first page while its home is not translated.
    """
    Build.language, Build.strings = config.theme["language"], config.extra.get("strings") or {}
    heading_anchors.cache_clear()  # `make serve` rebuilds in one process: headings may have changed
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None:
        # A folder per language: at its end, a build deletes the cached labs it did not use.
        folder = cache("mkdocs-jupyter", ROOT)
        plugin.config["cache_dir"] = str(folder if Build.language == i18n.ENGLISH else folder / Build.language)
    config.mdx_configs.setdefault("toc", {})["slugify"] = slugify
    for option in config.theme.get("palette") or []:  # the toggle shown in each palette
        option["toggle"]["name"] = said(f"toggle_{option['scheme']}")
    Build.root_url = urlsplit(config.site_url or "/").path
    Build.alternate = config.extra.get("alternate") or []
    if Build.language == i18n.ENGLISH:
        kept = [code for code in i18n.languages(ROOT) if not config.exclude_docs.match_file(f"{code}/index.md")]
        if kept:
            raise PluginError(f"mkdocs.yml: exclude_docs must leave out the translations' folders: {kept}")
        return config
    if Path(config.docs_dir).resolve() != i18n.docs_dir(Build.language, ROOT).resolve():
        raise PluginError(f"the {Build.language} site's docs_dir must be docs/{Build.language}")
    config.site_url = f"{(config.site_url or '/').rstrip('/')}/{Build.language}/"
    first = i18n.home(Build.language, ROOT)
    if first is not None and first != "index.md":
        config.extra["homepage"] = page_url(first)
    return config


def said(key: str) -> str:
    """A word of the site's own in the language being built: its config's extra.strings, which
    mkdocs.yml holds in English and each language's config translates (a test checks)."""
    if key not in Build.strings:
        raise PluginError(f"extra.strings has no {key!r}: mkdocs.yml names every word of the site's own")
    return Build.strings[key]


def page_url(page: str) -> str:
    """The URL MkDocs gives the page docs/<page> (directory URLs), from its site's root."""
    stem = page.rsplit(".", 1)[0]
    return "" if stem == "index" else f"{stem.removesuffix('/index')}/"


def language_url(language: str) -> str:
    """Where a language's site lies, from the English site's root."""
    return "" if language == i18n.ENGLISH else f"{language}/"


def alternates(page: str | None, url: str) -> list[dict]:
    """The language selector's entries for a page (None: the 404 page, at `url`).

    Each leads to this page in that language, or, where it is not translated yet, to the
    language's first page, and says so. Links are relative, as MkDocs's own are, so that the
    sites work from any subpath with no sitemap (Material's own switch fetches one); the 404
    page, served at any address, links from the English site's root.
    """
    here = language_url(Build.language) + url
    entries = []
    for alternate in Build.alternate:
        code = alternate["lang"]
        translated = page is not None and (i18n.docs_dir(code, ROOT) / page).exists()
        target = page if translated else i18n.home(code, ROOT)
        if target is None:
            continue  # a language with no page yet
        there = language_url(code) + page_url(target)
        if page is None:
            href = Build.root_url.rstrip("/") + "/" + there
        else:
            href = get_relative_url(there or ".", here)
            href += "/" if there.endswith("/") and not href.endswith("/") else ""
        missing = None if translated or page is None else i18n.strings(code, ROOT).get("untranslated")
        entries.append({"name": alternate["name"], "lang": code, "href": href,
                        "current": code == Build.language, "missing": missing})
    return entries


def on_files(files, config, **kwargs):
    """A translation serves the English site's own files too: its scripts and styles."""
    if Build.language == i18n.ENGLISH:
        return files
    english = ROOT / "docs"
    for path in sorted(english.rglob("*")):
        relative = path.relative_to(english).as_posix()
        if (path.is_file() and path.suffix not in (".md", ".py", ".ipynb")
                and not i18n.is_translation(path, ROOT) and files.get_file_from_path(relative) is None):
            files.append(File(relative, src_dir=str(english), dest_dir=config.site_dir,
                              use_directory_urls=config.use_directory_urls))
    return files


def draw(code: str, key: str) -> tuple[str, str | None]:
    """Run a figure block in a fresh namespace: its `fig` as inline SVG, in the language being
    built, and its `widget` as JSON.

    Both are cached by the block's code, and a translation's drawing by its words too; a block
    without a widget has no JSON file.
    """
    words = Build.strings.get("figures") or {} if Build.language != i18n.ENGLISH else None
    parts = [key, code] if words is None else [key, code, Build.language, json.dumps(words, sort_keys=True)]
    name = hashlib.sha1("\0".join(parts).encode()).hexdigest()
    cached, data = FIGURES / f"{name}.svg", FIGURES / f"{name}.json"
    if cached.exists():
        return cached.read_text(encoding="utf-8"), data.read_text(encoding="utf-8") if data.exists() else None
    svg, widget = render(code, key, words)
    cached.parent.mkdir(parents=True, exist_ok=True)
    # Two builds may draw at once; the SVG is written last, so that its presence means both are.
    for path, text in ((data, widget), (cached, svg)):
        if text is not None:
            partial = path.with_suffix(f".{os.getpid()}.part")
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
    return svg, widget


# Fonts that matplotlib measures a language's figure text in, after DejaVu Sans (which has
# no Thai letters): the page draws it in its own Thai font (extra.css), of about that width.
FIGURE_FONTS = {"th": ["Loma", "Waree", "Thonburi", "Tahoma", "Leelawadee UI", "Noto Sans Thai"]}
# What the measuring font leaves on every text element of a translated figure: the page's
# fonts are the figure's, as in English.
MEASURED_FONT = re.compile(r"font-family:'DejaVu Sans', '[^']+';?|;font-family:'DejaVu Sans', '[^']+'")


def figure_fonts(language: str) -> dict:
    """matplotlib's settings for a language's figures: DejaVu Sans, then a font that has its
    letters where DejaVu Sans lacks them, which the builder must have."""
    from matplotlib import font_manager

    wanted = FIGURE_FONTS.get(language)
    if not wanted:
        return {}
    for family in wanted:
        try:
            font_manager.findfont(family, fallback_to_default=False)
        except ValueError:
            continue
        return {"font.family": ["DejaVu Sans", family]}
    raise PluginError(f"the {language} figures need one of the fonts {', '.join(wanted)} to be laid out "
                      "(on Debian and Ubuntu: apt-get install fonts-thai-tlwg)")


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run a block's torch work on one thread, as the code blocks' tests do: how many threads
    share a sum changes its last digits (0.0423 or 0.0424 in chapter 11's decode widget), and a
    page's numbers must not depend on its builder's cores."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def render(code: str, key: str, words: dict[str, str] | None = None) -> tuple[str, str | None]:
    """Run a figure block in a fresh namespace: its `fig` as inline SVG, its `widget` as JSON;
    with `words`, a translation's table, every text of the figure translated before it is
    laid out (tools/figure_words.py)."""
    import matplotlib
    from matplotlib.figure import Figure

    from attnlit.plots import to_svg

    namespace = {"__name__": "__main__"}
    fonts = figure_fonts(Build.language) if words is not None else {}
    with matplotlib.rc_context(fonts), warnings.catch_warnings():
        # A letter that the fonts lack would be measured as a box: fail rather than draw it.
        warnings.filterwarnings("error", "Glyph .* missing from font", UserWarning)
        with one_thread():
            exec(compile(code, key, "exec"), namespace)
        fig, widget = namespace.get("fig"), namespace.get("widget")
        if not isinstance(fig, Figure):
            raise ValueError(f"the block must leave a matplotlib Figure in `fig`, found {type(fig).__name__}")
        if words is not None:
            from attnlit.toy import words as sentence  # tick labels that are tokens, not words

            figure_words.translate(fig, figure_words.Words(words), data=sentence)
        svg = to_svg(fig, name=key)
    if fonts:
        svg = MEASURED_FONT.sub("", svg).replace(' style=""', "")
    if widget is not None and not (isinstance(widget, dict) and isinstance(widget.get("kind"), str)):
        raise ValueError("a block's `widget` must be a dict with a str 'kind' (the widget that "
                         f"docs/javascripts/widgets/<kind>.js draws), found {widget!r:.80}")
    if widget is not None and not (re.fullmatch("[a-z]+", widget["kind"])
                                   and (ROOT / "docs" / KIND_JS.format(widget["kind"])).exists()):
        raise ValueError(f"no script docs/{KIND_JS.format(widget['kind'])} draws the widget's kind")
    if widget is not None:  # plain JSON only: no NaN or infinity, which JSON lacks
        widget = json.dumps(widget, allow_nan=False, separators=(",", ":"))
    return svg, widget


def site_file(code: str, key: str) -> bytes:
    """Run a site-file block in a fresh namespace: its `data`, bytes or plain JSON, as bytes.

    Cached by the block's code, as figures are. What the block prints is its asserted
    output on the page, checked by the tests; the build does not show it.
    """
    cached = SITE_FILES / hashlib.sha1("\0".join([key, code]).encode()).hexdigest()
    if cached.exists():
        return cached.read_bytes()
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()), one_thread():
        exec(compile(code, key, "exec"), namespace)
    if "data" not in namespace:
        raise ValueError("the block must leave the file's contents in `data`: bytes, or plain JSON data")
    data = namespace["data"]
    if not isinstance(data, bytes):  # plain JSON only: no NaN or infinity
        data = json.dumps(data, allow_nan=False, separators=(",", ":")).encode()
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")  # two builds may run at once
    partial.write_bytes(data)
    partial.replace(cached)
    return data


def figure(caption: str, fence: list[str], key: str, url: str = "",
           english: str | None = None) -> list[str]:
    """A drawn figure with its caption, then its code folded into a collapsible box.

    A block that also leaves a `widget` gets it beside the drawing, as JSON that
    docs/javascripts/widgets/<kind>.js turns into controls and a drawing that follows them; without
    JavaScript, the drawing stays. The JSON is the text of a hidden element, not of a
    <script type="application/json">: Material's instant navigation runs every <script> of
    the page it brings in as JavaScript, whatever its type. What the widget holds under
    "fetched" becomes a file of the site instead, named by its content, whose address, relative
    to the page at `url`, takes its place: widgets.js fetches it when the figure comes near
    the screen, so that the page does not carry it.
    """
    # The caption is the drawing's accessible name: a screen reader reads it as one image,
    # not the SVG's scattered tick labels.
    caption_id = f"figure-caption-{key.rsplit(':', 1)[-1]}"
    code = "\n".join(fence[1:-1])
    if english is not None and i18n.code_tokens(english) == i18n.code_tokens(code):
        code = english  # a translated page's figure: the English code, whatever its comments say
    svg, widget = draw(code, key)
    # (A figure of panels is a <div> of <svg>s: the <div> is the image.)
    svgs[key] = re.sub("^<(svg|div) ", rf'<\1 role="img" aria-labelledby="{caption_id}" ', svg, count=1)
    kind = ""
    if widget is not None:
        data = json.loads(widget)
        if Build.language != i18n.ENGLISH:  # the widget's words, translated
            # Its Thai words kept whole on a line, as the page's own (tools/thai_words.py).
            data["strings"] = thai_words.kept_whole_in(widget_strings(data))
        if "fetched" in data:
            text = json.dumps(data["fetched"], allow_nan=False, separators=(",", ":"))
            path = FETCHED.format(hashlib.sha1(text.encode()).hexdigest()[:12])
            fetched[path] = text
            data["fetched"] = get_relative_url(path, url)
        widget = json.dumps(data, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
        svgs[key] += f'\n<div class="attnlit-data" hidden>{html.escape(widget, quote=False)}</div>'
        kind = f' data-widget="{html.escape(data["kind"])}"'
    return [
        f'<figure class="attnlit-figure"{kind} data-search-exclude markdown="1">',
        f'<div class="attnlit-svg" data-figure="{key}"></div>',
        f'<figcaption id="{caption_id}" markdown="span">{caption}</figcaption>',
        "</figure>",
        "",
        f'??? example "{said("code_for_figure")}"',
        "",
        textwrap.indent("\n".join(fence), "    "),
    ]


def widget_strings(data: dict) -> dict[str, str]:
    """The language's words that a widget shows, not all of them: those its kind's script asks
    for, those of its data (chapter 5's ways come with their English names), and the words of
    its data that a key with {names} translates, translated here (11b's "window, w = 16")."""
    script = (ROOT / "docs" / KIND_JS.format(data["kind"])).read_text(encoding="utf-8")
    table, held = Build.strings.get("figures") or {}, set(texts(data))
    asked, words = {*ASKED.findall(script), *held}, figure_words.Words(table)
    filled = {text: said for text in held - set(table) if (said := words(text)) != text}
    return {english: said for english, said in table.items() if english in asked} | filled


def texts(value) -> Iterator[str]:
    """Every string that a JSON value holds."""
    if isinstance(value, str):
        yield value
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        yield from texts(item)


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """Title tangled blocks with their module and asserted outputs with "Output"; draw figures;
    build the files of site-file blocks, written beside the page by on_post_page.

    Fenced blocks are copied whole: a line inside one that looks like a marker is code or
    printed output, never a marker.
    """
    lines, out, i = markdown.split("\n"), [], 0
    try:
        spans = fences(lines, page.file.src_uri)
        # A translated page draws the English page's figures (its code is theirs, comments
        # aside): the drawings come from the cache, where the English build put them.
        english = iter(english_figures(ROOT / "docs" / page.file.src_uri, page.file.src_uri)
                       if Build.language != i18n.ENGLISH else [])
    except TangleError as error:
        raise PluginError(str(error)) from error
    while i < len(lines):
        line, following = lines[i], lines[i + 1] if i + 1 < len(lines) else ""
        marker, caption, target = MARKER.match(line), FIGURE.match(line), SITE_FILE.match(line)
        end = spans.get(i + 1, i)  # the marker's block runs to here
        block = lines[i + 1:end + 1]
        if i in spans:
            end = spans[i]
            out += lines[i:end + 1]
        elif marker and following.strip() == "```python":
            out += [f'{following} title="{marker["module"]}"', *block[1:]]
        elif line.strip() == OUTPUT and block:
            out += [line, f'{following} title="{said("output")}"', *block[1:]]
        elif caption:
            (key, english_code), indent = next(english, (f"{page.file.src_uri}:{i + 1}", None)), caption["indent"]
            if following != f"{indent}```python":
                raise PluginError(f"{key}: a figure marker must sit right above a ```python block "
                                  "with the same indentation")
            try:
                drawn = figure(caption["caption"], [row[len(indent):] for row in block], key,
                               page.url, english_code)
            except Exception as error:
                raise PluginError(f"{key}: figure failed to draw: {type(error).__name__}: {error}") from error
            out += [indent + row if row else row for row in drawn]
        elif target:
            key, indent, name = f"{page.file.src_uri}:{i + 1}", target["indent"], target["name"]
            if following != f"{indent}```python":
                raise PluginError(f"{key}: a site-file marker must sit right above a ```python block "
                                  "with the same indentation")
            try:
                data = site_file("\n".join(row[len(indent):] for row in block[1:-1]), key)
            except Exception as error:
                raise PluginError(f"{key}: {name} failed to build: {type(error).__name__}: {error}") from error
            built.setdefault(page.file.src_uri, {})[name] = data
            title = said("writes_file").format(name=name)
            out += [f'{following} title="{title}"', *block[1:]]
        else:
            out.append(english_links(line, page.file.src_uri) if Build.language != i18n.ENGLISH else line)
            end = i
        i = end + 1
    return "\n".join(out)


# A link from a page to another page (a chapter or a lab), in Markdown: [text](page.md#anchor).
MD_LINK = re.compile(r"\]\((?P<target>[^)\s#:]+\.(?:md|py))(?P<anchor>#[^)\s]*)?\)")
# A scheme of our own, which MkDocs leaves alone: on_page_content turns it into a link.
TO_ENGLISH = "attnlit-english:"
ENGLISH_HREF = re.compile(rf'<a href="{TO_ENGLISH}([^"#]*)(#[^"]*)?">(.*?)</a>', re.DOTALL)


def english_links(line: str, page: str) -> str:
    """A translated page's links to pages not translated yet lead to the English pages; to a
    translated page, an English heading's anchor becomes its translated heading's."""

    def lead(match: re.Match) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), match["target"]))
        if not (ROOT / "docs" / target).exists():
            return match[0]  # missing: MkDocs says so
        if not (i18n.docs_dir(Build.language, ROOT) / target).exists():
            return f"]({TO_ENGLISH}{target}{match['anchor'] or ''})"
        anchor = match["anchor"] or ""
        anchor = anchor and "#" + heading_anchors(target, Build.language).get(anchor[1:], anchor[1:])
        return f"]({match['target']}{anchor})"

    return MD_LINK.sub(lead, line)


# A heading of a page's Markdown, outside code blocks, and what inline markup leaves of it.
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|[`*]")


@functools.cache
def heading_anchors(page: str, language: str) -> dict[str, str]:
    """English heading anchor -> the translated heading's, for docs/<page> in `language`: the
    n-th heading of one is the n-th of the other (the same Markdown)."""

    def anchors(text: str) -> list[str]:
        lines = text.split("\n")
        inside = {i for start, end in fences(lines, page).items() for i in range(start, end + 1)}
        return [slugify(MARKUP.sub(lambda m: m[1] or "", found[2]), "-") for i, line in enumerate(lines)
                if i not in inside and (found := HEADING.match(line))]

    english, translated = (anchors((folder / page).read_text(encoding="utf-8"))
                           for folder in (ROOT / "docs", i18n.docs_dir(language, ROOT)))
    return dict(zip(english, translated)) if len(english) == len(translated) else {}


def english_figures(source: Path, name: str) -> list[tuple[str, str]]:
    """Each figure block of an English page: where it is (`page.md:line`), and its code."""
    if not source.exists():
        return []
    lines = source.read_text(encoding="utf-8").split("\n")
    spans = fences(lines, name)
    inside = {i for start, end in spans.items() for i in range(start, end + 1)}
    found = []
    for i, line in enumerate(lines):
        marker = FIGURE.match(line)
        if marker and i not in inside and i + 1 in spans:
            indent = len(marker["indent"])
            found.append((f"{name}:{i + 1}", "\n".join(row[indent:] for row in lines[i + 2:spans[i + 1]])))
    return found


def notebook_page(content: str) -> str:
    """A notebook page as mkdocs-jupyter renders it, made to look and weigh like a chapter.

    nbconvert inlines JupyterLab's whole stylesheet (about 570 KB), MathJax and mermaid
    loaders and a clipboard script; Material already provides what the page needs. A
    figure's own <style>, inside its <svg>, stays: without it, its text and lines lose
    their sizes and colours. Code cells become Material code blocks (styled, with copy
    buttons), outputs stay out of the search index like the chapters' code, TeX in markdown
    cells is wrapped like arithmatex's output, so that it becomes MathML below, and Thai words
    are kept whole (tools/thai_words.py).
    """
    content = NOTEBOOK_NOISE.sub("", content)
    parts = SVG_ELEMENT.split(content)  # figures keep their <style>
    parts[::2] = [PAGE_STYLE.sub("", part) for part in parts[::2]]
    content = "".join(parts)
    content = content.replace(OUTPUT_AREA, OUTPUT_AREA[:-1] + " data-search-exclude>")
    content = NOTEBOOK_CODE.sub(r'<div class="highlight"><pre><code>\1</code></pre></div>', content)
    parts = re.split(r"(<pre>.*?</pre>)", content, flags=re.DOTALL)  # outputs keep their $
    for i in range(0, len(parts), 2):
        parts[i] = DISPLAY_TEX.sub(r'<div class="arithmatex">\\[\1\\]</div>', parts[i])
        parts[i] = INLINE_TEX.sub(r'<span class="arithmatex">\\(\1\\)</span>', parts[i])
    # Its Thai words kept whole, as a chapter's are (nbconvert renders the markdown cells).
    return thai_words.wrap_html("".join(parts))


def of_numbers(table: str) -> bool:
    """Whether most of a table's cells are numbers (measurements, a model's sizes), which a
    search preview would show as a run of digits."""
    cells = [re.sub(r"<[^>]+>", "", cell) for cell in CELL.findall(table)]
    numbers = [cell for cell in cells if any(map(str.isdigit, cell))
               and sum(map(str.isdigit, cell)) >= sum(map(str.isalpha, cell))]
    return 2 * len(numbers) > len(cells)


def on_page_content(content: str, page, **kwargs) -> str:
    """Put drawn figures in their slots, with the widgets' script if any; a notebook page's TeX
    as MathML (a chapter's is already: tools/mathml.py).

    The scripts are loaded by the pages with a widget only, not by every page
    (extra_javascript): the others stay lighter, and each page loads the kinds it draws. They
    sit in the page's content, where Material's instant navigation, which swaps the content,
    would load them too. A translated page's playground gets its language's words
    (extra.strings.playground) in its data-strings, as a widget gets them with its data.
    """

    if not page.file.src_uri.endswith(".md"):  # nbconvert's HTML: its TeX, as a chapter's
        content = mathml.as_mathml(notebook_page(content), page.file.src_uri)
    if page.file.src_uri != "index.md":  # on_post_page writes it and offers it under the title
        page.meta["notebook"] = Path(page.file.src_uri).stem + ".ipynb"
    content = SVG_SLOT.sub(lambda match: svgs.pop(match[1]), content)
    kinds = dict.fromkeys(WIDGET_KIND.findall(content))  # in order, once each
    scripts = [WIDGETS_JS, *map(KIND_JS.format, kinds)] if kinds else []
    if Build.language != i18n.ENGLISH and Build.strings.get("playground"):  # its words, translated
        words = json.dumps(thai_words.kept_whole_in(said("playground")), ensure_ascii=False, separators=(",", ":"))
        content = PLAYGROUND.sub(lambda match: f'{match[0]} data-strings="{html.escape(words)}"', content)
    for name in dict.fromkeys(PLAYGROUND.findall(content)):
        if not (ROOT / "docs" / PLAYGROUND_JS.format(name)).exists():
            raise PluginError(f"{page.file.src_uri}: no script docs/{PLAYGROUND_JS.format(name)} "
                              f"for the playground {name!r}")
        scripts.append(PLAYGROUND_JS.format(name))
    for script in scripts:
        content += f'\n<script src="{get_relative_url(script, page.url)}" defer></script>'
    # Every page loads the whole search index, so code blocks and exercise solutions stay
    # out of it: the prose names every function it uses (in inline code, which is indexed).
    # So do tables of numbers and displayed formulas, whose previews would be runs of digits
    # and symbols; the prose around them names what they hold.
    content = CODE_BLOCK.sub(r"\g<0> data-search-exclude", content)
    content = TABLE.sub(lambda match: match[0].replace("<table>", "<table data-search-exclude>", 1)
                        if of_numbers(match[1]) else match[0], content)
    content = content.replace(SOLUTION, SOLUTION[:-1] + " data-search-exclude>")
    content = PLAIN_TOKEN.sub(r"\1", content)
    if Build.language != i18n.ENGLISH:
        content = stale_notice(content, page)
        here = language_url(Build.language) + page.url
        content = ENGLISH_HREF.sub(lambda match: (
            f'<a href="{get_relative_url(page_url(match[1]) or ".", here)}{match[2] or ""}" hreflang="en">'
            f'{match[3]}</a> ({html.escape(said("in_english"))})'), content)
    return content


def stale_notice(content: str, page) -> str:
    """A translated page whose English page has changed since it was made says so, under its
    title, with a link to the English page (tools/i18n.py: the hash in its front matter, or a
    lab's jupytext header)."""
    if i18n.is_lab(page.file.src_uri):  # no front matter: the hash is in its jupytext header
        recorded = i18n.recorded_hash(Path(page.file.abs_src_path).read_text(encoding="utf-8"), page.file.src_uri)
    else:
        recorded = page.meta.get(i18n.HASH_KEY)
    if recorded is not None and str(recorded) == i18n.english_hash(page.file.src_uri, ROOT):
        return content
    english = get_relative_url(page_url(page.file.src_uri) or ".", language_url(Build.language) + page.url)
    notice = (f'<div class="admonition info attnlit-stale" data-search-exclude>'
              f'<p class="admonition-title">{html.escape(said("stale_title"))}</p>'
              f'<p>{html.escape(said("stale"))} <a href="{english}" hreflang="en">'
              f'{html.escape(said("stale_link"))}</a></p></div>')
    end = content.find("</h1>")
    return content[:end + 5] + notice + content[end + 5:] if end >= 0 else notice + content


def on_page_context(context, page, config, nav, **kwargs):
    """The language selector's links for this page (overrides/partials/alternate.html)."""
    context["attnlit_languages"] = alternates(page.file.src_uri, page.url)
    return context


def on_template_context(context, template_name, config, **kwargs):
    """The 404 page's language selector: each language's first page, from the site's root."""
    if template_name == "404.html":
        context["attnlit_languages"] = alternates(None, "404.html")
    return context


def with_download(output: str, notebook: str) -> str:
    """The page with its notebook offered under its title, in a link that says what it gives."""
    link = (f'<p class="attnlit-download"><a href="{notebook}" download>{DOWNLOAD_ICON}'
            f'{html.escape(said("download_notebook"))}</a></p>')
    end = output.index("</h1>") + len("</h1>")  # the article's: Material's header has none
    return output[:end] + link + output[end:]


def on_post_page(output: str, page, config, **kwargs) -> str:
    """Write the page's notebook next to it, a chapter converted or a lab's script, offered under
    its title; and the files its site-file blocks built."""
    folder = Path(config.site_dir) / Path(page.file.dest_uri).parent
    for name, data in built.pop(page.file.src_uri, {}).items():
        folder.mkdir(parents=True, exist_ok=True)  # the page itself is written later
        (folder / name).write_bytes(data)
    name = page.meta.get("notebook")
    if name:
        output = with_download(output, name)
        source = Path(page.file.abs_src_path)
        if source.suffix == ".py":
            notebook = lab_notebook(source)
        else:
            notebook = chapter_notebook(source.read_text(encoding="utf-8"), page.file.src_uri)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(nbformat.writes(notebook), encoding="utf-8")
    return output


def stripped_script(source: str, name: str) -> str:
    """JavaScript without its comment lines and indentation: the same program, a third lighter.

    Line by line, which is safe as long as no template literal spans lines: that fails.
    """
    lines = [line.strip() for line in source.splitlines()]
    if any(line.count("`") % 2 for line in lines):
        raise PluginError(f"{name}: a template literal spans lines; keep each on one line")
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("//"))


@event_priority(-100)  # after the search plugin has written the index
def on_post_build(config, **kwargs) -> None:
    """Serve the site's own scripts stripped and the widgets' data that pages fetch; split the
    words of a Thai index; give a translation's index the spellings its search takes."""
    for path, text in fetched.items():
        target = Path(config.site_dir) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    fetched.clear()  # `make serve` builds again in this process: from its pages only
    scripts = Path(config.site_dir) / Path(WIDGETS_JS).parent
    for script in sorted(scripts.rglob("*.js")):
        name = script.relative_to(config.site_dir)
        script.write_text(stripped_script(script.read_text(encoding="utf-8"), str(name)), encoding="utf-8")
    index = Path(config.site_dir) / "search" / "search_index.json"
    if not index.exists():
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    fields = [(doc, field) for doc in data["docs"] for field in ("title", "text")]
    unjoined = re.compile(f"[{thai_words.JOINER}{thai_words.SPACE}]")
    joined = any(unjoined.search(doc[field]) for doc, field in fields)
    for doc, field in fields:  # what keeps a Thai word on one line is no part of it
        doc[field] = unjoined.sub("", doc[field])
        if Build.language in i18n.SEGMENTED:
            doc[field] = i18n.segmented(doc[field], Build.language)
    if Build.language == i18n.ENGLISH and not joined:
        return
    if Build.language != i18n.ENGLISH:
        # The spellings a reader may type for a word the pages write otherwise, which the search
        # worker searches as that word (docs/assets/javascripts/workers/attnlit-search.js).
        data["config"]["attnlit"] = {"synonyms": i18n.synonyms(Build.language, ROOT)}
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
