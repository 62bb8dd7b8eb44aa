"""#50 items 2 and 8 on a laptop and a 390×844 phone: 战绩 (its 段位 chart and games) and 排行榜
fit the width, and the replay's controls stay in view however far the page is scrolled."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browserkit import Size, in_view, one_game_in_history

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_history_ladder_and_replay_fit(new_page: Callable[..., Page], size: Size) -> None:
    page = new_page(*size)
    one_game_in_history(page, "手机")
    expect(page.locator(".rating svg.rating-chart polyline")).to_have_count(1)
    assert in_view(page, ".rating svg.rating-chart"), "the 段位 chart is out of view"
    assert page.evaluate(OVERFLOW) <= 0, "the history is wider than the page"

    page.click("#top nav a[href='#/leaderboard']")
    expect(page.locator(".leaderboard tbody tr.me")).to_have_count(1)
    assert page.evaluate(OVERFLOW) <= 0, "the leaderboard is wider than the page"

    page.go_back()
    page.locator(".history tbody tr").first.locator("a.replay").click()
    expect(page.locator(".controls")).to_be_visible()
    assert page.evaluate(OVERFLOW) <= 0, "the replay is wider than the page"
    for where in ("top", "bottom"):
        page.evaluate(
            f"window.scrollTo(0, {0 if where == 'top' else 'document.body.scrollHeight'})"
        )
        assert in_view(page, ".controls"), f"the replay's controls out of view at the {where}"
