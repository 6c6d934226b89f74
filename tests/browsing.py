"""The browser's visits of the built site, offline: Debian's chromium, driven by playwright.

The browser is chromium's headless shell (Debian's chromium-headless-shell): the same engine
as chromium (Blink, V8, the same fonts through fontconfig) without the desktop browser around
it: what playwright itself runs headless, and a fifth less CPU over these visits.
ATTNLIT_CHROMIUM names another (GitHub's runners: Chrome). Locally the browser tests skip when
the browser is not installed. `.ci/run` installs it and sets ATTNLIT_BROWSER_TESTS=required,
which turns the skip into a failure.

The browser work runs once, several visits at a time from one queue (playwright's async API,
one browser): each page is opened once, and that visit records what it loaded, blocked and
logged, how its formulas and figures came out, and what axe-core finds in the light palette
and, after a click on the palette toggle, in the dark one. On a page with figures readers can
move (widgets), the same visit moves every control, by keyboard and by pointer, and reads what
the widget shows; a second visit, with JavaScript off, checks that the static figure is there
instead. Every page is opened once more on a phone's screen (390 px): its figures are measured
again and its widgets checked, then, every fold open, what is cut or scrolls unseen; turned to
a wide screen, its widgets and its code are checked again. Each widget is also given data its
page never has (served changed): too little, a flat curve, broken data that fails its first
drawing. Journeys of their own: instant navigation, the palette, the timeline, the playground,
the language selector. Every wait is on a condition (a response, an attribute, an element),
never on time. The visits read pages through the probes of tests/probes/ (JavaScript, in every
page of a visit's window: `probe(name)`).

What the pages must be is in tests/browser_expectations.py; the tests that read the visits'
records, a module a topic, are tests/test_browser_*.py (conftest.py starts the visits once
for all of them: `start_browsing`).
"""

import asyncio
import contextlib
import functools
import gzip
import json
import math
import os
import re
import threading
import unicodedata
from html import escape, unescape
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin, urlsplit
from types import SimpleNamespace

import pytest

import i18n
import tangle
import thai_words
from browser_expectations import (
    ALTERED, BROKEN, CAT, COPIED, FLOOR, FLOORS, FLOOR_BUDGET, INSTANT, LANGUAGES, LIVE, PAGES,
    PALETTE_PAGES, PALETTE_SHOWN, PREVIOUS_BYTE_HEADS, SEARCHED_ON, SELECTED, TEXT_LIVE, THAI, TIMELINE, TRANSLATED, TYPED,
    VIETNAMESE, WIDGET_DATA_BUDGET, budget_of, floor_of, language_of, search_budget_of, states,
)


ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("ATTNLIT_CHROMIUM", "/usr/bin/chromium-headless-shell"))
SHOTS = ROOT / "screenshots"  # kept by CI as an artifact, ignored by git
AXE = ROOT / "tests" / "assets" / "axe.min.js"  # axe-core, pinned: tests/assets/README.md
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
              "resultTypes": ["violations"]}
# Budgets count the bytes a host sends: text gzip-compressed, at zlib's default level 6, which is
# also Varnish's default `gzip_level` (GitHub Pages serves through Fastly, which runs Varnish);
# level 1 would send 15-20% more, level 9 under 1% less. Images and fonts go as they are.
GZIP_LEVEL = 6
COMPRESSED = re.compile(r"^text/|javascript|json|xml")  # HTML, CSS, JS, JSON, SVG

# Search: the theme's search worker and the index it fetches after the page has loaded.
INDEX = "/search/search_index.json"
# Material's search worker, which the site's runs (docs/assets/javascripts/workers/).
MATERIAL_WORKER = re.search(r'const MATERIAL = "([^"]+)"', (ROOT / "docs" / "assets" / "javascripts" / "workers"
                                                          / "attnlit-search.js").read_text(encoding="utf-8"))[1]
# The index, and every script the search worker loads: Material's, ours, lunr's languages.
SEARCH_FILES = re.compile(rf"{re.escape(INDEX)}$|/assets/javascripts/(workers|lunr)/")

# What a page's widgets fetch when they come near the screen (data too heavy for the page, a
# file beside it named by its content: tools/figures.py): counted apart from the first visit,
# with a budget of its own.
FETCHED_DATA = re.compile(r"^/(.+/)?[0-9a-f]{12}\.json$")

ANNOTATION = re.compile(r"# \(\d+\)!$", re.MULTILINE)  # Material copies the code without it
# Pages open at the same time: the visits are CPU-bound and independent, and two per core keep
# every core busy while a visit waits on the browser (16 at most: each holds a renderer).
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
AT_ONCE = min(2 * CORES, 16)


try:
    from playwright.async_api import TimeoutError as PlaywrightTimeout, async_playwright
except ImportError:  # pragma: no cover - playwright is in requirements.txt
    async_playwright = PlaywrightTimeout = None
missing = "pip's playwright" if async_playwright is None else None
if not CHROMIUM.exists():
    missing = f"a browser at {CHROMIUM} (apt-get install chromium-headless-shell, or set ATTNLIT_CHROMIUM)"
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


def sent(body: bytes, content_type: str) -> int:
    """The bytes a host sends for a file: text gzip-compressed, anything else as it is."""
    return len(gzip.compress(body, GZIP_LEVEL, mtime=0)) if COMPRESSED.search(content_type) else len(body)


def fetched(seen: dict) -> int:
    """Bytes sent for the data a page's widgets fetched as they came near the screen."""
    return sum(sent for _, sent in seen["fetched"].values())


def weight(seen: dict, search: bool = False, stored: bool = False) -> int:
    """Bytes a visit loaded, as sent (or as stored): the page's, or (search=True) search's."""
    return sum(size[0 if stored else 1] for path, size in seen["sizes"].items()
               if bool(SEARCH_FILES.search(path)) == search)


# The JavaScript that reads pages for the tests, in tests/probes/: each file adds functions to
# `attnlitProbes`, in every page of a context made by new_context (node tests their geometry:
# tests/test_probes.py).
PROBES = ROOT / "tests" / "probes"
PROBE_SCRIPT = "\n".join(path.read_text(encoding="utf-8") for path in sorted(PROBES.glob("*.js"))
                         if not path.name.endswith(".test.js"))


def probe(name: str) -> str:
    """A function for page.evaluate and its kin: the probe `name` of tests/probes/, called with
    their argument (a locator's element first)."""
    return f"(...args) => attnlitProbes.{name}(...args)"


async def new_context(browser, **options):
    """A fresh context (a window of its own) with the probes in each of its pages."""
    context = await browser.new_context(**options)
    # Waits are on conditions; this only bounds them, generously: the pages share 2 cores.
    context.set_default_timeout(120_000)
    await context.add_init_script(PROBE_SCRIPT)
    return context


