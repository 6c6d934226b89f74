"""The built site in a real browser, offline: Debian's chromium, driven by playwright.

Locally these tests skip when no chromium is installed. `.ci/run` installs it and sets
ATTNLIT_BROWSER_TESTS=required, which turns the skip into a failure.

The browser work runs once, several pages at a time (playwright's async API, one browser):
each page is opened once, and that visit records what it loaded, blocked and logged, how its
formulas and figures came out, and what axe-core finds in the light palette and, after a click
on the palette toggle, in the dark one. The tests below read those records. Every wait is on a
condition (a response, an attribute, an element), never on time.
"""

import asyncio
import contextlib
import functools
import os
import re
import threading
import unicodedata
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable
from pathlib import Path

import pytest

import tangle

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("ATTNLIT_CHROMIUM", "/usr/bin/chromium"))
SHOTS = ROOT / "screenshots"  # kept by CI as an artifact, ignored by git
AXE = ROOT / "tests" / "assets" / "axe.min.js"  # axe-core, pinned: tests/assets/README.md
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
              "resultTypes": ["violations"]}
FLOOR = "404.html"  # the empty page: theme, scripts and search index, which every page loads
FLOOR_BUDGET = 450_000  # bytes on a first visit, uncompressed
BUDGET = {"markdown": 120_000, "notebook": 200_000}  # a page's own bytes, over the floor
PAGES = [page.removeprefix("docs/") for page in tangle.nav_pages(ROOT)]
ANNOTATION = re.compile(r"# \(\d+\)!$", re.MULTILINE)  # Material copies the code without it
AT_ONCE = 4  # pages open at the same time
# Checks that run on one or two pages only, within the same visits.
SEARCHED, SEARCHES = "index.md", [("softmax", "scaling/"), ("register_buffer", "causal-attention/")]
COPIED = ["attention-without-weights.md", "multi-head-attention.md"]
PALETTE_SHOWN = "projections.md"  # its first figure's screenshots, in both palettes

try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - playwright is in requirements.txt
    async_playwright = None
missing = "pip's playwright" if async_playwright is None else None
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


def shot_name(page: str) -> str:
    return url_path(page).strip("/").replace("/", "-") or "index"


@contextlib.contextmanager
def serving(site: Path):
    """Serve the built site on a free port of 127.0.0.1; yield its URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class Visit:
    """One first visit to a page in a fresh context: what it loaded, blocked and logged."""

    async def open(self, browser, url: str):
        self.context = await browser.new_context(
            viewport={"width": 1280, "height": 900},
            permissions=["clipboard-read", "clipboard-write"],
        )
        # Waits are on conditions; this only bounds them, generously: the pages share 2 cores.
        self.context.set_default_timeout(120_000)
        self.page = await self.context.new_page()
        self.blocked, self.failed, self.errors, responses = [], [], [], []
        await self.context.route(re.compile(r".*"), self.route)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.on("response", lambda response: responses.append(response))
        # After the load event, the search worker loads its script and then fetches the index.
        # Wait for both responses: the worker's events reach playwright on a channel of their
        # own, often after the index's, and a sum taken before them missed 40 KB now and then.
        async with (self.page.expect_response(lambda r: r.url.endswith("/search_index.json")),
                    self.page.expect_response(lambda r: "/workers/search." in r.url)):
            await self.page.goto(url)
        # The favicon is fetched whenever the browser gets to it: not part of the page.
        loaded = [response for response in responses if "/favicon." not in response.url]
        self.bytes = sum([len(await response.body()) for response in loaded])
        return self

    async def route(self, route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            await route.continue_()
        else:
            self.blocked.append(url)
            await route.abort()

    async def close(self):
        await self.context.close()


# One evaluation, so that the page cannot change between finding elements and measuring them.
# (playwright's eval_on_selector_all finds, then measures in a second call; in between Material
# may detach a code annotation's tooltip, formulas included, 250 ms after mounting it, and a
# detached formula measures 0 px: "formulas missing or not laid out", now and then.)
STATE = """() => {
    const prose = document.body.cloneNode(true);
    prose.querySelectorAll("pre, code, svg, math, script").forEach(e => e.remove());
    const formulas = [...document.querySelectorAll("article math")];
    return {
        prose: prose.innerText,
        formulas: formulas.length,
        flat: formulas.filter(m => !(m.getBoundingClientRect().height > 0)).map(m => m.textContent),
        broken: [...document.images].filter(i => !(i.naturalWidth > 0)).map(i => i.src.slice(0, 80)),
        captions: [...document.querySelectorAll(".attnlit-figure")]
            .map(f => (f.querySelector("figcaption")?.textContent ?? "").replace(/\\s+/g, " ").trim()),
    };
}"""
# Material sets the new palette, then removes this attribute (which holds transitions at 0 s).
SWITCHED = """scheme => document.body.getAttribute("data-md-color-scheme") === scheme
    && !document.body.hasAttribute("data-md-color-switching")
    && !document.getAnimations().some(a => a instanceof CSSTransition && a.playState === "running")"""
PALETTE_TOGGLE = "form[data-md-component=palette] label:visible"


async def axe(page) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line each."""
    if not await page.evaluate("() => typeof axe === 'object'"):
        await page.add_script_tag(path=AXE)
    violations = await page.evaluate("options => axe.run(document, options)"
                                      ".then(r => r.violations)", WCAG_21_AA)
    return [f"{v['id']} ({len(v['nodes'])} elements, e.g. {' '.join(v['nodes'][0]['target'])}): "
            f"{v['nodes'][0]['failureSummary']}" for v in violations]


