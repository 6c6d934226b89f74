"""The widgets: the numbers their pages print, their controls, without JavaScript, on the
timeline, under instant navigation, given data their page never has."""

import re
from collections import Counter

import pytest
from browser_expectations import (
    ALTERED, BROKEN, ENGLISH_WIDGETS, ENGLISH_WIDGET_CASES, INSTANT, NUMBER, PAGES, Printed,
    TIMELINE, TRAINING_TABLE, TRANSLATED, WIDGETS, WIDGET_CASES, printed, snapshot_row, states,
)
from browsing import (
    ROOT, comparable, record, url_path,
)



def numbers(rows: list[str]) -> list[str]:
    """The numbers of some rows, as written (the widgets write minus signs as −), a number
    grouped by thousands as one (4,096 in English, 4096 or 4 096 in Vietnamese)."""
    text = "\n".join(rows).replace("−", "-")
    return NUMBER.findall(re.sub(r"(?<=\d)[,\u202f](?=\d{3}(?!\d))", "", text))


def widget(browsed: dict, page_name: str, kind: str | None = None) -> dict:
    """The page's widget of that kind (None: its only widget)."""
    widgets = record(browsed, page_name)["widgets"]
    assert [seen["kind"] for seen in widgets] == [kind or widgets[0]["kind"] for kind in states(page_name)], \
        f"{page_name}: widgets {[seen['kind'] for seen in widgets]}, WIDGETS expects {list(states(page_name))}"
    return next(seen for seen in widgets if kind in (None, seen["kind"]))


def test_every_page_with_a_widget_says_what_it_shows(browsed):
    pages = {name for name in PAGES if record(browsed, name)["widgets"]}
    assert pages == set(WIDGETS)
    assert len(pages) >= 6


def test_widgets_far_below_wait_until_they_come_near_the_screen(browsed):
    """So that a page with widgets opens as fast as one without (Lighthouse's blocking time)."""
    far = {name: record(browsed, name)["set up far below"] for name in WIDGETS}
    assert all(set_up == 0 for _, set_up in far.values()), far
    assert sum(count for count, _ in far.values()) >= 3, f"too few widgets far below to tell: {far}"


@pytest.mark.parametrize("page_name, kind", WIDGET_CASES)
def test_widget_shows_the_numbers_its_page_prints(browsed, page_name, kind):
    """It starts where a tested block of its page leaves off, and moves to what others print."""
    seen, expected_states = widget(browsed, page_name, kind), states(page_name)[kind]
    assert expected_states[0].state == {}, "the first state is the one the widget starts in"
    assert seen["back"]["numbers"] == seen["start"]["numbers"]
    assert len(seen["shown"]) == len(expected_states)
    for i, (shown, rows) in enumerate(zip(expected_states, [seen["start"]["numbers"],
                                                            *(state["numbers"] for state in seen["shown"][1:])])):
        if callable(shown.printed):
            expected = shown.printed({**seen["start"]["state"], **shown.state})
        else:
            expected = [line for part in shown.printed for line in printed(page_name, part)]
        rows = rows.splitlines()
        rows = rows if shown.rows is None else [rows[k] for k in shown.rows]
        assert numbers(expected), f"state {i}: nothing to compare"
        assert numbers(rows) == numbers(expected), f"state {i} {shown.state}"


# Widgets that draw, as they start, the cells of their static figure's heatmaps. (Chapter 5's
# static figure writes its causal mask as 1.00 and 0.00, its widget as 1 and 0.)
SAME_CELLS = ["attention-without-weights.md"]
CELL = re.compile(r"<text[^>]*>(-?\d+\.\d\d)</text>")


@pytest.mark.parametrize("page_name", SAME_CELLS)
def test_a_widget_starts_with_the_numbers_of_its_static_figure(browsed, site, page_name):
    """Rounded once, from full precision: 0.94500005 is 0.95 in both, not 0.945 and then 0.94."""
    html = (site / url_path(page_name) / "index.html").read_text(encoding="utf-8")
    static = re.search(r'<figure class="attnlit-figure" data-widget.*?(<svg .*?</svg>)', html, re.DOTALL)[1]
    drawn, shown = Counter(CELL.findall(static)), Counter(CELL.findall(widget(browsed, page_name)["start"]["drawing"]))
    assert sum(drawn.values()) >= 20, "the static figure's cells were not found"
    assert drawn - shown == Counter(), f"drawn but not shown: {drawn - shown}, shown instead: {shown - drawn}"