class Visit:
    """One first visit to a page in a fresh context: what it loaded, blocked and logged."""

    async def open(self, browser, url: str):
        self.context = await new_context(browser, viewport={"width": 1280, "height": 900})
        self.page = await self.context.new_page()
        self.blocked, self.failed, self.errors, responses = [], [], [], []
        await self.context.route(re.compile(r".*"), self.route)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.on("response", lambda response: responses.append(response))
        self.responses = responses
        # After the load event, the search worker loads its script and then fetches the index.
        # Wait for both responses: the worker's events reach playwright on a channel of their
        # own, often after the index's, and a sum taken before them missed 40 KB now and then.
        async with (self.page.expect_response(lambda r: r.url.endswith("/search_index.json")),
                    self.page.expect_response(lambda r: "/workers/search." in r.url)):
            await self.page.goto(url)
        # The favicon is fetched whenever the browser gets to it: not part of the page.
        # So are the widgets' data, which they fetch when they come near the screen: apart.
        self.sizes = await self.measure(lambda path: "/favicon." not in path
                                        and not FETCHED_DATA.search(path))
        return self

    async def measure(self, which) -> dict:
        """URL path: (bytes stored, bytes a host sends), of the responses so far whose path `which` picks."""
        sizes = {}
        for response in list(self.responses):
            path = urlsplit(response.url).path
            if which(path):
                body = await response.body()
                sizes[path] = (len(body), sent(body, response.headers["content-type"]))
        return sizes

    async def route(self, route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            await route.continue_()
        else:
            self.blocked.append(url)
            await route.abort()

    async def close(self):
        await self.context.close()


# The palette script (overrides/partials/javascripts/palette.html) sets the new palette, then
# removes this attribute (which holds transitions at 0 s).
SWITCHED = """scheme => document.body.getAttribute("data-md-color-scheme") === scheme
    && !document.body.hasAttribute("data-md-color-switching")
    && !document.getAnimations().some(a => a instanceof CSSTransition && a.playState === "running")"""
PALETTE_TOGGLE = "form.md-header__option label:visible"


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


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two computed colours ("rgb(r, g, b)")."""
    def relative(css_color: str) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                  for c in (int(v) / 255 for v in re.findall(r"\d+", css_color)[:3])]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    dark, light = sorted([relative(one), relative(other)])
    return (light + 0.05) / (dark + 0.05)


# The terms Material found the results for: each result's link names those it matched
# (search.highlight puts them in `h=`), after the site's search worker made the query meet the
# index (docs/assets/javascripts/workers/attnlit-search.js: a Thai run as its words).
FOUND_FOR = """() => [...new Set([...document.querySelectorAll(".md-search-result__link")]
    .flatMap(link => (new URL(link.href).searchParams.get("h") ?? "").split(" ").filter(Boolean)))].sort()"""
# How many pages Material says it found (it shows the first ten; "1 matching document" has no
# number in some languages).
FOUND = """() => { const said = document.querySelector(".md-search-result__meta").textContent;
    const items = document.querySelectorAll(".md-search-result__item").length;
    return +(said.match(/\\d+/)?.[0] ?? (items ? 1 : 0)); }"""
# Material's answer to a query: its results, or its line saying there are none.
ANSWERED = """none => document.querySelector(".md-search-result__item") !== null
    || document.querySelector(".md-search-result__meta").textContent.trim() === none"""


async def emptied_search_box(page):
    """The search box, emptied by key (so that Material clears its results) and focused."""
    box = page.locator(".md-search__input")
    await box.click()
    await box.press("Control+a")
    await box.press("Backspace")
    await page.locator(".md-search-result__item").first.wait_for(state="detached")
    return box


async def search(page, query: str) -> dict:
    """Material's results for query entered both ways: as text without key events (pasted,
    from an input method: one change of the box, CDP's Input.insertText), then typed a key
    press a letter, as a Thai or Vietnamese keyboard presses them (the last key's results are
    those found for the same terms as the inserted text's)."""
    none = await page.evaluate("JSON.parse(document.getElementById('__config').textContent)"
                               ".translations['search.result.none']")
    await emptied_search_box(page)
    await page.keyboard.insert_text(query)  # no key comes up: only the box's input event
    await page.wait_for_function(ANSWERED, arg=none)
    inserted, terms = await page.evaluate(probe("results")), await page.evaluate(FOUND_FOR)
    await emptied_search_box(page)
    cdp = await page.context.new_cdp_session(page)
    for key in query:
        await cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "text": key, "unmodifiedText": key})
        await cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key})
    await cdp.detach()
    if terms:  # the last key's answer: earlier keys found shorter terms
        await page.wait_for_function(f"terms => ({FOUND_FOR})().join(' ') === terms.join(' ')", arg=terms)
    else:
        await page.wait_for_function(ANSWERED, arg=none)
    return {"inserted": inserted, "typed": await page.evaluate(probe("results")), "terms": terms,
            "count": await page.evaluate(FOUND)}


async def heading_fonts(visit) -> list[str]:
    """The fonts chromium draws the page's first paragraph with (a font per script it holds):
    a title may be all Latin letters ("7. Multi-head attention"), a paragraph is not."""
    cdp = await visit.context.new_cdp_session(visit.page)
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    root = (await cdp.send("DOM.getDocument", {"depth": 0}))["root"]["nodeId"]
    node = (await cdp.send("DOM.querySelector", {"nodeId": root, "selector": "article h1 ~ p"}))["nodeId"]
    fonts = (await cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node}))["fonts"]
    await cdp.detach()
    return [font["familyName"] for font in fonts]


CHANGED = "([figure, status]) => figure.querySelector('.attnlit-status').textContent !== status"
FOCUS_RING = """() => { const style = getComputedStyle(document.activeElement);
    return [style.outlineStyle, parseFloat(style.outlineWidth)]; }"""
# Material's header stays on top while the page scrolls: out of a widget's screenshots. (Not
# with add_style_tag, which never returns when JavaScript is off.)
NO_HEADER = """() => { const style = document.createElement("style");
    style.textContent = ".md-header { visibility: hidden !important; }";
    document.head.append(style); return style; }"""


async def move_controls(page, figure) -> list[dict]:
    """Move each control of a widget by keyboard, then by pointer: the widget before and after."""
    moves, handle = [], await figure.element_handle()
    for control in await figure.locator(".attnlit-controls input[type=range], "
                                        ".attnlit-controls fieldset").all():
        slider = await control.evaluate("e => e.matches('input')")
        label = await control.evaluate("e => (e.labels?.[0] ?? e.querySelector('legend')).textContent")
        for how in ("keyboard", "pointer"):
            before, ring = await figure.evaluate(probe("widget")), None
            if how == "keyboard":
                await (control if slider else control.locator("input:checked")).focus()
                last = await control.evaluate("e => e.matches('input') && e.value === e.max")
                await page.keyboard.press("ArrowLeft" if last else "ArrowRight")
                ring = await page.evaluate(FOCUS_RING)
            elif slider:  # a click a quarter of the way along the track
                box = await control.bounding_box()
                await page.mouse.click(box["x"] + box["width"] / 4, box["y"] + box["height"] / 2)
            else:
                await control.locator("label:not(:has(input:checked))").last.click()
            await page.wait_for_function(CHANGED, arg=[handle, before["status"]])
            moves.append({"control": label, "how": how, "before": before,
                          "after": await figure.evaluate(probe("widget")), "focus ring": ring})
    return moves