async def switch_palette(page, scheme: str) -> None:
    await page.locator(PALETTE_TOGGLE).first.click()
    await page.wait_for_function(SWITCHED, arg=scheme)


async def accessible_names(visit, selector: str) -> list[tuple[str, str]]:
    """(role, name) of each element matching selector, from chromium's accessibility tree."""
    cdp = await visit.context.new_cdp_session(visit.page)
    root = (await cdp.send("DOM.getDocument", {"depth": 0}))["root"]["nodeId"]
    nodes = (await cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector}))["nodeIds"]
    found = []
    for node in nodes:
        ax = (await cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False}))
        found.append((ax["nodes"][0]["role"]["value"], ax["nodes"][0].get("name", {}).get("value", "")))
    await cdp.detach()
    return found


def luminance(css_color: str) -> float:
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


# The first figure's ink and the page's background, as computed colours.
INK = """() => [getComputedStyle(document.querySelector(".attnlit-figure svg text")).fill,
               getComputedStyle(document.body).backgroundColor]"""


async def search(page, query: str, chapter: str) -> int:
    """How many results for query link to chapter, once Material's search shows any."""
    box = page.locator(".md-search__input")
    await box.click()
    await box.fill("")
    await box.press_sequentially(query)  # Material reacts to key presses, not to fill()
    results = page.locator(f".md-search-result__item a[href*='{chapter}']")
    await results.first.wait_for()
    return await results.count()


# Material mounts a code block (copy button, annotations) when it first comes into view
# (content.lazy). To audit the page a reader ends up with, bring every visible block into view,
# one a frame, until all are mounted; then back to the top.
MOUNTED = """() => {
    const next = [...document.querySelectorAll("article pre > code")].map(code => code.parentElement)
        .find(block => block.checkVisibility() && !block.querySelector(".md-code__nav"));
    if (next) next.scrollIntoView(); else window.scrollTo(0, 0);
    return !next;
}"""

# Each block, folded (<details>) or in a hidden tab included, is shown, brought into view until
# Material mounts it, and copied. Material's copy button puts the block's rendered text on the
# clipboard (one per browser: pages take turns).
COPY_EVERY_BLOCK = """async () => {
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    const copied = [];
    for (const code of document.querySelectorAll("article pre > code")) {
        const block = code.parentElement;
        for (let fold = block.closest("details"); fold; fold = fold.parentElement.closest("details"))
            fold.open = true;
        const tab = block.closest(".tabbed-block");
        if (tab)
            tab.closest(".tabbed-set").querySelectorAll(":scope > input")[
                [...tab.parentElement.children].indexOf(tab)].checked = true;
        block.scrollIntoView();
        while (!block.querySelector("button[data-md-type=copy]"))
            await frame();
        await navigator.clipboard.writeText("");
        block.querySelector("button[data-md-type=copy]").click();
        let text = "";  // the copy lands when it lands: wait for it (no block is empty)
        while (!(text = await navigator.clipboard.readText()))
            await frame();
        copied.push(text);
    }
    return copied;
}"""


