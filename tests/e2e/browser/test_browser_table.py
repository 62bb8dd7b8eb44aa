"""The browser table: two people at one table, reload and server restart mid-game, the phone
viewport, the language switch."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from baohuang.engine.describe import pack_counts
from baohuang.engine.rules import Rules
from baohuang.protocol.messages import unfold
from helpers.servers import LiveServer

from .browserkit import (
    Size,
    create_table,
    hand_below,
    hand_size,
    join,
    my_play_turn,
    play,
    shot,
    turn_taken,
)

PHONE = (390, 844)
#: The labels of weihai's poll answers (R9.2, R9.4-R9.6).
LABELS = {
    "solo": {"明独"},
    "show": {"明保"},
    "rebel": {"造反"},
    "kick": {"踢"},
    "pass": {"不明独", "暗保", "不造反", "不踢"},
}


def counter_before_any_play(page: Page, preset: str) -> None:
    """记牌器 before the first play: per rank, the pack's cards (R7, weihai's 6s taken out)
    less those in one's own hand."""
    pack = pack_counts(Rules.preset(preset))
    hand = page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    for rank in ("R", "6", "A"):
        left = page.locator(f".counter .cell[data-rank='{rank}'] .n").inner_text()
        assert int(left) == pack[rank] - sum(card[0] == rank for card in hand), rank


def own_hand_only(page: Page) -> None:
    """R14: one hand on the page, as many cards as the seat's own count shows."""
    expect(page.locator(".hand")).to_have_count(1)
    count = page.locator(".seat.me .count").inner_text()
    assert count.split()[0] == str(hand_size(page)), count


@pytest.mark.slow
def test_two_people_at_one_table(new_page: Callable[..., Page]) -> None:
    a, b = new_page(), new_page()
    join(a, "甲")
    table = create_table(a, preset="weihai", bots=3)
    join(b, "乙")
    b.locator(f"tr[data-table='{table}'] button.sit").click()
    b.wait_for_selector(".seat.me")
    expect(a.locator(".seat[data-seat='1'] .name")).to_have_text("乙")
    expect(b.locator(".seat.me")).to_have_attribute("data-seat", "1")

    # A quick signal (快捷语) shows as a bubble at the sender's seat on the other screen.
    a.click("button.signal")
    a.click("[data-signal='nice']")
    expect(b.locator(".seat[data-seat='0'] .bubble")).to_have_text("打得漂亮！")

    a.click("button.ready")
    b.click("button.ready")
    # Weihai asks every seat in polls (明独 R9.2, 明保/造反 R9.4-R9.5, 踢 R9.6): a dialog
    # whose choices are in the game's Chinese words.
    # The first person asked may be either of them (the other waits): look at both screens.
    deadline = time.monotonic() + 20
    while not (asked := [p for p in (a, b) if p.locator(".dialog .choice").count()]):
        assert time.monotonic() < deadline, "no role-phase dialog on either screen"
        a.wait_for_timeout(100)
    choices = asked[0].locator(".dialog .choice")
    # Read in one go: the dialog moves on as the poll goes round.
    shown = choices.evaluate_all("els => els.map(e => [e.dataset.action || '', e.innerText])")
    for action, text in shown:
        assert text in LABELS[action], (text, LABELS[action])
    own_hand_only(a)
    own_hand_only(b)
    counter_before_any_play(a, "weihai")
    shot(a, "two-people")

    done = play([a, b], until=".modal.results")
    assert any(what.startswith("dialog:") for what in done), done
    assert done.get("play", 0) > 0, done
    tables = [p.locator(".modal.results table").first.inner_text() for p in (a, b)]
    assert tables[0].replace("（你）", "") == tables[1].replace("（你）", "")


@pytest.mark.slow
def test_reload_mid_game_continues(new_page: Callable[..., Page]) -> None:
    page = new_page()
    join(page, "重连")
    table = create_table(page, bot_delay=0.15)
    page.click("button.ready")
    while turn_taken(page) not in ("play", "pass"):  # R8.5: a pile taken may still come in
        pass
    before = hand_size(page)
    hellos: list[dict] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda frame: hellos.append(json.loads(frame)) if '"hello"' in frame else None,
        ),
    )
    page.reload()
    expect(page).to_have_url(f"{page.url.split('#')[0]}#/table/{table}")
    page.wait_for_selector(".hand .card")
    # The saved seat token and the last event seen: only the missed events come back.
    hello = hellos[0]["d"]
    assert hello["token"] and hello["since"] > 0, hello
    now = hand_size(page)
    assert 0 < now <= before
    own_hand_only(page)
    if turn_taken(page) == "play":
        hand_below(page, now)


def test_reload_during_a_role_dialog_asks_again(new_page: Callable[..., Page]) -> None:
    """A reload while this seat is asked (a role-phase dialog, weihai's polls R9.2–R9.6): the
    page comes back with the same question and answers, the server's prompt kept with the
    view it came with, and no script error."""
    page = new_page()
    join(page, "提问")
    create_table(page, preset="weihai", bot_delay=0.3)
    page.click("button.ready")
    dialog = page.locator(".dialog")
    expect(dialog).to_have_count(1, timeout=30_000)
    asked = dialog.locator(".ask").inner_text()
    page.reload()
    expect(page.locator(".dialog .ask")).to_have_text(asked)
    expect(page.locator(".dialog .choice").first).to_be_visible()


