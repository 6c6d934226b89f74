"""The site builds strictly, offline, with rendered math, titled tangled blocks and useful search."""

import gzip
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

import i18n
import mkdocs_hooks
import site_config
import tangle

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = "attention-without-weights"
LANGUAGES = i18n.languages(ROOT)
# Every Markdown page of every language: a translation's lies in site/<lang>/ (tools/i18n.py).
PAGES = [ROOT / page for page in site_config.nav_pages(ROOT) if page.endswith(".md")] + [
    i18n.docs_dir(language, ROOT) / page for language in LANGUAGES for page in i18n.pages(language, ROOT)
    if page.endswith(".md")]
KINDS = ROOT / "docs" / "javascripts" / "widgets"  # a script per kind of widget
MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display='  # as latex2mathml writes it
# The site's own JavaScript in bytes a host sends, gzip-compressed as the page budgets count
# them (tests/browsing.py explains the level): what a reader downloads with one page. The
# overrides' inline scripts (every page has them), the widgets' shared script and the kinds the
# page's widgets need; the playgrounds' script, which only pages 10c and 13b load, has its own
# budget.
GZIP_LEVEL = 6
# Until issue 34 this counted every widget's script, as if one page loaded them all (14,023
# bytes under a budget of 14,500, which a tenth kind of widget passed): no page does, and a
# page pays only for its own. The heaviest, chapter 10 with two widgets, loaded 8,189.
JS_BUDGET = 10_000
PLAYGROUND_JS = "javascripts/tinygpt.js"
# 12,000 while it held page 10c's playground alone (about 11,000); with page 13b's (RoPE,
# sampling, its own panels) it sends 14,000, beside the 1.6 MB of weights that page fetches.
PLAYGROUND_BUDGET = 15_000


def test_link_to_a_missing_anchor_fails_the_strict_build(builds):
    returncode, log, _ = builds["broken"]
    assert returncode != 0
    assert "contains a link '#no-such-anchor', but there is no such anchor" in log


class ExternalReferences(HTMLParser):
    """Collect every URL a page would load (scripts, styles, fonts, images, frames)."""

    LOADS = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src",
             "video": "src", "embed": "src", "link": "href"}

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and not {"stylesheet", "icon", "preload", "manifest"} & set(
            (attrs.get("rel") or "").split()
        ):
            return  # <link rel="canonical"> and the like are not fetched
        url = attrs.get(self.LOADS.get(tag, ""))
        if url and re.match(r"^(https?:)?//", url):
            self.urls.append(f"<{tag}> {url}")
        if "data-md-component" in attrs and attrs["data-md-component"] == "source":
            self.urls.append("Material's repository widget (it calls the GitHub API)")


def test_no_page_loads_anything_from_another_host(site):
    found = []
    for page in site.rglob("*.html"):
        parser = ExternalReferences()
        parser.feed(page.read_text(encoding="utf-8"))
        found += [f"{page.relative_to(site)}: {url}" for url in parser.urls]
    for sheet in site.rglob("*.css"):
        found += [f"{sheet.relative_to(site)}: {url}"
                  for url in re.findall(r"""url\(\s*["']?((?:https?:)?//[^)"']+)""", sheet.read_text())]
    assert not found, "\n".join(found)


def pinned(package: str) -> str:
    """The version requirements.txt pins a package to."""
    return re.search(rf"^{re.escape(package)}==(\S+)$", (ROOT / "requirements.txt").read_text(), re.MULTILINE)[1]


def test_every_page_is_built_by_the_pinned_properdocs_and_material(site):
    """The builds run ProperDocs (conftest.py, the Makefile and CI call it), not MkDocs, which is
    installed too: every page's generator tag names the pinned versions of both."""
    generator = f'<meta name="generator" content="mkdocs-ProperDocs {pinned("properdocs")}, ' \
                f'mkdocs-material-{pinned("mkdocs-material")}">'
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > len(PAGES)  # notebook pages and 404s too
    assert [page.relative_to(site) for page in pages if generator not in page.read_text(encoding="utf-8")] == []