async def shoot(page, element, path: Path) -> None:
    """A screenshot of the element whole, the site's header hidden (fixed at the top, it would
    cover the element's top). One taller than the screen is shot on a screen made taller for
    it: playwright's own way (the page captured beyond the screen) took 18 s for chapter 10's
    heads (1,013 px on a 900 px screen), and 0.2 s so."""
    screen, box = page.viewport_size, await element.bounding_box()
    style = await page.evaluate_handle(NO_HEADER)
    if box and box["height"] > screen["height"]:
        await page.set_viewport_size({**screen, "height": math.ceil(box["height"]) + 100})
    try:
        await element.screenshot(path=path)
    finally:
        if page.viewport_size != screen:
            await page.set_viewport_size(screen)
        await style.evaluate("style => style.remove()")


async def shoot_widgets(page, figures: list, name: str, when: str, scheme: str) -> None:
    for i, figure in enumerate(figures):
        await shoot(page, figure, SHOTS / f"widget-{name}-{i}-{scheme}-{when}.png")


async def widget_records(visit, figures: list, name: str, scheme: str, records: list) -> None:
    """The widgets' part of a visit, in the palette `scheme`: first light, then dark.

    Light: the widgets as they start, then every control moved. Dark: as they were left, and
    back as they started; then in each state of WIDGETS, for the tests to compare. A translated
    page's controls are not moved: its widgets' data and scripts are its English page's, its
    words aside (tests/test_site.py proves it), so they move as the English ones do; what its
    words can change (their fit, the numbers shown in each state, the names) is checked here.
    """
    page, moved = visit.page, visit.name not in TRANSLATED
    if scheme == "default":
        for figure in figures:
            kind = await figure.get_attribute("data-widget")  # one widget of a kind per page
            records.append({"kind": kind, "start": await figure.evaluate(probe("widget")),
                            "names": await accessible_names(visit, f"[data-widget={kind}] .attnlit-controls input"),
                            "status": await accessible_names(visit, f"[data-widget={kind}] .attnlit-status")})
        await shoot_widgets(page, figures, name, "before", scheme)
        for figure, record in zip(figures, records):
            record["moves"] = await move_controls(page, figure) if moved else []
        if moved:
            await shoot_widgets(page, figures, name, "after", scheme)
        return
    if moved:
        await shoot_widgets(page, figures, name, "after", scheme)
    for figure, record in zip(figures, records):
        await page.evaluate(probe("setState"), [await figure.element_handle(), record["start"]["state"]])
        record["back"] = await figure.evaluate(probe("widget"))
    await shoot_widgets(page, figures, name, "before", scheme)
    widgets = states(visit.name)
    for figure, record in zip(figures, records):
        handle = await figure.element_handle()
        record["shown"] = [await page.evaluate(probe("setState"), [handle, {**record["start"]["state"], **shown.state}])
                           for shown in widgets.get(record["kind"], widgets.get(None, []))]


async def static_record(browser, server: str, page_name: str) -> dict:
    """A page with widgets, JavaScript off: its figures as drawn at build time, named."""
    context = await browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        visit = SimpleNamespace(context=context, page=page)
        await page.goto(server + url_path(page_name))
        figures = page.locator("figure[data-widget]")
        record = {"widgets": await figures.count(),
                  "controls": await page.locator(".attnlit-controls").count(),
                  "heights": [(await figure.locator("svg").bounding_box() or {"height": 0})["height"]
                              for figure in await figures.all()],
                  "names": await accessible_names(visit, "figure[data-widget] > svg"),
                  "captions": [await figure.locator("figcaption").text_content() for figure in await figures.all()]}
        for i, figure in enumerate(await figures.all()):
            await shoot(page, figure, SHOTS / f"widget-{shot_name(page_name)}-{i}-no-javascript.png")
        return record
    finally:
        await context.close()


WIDGET_DATA = re.compile(r'(<div class="attnlit-data" hidden>)(.*?)(</div>)', re.DOTALL)


async def altered_record(browser, server: str, page_name: str, kind: str | None,
                         change: Callable[[dict], dict]) -> dict:
    """A page whose widget of `kind` (None: its only one) gets `change`d data: what the widget
    shows, or that the page is as served, and what the page logged as errors."""
    context = await new_context(browser, viewport={"width": 1280, "height": 900})
    selector = "figure[data-widget]" if kind is None else f'figure[data-widget="{kind}"]'

    def ours(found) -> bool:
        return kind is None or json.loads(unescape(found[2]))["kind"] == kind

    async def fetched(route):  # the widget's data that is a file of the site
        response = await route.fetch()
        await route.fulfill(response=response, json=change(await response.json()))

    async def altered(route):
        response = await route.fetch()
        body = await response.text()
        (data,) = [json.loads(unescape(found[2])) for found in WIDGET_DATA.finditer(body) if ours(found)]
        if "fetched" in data:
            await context.route(urljoin(route.request.url, data["fetched"]), fetched)
            return await route.fulfill(response=response, body=body)
        changed = escape(json.dumps(change(data)), quote=False)
        await route.fulfill(response=response, body=WIDGET_DATA.sub(
            lambda found: found[1] + changed + found[3] if ours(found) else found[0], body))

    try:
        await context.route(server + url_path(page_name), altered)
        await context.add_init_script("attnlitProbes.watchConsoleErrors()")
        page, errors = await context.new_page(), []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(server + url_path(page_name))
        figure = page.locator(selector)
        await figure.scroll_into_view_if_needed()
        # Set up, or failed and said so.
        await page.wait_for_function("selector => document.querySelector(selector + '.attnlit-live') "
                                     "|| attnlitConsoleErrors.length", arg=selector)
        live = await page.locator(selector + ".attnlit-live").count()
        return {"errors": [*errors, *await page.evaluate("attnlitConsoleErrors")],
                "widget": await figure.evaluate(probe("widget")) if live else None,
                "as served": await page.evaluate(probe("asServed"), selector)}
    finally:
        await context.close()


# On a phone, how large a widget draws (its width on screen over its drawing's width), and
# whether anything makes the page wider than the screen.
PHONE = """() => [...document.querySelectorAll("figure.attnlit-live > svg.attnlit-drawing")]
    .map(svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)
    .concat(document.documentElement.scrollWidth - document.documentElement.clientWidth)"""


# Each −∞ of the page's formulas: the gap between the minus and the ∞, in px.
MINUS_INFINITY = """() => [...document.querySelectorAll("article math mo")]
    .filter(minus => minus.textContent === "\u2212" && minus.nextElementSibling?.textContent === "\u221e")
    .map(minus => minus.nextElementSibling.getBoundingClientRect().left - minus.getBoundingClientRect().right)"""


