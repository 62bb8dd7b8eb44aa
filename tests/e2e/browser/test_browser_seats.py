"""#50 item 8 at a waiting table: seats counted from 1; only the buttons a page may use (a
spectator sits, a seated person adds bots, only the creator sends bots away); and the log names
who acted then, in the page's language."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browserkit import Size, create_table, join


def test_seat_buttons_are_only_those_one_may_use(new_page: Callable[..., Page], size: Size) -> None:
    host, guest, watcher = (new_page(*size) for _ in range(3))
    join(host, "房主")
    table = create_table(host, bots=2)  # bots in seats 4 and 5 (counted from 1)
    expect(host.locator(".table-title strong")).to_have_text("房主的牌桌")  # not its hex id
    expect(host.locator(".seat[data-seat='0'] .seat-sub")).to_contain_text("座位1")
    expect(host.locator(".seat[data-seat='4'] .name")).to_have_text("机器人5")
    expect(host.locator(".remove-bot")).to_have_count(2)  # the creator's bots
    expect(host.locator(".add-bot")).to_have_count(2)  # two empty seats
    expect(host.locator(".sit-here")).to_have_count(0)  # seated already

    join(watcher, "看客")
    watcher.goto(f"/#/table/{table}")
    expect(watcher.locator(".sit-here")).to_have_count(2)
    expect(watcher.locator(".add-bot, .remove-bot")).to_have_count(0)  # seated people's

    join(guest, "路人")
    guest.goto(f"/#/table/{table}")
    guest.locator(".seat[data-seat='1'] .sit-here").click()
    expect(guest.locator(".seat.me")).to_have_attribute("data-seat", "1")
    expect(guest.locator(".add-bot")).to_have_count(1)
    expect(guest.locator(".remove-bot")).to_have_count(0)  # not their bots to send away


def test_the_log_names_who_acted_then_in_the_pages_language(
    new_page: Callable[..., Page], size: Size
) -> None:
    page = new_page(*size)
    join(page, "记录员")
    create_table(page, timer=0, bot_delay=2)  # bots slow enough to read the log
    page.click("button.ready")
    page.wait_for_selector(".mine.my-turn")
    page.click("button.auto")  # 托管 on: a log line naming this seat
    log = page.locator(".log li")
    expect(log.filter(has_text="记录员（你） 开启托管")).to_have_count(1)
    page.click("button.lang")
    expect(log.filter(has_text="switched auto-play (托管) on")).to_have_count(1)
    expect(log.filter(has_text="开启托管")).to_have_count(0)
    expect(log.filter(has_text="game 1 begins")).to_have_count(1)