def built_file(site: Path, source: Path) -> Path:
    """The HTML file that MkDocs built from docs/<source> (a lab's too)."""
    name = source.relative_to(ROOT / "docs").with_suffix("")
    return site / (name.parent / "index.html" if name.name == "index" else name / "index.html")


def built_page(site: Path, source: Path) -> str:
    """The HTML that MkDocs built from docs/<source>."""
    return built_file(site, source).read_text(encoding="utf-8")


def test_every_formula_is_mathml(site):
    for source in PAGES:
        html = built_page(site, source)
        tex = source.read_text(encoding="utf-8").count("$") > 0
        assert 'class="arithmatex"' not in html, f"{source.name}: TeX left unrendered"
        assert not tex or MATH in html, source.name
    chapter = built_page(site, ROOT / "docs" / f"{CHAPTER}.md")
    assert chapter.count(f'{MATH}"block" data-search-exclude>') >= 4


def test_every_figure_block_is_drawn_as_inline_svg(site):
    for source in PAGES:
        lines = source.read_text(encoding="utf-8").splitlines()
        inside = {i for start, end in tangle.fences(lines, source.name).items()
                  for i in range(start, end + 1)}
        markers = sum(1 for i, line in enumerate(lines)
                      if tangle.FIGURE.match(line) and i not in inside)
        drawn = re.findall(r'<figure class="attnlit-figure"[^>]*>\s*<(?:svg|div) role="img" ',
                           built_page(site, source))
        assert len(drawn) == markers, f"{source.name}: {markers} figure blocks, {len(drawn)} drawn"


def test_tangled_block_shows_its_module(site):
    html = (site / CHAPTER / "index.html").read_text(encoding="utf-8")
    assert '<span class="filename">attnlit/toy.py</span>' in html
    assert "tangle:" not in html


def test_search_finds_words_of_code_and_formulas_in_prose(site):
    """Inline code and formulas are indexed, split as the browser splits them."""
    index = json.loads((site / "search" / "search_index.json").read_text())
    separator = re.compile(index["config"]["separator"])  # the browser tokenizes with this
    words = {word.lower()
             for doc in index["docs"] if doc["location"].startswith(f"{CHAPTER}/")
             for word in separator.split(re.sub(r"<[^>]+>", " ", doc["text"]))}
    # From `torch.softmax`, `dim=-1`, `register_buffer` and $A = \operatorname{softmax}(Ω)$:
    assert {"torch", "softmax", "dim", "ω"} <= words
    chapter5 = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("causal-attention/"))
    assert "register_buffer" in separator.split(re.sub(r"<[^>]+>", " ", chapter5))


def test_code_blocks_stay_out_of_the_search_index(site):
    index = json.loads((site / "search" / "search_index.json").read_text())
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "<pre>" not in text and "import torch" not in text


def test_every_widget_figure_carries_data_for_a_widget_the_site_draws(site):
    """A figure block's `widget` is in the page, after the drawing, as JSON of a known kind.

    In a hidden element, not a <script>: Material's instant navigation would run it.
    """
    kinds = {path.stem for path in KINDS.glob("*.js")}
    found = set()
    for source in PAGES:
        html = built_page(site, source)
        widgets = re.findall(r'<figure class="attnlit-figure" data-widget="([^"]+)"[^>]*>\s*<svg .*?</svg>\s*'
                             r'<div class="attnlit-data" hidden>(.*?)</div>', html, re.DOTALL)
        assert len(widgets) == html.count("data-widget="), source.name
        for kind, data in widgets:
            assert json.loads(unescape(data))["kind"] == kind and kind in kinds, f"{source.name}: {kind}"
            found.add(kind)
    assert found == kinds and len(kinds) >= 6