async def phone_record(browser, server: str, page_name: str) -> dict:
    """A page on a phone's screen (390 px), then turned to a wide one (1280 px).

    As it opens: its figures measured and its widgets' panels stacked ("phone"). Then every
    fold open and every tab shown: what is cut or scrolls unseen, and code broken inside a
    name, at 390 px and at 1280 px; how a widget redraws when turned, and where its sliders'
    values sit ("narrow").
    """
    context = await new_context(browser, viewport={"width": 390, "height": 844})
    try:
        page, errors = await context.new_page(), []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(server + url_path(page_name))
        figures = await page.locator("figure[data-widget]").all()
        for figure in figures:
            await figure.scroll_into_view_if_needed()
            await figure.locator(".attnlit-numbers").wait_for()
        *scales, overflow = await page.evaluate(PHONE)
        phone = {"scales": scales, "overflow": overflow, "widgets": len(figures), "targets": await page.evaluate(probe("targets")),
                 "tables": await page.evaluate(probe("tables")),
                 "figures": await page.evaluate(probe("figures")),
                 "clipped": [await figure.evaluate("figure => attnlitProbes.clipped(figure.querySelector('svg.attnlit-drawing'))")
                             for figure in figures]}
        for i, figure in enumerate(figures):
            await shoot(page, figure, SHOTS / f"widget-{shot_name(page_name)}-{i}-phone.png")
        await page.evaluate(probe("openEverything"))
        await page.wait_for_function(probe("mounted"), polling="raf")  # Material's code blocks, focusable
        narrow = {**await page.evaluate(probe("narrow")), "broken": await page.evaluate(probe("brokenCode")),
                  "minus infinity": await page.evaluate(MINUS_INFINITY)}
        if language_of(page_name) == "th":
            narrow["thai breaks"] = {390: await page.evaluate(probe("thaiBreaks"))}
        # Turned to a wide screen, a widget lays its panels out again as a wide screen has them
        # (resize events are handled before the frame after next is drawn).
        await page.set_viewport_size({"width": 1280, "height": 900})
        await page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        phone["widened"] = [await figure.evaluate("f => f.querySelector('svg.attnlit-drawing').innerHTML")
                            for figure in figures]
        narrow["broken wide"] = await page.evaluate(probe("brokenCode"))
        if language_of(page_name) == "th":
            narrow["thai breaks"][1280] = await page.evaluate(probe("thaiBreaks"))
        if page_name not in TRANSLATED:  # a translation's sliders: its English page's data and script
            narrow["slider places"] = await page.evaluate(probe("sliderPlaces"))
        phone["errors"] = errors
        return {"phone": phone, "narrow": narrow}
    finally:
        await context.close()


async def instant_record(browser, server: str) -> list[dict]:
    """From a page without widgets to three with one, with Material's instant navigation on.

    The site does not use the feature, but widgets must work with it: Material then brings
    each page in without reloading, loads the scripts it finds in its content (the widgets'
    the first time, again the second), and tells document$. The visit switches the feature on
    in each page's config, and points the sitemap (which tells the feature which links are the
    site's) at the test server. Material inserts a page's scripts all at once, and they run as
    they arrive: during the hops, the visit holds the shared script back until the kind's
    has run, the order that once made a widget fail now and then. Each widget page: where it
    is, its errors so far, how many widgets were set up, with how many sets of controls, and
    how many listeners the window's resize event has (watchResizeListeners), as on the first page.
    """
    context = await new_context(browser, viewport={"width": 1280, "height": 900})

    async def switch_on(route):
        response = await route.fetch()
        body = await response.text()
        if route.request.url.endswith("/sitemap.xml"):
            body = body.replace(min(re.findall(r"<loc>(.*?)</loc>", body), key=len), server)
        else:
            body = body.replace('"features": [', '"features": ["navigation.instant", ', 1)
        await route.fulfill(response=response, body=body)

    hop = {}

    async def shared_script_last(route):
        if hop:  # this hop's kind first
            await page.wait_for_function("kind => window.attnlitKinds?.[kind]", arg=hop["kind"])
        await route.continue_()

    try:
        await context.route(lambda url: url.endswith(("/", ".html", "/sitemap.xml")), switch_on)
        await context.route(lambda url: url.endswith("/javascripts/widgets.js"), shared_script_last)
        await context.add_init_script("attnlitProbes.watchResizeListeners()")
        page, errors, seen = await context.new_page(), [], []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(server + url_path(INSTANT[0]))
        await page.evaluate("window.attnlitVisit = 'still the first document'")
        first = await page.evaluate("attnlitResizeListeners()")
        for name, kind in INSTANT[1:]:
            hop["kind"] = kind
            await page.wait_for_function(probe("clickNext"), polling="raf")
            await page.locator(f"figure[data-widget={kind}]").scroll_into_view_if_needed()
            await page.wait_for_function(f"document.querySelector('figure[data-widget={kind}].attnlit-live')")
            seen.append({"path": await page.evaluate("location.pathname"), "errors": [*errors],
                         "document": await page.evaluate("window.attnlitVisit"),
                         "live": await page.locator(f"figure[data-widget={kind}].attnlit-live").count(),
                         "controls": await page.locator(".attnlit-controls").count(),
                         "resize listeners": await page.evaluate("attnlitResizeListeners()"),
                         "on the first page": first})
        return seen
    finally:
        await context.unroute_all(behavior="ignoreErrors")  # a script held back, if it failed
        await context.close()


async def palette_record(browser, server: str) -> dict:
    """What the palette is, and what changed it, at each step (PALETTE_PAGES)."""
    seen = {}
    for system in ("dark", "light"):
        context = await new_context(browser, color_scheme=system)
        try:
            page = await context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await context.add_init_script("attnlitProbes.watchPaletteChanges()")
            await page.goto(server + url_path(PALETTE_PAGES[0]))
            seen[system] = await page.evaluate(probe("palette"))
            if system == "light":
                # The option whose toggle shows, the checked one: where Tab stops in the form.
                await page.locator(".md-header__option > .md-option:has(+ label:not([hidden]))").focus()
                await page.keyboard.press("Enter")
                await page.wait_for_function(SWITCHED, arg="slate")
                seen["enter"] = await page.evaluate(probe("palette"))
                await page.goto(server + url_path(PALETTE_PAGES[1]))
                seen["next page"] = await page.evaluate(probe("palette"))
                seen["transitions"] = await page.evaluate(probe("switchAndCount"))
                seen["clicked"] = await page.evaluate(probe("palette"))
            seen[f"{system} errors"] = errors
        finally:
            await context.close()
    return seen


# A palette Material allows and this site does not use: an option that follows the system
# ("(prefers-color-scheme)"), last in the form and without a toggle of its own.
SYSTEM_OPTION = ('<input class="md-option" data-md-color-media="(prefers-color-scheme)" '
                 'data-md-color-scheme="default" data-md-color-primary="indigo" '
                 'data-md-color-accent="indigo" aria-hidden="true" type="radio" name="__palette" '
                 'id="__palette_system">')


async def palette_system_record(browser, server: str) -> dict:
    """A page whose palette form has SYSTEM_OPTION, chosen by an earlier visit, in a dark
    system: what the palette is, and the errors."""
    context = await new_context(browser, color_scheme="dark")

    async def with_system_option(route):
        response = await route.fetch()
        body = (await response.text()).replace("</form>", SYSTEM_OPTION + "</form>", 1)
        await route.fulfill(response=response, body=body)

    try:
        await context.route(lambda url: url.endswith("/"), with_system_option)
        # Where Material keeps it (__md_scope is the site's root): the third option, chosen.
        await context.add_init_script("localStorage.setItem('/.__palette', JSON.stringify({index: 2}))")
        page, errors = await context.new_page(), []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(server + url_path(PALETTE_PAGES[0]))
        seen = await page.evaluate(probe("palette"))
        return {"scheme": seen["scheme"], "toggles": seen["toggles"], "errors": errors,
                "media": await page.evaluate("document.body.dataset.mdColorMedia")}
    finally:
        await context.close()