@pytest.mark.parametrize("page_name, kind", ENGLISH_WIDGET_CASES)
def test_every_control_redraws_by_keyboard_and_pointer(browsed, page_name, kind):
    moves = widget(browsed, page_name, kind)["moves"]
    controls = {move["control"] for move in moves}
    assert len(moves) == 2 * len(controls) >= 2
    for move in moves:
        what, before, after = f"{move['control']} by {move['how']}", move["before"], move["after"]
        assert after["state"][move["control"]] != before["state"][move["control"]], what
        assert after["drawing"] != before["drawing"] and after["status"] != before["status"], what
    # Not every move changes the numbers: chapter 5's two right ways to mask give the same.
    assert any(move["after"]["numbers"] != move["before"]["numbers"] for move in moves)


@pytest.mark.parametrize("page_name, kind", WIDGET_CASES)
def test_widget_controls_are_labelled_focused_visibly_and_announced(browsed, page_name, kind):
    seen = widget(browsed, page_name, kind)
    assert seen["names"] and all(role in ("slider", "radio") and name.strip()
                                 for role, name in seen["names"]), seen["names"]
    for move in seen["moves"]:  # none on a translated page: the ring is the site's CSS, as in English
        if move["how"] == "keyboard":
            style, width = move["focus ring"]
            assert style != "none" and width >= 2, move["control"]
    assert [role for role, _ in seen["status"]] == ["status"]  # read out when it changes


@pytest.mark.parametrize("page_name", ENGLISH_WIDGETS)
def test_without_javascript_the_static_figure_stays(browsed, page_name):
    seen = record(browsed, page_name, "static")
    assert seen["widgets"] == len(states(page_name)) and seen["controls"] == 0
    assert all(height > 100 for height in seen["heights"]), seen["heights"]
    assert [(role, comparable(name)) for role, name in seen["names"]] == \
        [("image", comparable(caption)) for caption in seen["captions"]]


@pytest.mark.parametrize("page_name, kind", WIDGET_CASES)
def test_a_widgets_text_stays_inside_its_drawing_in_every_state(browsed, page_name, kind):
    """As it starts, after every move of a control and in each state the tests set, on a wide
    screen (on a phone, as it starts: above): a longer label, as a translation's, is not cut
    off at the drawing's edge."""
    seen = widget(browsed, page_name, kind)
    shown = [seen["start"], *(move[when] for move in seen["moves"] for when in ("before", "after")),
             *seen["shown"]]
    assert [(state["state"], state["clipped"]) for state in shown if state["clipped"]] == []


def timeline(browsed) -> dict:
    """What the visits of chapter 10's timeline recorded (timeline_record)."""
    seen = record(browsed, TIMELINE, "timeline")
    assert seen["errors"] == []
    return seen


def test_the_timeline_names_the_moments_its_page_prints(browsed):
    """Under the track, a button for each moment that chapter 10's table block finds in the
    snapshots (not steps written by hand), in the words the prose uses; each leads there."""
    seen = timeline(browsed)
    lines = printed(TIMELINE, Printed(TRAINING_TABLE, [17, 18, 19]))
    moments = sorted((int(step), name) for name, step in (re.match(r"(.+): step (\d+)", line).groups() for line in lines))
    assert [name for _, name in moments] == ["previous-token head forming", "induction heads forming", "loss cliff"]
    assert seen["start"]["moments"] == [f"{name} · {step}" for step, name in moments]
    assert [shown["state"]["step"] for shown in seen["pressed"]] == [str(step) for step, _ in moments]
    for shown in seen["pressed"]:  # the numbers of the table's row for that step
        assert numbers(shown["numbers"].splitlines()[1:]) == numbers(snapshot_row(shown["state"]))
    prose = (ROOT / "docs" / TIMELINE).read_text(encoding="utf-8")
    assert all(f"*{name}* ({step}" in prose or f"*{name}* (step {step})" in prose for step, name in moments), \
        "the prose names each moment and its step"
    assert [name for _, name in seen["names"]] == ["Play", *seen["start"]["moments"]]


def test_play_steps_through_the_snapshots_to_the_last_and_stops(browsed):
    """From step 1100, one snapshot after another to 1200, where it stops and says so once;
    pressed at the end, from the first again, and pressed once more, paused."""
    seen = timeline(browsed)
    assert seen["start"]["play"] == ["Play"] and not seen["start"]["busy"]
    assert seen["playing"]["play"] == ["Pause"] and seen["playing"]["busy"]
    played = seen["played"]
    assert played["steps"] == ["1125", "1150", "1175", "1200"]
    assert played["play"] == ["Play"] and not played["busy"] and played["status"].startswith("step 1200:")
    assert numbers(played["numbers"].splitlines()[1:]) == numbers(snapshot_row({"step": "1200"}))
    assert seen["again"]["step"] == "0" and seen["again"]["busy"]
    assert seen["paused"]["play"] == ["Play"] and not seen["paused"]["busy"]