def test_the_sites_own_javascript_stays_small(site):
    """On every page, in every language: the overrides' inline scripts and each .js file of
    ours the page loads (not Material's, under assets/, nor the playground's); the playground's
    on its own."""
    inline = [script for template in sorted((ROOT / "overrides").rglob("*.html"))
              for script in re.findall(r"<script>(.*?)</script>", template.read_text(), re.DOTALL)]
    sent = lambda code: len(gzip.compress(code, GZIP_LEVEL, mtime=0))
    shared = sum(sent(script.encode()) for script in inline)
    loads = {}
    for page in sorted(site.rglob("*.html")):
        ours = [(page.parent / src).resolve() for src in re.findall(r'<script src="([^"]+\.js)"', page.read_text(encoding="utf-8"))
                if "assets/" not in src and not src.endswith(PLAYGROUND_JS)]
        loads[page.relative_to(site).as_posix()] = shared + sum(sent(path.read_bytes()) for path in ours)
    heaviest = max(loads, key=loads.get)
    assert inline and loads["trained-gpt/index.html"] > shared + 2_000  # its widgets' scripts are counted
    assert loads[heaviest] <= JS_BUDGET, f"{heaviest} loads {loads[heaviest]} bytes of our JavaScript, budget {JS_BUDGET}"
    playground = sent((site / PLAYGROUND_JS).read_bytes())
    assert playground <= PLAYGROUND_BUDGET, f"{playground} bytes sent for the playground, budget {PLAYGROUND_BUDGET}"


def test_only_pages_with_a_widget_load_the_scripts_and_only_those_they_need(site):
    """Not from extra_javascript, which every page loads: the hook adds them where widgets are.

    What widgets share, then the page's kinds, then the script of a playground; relative URLs
    that lead to the scripts from the page, at any depth.
    """
    assert "extra_javascript" not in site_config.read_config(ROOT)
    pages, playgrounds = 0, 0
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        scripts = re.findall(r'<script src="([^"]*/)?(javascripts/[^"]*)" defer></script>', text)
        kinds = re.findall(r'<figure class="attnlit-figure"[^>]* data-widget="([a-z]+)"', text)
        played = mkdocs_hooks.PLAYGROUND.findall(text)
        expected = ["javascripts/widgets.js", *(f"javascripts/widgets/{kind}.js" for kind in kinds)] if kinds else []
        expected += [f"javascripts/{name}.js" for name in played]
        assert [path for _, path in scripts] == expected, page.relative_to(site)
        root = site / page.relative_to(site).parts[0] if page.relative_to(site).parts[0] in LANGUAGES else site
        for up, path in scripts:  # the page's language's own copy
            assert (page.parent / up / path).resolve() == (root / path).resolve()
            assert (root / path).exists()
        pages += bool(kinds)
        playgrounds += PLAYGROUND_JS in [path for _, path in scripts]
    assert pages >= 6 and playgrounds == 2 * (1 + len(LANGUAGES))  # pages 10c and 13b, each language


def test_admonition_and_summary_titles_show_no_escaped_quotes(site):
    """`!!! question "the \\"step\\""` keeps its backslashes: titles quote with other marks."""
    escaped, seen = [], 0
    for source in PAGES:
        found = re.findall(r'<p class="admonition-title">(.*?)</p>|<summary>(.*?)</summary>',
                           built_page(site, source), re.DOTALL)
        titles = [unescape(title) for pair in found for title in pair if title]
        escaped += [f"{source.name}: {title}" for title in titles if re.search(r"\\[\"']", title)]
        seen += len(titles)
    assert seen >= 20, "no titles found: the pattern no longer matches Material's markup"
    assert not escaped, "\n".join(escaped)


def test_each_language_has_its_404_page_in_its_language(site):
    for language in [i18n.ENGLISH, *LANGUAGES]:
        folder = site if language == i18n.ENGLISH else site / language
        html = (folder / "404.html").read_text(encoding="utf-8")
        assert f'<html lang="{language}"' in html
        assert f"<h1>{unescape(i18n.strings(language, ROOT)['not_found'])}</h1>" in unescape(html), language


class Selector(HTMLParser):
    """The language selector's links of a page: (language, href, text)."""

    def __init__(self):
        super().__init__()
        self.links, self.inside = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "md-select__link" in (attrs.get("class") or ""):
            self.inside = [attrs["hreflang"], attrs["href"], ""]
            self.links.append(self.inside)

    def handle_data(self, data):
        if self.inside is not None:
            self.inside[2] += data

    def handle_endtag(self, tag):
        if tag == "a":
            self.inside = None