STEPS_SEEN = "n => window.attnlitSteps.length >= n"
STOPPED = "figure => !figure.querySelector('.attnlit-status').hasAttribute('aria-busy')"


async def timeline_record(browser, server: str) -> dict:
    """Chapter 10's training run: each moment pressed, played from step 1100 to its end, played
    again from its end and paused; with reduced motion, pressed twice; on a phone, where its
    heads are while the slider moves."""
    seen, errors = {}, []
    for case, options in (("wide", {}), ("reduced", {"reduced_motion": "reduce"}),
                          ("phone", {"viewport": {"width": 390, "height": 844}})):
        context = await new_context(browser, **{"viewport": {"width": 1280, "height": 900}, **options})
        try:
            page = await context.new_page()
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(server + url_path(TIMELINE))
            figure = page.locator('figure[data-widget="training"]')
            await figure.scroll_into_view_if_needed()
            await figure.locator(".attnlit-numbers").wait_for()
            handle, play = await figure.element_handle(), figure.locator(".attnlit-play")
            if case == "phone":
                seen["phone"] = [await figure.evaluate(probe("headsInView"))]
                await figure.locator("input[type=range]").focus()
                for _ in range(3):
                    await page.keyboard.press("ArrowRight")
                seen["phone"].append(await figure.evaluate(probe("headsInView")))
                continue
            await play.focus()
            if case == "reduced":
                before = await figure.evaluate(probe("timelineState"))
                seen["reduced"] = [before]
                for _ in range(2):
                    await page.keyboard.press("Enter")
                    seen["reduced"].append(await figure.evaluate(probe("timelineState")))
                continue
            seen["start"] = await figure.evaluate(probe("timelineState"))
            seen["names"] = await accessible_names(SimpleNamespace(context=context, page=page),
                                                   '[data-widget="training"] .attnlit-controls button')
            seen["pressed"] = []
            for button in await figure.locator(".attnlit-marks button").all():
                await button.focus()
                await page.keyboard.press("Enter")
                seen["pressed"].append(await figure.evaluate(probe("widget")))
            await page.evaluate(probe("setState"), [handle, {"step": "1100"}])
            await figure.evaluate(probe("watchSteps"))
            await play.focus()
            await page.keyboard.press("Enter")
            await page.wait_for_function(STOPPED, arg=handle)
            steps = await page.evaluate("attnlitSteps.splice(0)")
            seen["playing"] = steps[0]  # as the first step after the press was shown
            seen["played"] = {**await figure.evaluate(probe("timelineState")), "steps": [step["step"] for step in steps],
                              "numbers": await figure.evaluate("f => f.querySelector('.attnlit-numbers').textContent")}
            await page.keyboard.press("Enter")  # at the end: from the first again
            await page.wait_for_function(STEPS_SEEN, arg=1)
            seen["again"] = (await page.evaluate("attnlitSteps"))[0]
            await page.keyboard.press("Enter")  # and paused
            seen["paused"] = await figure.evaluate(probe("timelineState"))
        finally:
            await context.close()
    seen["errors"] = errors
    return seen


async def typed_and_measured(page, box, text: str) -> list[dict]:
    """The playground's layout after each key of `text`, typed into its text box."""
    handle, field, layouts = await box.element_handle(), box.get_by_role("textbox"), []
    for key in text:
        before = await box.evaluate(probe("playground"))
        await field.press_sequentially(key)
        await page.wait_for_function(STATUS_CHANGED, arg=[handle, before["status"]])
        layouts.append(await box.evaluate(probe("playgroundLayout")))
    return layouts
STATUS_CHANGED = "([box, status]) => box.querySelector('.attnlit-status').textContent !== status"


async def started_playground(context, server: str, requested: list, errors: list, name: str = LIVE):
    """Page 10c (in English, or `name`), its playground started by keyboard (Enter on the
    button) and ready."""
    page = await context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    await page.goto(server + url_path(name))
    box = page.locator(".attnlit-playground")
    await box.locator("button").focus()  # the script has replaced the static text
    before = [*requested]
    async with page.expect_response(lambda r: r.url.endswith(".bin")) as weights:
        await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('.attnlit-playground').dataset.state === 'ready'")
    return page, box, before, len(await (await weights.value).body())


async def audited(page, box, name: str) -> dict:
    """A playground as it is, in the light palette, then the dark: shot (screenshots/<name>-<scheme>.png)
    and audited by axe, the page's code blocks mounted (focusable) as readers get them."""
    await page.wait_for_function(probe("mounted"), polling="raf")
    found = {}
    for scheme in ("default", "slate"):
        if scheme == "slate":
            await switch_palette(page, scheme)
        await box.scroll_into_view_if_needed()
        await shoot(page, box, SHOTS / f"{name}-{scheme}.png")
        found[scheme] = await axe(page)
    return found


