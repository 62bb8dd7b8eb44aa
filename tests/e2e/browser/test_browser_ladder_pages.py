"""#50 item 8 on a 390×844 phone: 战绩's table fits the width, and the replay's controls stay
in view however far the page is scrolled."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browserkit import create_table, join, play

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_history_fits_and_replay_controls_stay_in_view(new_page: Callable[..., Page]) -> None:
    page = new_page(width=390, height=844, phone=True)
    join(page, "手机")
    create_table(page, games=1, bots=4, bot_delay=0)
    page.click("button.ready")
    play([page], until=".modal.results", limit=240)
    page.locator(".modal.results button.close").click()
    page.click("#top nav a[href='#/history']")
    expect(page.locator(".history tbody tr")).to_have_count(1)
    assert page.evaluate(OVERFLOW) <= 0, "the history is wider than the phone"
    page.locator(".history tbody tr").first.locator("a.replay").click()
    expect(page.locator(".controls")).to_be_visible()
    assert page.evaluate(OVERFLOW) <= 0, "the replay is wider than the phone"
    for where in ("top", "bottom"):
        page.evaluate(
            f"window.scrollTo(0, {0 if where == 'top' else 'document.body.scrollHeight'})"
        )
        assert in_view(page, ".controls"), f"the replay's controls out of view at the {where}"