def test_the_language_selector_of_every_page_leads_to_that_page_in_each_language(site):
    """Or, where it is not translated, to the language's first page, saying so."""
    checked = 0
    english = [page.removeprefix("docs/") for page in site_config.nav_pages(ROOT)]
    for language in [i18n.ENGLISH, *LANGUAGES]:
        for page in english if language == i18n.ENGLISH else i18n.pages(language, ROOT):
            here = site / (language if language != i18n.ENGLISH else "") / mkdocs_hooks.page_url(page) / "index.html"
            parser = Selector()
            parser.feed(here.read_text(encoding="utf-8"))
            assert [link[0] for link in parser.links] == [i18n.ENGLISH, *LANGUAGES], here
            for code, href, text in parser.links:
                translated = (i18n.docs_dir(code, ROOT) / page).exists()
                target = page if translated else i18n.home(code, ROOT)
                prefix = "" if code == i18n.ENGLISH else f"{code}/"
                expected = (site / prefix / mkdocs_hooks.page_url(target) / "index.html").resolve()
                assert (here.parent / href / "index.html").resolve() == expected, (here, code, href)
                assert expected.exists()
                note = i18n.strings(code, ROOT).get("untranslated")
                assert text.strip().endswith(str(note)) != translated, (here, code, text)
                checked += 1
    assert checked >= 3 * len(english)


def test_a_translated_pages_links_lead_to_the_translated_pages(site):
    """The Thai home page's links to the labs lead to the Thai labs, with no English mark."""
    html = (site / "th" / "index.html").read_text(encoding="utf-8")
    assert '<a href="labs/why-scale/">' in html and (site / "th" / "labs" / "why-scale" / "index.html").exists()
    assert mkdocs_hooks.TO_ENGLISH not in html and 'hreflang="en">' not in html.split('class="md-select__list"')[-1]


