"""The built site in a real browser, offline: Debian's chromium, driven by playwright.

Locally these tests skip when no chromium is installed. `.ci/run` installs it and sets
ATTNLIT_BROWSER_TESTS=required, which turns the skip into a failure.
"""

import functools
import os
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import tangle

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("ATTNLIT_CHROMIUM", "/usr/bin/chromium"))
SHOTS = ROOT / "screenshots"  # kept by CI as an artifact, ignored by git
# Bytes on a first visit, uncompressed. Every page loads the search index, which grows with
# each chapter, so a page is measured over the site's empty 404 page (the floor).
FLOOR_BUDGET = 450_000
BUDGET = {"markdown": 120_000, "notebook": 200_000}  # a page's own bytes, over the floor
FLOOR = "404.html (the floor)"
PAGES = [page.removeprefix("docs/") for page in tangle.nav_pages(ROOT)]
ANNOTATION = re.compile(r"# \(\d+\)!$", re.MULTILINE)  # Material copies the code without it

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - playwright is in requirements.txt
    sync_playwright = None
missing = "pip's playwright" if sync_playwright is None else None
if not CHROMIUM.exists():
    missing = f"a browser at {CHROMIUM} (apt-get install chromium, or set ATTNLIT_CHROMIUM)"
if missing and os.environ.get("ATTNLIT_BROWSER_TESTS") == "required":
    pytest.fail(f"browser tests are required but need {missing}", pytrace=False)
if missing:
    pytest.skip(f"browser tests need {missing}", allow_module_level=True)


def url_path(page: str) -> str:
    """The URL path MkDocs gives docs/<page> (a lab's .py becomes a notebook page)."""
    stem = page.removesuffix(".md").removesuffix(".py")
    return "" if stem == "index" else f"{stem.removesuffix('/index')}/"


@pytest.fixture(scope="module")
def server(site):
    """Serve the built site on a free port of 127.0.0.1."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            # No sandbox as root; no background calls to Google's hosts.
            args=["--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        yield browser
        browser.close()


class Visit:
    """One first visit to a page in a fresh context: what it loaded, blocked and logged."""

    def __init__(self, browser, url: str, color_scheme: str = "light"):
        self.context = browser.new_context(
            color_scheme=color_scheme, viewport={"width": 1280, "height": 900},
            permissions=["clipboard-read", "clipboard-write"],
        )
        self.page = self.context.new_page()
        self.blocked, self.failed, self.errors, responses = [], [], [], []
        self.context.route(re.compile(r".*"), self.route)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.on("response", lambda response: responses.append(response))
        # The search worker fetches the index after the load event: wait for it too.
        with self.page.expect_response(lambda r: r.url.endswith("/search_index.json")):
            self.page.goto(url)
        self.page.wait_for_load_state("load")
        self.bytes = sum(len(response.body()) for response in responses)

    def route(self, route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def weights(browser, server):
    """Bytes loaded by each page; the empty 404 page is the site's floor. Written as a report."""
    floor = Visit(browser, server + "404.html")
    table = {FLOOR: floor.bytes}
    floor.close()
    assert table[FLOOR] <= FLOOR_BUDGET, f"the 404 page loads {table[FLOOR]} bytes, over {FLOOR_BUDGET}"
    yield table
    SHOTS.mkdir(exist_ok=True)
    rows = [f"| {page} | {size / 1000:.0f} KB | {(size - table[FLOOR]) / 1000:+.0f} KB |"
            for page, size in table.items()]
    (SHOTS / "page-weight.md").write_text(
        "| page | first visit | over the floor |\n|---|---|---|\n" + "\n".join(rows) + "\n"
    )


def visible_prose(page) -> str:
    """The page's visible text (navigation and contents included) without code and formulas."""
    return page.evaluate("""() => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll("pre, code, svg, math, script").forEach(e => e.remove());
        return body.innerText;
    }""")


