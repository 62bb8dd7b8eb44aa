"""R14 in the browser: a sealed poll (明保, R9.4) shows its dialog to every seat asked at once,
the guard's and a non-guard's alike, the same shape for both, no seat marked as thinking;
an answer gives way to 已表态，等待其他玩家 and the answers are told together.

Five people: two in the browser (the guard and a seat that is not), three over the protocol
(tests/helpers/polls.py), who play the role phase up to the action that opens the poll.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import Page, expect

from helpers.polls import five_people, play_roles, synced
from helpers.servers import LiveServer, Player

from .browserkit import Size, shot


def open_seat(
    new_page: Callable[..., Page],
    server: LiveServer,
    http: httpx.Client,
    table: str,
    person: Player,
    size: Size,
) -> Page:
    """``person``'s seat in a browser at ``size``: its login cookie, its seat token."""
    page = new_page(*size)
    name, _, value = http.headers["Cookie"].split(";")[0].partition("=")
    page.context.add_cookies([{"name": name.strip(), "value": value, "url": server.url}])
    key, token = f"bh.token.{table}", person.token
    page.context.add_init_script(f"localStorage.setItem({key!r}, {token!r});")
    page.goto(f"/#/table/{table}")
    expect(page.locator(".seat.me")).to_have_attribute("data-seat", str(person.seat))
    return page


def test_r14_the_guard_and_another_seat_get_the_poll_at_once(
    new_page: Callable[..., Page], server: LiveServer, size: Size
) -> None:
    https, table, people, spectator = five_people(server, preset="weihai", timer=120)
    candidate = play_roles(people, spectator, before_candidate=True)
    assert candidate is not None and candidate.view is not None
    holds = [p.seat for p in people if p.view and "B*" in p.view["hand"]]
    both = "transfer" in candidate.view["legal"]  # R9.3: the R* holder holds B* too
    guard = candidate.seat if both else holds[0]
    emperor = (candidate.seat - 1) % 5 if both else candidate.seat  # 转让 goes to the 上家
    assert guard is not None and emperor is not None
    other = next(s for s in range(5) if s not in (guard, emperor))
    pages = {
        seat: open_seat(new_page, server, https[seat], table, people[seat], size)
        for seat in (guard, other)
    }
    assert candidate.command("act", action="transfer" if both else "accept")["t"] == "ack"
    # Both dialogs come up with nobody having answered: asked at once, not in turn.
    for page in pages.values():
        expect(page.locator(".dialog .choice")).to_have_count(2)
    for seat, page in pages.items():
        dialog = page.locator(".dialog")
        expect(dialog.locator("[data-action=pass]")).to_be_enabled()
        show = dialog.locator("[data-action=show]")
        expect(show).to_be_enabled() if seat == guard else expect(show).to_be_disabled()
        expect(page.locator(".seat.turn")).to_have_count(0)  # nobody marked as thinking
        expect(page.locator(".seat .clock")).to_have_count(0)  # the poll's clock, on no seat
        expect(page.locator(".phase .poll-clock")).to_be_visible()
        expect(page.locator(".centre .turn-text")).to_have_text("轮到你了")
    shot(pages[guard], f"sealed-poll-guard-{size.name}")
    shot(pages[other], f"sealed-poll-other-{size.name}")

    pages[other].locator(".dialog [data-action=pass]").click()
    answered = pages[other].locator(".poll-answered")
    expect(answered.locator(".waiting")).to_have_text("已表态，等待其他玩家")
    expect(answered.locator(".mine-answer")).to_have_text("你的表态：不明保")
    expect(pages[other].locator(".dialog")).to_have_count(0)
    expect(pages[guard].locator(".dialog .choice")).to_have_count(2)
    shot(pages[other], f"sealed-poll-answered-{size.name}")

    pages[guard].locator(".dialog [data-action=show]").click()
    expect(pages[guard].locator(".poll-answered .mine-answer")).to_have_text("你的表态：明保")
    synced([*people, spectator])
    for person in people:
        if person.seat not in (guard, other, emperor):
            assert person.view is not None and person.view["legal"] == ["pass"]
            assert person.command("act", action="pass")["t"] == "ack"
    # Told together, when all are in: the 明保 in the log, the 造反 dialog on both at once.
    for page in pages.values():
        expect(page.locator(".log li", has_text="明保：我是保皇派")).to_have_count(1)
        expect(page.locator(".dialog .choice")).to_have_count(2)
