"""快速开始 (#50): one click from the lobby to a seated, ready game — the button in view on a
laptop (1280×720) and a phone (390×844); 建桌's essentials in view, the rest under 更多选项."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browserkit import Size, hand_size, in_view, join, shot


def test_快速开始_seats_and_readies_in_one_click(new_page: Callable[..., Page], size: Size) -> None:
    page = new_page(*size)
    join(page, "快手")
    assert in_view(page, ".quick .quick-go")
    form = page.locator("form.create")
    expect(form.locator("details.more")).not_to_have_attribute("open", "")
    expect(form.locator("input[name=games]")).to_have_value("3")  # a match: tribute happens
    if not size.phone:
        assert in_view(page, "form.create button[type=submit]")
    shot(page, f"lobby-{size.width}")
    page.click(".quick .quick-go")
    page.wait_for_url(re.compile(r"#/table/\w+$"), wait_until="commit")
    # Seated and ready in one click: the four bots are ready, so the deal comes at once.
    page.wait_for_selector(".hand .card")
    assert hand_size(page) > 0
    expect(page.locator(".seat.me")).to_have_count(1)