@pytest.mark.parametrize("page_name", PAGES)
def test_page_renders_offline_within_budget(browser, server, weights, page_name):
    visit = Visit(browser, server + url_path(page_name))
    page = visit.page
    try:
        assert visit.blocked == [], "requests to other hosts"
        assert visit.failed == [] and visit.errors == []
        prose = visible_prose(page)
        raw_tex = re.findall(r"\\\(|\\\[|\$\$|\$[^$\s][^$\n]*\$", prose)
        assert raw_tex == [], f"formulas left as TeX: {raw_tex[:3]}"
        source = (ROOT / "docs" / page_name).read_text(encoding="utf-8")
        if re.search(r"\$[^$\s]", source):
            heights = page.eval_on_selector_all("article math", "m => m.map(e => e.getBoundingClientRect().height)")
            assert heights and min(heights) > 0, "formulas missing or not laid out"
        broken = page.eval_on_selector_all("img", "imgs => imgs.filter(i => !(i.naturalWidth > 0)).map(i => i.src)")
        assert broken == []
        SHOTS.mkdir(exist_ok=True)
        shot = SHOTS / f"{url_path(page_name).strip('/').replace('/', '-') or 'index'}.jpeg"
        page.screenshot(path=shot, full_page=True, type="jpeg", quality=80)  # PNG: 2x slower
        weights[page_name] = visit.bytes
        budget = BUDGET["notebook" if page_name.endswith(".py") else "markdown"]
        own = visit.bytes - weights[FLOOR]
        assert own <= budget, f"{own} bytes over the 404 page on a first visit, over {budget}"
    finally:
        visit.close()


@pytest.mark.parametrize("query, chapter", [
    ("softmax", "scaling/"),
    ("register_buffer", "causal-attention/"),
])
def test_search_finds_the_chapter(browser, server, query, chapter):
    visit = Visit(browser, server)
    try:
        search = visit.page.locator(".md-search__input")
        search.click()
        search.press_sequentially(query)  # Material reacts to key presses, not to fill()
        results = visit.page.locator(f".md-search-result__item a[href*='{chapter}']")
        results.first.wait_for(timeout=10_000)
        assert results.count() >= 1
    finally:
        visit.close()


def luminance(css_color: str) -> float:
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_palette_toggle_switches_and_figures_follow(browser, server):
    visit = Visit(browser, server + "projections/")
    page = visit.page
    figure = page.locator(".attnlit-figure").first
    scheme = "() => document.body.getAttribute('data-md-color-scheme')"
    ink = "() => getComputedStyle(document.querySelector('.attnlit-figure svg text')).fill"
    background = "() => getComputedStyle(document.body).backgroundColor"
    try:
        seen = {}
        for expected in ("default", "slate"):
            assert page.evaluate(scheme) == expected
            seen[expected] = (luminance(page.evaluate(ink)), luminance(page.evaluate(background)))
            figure.screenshot(path=SHOTS / f"figure-{expected}.png")
            page.locator("form[data-md-component=palette] label:visible").first.click()
        # Ink contrasts with the page in both modes: dark on light, light on dark.
        assert seen["default"][0] < 0.3 < 0.7 < seen["default"][1]
        assert seen["slate"][1] < 0.3 < 0.7 < seen["slate"][0]
    finally:
        visit.close()


def source_blocks(page_name: str) -> list[str]:
    """Every top-level fenced block of a chapter, as its reader should get it from a copy."""
    lines = (ROOT / "docs" / page_name).read_text(encoding="utf-8").splitlines()
    blocks = []
    for start, end in tangle.fences(lines, page_name).items():
        indent = len(lines[start]) - len(lines[start].lstrip())
        body = "\n".join(line[indent:] for line in lines[start + 1:end])
        blocks.append(ANNOTATION.sub("", body))
    return blocks


@pytest.mark.parametrize("page_name", ["attention-without-weights.md", "multi-head-attention.md"])
def test_copy_button_copies_exactly_the_source(browser, server, page_name):
    visit = Visit(browser, server + url_path(page_name))
    page = visit.page
    try:
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        buttons = page.locator("article button[data-md-type=copy]")
        expected = source_blocks(page_name)
        assert buttons.count() == len(expected)
        for i, source in enumerate(expected):
            buttons.nth(i).dispatch_event("click")  # also works for blocks in hidden tabs
            copied = page.evaluate("navigator.clipboard.readText()")
            assert copied == source, f"block {i + 1}"
    finally:
        visit.close()