async def live_record(browser, server: str) -> dict:
    """Page 10c's playground: started, compared with PyTorch, timed, moved by keyboard and by
    pointer, audited in both palettes, on a phone, and the page with JavaScript off."""
    seen, requested, errors = {}, [], []
    context = await new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        page, box, seen["before start"], seen["weights bytes"] = await started_playground(
            context, server, requested, errors)
        seen["focused"] = await page.evaluate("document.activeElement.id")
        seen["start"] = await box.evaluate(probe("playground"))
        seen["fetched"] = [path for path in requested if path.startswith("/talk-to-the-model/")
                           and not path.endswith("/")]
        seen["compared"] = await page.evaluate(probe("compare"), "reference.json")
        seen["forward ms"] = await page.evaluate(probe("timeForward"))
        SHOTS.mkdir(exist_ok=True)  # for the record: what this machine took
        (SHOTS / "playground-timing.md").write_text(
            "A forward pass of page 10c's playground over 32 tokens, in Chromium, 101 times: "
            "fastest {fastest:.1f} ms, median {median:.1f} ms.\n".format(**seen["forward ms"]))
        visit = SimpleNamespace(context=context, page=page)
        seen["names"] = await accessible_names(visit, ".attnlit-playground input, .attnlit-playground button")
        seen["status"] = await accessible_names(visit, ".attnlit-playground .attnlit-status")
        handle, rings = await box.element_handle(), {}

        async def after(action, control=None) -> dict:
            """The playground once an action has changed what it says."""
            before = await box.evaluate(probe("playground"))
            if control is not None:  # by keyboard: focused, then a key
                await control.focus()
                await page.keyboard.press(action)
                rings[await control.evaluate("e => e.getAttribute('role') ?? e.type")] = await page.evaluate(FOCUS_RING)
            else:
                await action()
            await page.wait_for_function(STATUS_CHANGED, arg=[handle, before["status"]])
            return await box.evaluate(probe("playground"))

        switches, slider = box.locator("input[role=switch]"), box.locator("input[type=range]")
        presets = {name: box.get_by_role("button", name=name) for name in ("a repeated phrase", "random tokens", "no repeat")}
        await after("Space", switches.nth(2))
        seen["induction off"] = await after("Space", switches.nth(3))
        seen["position 0"] = await after("Home", slider)
        seen["1.0 on again"] = await after(lambda: box.locator("fieldset label").nth(2).click())
        seen["token 5 clicked"] = await after(lambda: box.locator(".attnlit-token").nth(5).click())
        seen["random tokens"] = await after("Enter", presets["random tokens"])
        seen["no repeat"] = await after("Enter", presets["no repeat"])
        text = box.get_by_role("textbox", name="Your text")
        seen["typed"] = await after(lambda: text.press_sequentially("Hé!"))  # empty after a preset
        seen["typed long"] = await after(lambda: text.press_sequentially("0123456789" * 4 + "Hé!"))
        # Text in other scripts, as an input method sends it (no key events): shown as text.
        seen["vietnamese"] = await after(lambda: text.fill(VIETNAMESE))
        await text.fill("")
        await text.focus()
        seen["thai"] = await after(lambda: page.keyboard.insert_text(THAI))
        seen["rings"] = rings
        # Issue 34: every panel follows the chosen position; the buttons beside the slider move
        # it one position a press; rings where the induction heads look; nothing moves.
        await after(lambda: box.locator("fieldset label").nth(3).click())  # 1.1 on: all on
        seen["phrase end"] = await after(lambda: presets["a repeated phrase"].click())
        seen["phrase 12"] = await after(lambda: box.locator(".attnlit-token").nth(12).click())
        seen["previous"] = await after("Enter", box.get_by_role("button", name="previous position"))
        seen["next"] = await after(lambda: box.get_by_role("button", name="next position").click())
        await text.fill("")
        seen["layout"] = {"wide": await typed_and_measured(page, box, CAT)}
        seen["cat"] = await box.evaluate(probe("playground"))
        seen["cat space"] = await after(lambda: text.press_sequentially(" "))
        await shoot(page, box, SHOTS / "playground-cat.png")
        await after(lambda: box.locator("fieldset label").nth(3).click())  # 1.1 off, as before
        # What the screenshots and the audit see: the phrase, the induction heads off.
        await after(lambda: presets["a repeated phrase"].click())
        seen["shown"] = await after(lambda: switches.nth(2).click())
        seen["axe"] = await audited(page, box, "playground-heads-off")
    finally:
        await context.close()
    phone = await new_context(browser, viewport={"width": 390, "height": 844})
    try:
        page, box, *_ = await started_playground(phone, server, [], errors)
        await box.get_by_role("textbox", name="Your text").fill("")
        seen["layout"]["phone"] = await typed_and_measured(page, box, "Bright sky. Bright sky. Bright sky. Br")
        await box.locator("fieldset label").nth(2).click()
        await page.wait_for_function("box => box.querySelector('.attnlit-status').textContent.includes('Heads off: 1.0')",
                                     arg=await box.element_handle())
        seen["phone"] = await box.evaluate(probe("playgroundFits"))
        await shoot(page, box, SHOTS / "playground-phone.png")
    finally:
        await phone.close()
    off = await browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = await off.new_page()
        await page.goto(server + url_path(LIVE))
        box = page.locator(".attnlit-playground")
        seen["no javascript"] = {"text": await box.text_content(), "buttons": await box.locator("button").count()}
        await shoot(page, box, SHOTS / "playground-no-javascript.png")
    finally:
        await off.close()
    seen["errors"] = errors
    return seen


async def text_live_record(browser, server: str) -> dict:
    """Page 13b's playground (the model of plays): started, compared with PyTorch, timed, moved
    by keyboard and by pointer, made to write, audited in both palettes, and on a phone."""
    seen, requested, errors = {}, [], []
    context = await new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        page, box, seen["before start"], seen["weights bytes"] = await started_playground(
            context, server, requested, errors, TEXT_LIVE)
        seen["focused"] = await page.evaluate("document.activeElement.tagName")
        seen["start"] = await box.evaluate(probe("textPlayground"))
        folder = "/" + url_path(TEXT_LIVE)
        seen["fetched"] = [path for path in requested if path.startswith(folder) and path != folder]
        seen["compared"] = await page.evaluate(probe("compareText"), "reference.json")
        seen["ms"] = await page.evaluate(probe("timeText"))
        SHOTS.mkdir(exist_ok=True)  # for the record: what this machine took
        (SHOTS / "text-playground-timing.md").write_text(
            "Page 13b's model in Chromium, medians of 11: a forward pass over 256 bytes {forward:.1f} ms; "
            "a byte written with the caches {byte:.2f} ms.\n".format(**seen["ms"]))
        visit = SimpleNamespace(context=context, page=page)
        seen["names"] = await accessible_names(
            visit, ".attnlit-playground :is(input, textarea, select, button)")
        handle = await box.element_handle()

        async def after(action, control=None) -> dict:
            """The playground once an action has changed what it says."""
            before = await box.evaluate(probe("textPlayground"))
            if control is not None:  # by keyboard: focused, then a key
                await control.focus()
                await page.keyboard.press(action)
            else:
                await action()
            await page.wait_for_function(STATUS_CHANGED, arg=[handle, before["status"]])
            return await box.evaluate(probe("textPlayground"))

        write = box.get_by_role("button", name="Write 128 bytes")
        fields = {name: box.get_by_role("spinbutton", name=name) for name in ("Temperature (0: greedy)", "Top k", "Seed")}
        text = box.get_by_role("textbox", name="Your text")
        seen["written"] = await after("Enter", write)
        await after(lambda: box.get_by_role("button", name="Hamlet's line").click())
        seen["written again"] = await after("Enter", write)  # the same seed: the same bytes
        await fields["Seed"].fill("1")
        seen["seed 1"] = await after("Enter", fields["Seed"])  # Enter in a field writes too
        await fields["Temperature (0: greedy)"].fill("0")
        seen["greedy"] = await after("Enter", write)
        await fields["Top k"].fill("0")
        seen["refused"] = await after("Enter", write)
        await fields["Top k"].fill("")
        await fields["Temperature (0: greedy)"].fill("")
        seen["empty"] = await after("Enter", write)
        await fields["Top k"].fill("20")
        await fields["Temperature (0: greedy)"].fill("0.8")
        seen["position 0"] = await after("Home", box.get_by_role("slider", name="Position"))
        await text.fill("")
        await text.press_sequentially("To be")  # typed: keystrokes read together, the last one too
        await page.wait_for_function("box => attnlitProbes.textPlayground(box).text === 'To be'", arg=handle)
        seen["typed"] = await box.evaluate(probe("textPlayground"))
        seen["thai"] = await after(lambda: text.fill("สวัสดีครับ"))
        seen["thai written"] = await after("Enter", write)
        seen["long"] = await after(lambda: text.fill("To be, or not to be. " * 14 + "HAMLET:\n"))  # 302 bytes
        seen["long written"] = await after("Enter", write)
        seen["speaker"] = await after(lambda: box.get_by_role("button", name="a speaker's turn").click())
        seen["speaker written"] = await after("Enter", write)
        await box.get_by_role("combobox").select_option(label="L2H2")
        seen["word start"] = await after(lambda: box.locator(".attnlit-passage .attnlit-token").nth(19).click())
        for name in PREVIOUS_BYTE_HEADS:
            seen["previous off"] = await after("Space", box.get_by_role("switch", name=name))
        seen["soup"] = await after("Enter", write)  # the speaker's turn, the same seed, those heads off
        for switch in await box.get_by_role("switch").all():  # the other nine off instead
            await after(lambda: switch.click())
        seen["others off"] = await after("Enter", write)
        seen["axe"] = await audited(page, box, "text-playground")
    finally:
        await context.close()
    phone = await new_context(browser, viewport={"width": 390, "height": 844})
    try:
        page, box, *_ = await started_playground(phone, server, [], errors, TEXT_LIVE)
        before = await box.evaluate(probe("textPlayground"))
        await box.get_by_role("button", name="Write 128 bytes").click()
        await page.wait_for_function(STATUS_CHANGED, arg=[await box.element_handle(), before["status"]])
        seen["phone"] = await box.evaluate(probe("playgroundFits"))
        await shoot(page, box, SHOTS / "text-playground-phone.png")
    finally:
        await phone.close()
    seen["errors"] = errors
    return seen