def test_the_thai_index_has_its_words_split(site):
    index = json.loads((site / "th" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["th"] and set(index["config"]["fields"]) == {"title", "text", "tags"}
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "เวกเตอร์\u200bบริบท" in text and "เวกเตอร์บริบท" not in text
    vietnamese = json.loads((site / "vi" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert vietnamese["config"]["lang"] == ["vi"] and "\u200b" not in json.dumps(vietnamese, ensure_ascii=False)


@pytest.mark.parametrize("language", [i18n.ENGLISH, *LANGUAGES])
def test_the_nav_shows_each_pages_title_from_the_config(site, language):
    """A lab too: its nav title ("Why scale", under "Labs"), not its first heading."""
    config = site_config.read_config(ROOT) if language == i18n.ENGLISH else i18n.language_config(language, ROOT)
    titles = {page: title for page, title in site_config.nav_titles(config["nav"]).items() if page != "index.md"}
    html = (site / mkdocs_hooks.language_url(language) / "index.html").read_text(encoding="utf-8")
    shown = {href: unescape(" ".join(text.split())) for href, text in re.findall(
        r'<a href="([^"]*)" class="md-nav__link">\s*<span class="md-ellipsis">(.*?)</span>', html, re.DOTALL)}
    assert {page: shown.get(mkdocs_hooks.page_url(page)) for page in titles} == titles
    assert any(i18n.is_lab(page) for page in titles)


FIGURE_ELEMENT = re.compile(r'<figure class="attnlit-figure".*?</figure>', re.DOTALL)
SVG_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.DOTALL)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’-]*")  # Latin letters, no marks: English, a symbol or code


def figure_texts(html: str) -> list[str]:
    """Every text that the page's figures draw, as a reader sees it."""
    return [unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for figure in FIGURE_ELEMENT.findall(html) for text in SVG_TEXT.findall(figure)]


def foreign_words(text: str, english: set[str], kept: set[str]) -> list[str]:
    """The words of a translated figure's text that are English words of the English figures
    and not kept in English by the language. Kept: code (names with _, digits or inner capitals, a
    method or a call), a symbol (a letter, capitals), a term or name of its glossary, plural
    or not."""
    found = []
    for match in WORD.finditer(text):
        word, before, after = match[0], text[match.start() - 1:match.start()], text[match.end():match.end() + 1]
        code = re.search(r"[_0-9]|[a-z][A-Z]", word) or before == "." or after in ("(", ".") \
            or len(word) == 1 or word.isupper()
        said = word.lower()
        singular = {said, said.removesuffix("s"), said.removesuffix("es"), re.sub("ies$", "y", said)}
        if not code and said in english and not singular & kept:
            found.append(word)
    return found


def kept_words(language: str) -> set[str]:
    """What the language writes as English does: its glossary's terms kept in English, word by
    word, and the names it keeps (models, units)."""
    glossary = i18n.glossary(language, ROOT)
    terms = [term.english for term in glossary if term.use == term.english] + i18n.kept_names(language, ROOT)
    return {word.lower() for term in terms for word in WORD.findall(term)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_a_translated_figure_draws_is_in_its_language(site, language):
    """Axis labels, legends, titles, annotations and tick labels of every figure of every
    translated page: in the language, a term or name its glossary keeps in English, a number
    or code. The words of the example sentences, which the code gives, are data: tokens
    (chapter 1's sentence, chapter 9's "dog bites man ."); so are the names of chapter 13's
    plays, as its figure writes them ("henry vi part 2": its "vi" no English word)."""
    from attnlit.text import plays
    from attnlit.toy import words

    chapter_9 = {"dog", "bites", "man"}  # its two sentences, also drawn whole as titles
    sentence = {*words, *chapter_9}
    named = {name.replace("-", " ") for name in plays()}

    english = {word.lower() for source in PAGES if source.parent == ROOT / "docs"
               for text in figure_texts(built_page(site, source)) if text not in named
               for word in WORD.findall(text)}
    kept = kept_words(language)
    untranslated, texts = [], 0
    for page in i18n.pages(language, ROOT):
        if i18n.is_lab(page):
            continue
        for text in figure_texts(built_page(site, i18n.docs_dir(language, ROOT) / page)):
            texts += 1
            if text in named:
                continue
            # The sentence's words are its tokens: a tick label, or quoted in a translated text.
            translated = not text.isascii()
            found = [word for word in foreign_words(text, english, kept) if not (translated and word in sentence)]
            if found and text not in sentence and not set(WORD.findall(text)) <= chapter_9:
                untranslated.append(f"{language}/{page}: {text!r} ({', '.join(found)})")
    assert texts > 500 and english > {"weight", "query"}
    assert untranslated == [], "\n".join(untranslated)


WORKER = ROOT / "docs" / "assets" / "javascripts" / "workers" / "attnlit-search.js"
MATERIAL_WORKER = re.compile(r'const MATERIAL = "(search\.[0-9a-f]+\.min\.js)"')


def test_the_search_worker_runs_materials_own_and_the_pages_name_it(site):
    """overrides/main.html's config block is Material's but for the worker it names: ours,
    which loads the worker that Material's own config names (an upgrade of Material that
    renames it fails here, not in a reader's browser)."""
    import material

    base = (Path(material.__file__).parent / "templates" / "base.html").read_text(encoding="utf-8")
    theirs = re.search(r'"search": "assets/javascripts/workers/([^"]+)" \| url', base)[1]
    assert MATERIAL_WORKER.search(WORKER.read_text(encoding="utf-8"))[1] == theirs
    for language in ["", *(f"{code}/" for code in LANGUAGES)]:
        html = (site / language / "index.html").read_text(encoding="utf-8")
        config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.DOTALL)[1])
        assert config["search"].endswith("assets/javascripts/workers/attnlit-search.js"), language
        assert (site / language / "assets" / "javascripts" / "workers" / theirs).exists()


def test_a_translations_index_gives_its_search_the_spellings_of_its_glossary(site):
    """The words a reader may type for a term kept in English (มาสก์, mask), which the search
    worker searches as the term; English has none."""
    for language in LANGUAGES:
        index = json.loads((site / language / "search" / "search_index.json").read_text(encoding="utf-8"))
        assert index["config"]["attnlit"]["synonyms"] == i18n.synonyms(language, ROOT)
    assert i18n.synonyms("th", ROOT)["มาสก์"] == "mask" and i18n.synonyms("vi", ROOT)["truy vấn"] == "query"
    assert "attnlit" not in json.loads((site / "search" / "search_index.json").read_text())["config"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translated_page_describes_itself_in_its_language(site, language):
    """The <meta name="description"> that search engines and link previews show."""
    english, own = site_config.read_config(ROOT)["site_description"], i18n.language_config(language, ROOT)["site_description"]
    assert own != english and i18n.glossary_errors(i18n.glossary(language, ROOT), own, language) == []
    for page in i18n.pages(language, ROOT):
        html = built_page(site, i18n.docs_dir(language, ROOT) / page)
        assert f'<meta name="description" content="{own}">' in html, page


@pytest.mark.parametrize("language", [i18n.ENGLISH, *LANGUAGES])
def test_each_edition_has_a_glossary_page_its_home_page_links(site, language):
    """Every term of the glossaries in a table: in English, how each translation writes it; in
    a translation, how it writes it, what it does not write, and why."""
    folder = site / mkdocs_hooks.language_url(language)
    assert 'href="glossary/"' in (folder / "index.html").read_text(encoding="utf-8")
    html = (folder / "glossary" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.DOTALL)
    if language == i18n.ENGLISH:
        terms = {term.english for code in LANGUAGES for term in i18n.glossary(code, ROOT)}
    else:
        terms = {term.english for term in i18n.glossary(language, ROOT)}
        assert all(term.note for term in i18n.glossary(language, ROOT) if term.use == term.english), \
            "a term kept in English says why"
    cells = [unescape(re.sub(r"<[^>]+>", "", re.search(r"<td>(.*?)</td>", row, re.DOTALL)[1])) for row in rows[1:]]
    assert cells == sorted(terms, key=str.lower)


DOWNLOAD = re.compile(r'</h1><p class="attnlit-download"><a href="([^"/]+\.ipynb)" download>'
                      r'<svg aria-hidden="true" [^>]*>.*?</svg>([^<]+)</a></p>', re.DOTALL)


@pytest.mark.parametrize("language", [i18n.ENGLISH, *LANGUAGES])
def test_every_page_offers_its_notebook_under_its_title_in_words(site, language):
    """A link that says what it gives, in the page's language (issue 34: it was an icon with a
    tooltip), right under the title, to the notebook beside the page; the home page has none."""
    words = i18n.language_config(language, ROOT)["extra"]["strings"]["download_notebook"]
    for page in i18n.pages(language, ROOT):
        source = i18n.docs_dir(language, ROOT) / page
        html = built_page(site, source)
        found = DOWNLOAD.findall(html)
        if page == "index.md":
            assert "attnlit-download" not in html
            continue
        assert [unescape(text) for _, text in found] == [words], page
        name = source.relative_to(ROOT / "docs").with_suffix("")
        assert (site / name / found[0][0]).is_file(), f"{page}: {found[0][0]} is not beside it"


def test_search_leaves_out_displayed_formulas_and_tables_of_numbers(site):
    """Material previews a result by the blocks that hold the words found, so a displayed formula
    or a table of numbers showed as a run of symbols or digits (issue 34). The prose around
    them, which names what they hold, is indexed; tables of words are too."""
    def letters(html: str) -> str:  # its text without tags or spaces, as both sides write it
        return re.sub(r"\s+", "", unescape(re.sub(r"<[^>]+>", "", html)))

    index = json.loads((site / "search" / "search_index.json").read_text())
    indexed: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        indexed[page] = indexed.get(page, "") + letters(doc["text"])
    left_out = kept = 0
    for source in [ROOT / page for page in site_config.nav_pages(ROOT) if page.endswith(".md")]:
        html = built_page(site, source)
        article = html[html.index("<article"):html.index("</article>")]
        tables = re.findall(r"<table[^>]*>(.*?)</table>", article, re.DOTALL)
        numbers = [mkdocs_hooks.of_numbers(table) for table in tables]
        blocks = [*re.findall(r'<math[^>]*display="block".*?</math>', article, re.DOTALL),
                  *(table for table, of_numbers in zip(tables, numbers) if of_numbers)]
        page = "" if source.stem == "index" else f"{source.stem}/"  # English: translations alike
        for block in blocks:
            assert letters(block) not in indexed[page], f"{source.name}: {letters(block)[:80]}"
            left_out += 1
        kept += sum(letters(table) in indexed[page] for table, of_numbers in zip(tables, numbers) if not of_numbers)
    assert left_out > 20 and kept > 10, (left_out, kept)


# A translated page's widgets and figures: its English page's, its words aside. What the browser
# checks of a widget's controls, of its figure without JavaScript and of a figure's classes
# (tests/test_browser_widgets.py, tests/test_browser_figures.py) is then checked on the English page alone: it cannot differ.
WIDGET_DATA = re.compile(r'<div class="attnlit-data" hidden>(.*?)</div>', re.DOTALL)
SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
ELEMENT = re.compile(r"<([a-zA-Z]+)\b[^>]*?\bclass=\"([^\"]*)\"")
STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.DOTALL)
TRANSLATED_PAGES = [(language, page) for language in LANGUAGES for page in i18n.pages(language, ROOT)]


def widgets_data(page: Path) -> list[dict]:
    """A built page's widgets' data, each as the widget reads it, its fetched part read in,
    without its words."""
    found = []
    for text in WIDGET_DATA.findall(page.read_text(encoding="utf-8")):
        data = json.loads(unescape(text))
        if "fetched" in data:  # an address relative to the page's folder, with its language's prefix
            data["fetched"] = json.loads((page.parent / data["fetched"]).read_text(encoding="utf-8"))
        data.pop("strings", None)
        found.append(data)
    return found


def classes_from_the_site(page: Path) -> list[list[tuple[str, str]]]:
    """Each drawing of a built page (a figure's, a widget's, a lab's): the classes its elements
    carry, by kind of element, that no drawing's <style> names (a figure of panels styles them
    all in its first), which the site's stylesheet must style."""
    drawings = SVG.findall(page.read_text(encoding="utf-8"))
    drawn = {name for svg in drawings for style in STYLE.findall(svg) for name in re.findall(r"\.([\w-]+)", style)}
    return [sorted({(tag, name) for tag, names in ELEMENT.findall(svg) for name in names.split() if name not in drawn})
            for svg in drawings]


@pytest.mark.parametrize("language, page", TRANSLATED_PAGES)
def test_a_translated_pages_widgets_and_figures_are_its_english_pages_but_for_their_words(site, language, page):
    translated = built_file(site, i18n.docs_dir(language, ROOT) / page)
    english = built_file(site, ROOT / "docs" / page)
    assert widgets_data(translated) == widgets_data(english)
    # Its drawings are laid out around its words (a longer label, another anchor: other rules),
    # from the same code: each has the classes from the site that the English one has, and
    # every other class it carries is named in a drawing's <style>.
    assert classes_from_the_site(translated) == classes_from_the_site(english)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_comparison_of_translated_widgets_and_figures_sees_them_all(site, language):
    """Each widget and figure of a translation found, its words and styles as well."""
    pages = [built_file(site, i18n.docs_dir(language, ROOT) / page) for page in i18n.pages(language, ROOT)]
    data = [one for page in pages for one in widgets_data(page)]
    drawings = [svg for page in pages for svg in SVG.findall(page.read_text(encoding="utf-8"))]
    assert len(data) >= 10 and all(one["kind"] for one in data)
    assert sum(bool(STYLE.search(svg)) for svg in drawings) >= 60
    assert sum(len(ELEMENT.findall(svg)) for svg in drawings) >= 5_000  # classes, each checked
    assert sum(page.read_text(encoding="utf-8").count("data-widget=") for page in pages) == len(data)
