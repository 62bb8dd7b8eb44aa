"""自动过 (#50 item 7): with the switch on, a turn where nothing beats the table (要不起: 过 is
all this seat may do) passes by itself; the switch is remembered by the browser. A laptop and a
phone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .browserkit import Size, create_table, join, take_turn

CANNOT = "#btn-pass:has-text('要不起')"


@pytest.mark.deals("auto-pass")  # a game with 要不起 turns for this seat, every run
def test_自动过_passes_by_itself_when_nothing_beats_the_table(
    new_page: Callable[..., Page], size: Size
) -> None:
    page = new_page(*size)
    join(page, "自动过")
    create_table(page, bots=4, bot_delay=0.2)
    page.click("button.ready")
    switch = page.locator(".actions .auto-pass input")
    switch.check()
    passed_by_itself = 0
    while not passed_by_itself and not page.locator(".modal.results").count():
        page.wait_for_selector(".mine.my-turn, .modal.results")
        if page.locator(f".mine.my-turn {CANNOT}").count():
            # Nobody clicks: the seat passes by itself and the turn moves on.
            expect(page.locator(f".mine.my-turn {CANNOT}")).to_have_count(0)
            passed_by_itself += 1
        else:
            take_turn(page)
    assert passed_by_itself, "no 要不起 turn came before the game ended"
    page.reload()  # remembered by the browser
    expect(page.locator(".actions .auto-pass input")).to_be_checked()