async def text_language_record(browser, server: str, language: str) -> dict:
    """A translated page 13b: its playground started, its words as shown, made to write, and
    audited (axe) in its started state."""
    context, errors = await new_context(browser, viewport={"width": 1280, "height": 900}), []
    try:
        page, box, *_ = await started_playground(context, server, [], errors, f"{language}/{TEXT_LIVE}")
        before = await box.evaluate(probe("textPlayground"))
        words = i18n.strings(language, ROOT)["playground"]
        await box.get_by_role("button", name=thai_words.kept_whole(words["Write {k} bytes"]).replace("{k}", "128")).click()
        await page.wait_for_function(STATUS_CHANGED, arg=[await box.element_handle(), before["status"]])
        seen = {"start": before, "written": await box.evaluate(probe("textPlayground")),
                "names": await accessible_names(SimpleNamespace(context=context, page=page),
                                                ".attnlit-playground :is(input, textarea, select, button)")}
        await page.wait_for_function(probe("mounted"), polling="raf")  # code blocks, focusable
        seen["axe"] = await axe(page)
        await box.scroll_into_view_if_needed()
        await shoot(page, box, SHOTS / f"text-playground-{language}.png")
    finally:
        await context.close()
    seen["errors"] = errors
    return seen


async def phrase_record(browser, server: str, language: str) -> dict:
    """A translated page 10c: its playground started, then its language's phrase picked."""
    context, errors = await new_context(browser, viewport={"width": 1280, "height": 900}), []
    try:
        page, box, *_ = await started_playground(context, server, [], errors, f"{language}/{LIVE}")
        before = await box.evaluate(probe("playground"))
        label = thai_words.kept_whole(i18n.strings(language, ROOT)["playground"]["a repeated phrase in this language"])
        await box.get_by_role("button", name=label).click()
        await page.wait_for_function(STATUS_CHANGED, arg=[await box.element_handle(), before["status"]])
        seen = await box.evaluate(probe("playground"))
        await shoot(page, box, SHOTS / f"playground-{language}.png")
    finally:
        await context.close()
    seen["errors"] = errors
    return seen


SELECTOR_LINKS = """() => [...document.querySelectorAll("a.md-select__link")].map(link => ({
    lang: link.hreflang, href: link.href}))"""


async def choose_language(page, language: str) -> None:
    """Open the selector as a pointer does (it opens on hover) and click a language."""
    await page.locator(".md-header .md-select").hover()
    await page.locator(f"a.md-select__link[hreflang={language}]").click()


async def languages_record(browser, server: str, site: Path) -> dict:
    """Where the selector leads, clicked from a page in each language in turn; its links as a
    reader who opened the site from its folder (file://) gets them."""
    context = await new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        page, errors, path = await context.new_page(), [], []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        await page.goto(server + url_path(SELECTED))
        for language in [*LANGUAGES, i18n.ENGLISH]:
            async with page.expect_navigation():
                await choose_language(page, language)
            path.append((language, urlsplit(page.url).path, await page.evaluate("document.documentElement.lang")))
        served = [*errors]
        await page.goto((site / url_path(f"{LANGUAGES[0]}/{SELECTED}") / "index.html").as_uri())
        files = await page.evaluate(SELECTOR_LINKS)
        return {"path": path, "errors": served, "files": files}
    finally:
        await context.close()


async def page_record(browser, server: str, page_name: str) -> dict:
    """Everything the tests check of a page, from one visit: light palette, then dark."""
    floor = page_name in FLOORS
    visit = await Visit().open(browser, server + (page_name if floor else url_path(page_name)))
    page = visit.page
    name = page_name.replace(FLOOR, "404").replace("/", "-") if floor else shot_name(page_name)
    visit.name = page_name
    try:
        record = {"sizes": visit.sizes, "blocked": visit.blocked, "failed": visit.failed,
                  "errors": visit.errors, **await page.evaluate(probe("state")), "axe": {}, "ink": {},
                  "heatmaps": {}}
        # Widgets far below the screen wait: they are set up when they come near it.
        record["set up far below"] = await page.evaluate(probe("farBelow"))
        figures = await page.locator("figure[data-widget]").all()
        for figure in figures:
            await figure.scroll_into_view_if_needed()
            await figure.locator(".attnlit-numbers").wait_for()
        record["fetched"] = await visit.measure(lambda path: bool(FETCHED_DATA.search(path)))
        record["widgets"] = []
        record["figure names"] = await accessible_names(visit, ".attnlit-figure > [role=img]:not(.attnlit-static)")
        await page.wait_for_function(probe("mounted"), polling="raf")
        record["figures"] = await page.evaluate(probe("figures"))
        record["listings"] = await page.evaluate(probe("listings"))
        record["places"] = await page.evaluate(probe("places"))
        SHOTS.mkdir(exist_ok=True)
        for scheme in ("default", "slate"):
            if scheme == "slate":
                await switch_palette(page, scheme)
            await page.screenshot(path=SHOTS / f"{name}-{scheme}.jpeg", type="jpeg", quality=80)
            record["axe"][scheme] = await axe(page)
            if figures:
                await widget_records(visit, figures, name, scheme, record["widgets"])
            record["heatmaps"][scheme] = await page.evaluate(probe("heatmaps"))
            if record["captions"]:
                record["ink"][scheme] = [luminance(color) for color in await page.evaluate(INK)]
                if page_name == PALETTE_SHOWN:
                    await shoot(page, page.locator(".attnlit-figure").first, SHOTS / f"figure-{scheme}.png")
        if page_name in COPIED:
            record["copied"] = await page.evaluate(probe("copyEveryBlock"))
        if page_name in SEARCHED_ON:
            record["searched"] = {query: await search(page, query) for query in SEARCHED_ON[page_name]}
            await page.screenshot(path=SHOTS / f"search-{shot_name(page_name)}.png")  # the last query's results
        if page_name in TYPED:
            record["typed"] = {query: await search(page, query) for query in TYPED[page_name]}
            await page.screenshot(path=SHOTS / f"search-typed-{shot_name(page_name)}.png")
        if page_name in TRANSLATED:
            record["fonts"] = await heading_fonts(visit)
            record["type"] = await page.evaluate(probe("thaiType"))
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