async def copy_every_block(page, clipboard: asyncio.Lock) -> list[str]:
    """What each copy button of the page puts on the clipboard."""
    async with clipboard:
        # The clipboard serves the focused page only; four pages are open at once.
        await page.bring_to_front()
        return await asyncio.wait_for(page.evaluate(COPY_EVERY_BLOCK), timeout=120)


async def page_record(browser, server: str, page_name: str, clipboard: asyncio.Lock) -> dict:
    """Everything the tests check of a page, from one visit: light palette, then dark."""
    visit = await Visit().open(browser, server + (FLOOR if page_name == FLOOR else url_path(page_name)))
    page = visit.page
    name = "404" if page_name == FLOOR else shot_name(page_name)
    try:
        record = {"bytes": visit.bytes, "blocked": visit.blocked, "failed": visit.failed,
                  "errors": visit.errors, **await page.evaluate(STATE), "axe": {}, "ink": {}}
        record["figure names"] = await accessible_names(visit, ".attnlit-figure svg")
        await page.wait_for_function(MOUNTED, polling="raf")
        SHOTS.mkdir(exist_ok=True)
        for scheme in ("default", "slate"):
            if scheme == "slate":
                await switch_palette(page, scheme)
            await page.screenshot(path=SHOTS / f"{name}-{scheme}.jpeg", type="jpeg", quality=80)
            record["axe"][scheme] = await axe(page)
            if record["captions"]:
                record["ink"][scheme] = [luminance(color) for color in await page.evaluate(INK)]
                if page_name == PALETTE_SHOWN:
                    await page.locator(".attnlit-figure").first.screenshot(path=SHOTS / f"figure-{scheme}.png")
        if page_name in COPIED:
            record["copied"] = await copy_every_block(page, clipboard)
        if page_name == SEARCHED:
            record["found"] = {query: await search(page, query, chapter) for query, chapter in SEARCHES}
        return record
    finally:
        await visit.close()


def source_blocks(page_name: str) -> list[str]:
    """Every top-level fenced block of a chapter, as its reader should get it from a copy."""
    lines = (ROOT / "docs" / page_name).read_text(encoding="utf-8").splitlines()
    blocks = []
    for start, end in tangle.fences(lines, page_name).items():
        indent = len(lines[start]) - len(lines[start].lstrip())
        body = "\n".join(line[indent:] for line in lines[start + 1:end])
        blocks.append(ANNOTATION.sub("", body))
    return blocks


async def browse(server: str) -> dict:
    """Visit every page, AT_ONCE at a time: {page: its record, or the exception it raised}."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            # No sandbox as root; no background calls to Google's hosts.
            args=["--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        slots, clipboard = asyncio.Semaphore(AT_ONCE), asyncio.Lock()

        async def visit(name):
            async with slots:
                return await page_record(browser, server, name, clipboard)

        names = [FLOOR, *PAGES]
        records = await asyncio.gather(*(visit(name) for name in names), return_exceptions=True)
        await browser.close()
    return dict(zip(names, records))


class Browsing:
    """The visits, run in a thread of their own (conftest.py starts it once the site is built)."""

    thread: threading.Thread | None = None
    outcome: dict | BaseException | None = None


def start_browsing(site: Callable[[], Path]) -> None:
    """Visit every page in the background, as soon as `site()` returns the built site."""

    def work():
        try:
            with serving(site()) as url:
                Browsing.outcome = asyncio.run(browse(url))
        except BaseException as error:  # handed to the tests, which raise it
            Browsing.outcome = error

    Browsing.thread = threading.Thread(target=work, daemon=True, name="browsing")
    Browsing.thread.start()


@pytest.fixture(scope="module")
def browsed(site) -> dict:
    """Every page's record; the page weights also go to screenshots/page-weight.md."""
    if Browsing.thread is None:  # not started early: start now
        start_browsing(lambda: site)
    Browsing.thread.join()
    if isinstance(Browsing.outcome, BaseException):
        raise Browsing.outcome
    records = Browsing.outcome
    weights = {name: seen["bytes"] for name, seen in records.items() if isinstance(seen, dict)}
    if FLOOR in weights:
        floor = weights.pop(FLOOR)
        rows = [f"| {FLOOR} (the floor) | {floor / 1000:.0f} KB | | {FLOOR_BUDGET / 1000:.0f} KB |"]
        rows += [f"| {name} | {size / 1000:.0f} KB | {(size - floor) / 1000:+.0f} KB "
                 f"| {BUDGET['notebook' if name.endswith('.py') else 'markdown'] / 1000:+.0f} KB |"
                 for name, size in weights.items()]
        SHOTS.mkdir(exist_ok=True)
        (SHOTS / "page-weight.md").write_text("| page | first visit | over the floor | budget |\n"
                                              "|---|---|---|---|\n" + "\n".join(rows) + "\n")
    return records


