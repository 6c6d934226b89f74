"""The figures as drawn on the page: named, styled, readable, their labels apart, their
heatmaps legible in both palettes."""


import pytest
from browser_expectations import (
    ENGLISH, PAGES,
)
from browsing import (
    comparable, contrast, record,
)



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


def measured(browsed: dict, page_name: str) -> dict:
    """The page's figures as measured on a wide screen (1280 px) and on a phone (390 px)."""
    seen = record(browsed, page_name)
    widths = {"1280 px": seen["figures"]}
    if seen["figures"]["count"]:
        widths["390 px"] = record(browsed, page_name, "phone")["figures"]
    return widths


@pytest.mark.parametrize("page_name", ENGLISH)
def test_every_class_in_a_figure_has_a_rule_that_applies(browsed, page_name):
    """A figure's SVG names its shared styles as classes, defined in its own <style>: a page
    that loses that <style> (the labs' did) draws black shapes and 16 px text. (A translated
    figure's classes are proven styled as its English figure's at the build: tests/test_site.py.)"""
    for width, figures in measured(browsed, page_name).items():
        assert figures["unstyled"] == [], width


@pytest.mark.parametrize("page_name", PAGES)
def test_figure_text_is_drawn_at_11_px_or_more_on_a_wide_screen_and_a_phone(browsed, page_name):
    """Every run of text of every figure on screen, widgets included, at 1280 and 390 px: its
    font size times the scale at which its SVG is drawn. (A figure wider than the column
    shrinks; its panels stack on a phone instead.) A lab's figure is inline SVG, never an
    image, whose text no check could see."""
    for width, figures in measured(browsed, page_name).items():
        assert figures["small"] == [], width
        assert figures["images"] == [], width
        assert figures["texts"] > 0 or not figures["count"], f"{width}: figures without text?"


def test_figures_are_measured_on_every_page_that_has_them(browsed):
    pages = {name: measured(browsed, name) for name in PAGES}
    assert sum(widths["1280 px"]["count"] for widths in pages.values()) >= 30
    assert sum(len(widths) == 2 for widths in pages.values()) >= 15
    assert sum(widths["390 px"]["texts"] for widths in pages.values() if len(widths) == 2) >= 1000


@pytest.mark.parametrize("page_name", PAGES)
def test_figure_labels_overlap_nothing(browsed, page_name):
    """No label of a figure on screen overlaps another label, a line of the axes or a marker,
    at 1280 and 390 px.

    A label is a <text> (mathtext's glyphs, one <tspan> each, together). Its box is the union
    of the boxes the browser lays its runs of glyphs in (advance width, the font's ascent to
    its descent), each inset by a tenth of its font size, and turned with the text: glyphs
    seldom reach those edges, so labels whose boxes only touch there do not collide. Two
    labels overlap when their boxes intersect with some area (a separating-axis test on the
    turned boxes); a label overlaps a line of the axes when a horizontal or vertical stroke
    (a spine, a zero line, a rule: a two-point <path>, <line> or <polyline>) crosses its box;
    and a marker (a data point, a <use> of a marker's shape) when the marker's box meets it.
    Lines at an angle (data, arrows) and filled areas (bars, a heatmap's cells, an image) are
    not checked: a number that annotates a heatmap's cell sits on that cell on purpose.
    """
    for width, figures in measured(browsed, page_name).items():
        assert figures["overlaps"] == [], width


@pytest.mark.parametrize("page_name", PAGES)
def test_a_heatmaps_numbers_meet_wcag_aa_on_their_cells_in_both_palettes(browsed, page_name):
    """The number written in a cell against the cell, as drawn (axe reads text in SVG poorly)."""
    for scheme, seen in record(browsed, page_name)["heatmaps"].items():
        low = [f"{text} ({fill} on {cell}): {contrast(fill, cell):.2f}"
               for text, fill, cell, _ in seen["texts"] if contrast(fill, cell) < 4.5]
        assert low == [], scheme


@pytest.mark.parametrize("page_name", PAGES)
def test_weight_0_is_quiet_on_the_dark_page_and_masked_cells_never_look_like_it(browsed, page_name):
    seen = record(browsed, page_name)["heatmaps"]
    for fill in seen["slate"]["zeros"]:
        assert contrast(fill, seen["slate"]["page"]) < 1.15, f"weight 0 ({fill}) stands out on the dark page"
    for scheme, found in seen.items():
        for fill in found["hidden"]:
            assert contrast(fill, found["page"]) >= 1.3, f"{scheme}: masked cells ({fill}) look like the page"
            assert contrast(fill, found["zero"]) >= 1.3, f"{scheme}: masked cells ({fill}) look like weight 0"


def test_heatmaps_are_measured_static_and_live_in_both_palettes(browsed):
    """What the two tests above check is there: cells of weight 0, masked cells and numbers on
    cells, in drawings of the build (static) and of widgets (live), in each palette."""
    for scheme in ("default", "slate"):
        found = [seen for name in ENGLISH if (seen := record(browsed, name)["heatmaps"][scheme])["cells"]]
        assert len(found) >= 7, f"{scheme}: heatmaps on {len(found)} pages"
        texts = [text for seen in found for text in seen["texts"]]
        assert {live for *_, live in texts} == {False, True}, scheme
        assert any(seen["zeros"] for seen in found) and any(seen["hidden"] for seen in found), scheme
