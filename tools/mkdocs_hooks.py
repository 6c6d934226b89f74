"""MkDocs hooks: what a page's HTML needs of the site around it (the scripts of its widgets,
what search leaves out), light notebook pages (their TeX as MathML, as tools/mathml.py makes a
chapter's), a notebook per page; and the translations: one site per language (tools/i18n.py),
linked page to page. What works on a page's Markdown is in Python-Markdown extensions (block
titles, figures, site files, MathML: mkdocs.yml names them); what needs the whole built site is
the last step, tools/post_build.py."""

import functools
import html
import json
import logging
import posixpath
import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import urlsplit

import material
import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

sys.path.insert(0, str(Path(__file__).parent))
import i18n  # noqa: E402
import labs  # noqa: E402
import mathml  # noqa: E402
import notebook_pages  # noqa: E402
import post_build  # noqa: E402
import thai_words  # noqa: E402
from cache_key import cache  # noqa: E402
from figures import KIND_JS  # noqa: E402
from notebooks import chapter_notebook, lab_notebook  # noqa: E402
# One reading of markers and fences, shared with the tangler and the notebook converter.
from tangle import TangleError, fences  # noqa: E402

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
# Loaded by the pages that have a widget, only: what widgets share, then each kind's drawing.
WIDGETS_JS = "javascripts/widgets.js"
WIDGET_KIND = re.compile(r'<figure class="attnlit-figure"[^>]* data-widget="([a-z]+)"')
# A playground (a page's own interactive part, not a figure) loads its script, and only its.
PLAYGROUND_JS = "javascripts/{}.js"
PLAYGROUND = re.compile(r'<div class="attnlit-playground"[^>]* data-playground="([a-z]+)"')
ROOT = Path(__file__).resolve().parent.parent
# Material's download icon, a picture beside the words of the link under each page's title.
DOWNLOAD_ICON = (Path(material.__file__).parent / "templates/.icons/material/download.svg") \
    .read_text(encoding="utf-8").replace("<svg ", '<svg aria-hidden="true" ', 1)


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
    """Key mkdocs-jupyter's cache of rendered labs on attnlit and the pinned environment;
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
    """Each lab renders from a notebook that holds the English lab's outputs, run once for every
    language (tools/labs.py), in place of its script (kept as `script` for what reads it); a
    translation serves the English site's own files too: its scripts and styles.

    mkdocs-jupyter has wrapped the labs' files by now (hooks come after plugins), and renders
    each page from its file's abs_src_path (mkdocs.yml lets it render a notebook of labs/).
    """
    for file in files:  # a lab mkdocs-jupyter renders (a build without it copies the script)
        if i18n.is_lab(file.src_uri) and file.is_documentation_page():
            file.script = Path(file.abs_src_path)
            try:
                file.abs_src_path = str(labs.rendered(file.script, ROOT / "docs" / file.src_uri))
            except ValueError as error:  # a translated lab whose code is not the English lab's
                raise PluginError(str(error)) from error
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


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """A translated page's links to pages not translated yet lead to the English pages.

    Code blocks are copied whole: a link inside one is code or printed output.
    """
    if Build.language == i18n.ENGLISH:
        return markdown
    lines = markdown.split("\n")
    try:
        spans = fences(lines, page.file.src_uri)
    except TangleError as error:
        raise PluginError(str(error)) from error
    inside = {i for start, end in spans.items() for i in range(start, end + 1)}
    return "\n".join(line if i in inside else english_links(line, page.file.src_uri) for i, line in enumerate(lines))


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
        # Made light, its Thai words kept whole (nbconvert renders the markdown cells).
        content = mathml.as_mathml(thai_words.wrap_html(notebook_pages.light(content)), page.file.src_uri)
    if page.file.src_uri != "index.md":  # on_post_page writes it and offers it under the title
        page.meta["notebook"] = Path(page.file.src_uri).stem + ".ipynb"
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
        recorded = i18n.recorded_hash(page.file.script.read_text(encoding="utf-8"), page.file.src_uri)
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
    its title."""
    name = page.meta.get("notebook")
    if name:
        folder = Path(config.site_dir) / Path(page.file.dest_uri).parent
        output = with_download(output, name)
        if i18n.is_lab(page.file.src_uri):
            notebook = lab_notebook(page.file.script)
        else:
            notebook = chapter_notebook(Path(page.file.abs_src_path).read_text(encoding="utf-8"), page.file.src_uri)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(nbformat.writes(notebook), encoding="utf-8")
    return output


@event_priority(-100)  # after the search plugin has written the index
def on_post_build(config, **kwargs) -> None:
    """The build's last step, over the whole site (tools/post_build.py)."""
    post_build.finish(Path(config.site_dir), Build.language)