def record(browsed: dict, page_name: str) -> dict:
    """What the visit of a page recorded; if the visit failed, its exception (and traceback)."""
    result = browsed[page_name]
    if isinstance(result, BaseException):
        raise result
    return result


def test_empty_page_within_budget(browsed):
    floor = record(browsed, FLOOR)
    assert floor["blocked"] == [] and floor["failed"] == [] and floor["errors"] == []
    assert floor["bytes"] <= FLOOR_BUDGET, f"{floor['bytes']} bytes on a first visit, over {FLOOR_BUDGET}"


@pytest.mark.parametrize("page_name", PAGES)
def test_page_renders_offline_within_budget(browsed, page_name):
    seen = record(browsed, page_name)
    assert seen["blocked"] == [], "requests to other hosts"
    assert seen["failed"] == [] and seen["errors"] == []
    raw_tex = re.findall(r"\\\(|\\\[|\$\$|\$[^$\s][^$\n]*\$", seen["prose"])
    assert raw_tex == [], f"formulas left as TeX: {raw_tex[:3]}"
    source = (ROOT / "docs" / page_name).read_text(encoding="utf-8")
    if re.search(r"\$[^$\s]", source):
        assert seen["formulas"] > 0 and seen["flat"] == [], "formulas missing or not laid out"
    assert seen["broken"] == []
    own = seen["bytes"] - record(browsed, FLOOR)["bytes"]
    budget = BUDGET["notebook" if page_name.endswith(".py") else "markdown"]
    assert own <= budget, f"{own} bytes over the empty page's, budget {budget}"


@pytest.mark.parametrize("page_name", [FLOOR, *PAGES])
def test_page_meets_wcag_21_aa_in_both_palettes(browsed, page_name):
    assert record(browsed, page_name)["axe"] == {"default": [], "slate": []}


def comparable(text: str) -> str:
    """Chromium names a formula 𝑋 ⊤ where its text is X⊤: compare letters, not their styles."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def test_every_figure_is_named_by_its_caption(browsed):
    figures = 0
    for name in PAGES:
        seen = record(browsed, name)
        expected = [("image", comparable(caption)) for caption in seen["captions"]]
        names = [(role, comparable(text)) for role, text in seen["figure names"]]
        assert names == expected, name
        assert all(seen["captions"]), f"{name}: a figure without a caption"
        figures += len(names)
    assert figures >= 10


def test_figures_follow_the_palette_toggle(browsed):
    """Ink contrasts with the page in both palettes: dark on light, light on dark."""
    pages = 0
    for name in PAGES:
        ink = record(browsed, name)["ink"]
        if ink:
            assert ink["default"][0] < 0.3 < 0.7 < ink["default"][1], name
            assert ink["slate"][1] < 0.3 < 0.7 < ink["slate"][0], name
            pages += 1
    assert pages >= 5


@pytest.mark.parametrize("query, chapter", SEARCHES)
def test_search_finds_the_chapter(browsed, query, chapter):
    assert record(browsed, SEARCHED)["found"][query] >= 1


@pytest.mark.parametrize("page_name", COPIED)
def test_copy_button_copies_exactly_the_source(browsed, page_name):
    copied = record(browsed, page_name)["copied"]
    expected = source_blocks(page_name)
    assert len(copied) == len(expected)
    for i, (got, source) in enumerate(zip(copied, expected)):
        assert got == source, f"block {i + 1}"
