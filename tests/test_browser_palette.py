"""The light and dark palettes: the reader's system, their choice, no flash, no transition."""

import re
from browser_expectations import (
    PALETTE_PAGES,
)
from browsing import (
    record,
)




def palette(browsed) -> dict:
    seen = record(browsed, PALETTE_PAGES[0], "palette")
    assert seen["dark errors"] == [] and seen["light errors"] == []
    return seen


def test_a_first_visit_takes_the_palette_of_the_readers_system(browsed):
    seen = palette(browsed)
    assert (seen["dark"]["scheme"], seen["dark"]["toggles"]) == ("slate", ["Switch to light mode"])
    assert (seen["light"]["scheme"], seen["light"]["toggles"]) == ("default", ["Switch to dark mode"])
    # Nothing is stored until the reader chooses: a new reader keeps following the system.
    assert seen["dark"]["stored"] is None and seen["light"]["stored"] is None
    # The viewport (canvas, scroll bars) follows the palette.
    assert (seen["dark"]["viewport"], seen["light"]["viewport"]) == ("dark", "normal")


def test_the_palette_is_set_before_the_article_exists(browsed):
    """As a page loads, nothing restyles it as a whole for the palette (Material's script did,
    four times: half of chapter 1's blocking time in Lighthouse)."""
    seen = palette(browsed)
    for system in ("dark", "light"):
        changes = seen[system]["changes"]
        assert changes, "the palette was never set"  # the recording works
        late = [what for what, article in changes if article]
        assert late == [], f"palette changed after the article was parsed: {late}"
        assert "meta color-scheme" not in [what for what, _ in changes]


def test_a_readers_choice_holds_on_the_next_page(browsed):
    seen = palette(browsed)
    assert seen["enter"]["scheme"] == "slate"  # Enter on the focused option switches
    assert seen["enter"]["stored"]["index"] == 1
    chosen = seen["next page"]
    assert (chosen["scheme"], chosen["toggles"], chosen["viewport"]) == (
        "slate", ["Switch to light mode"], "dark")


def test_switching_the_palette_starts_no_transition(browsed):
    """The colours change at once, not element after element over a quarter second."""
    seen = palette(browsed)
    assert seen["transitions"] == 0
    assert (seen["clicked"]["scheme"], seen["clicked"]["stored"]["index"]) == ("default", 0)


def test_the_browser_bar_takes_the_headers_colour(browsed):
    seen = palette(browsed)
    for state in ("light", "next page"):  # one in each palette
        (bar,), header = seen[state]["bar"], seen[state]["header"]
        assert tuple(int(bar[i:i + 2], 16) for i in (1, 3, 5)) == tuple(
            map(int, re.findall(r"\d+", header))), state


def test_a_palette_that_follows_the_system_takes_the_systems_colours(browsed):
    """Material allows one (media "(prefers-color-scheme)"); this site has none, but a reader
    who chose one on another site of the same host, or a config that adds one, must not
    break the page: a dark system gets the dark palette."""
    seen = record(browsed, PALETTE_PAGES[1], "palette system")
    assert seen["errors"] == []
    assert (seen["scheme"], seen["media"]) == ("slate", "(prefers-color-scheme: dark)")