def test_with_reduced_motion_play_moves_one_snapshot_a_press(browsed):
    """Where the reader's system asks for less motion, nothing moves by itself: the button says
    so, each press moves one snapshot, and the status never plays."""
    before, *pressed = timeline(browsed)["reduced"]
    assert before["play"] == ["Next step"] and before["step"] == "575"
    assert [shown["step"] for shown in pressed] == ["600", "625"]
    assert not any(shown["busy"] for shown in pressed) and all(shown["play"] == ["Next step"] for shown in pressed)


def test_on_a_phone_the_heads_stay_in_view_under_the_slider(browsed):
    """With the slider at the top of a 390 x 844 screen, the four heads are drawn whole below it
    (they were under the two charts, 500 px further down), before and after it moves."""
    for seen in timeline(browsed)["phone"]:
        assert seen["controls"] < seen["top"] and seen["bottom"] <= seen["screen"], seen


def test_a_slider_and_its_value_stay_in_place_while_it_moves(browsed):
    """The value's box is as wide as the widest value from the start (widgets.js). The values
    are the data's, the same in every language (tests/test_site.py): English pages only."""
    sliders = {name: record(browsed, name, "narrow")["slider places"] for name in ENGLISH_WIDGETS}
    assert sum(map(len, sliders.values())) >= 4, sliders
    assert all(places == 1 for page in sliders.values() for _, places in page), sliders


def test_widgets_come_with_pages_that_instant_navigation_brings_in(browsed):
    seen = record(browsed, INSTANT[0], "instant")
    assert len(seen) == len(INSTANT) - 1
    for (name, _), arrived in zip(INSTANT[1:], seen):
        assert arrived["document"] == "still the first document", f"{name} was loaded, not brought in"
        assert arrived["path"].endswith(url_path(name))
        assert arrived["errors"] == [] and arrived["live"] == 1 and arrived["controls"] == 1, name


def test_widgets_leave_no_listener_behind_when_instant_navigation_takes_their_page_away(browsed):
    """The widgets of all pages share one listener on the window's resize event: pages come
    and go without a reload, and a listener per widget would pile up with every page."""
    seen = record(browsed, INSTANT[0], "instant")
    counts = [arrived["resize listeners"] for arrived in seen]
    assert len(counts) >= 3
    # Material's own, the same on every page, and the widgets' one.
    assert counts == [seen[0]["on the first page"] + 1] * len(counts), \
        f"resize listeners: {seen[0]['on the first page']} on the page without widgets, then {counts}"


def altered(browsed, case: str) -> dict:
    """What a widget showed with the data of ALTERED[case]."""
    seen = record(browsed, ALTERED[case][0], "altered", case)
    assert seen["errors"] == [] and seen["widget"] is not None, seen["errors"]
    return seen["widget"]


def test_dropout_counts_the_weights_its_data_has(browsed):
    """Four words leave 4 + 3 + 2 + 1 weights beside the causal mask, not six words' 21."""
    seen = altered(browsed, "fewer words")
    assert re.search(r"\b\d+ of 10 weights dropped", seen["status"]), seen["status"]
    assert len(seen["numbers"].splitlines()) == 4 + 1, seen["numbers"]  # a row a word, the sums


def test_rope_draws_a_flat_curve(browsed):
    """q and k zero: every score is 0, the curve has no height to stretch over."""
    seen = altered(browsed, "flat curve")
    assert seen["status"].endswith("score 0.0000"), seen["status"]
    nonsense = re.findall(r'\w+="[^"]*(?:NaN|Infinity)[^"]*"', seen["drawing"])
    assert nonsense == [], nonsense[:3]


def test_every_widget_is_tried_with_broken_data():
    """On its English page: a translated page's widget runs the same script on the same data."""
    assert set(BROKEN) == {(page, kind) for page, kind in WIDGET_CASES if page not in TRANSLATED}


@pytest.mark.parametrize("page_name, kind", list(BROKEN))
def test_a_widget_that_fails_leaves_its_page_as_it_was(browsed, page_name, kind):
    """Its data broken where only the drawing reads it: no controls beside the static figure,
    nothing added, the figure as served; the failure is logged."""
    seen = record(browsed, page_name, "broken data", kind)
    assert len(seen["errors"]) == 1 and seen["errors"][0].startswith("attnlit widget: "), seen["errors"]
    assert seen["widget"] is None
    assert seen["as served"]["controls"] == 0, seen["as served"]["children"]
    assert seen["as served"]["same"], seen["as served"]["children"]