@pytest.mark.slow
def test_server_restart_mid_game_continues(
    new_page: Callable[..., Page], server: LiveServer
) -> None:
    page = new_page()
    join(page, "重启")
    create_table(page, bot_delay=0.15)
    page.click("button.ready")
    turn_taken(page)
    before = hand_size(page)
    server.restart()  # kill -9, then the same database on the same port
    expect(page.locator(".offline-bar")).to_have_count(0, timeout=20_000)
    page.wait_for_selector(".hand .card")
    now = hand_size(page)
    assert 0 < now <= before
    if turn_taken(page) == "play":
        hand_below(page, now)
    own_hand_only(page)


def test_phone_viewport(new_page: Callable[..., Page]) -> None:
    width, height = PHONE
    page = new_page(width, height, phone=True)
    answers: list[dict] = []  # the acks (folded in events or not) and errors received
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda frame: answers.extend(
                m for m in unfold(json.loads(frame)) if m["t"] in ("ack", "error")
            ),
        ),
    )
    join(page, "手机")
    create_table(page)
    page.tap("button.ready")
    my_play_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for selector in ("#btn-hint", "#btn-pass", "#btn-play", ".hand"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
        assert box["y"] + min(box["height"], 60) <= height, (selector, box)
    first = page.locator(".hand .card").first
    edge = {"x": 4, "y": 20}  # the visible strip of an overlapped card
    first.tap(position=edge)
    expect(page.locator(".hand .card.selected")).to_have_count(1)
    page.wait_for_timeout(600)  # not a double tap, which selects the whole rank
    first.tap(position=edge)
    expect(page.locator(".hand .card.selected")).to_have_count(0)
    # Tap 提示, then 出牌 (or 过, as the hint says): the server acknowledges the action.
    page.tap("#btn-hint")
    page.wait_for_selector("#btn-play:enabled, #btn-pass.suggested")
    shot(page, "phone-table")
    before, acks = hand_size(page), len(answers)
    played = page.locator("#btn-play:enabled").count() > 0
    page.tap("#btn-play" if played else "#btn-pass")
    deadline = time.monotonic() + 10
    while len(answers) == acks:
        assert time.monotonic() < deadline, "no answer to the action"
        page.wait_for_timeout(50)
    assert answers[acks]["t"] == "ack", answers[acks]
    if played:
        expect(page.locator(".hand .card")).not_to_have_count(before)


def test_language_switch(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.goto("/")
    nav = page.locator("#top nav a").first
    expect(nav).to_have_text("大厅")
    assert "保皇" in page.title()
    page.click("button.lang")
    expect(nav).to_have_text("Lobby")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert "保皇" in page.title()
    page.reload()  # the choice is remembered
    expect(nav).to_have_text("Lobby")
    join(page, "Ann")
    create_table(page)
    expect(page.locator("button.ready")).to_have_text("Ready")
    shot(page, "english")
    page.click("button.lang")
    expect(page.locator("button.ready")).to_have_text("准备")
    expect(nav).to_have_text("大厅")


def test_a_click_across_a_redraw_still_clicks(new_page: Callable[..., Page]) -> None:
    """A press on 🔊, a bot's move (the table drawn anew, a new 🔊 button), the release: still a
    click, as on any page (clicks.js clicks the button drawn in the pressed one's place). A
    press there and a release elsewhere is no click, redraw or not."""
    page = new_page()
    join(page, "按住")
    create_table(page, bot_delay=0.3)
    page.click("button.ready")
    page.click("button.auto")  # 托管: the bots play this seat too, the game goes on by itself
    button = page.locator("button.sound")
    expect(button).to_have_attribute("aria-pressed", "true")
    # Measured in one step in the page: the bots redraw the table every 0.3 s, and a locator's
    # element may be drawn away between finding it and measuring it.
    box = page.evaluate("document.querySelector('button.sound').getBoundingClientRect().toJSON()")
    on_button = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    redrawn = "() => !document.querySelector('button.sound').dataset.pressed"

    def press_across_a_move(release_at: tuple[float, float]) -> None:
        page.mouse.move(*on_button)
        page.evaluate("document.querySelector('button.sound').dataset.pressed = 'yes'")
        page.mouse.down()
        # A move: the table is drawn anew, the button under the pointer is another element.
        page.wait_for_function(redrawn)
        page.mouse.move(*release_at)
        page.mouse.up()

    press_across_a_move(release_at=on_button)
    expect(button).to_have_attribute("aria-pressed", "false")
    press_across_a_move(release_at=(box["x"] - 200, box["y"] + 200))
    page.wait_for_timeout(300)
    expect(button).to_have_attribute("aria-pressed", "false")


def hinted(page: Page) -> str:
    """What 提示 chose: the selection's note, or ``pass`` when it suggested 过."""
    page.wait_for_selector("#btn-play:enabled, #btn-pass.suggested")
    if page.locator("#btn-pass.suggested").count():
        return "pass"
    return page.locator(".actions .selection").inner_text()


def test_hint_cycles_through_the_legal_moves(new_page: Callable[..., Page], size: Size) -> None:
    """提示 first selects the heuristic's move; pressed again at the same turn, another legal
    move (play enabled, or 过 suggested), and so on round. At a turn where only 过 is legal
    the button says 要不起."""
    page = new_page(*size)
    join(page, "循环")
    create_table(page, bot_delay=0)
    page.click("button.ready")
    cycled = 0
    for _ in range(40):  # turns, until one with a choice has been cycled twice
        my_play_turn(page)
        if page.locator("#btn-pass", has_text="要不起").count():
            page.click("#btn-pass")
            continue
        page.click("#btn-hint")
        first = hinted(page)
        page.click("#btn-hint")
        second = hinted(page)
        assert second != first, (first, second)
        cycled += 1
        if cycled == 2:
            break
        turn_taken(page)
    assert cycled == 2