async def once_more_if_stalled(visit, stalled: list[str], *args):
    """await visit(*args); if it times out, once more, its name and error added to `stalled`.

    Chromium's headless shell now and then stops drawing a page: no frame, so no
    requestAnimationFrame, no IntersectionObserver and no screenshot, while its scripts still
    answer (3 pages in 1,800 visits of one page, two cores loaded; bring_to_front does not wake
    it). Whatever waits on a frame then times out. A visit opens its own windows, so a second
    run starts afresh; one of ours that times out twice fails its tests, as it should.
    """
    try:
        return await visit(*args)
    except PlaywrightTimeout as error:
        stalled.append(f"{getattr(visit, 'func', visit).__name__}{args[2:]}: {str(error).splitlines()[0]}")
        return await visit(*args)


async def browse(server: str, site: Path) -> dict:
    """Visit every page, AT_ONCE visits at a time: {page: its record, or the exception it raised}.

    All visits wait in one queue, in this order: the journeys (the longest visits), each page's
    first visit (with JavaScript off after it, for a page with widgets), each page on a phone,
    the widgets given altered data. A visit starts as soon as a slot is free, whatever its kind.
    """
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            # No sandbox as root; no background calls to Google's hosts. No omnibox popup: each
            # window (each context) would preload one, a page of Chromium's own in a renderer of
            # its own, that took more CPU than the page visited.
            args=["--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"],
        )
        slots, stalled = asyncio.Semaphore(AT_ONCE), Browsing.stalled

        async def held(visit, *args):
            async with slots:
                return await once_more_if_stalled(visit, stalled, browser, server, *args)

        async def first(name):
            seen = await held(page_record, name)
            if seen["widgets"] and name not in TRANSLATED:  # a translation's: as its English page's
                try:
                    seen["static"] = await held(static_record, name)
                except Exception as error:  # for its tests
                    seen["static"] = error
            return seen

        names = [*FLOORS, *PAGES]
        # Visits of their own, each kept in one page's record (an exception too, for its tests).
        journeys = {"instant": (INSTANT[0], instant_record), "palette": (PALETTE_PAGES[0], palette_record),
                    "palette system": (PALETTE_PAGES[1], palette_system_record), "live": (LIVE, live_record),
                    "text live": (TEXT_LIVE, text_live_record),
                    "timeline": (TIMELINE, timeline_record),
                    "languages": (SELECTED, functools.partial(languages_record, site=site)),
                    **{f"phrase {language}": (f"{language}/{LIVE}", functools.partial(phrase_record, language=language))
                       for language in LANGUAGES},
                    **{f"text {language}": (f"{language}/{TEXT_LIVE}",
                                            functools.partial(text_language_record, language=language))
                       for language in LANGUAGES}}
        cases = [(name, kind, case, change) for case, (name, kind, change) in ALTERED.items()]
        cases += [(name, kind, None, change) for (name, kind), change in BROKEN.items()]
        outcomes = iter(await asyncio.gather(
            *(held(journey) for _, journey in journeys.values()),  # the longest first
            *(first(name) for name in names),
            *(held(phone_record, name) for name in PAGES),
            *(held(altered_record, name, kind, change) for name, kind, _, change in cases),
            return_exceptions=True))
        await browser.close()
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "stalls.md").write_text("Visits run again after Chromium stopped drawing their page "
                                     "(tests/browsing.py, browse):\n" + "".join(f"- {line}\n" for line in stalled))
    journeyed = {key: next(outcomes) for key in journeys}
    records = {name: next(outcomes) for name in names}
    for name in PAGES:
        seen = next(outcomes)
        if isinstance(records[name], dict):
            records[name].update(seen if isinstance(seen, dict) else {"phone": seen, "narrow": seen})
    for key, (name, _) in journeys.items():
        if isinstance(records[name], dict):
            records[name][key] = journeyed[key]
    for name, kind, case, _ in cases:
        outcome = next(outcomes)
        if isinstance(records[name], dict):
            if case is None:
                records[name].setdefault("broken data", {})[kind] = outcome
            else:
                records[name].setdefault("altered", {})[case] = outcome
    return records


class Browsing:
    """The visits, run in a thread of their own (conftest.py starts it once the site is built)."""

    thread: threading.Thread | None = None
    outcome: dict | BaseException | None = None
    stalled: list[str] = []  # the visits run again (browse), for the run's last lines


def start_browsing(site: Callable[[], Path]) -> None:
    """Visit every page in the background, as soon as `site()` returns the built site."""

    def work():
        try:
            folder = site()
            with serving(folder) as url:
                Browsing.outcome = asyncio.run(browse(url, folder))
            report_weights(Browsing.outcome)
        except BaseException as error:  # handed to the tests, which raise it
            Browsing.outcome = error

    Browsing.thread = threading.Thread(target=work, daemon=True, name="browsing")
    Browsing.thread.start()


def visited(site: Path) -> dict:
    """Every page's record, once the visits are done (started now if conftest.py has not)."""
    if Browsing.thread is None:
        start_browsing(lambda: site)
    Browsing.thread.join()
    if isinstance(Browsing.outcome, BaseException):
        raise Browsing.outcome
    return Browsing.outcome


def report_weights(records: dict) -> None:
    """The pages' weights against their budgets, in screenshots/page-weight.md."""
    seen = {name: seen for name, seen in records.items() if isinstance(seen, dict)}
    if all(name in seen for name in FLOORS):
        kb = "{:.1f} KB".format
        rows = []
        for floor_name in FLOORS:
            floor, index = seen[floor_name], floor_name.replace(FLOOR, INDEX.lstrip("/"))
            rows += [f"| {floor_name} (the floor) | {kb(weight(floor, stored=True) / 1000)} "
                     f"| {kb(weight(floor) / 1000)} | | {kb(FLOOR_BUDGET / 1000)} |",
                     f"| search (worker and index) | {kb(weight(floor, True, True) / 1000)} "
                     f"| {kb(weight(floor, True) / 1000)} | "
                     f"| {kb(search_budget_of(floor_name) / 1000)} |",
                     "| search index alone | {} | {} | | |".format(
                         *(kb(size / 1000) for size in floor["sizes"]["/" + index]))]
            rows += [f"| {name} | {kb(weight(page, stored=True) / 1000)} | {kb(weight(page) / 1000)} "
                     f"| {kb((weight(page) - weight(floor)) / 1000)} "
                     f"| {kb(budget_of(name) / 1000)} "
                     f"| {kb(fetched(page) / 1000) if page['fetched'] else ''} |"
                     for name, page in seen.items() if name not in FLOORS and floor_of(name) == floor_name]
        SHOTS.mkdir(exist_ok=True)
        (SHOTS / "page-weight.md").write_text(
            f"| page | stored | sent (gzip -{GZIP_LEVEL}) | sent over the floor | budget (sent) "
            f"| then fetched by its widgets (sent; budget {kb(WIDGET_DATA_BUDGET / 1000)}) |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def record(browsed: dict, page_name: str, *parts: str | None) -> dict:
    """What the visit of a page recorded, or a part of it, e.g. record(browsed, page, "phone"):
    the visits kept in it, each in its part; if a visit failed, its exception (and traceback)."""
    seen = browsed[page_name]
    for part in parts:  # a part may be None: the kind of a page's only widget
        if isinstance(seen, BaseException):
            raise seen
        seen = seen[part]
    if isinstance(seen, BaseException):
        raise seen
    return seen


def comparable(text: str) -> str:
    """Chromium names a formula 𝑋 ⊤ where its text is X⊤: compare letters, not their styles."""
    return "".join(unicodedata.normalize("NFKC", text).split())
