"""Playing with friends in the browser: a 好友房 hidden from the lobby, joined by its room
code and started by its creator with bots in the empty seats; 再来一场 after a match."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browserkit import Size, create_table, join, play, shot


def wait_for(page: Page, selector: str, limit: float = 15) -> None:
    """Poll from here until ``selector`` is on the page (no page-side polling: CSP)."""
    deadline = time.monotonic() + limit
    while not page.locator(selector).count():
        assert time.monotonic() < deadline, f"no {selector} after {limit} s"
        page.wait_for_timeout(50)


def test_a_friends_table_joined_by_its_code_and_started_with_bots(
    new_page: Callable[..., Page],
) -> None:
    a, b = new_page(), new_page()
    join(a, "甲")
    table = create_table(a, bots=0, private=True)
    code = a.locator(".room-bar .room-code").get_attribute("data-code")
    assert code and len(code) == 6
    expect(a.locator(".room-bar .room-code")).to_have_text(f"房号 {code}")
    # Only the creator is offered the start with bots, and told what it does.
    expect(a.locator("button.start-bots")).to_have_text("开始（空位补机器人）")
    expect(a.locator(".room-bar .room-note")).to_contain_text("空位由机器人补上")

    # The invite link: copied, or (no clipboard here) shown in a field to copy by hand.
    a.click("button.copy-invite")
    wait_for(a, ".invite-link, .toast:has-text('邀请链接已复制')")
    if a.locator(".invite-link").count():
        link = a.locator(".invite-link").input_value()
        assert link.endswith(f"#/room/{code}"), link  # the id alone opens nothing
    shot(a, "friends-table-code")

    # The lobby does not show it, to anyone.
    join(b, "乙")
    wait_for(b, ".panel.tables tbody tr")
    expect(b.locator(f"tr[data-table='{table}']")).to_have_count(0)
    assert code not in b.content()

    # A wrong code is refused, in words; the right one (typed in lower case) seats B there.
    wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    b.fill(".room-join input[name=code]", wrong)
    b.click(".room-join button[type=submit]")
    expect(b.locator(".toast.error")).to_contain_text(f"没有房号为 {wrong} 的牌桌")
    b.fill(".room-join input[name=code]", "0")
    b.click(".room-join button[type=submit]")
    expect(b.locator(".toast.error").last).to_contain_text("不是房号")
    b.fill(".room-join input[name=code]", code.lower())
    shot(b, "friends-join-by-code")
    b.click(".room-join button[type=submit]")
    b.wait_for_url(f"**/#/table/{table}", wait_until="commit")
    b.wait_for_selector(".seat.me")
    expect(b.locator(".seat.me")).to_have_attribute("data-seat", "1")
    expect(a.locator(".seat[data-seat='1'] .name")).to_have_text("乙")
    expect(b.locator(".room-bar .room-code")).to_have_text(f"房号 {code}")
    expect(b.locator("button.start-bots")).to_have_count(0)  # B is not the creator

    # A starts: bots take the three empty seats; the match waits for B to be ready.
    a.click("button.start-bots")
    for page in (a, b):
        expect(page.locator(".seat .tag.bot")).to_have_count(3)
    expect(a.locator(".table-page")).to_have_attribute("data-status", "waiting")
    expect(a.locator(".room-note.waiting-for")).to_have_text("等 乙 准备")
    expect(a.locator("button.start-bots")).to_have_count(0)
    shot(a, "friends-waiting-for-b")
    b.click("button.ready")
    for page in (a, b):
        expect(page.locator(".table-page")).to_have_attribute("data-status", "playing")
        expect(page.locator(".seat .tag.bot")).to_have_count(3)
        page.wait_for_selector(".hand .card")
    expect(a.locator(".table-title")).to_contain_text("第 1/1 局")
    shot(b, "friends-started")

    # A stranger with the table's id alone is told it is a friends' table and sees nothing of
    # it; the invite link (the room code) lets them watch.
    c = new_page()
    join(c, "丙")
    c.goto(f"/#/table/{table}")
    expect(c.locator(".room-closed")).to_contain_text("这是好友房")
    expect(c.locator(".seat")).to_have_count(0)
    c.goto(f"/#/room/{code}")
    c.wait_for_url(f"**/#/table/{table}", wait_until="commit")
    expect(c.locator(".table-page")).to_have_attribute("data-status", "playing")
    expect(c.locator(".seat.me")).to_have_count(0)  # every seat taken: watching


def test_rematch_after_a_match_starts_the_next_one(new_page: Callable[..., Page]) -> None:
    page = new_page()
    join(page, "再战")
    create_table(page, bots=4, games=1)
    page.click("button.ready")
    play([page], until=".modal.results .rematch")
    results = page.locator(".modal.results")
    expect(results.locator("button.rematch")).to_have_text("再来一场")
    expect(results.locator(".tag.agreed")).to_have_text("再来一场：0/1 同意")
    # While the table is finished the top bar offers it too.
    expect(page.locator(".topbar button.rematch.bar")).to_have_text("再来一场")
    expect(page.locator("button.scores")).to_have_count(1)
    shot(page, "rematch-offered")

    results.locator("button.rematch").click()
    # Bots always agree: match 2 starts at once, the last one's results window closes, and
    # the header counts the new match's games from 1.
    expect(page.locator(".table-page")).to_have_attribute("data-status", "playing")
    expect(page.locator(".modal.results")).to_have_count(0)
    expect(page.locator(".table-title")).to_contain_text("第 1/1 局")
    expect(page.locator("button.scores")).to_have_count(0)  # no results in the new match yet
    expect(page.locator(".room-bar")).to_have_count(0)
    page.wait_for_selector(".hand .card")
    shot(page, "rematch-started")


def test_an_invite_link_seats_a_friend_logged_in_or_not(
    new_page: Callable[..., Page], size: Size
) -> None:
    """#50: the invite link seats a logged-in friend at once, and one who logs in on the way."""
    a, b, c = (new_page(*size) for _ in range(3))
    join(a, "甲")
    table = create_table(a, bots=0, private=True)
    code = a.locator(".room-bar .room-code").get_attribute("data-code")
    join(b, "乙")
    b.goto(f"/#/room/{code}")
    b.wait_for_url(f"**/#/table/{table}", wait_until="commit")
    expect(b.locator(".seat.me")).to_have_count(1)
    c.goto(f"/#/room/{code}")  # not logged in: the page asks for a name, then seats
    c.fill("#login input[name=name]", "丙")
    c.click("#login button[type=submit]")
    c.wait_for_url(f"**/#/table/{table}", wait_until="commit")
    expect(c.locator(".seat.me")).to_have_count(1)
    for page in (a, b):
        expect(page.locator(".seat .name", has_text="丙")).to_have_count(1)
