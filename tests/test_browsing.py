"""The browser visits' own machinery (tests/browsing.py), without a browser."""

import asyncio

import pytest

from browsing import PlaywrightTimeout, once_more_if_stalled


def test_a_visit_that_times_out_once_runs_once_more_and_is_named():
    calls, stalled = [], []

    async def visit(browser, server, page):
        calls.append(page)
        if len(calls) == 1:
            raise PlaywrightTimeout("Page.wait_for_function: Timeout 120000ms exceeded.\nCall log: ...")
        return {"page": page}

    assert asyncio.run(once_more_if_stalled(visit, stalled, "browser", "server", "a.md")) == {"page": "a.md"}
    assert calls == ["a.md", "a.md"]
    assert stalled == ["visit('a.md',): Page.wait_for_function: Timeout 120000ms exceeded."]


def test_a_visit_that_times_out_twice_or_fails_otherwise_raises():
    stalled = []

    async def stuck(browser, server):
        raise PlaywrightTimeout("Timeout 120000ms exceeded.")

    async def wrong(browser, server):
        raise AssertionError("not a stall")

    with pytest.raises(PlaywrightTimeout):
        asyncio.run(once_more_if_stalled(stuck, stalled, "browser", "server"))
    with pytest.raises(AssertionError):
        asyncio.run(once_more_if_stalled(wrong, stalled, "browser", "server"))
    assert len(stalled) == 1  # the stuck one, once; the wrong one never retried
