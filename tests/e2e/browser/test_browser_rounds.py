"""The browser table's rounds, motion and sound: a finished round stays on show until the next
lead (R6.3, R6.5), 上一轮 shows it on demand in both languages, a play flies to the centre
(not under reduced motion), and sounds mark a play, a pass, your turn and game over unless
muted, the choice kept across reloads."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .browserkit import create_table, join, my_play_turn, play, shot, take_turn, turn_taken

#: A round's rows as shown: (seat, name, the cards played or "pass").
ROWS = """lis => lis.map(li => [
  Number(li.dataset.seat),
  li.querySelector('.who').innerText,
  li.querySelector('.passed') ? 'pass'
    : [...li.querySelectorAll('.card')].map(c => c.dataset.card).join(' '),
])"""


def rows(page: Page, selector: str) -> list[tuple[int, str, str]]:
    return [tuple(row) for row in page.locator(selector).evaluate_all(ROWS)]


#: Read at once, as the table may move on between two reads.
KEPT_AT_MY_LEAD = """!!document.querySelector('.kept-round')
  && !!document.querySelector('#btn-hint:enabled')
  && !document.querySelector('.dialog')"""


def kept_at_my_lead(page: Page, limit: float = 240) -> None:
    """Play (by the hint) until this seat is to lead a new round, the finished one still on
    show: nothing moves then until this seat plays. A deal may give this seat no round to
    take: the table is a match of three, and its next game is played on."""
    deadline = time.monotonic() + limit
    while not page.evaluate(KEPT_AT_MY_LEAD):
        assert time.monotonic() < deadline, "this seat led no round"
        results = page.locator(".modal.results")
        if results.count():  # a game over: on to the next
            results.locator("button.close").click()
        elif take_turn(page) is None:
            page.wait_for_timeout(40)


def seat_turns(page: Page) -> dict[int, str]:
    """What each seat box shows as its part in the kept round (cards, or "pass")."""
    shown = {}
    for s in range(5):
        kept = page.locator(f".seat[data-seat='{s}'] .last .kept")
        if kept.count():
            cards = kept.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.card)")
            shown[s] = " ".join(cards) if cards else "pass"
    return shown


def sorted_cards(cards: str) -> list[str]:
    return sorted(cards.split())


@pytest.mark.slow
def test_kept_round_and_last_round_popover(new_page: Callable[..., Page]) -> None:
    page = new_page(1280, 720)
    join(page, "小明")
    create_table(page, bot_delay=0.5, games=3)
    page.click("button.ready")
    kept_at_my_lead(page)

    # R6.3: the round ended with passes after its last play, whose seat took it; this seat
    # leads the next (R6.5 接风 when the taker was out). It stays on show, dimmed, labelled.
    area = page.locator(".play-area.kept-round")
    expect(area.locator(".kept-tag")).to_have_text("上一轮")
    shot(page, "rounds-kept-desktop")
    kept = rows(page, ".kept-round ol.trick li")  # its last turns (8 at most)

    # 上一轮 (the L key, or the button): the whole round, who played what in order.
    page.keyboard.press("l")
    pop = page.locator(".rounds-pop")
    expect(pop).to_be_visible()
    expect(pop.locator(".rounds-head strong")).to_have_text("上一轮")
    whole = rows(page, ".rounds-pop li")
    assert len(whole) >= 2 and whole[-1][2] == "pass", whole
    assert kept == whole[-8:], (kept, whole)
    taker = [row for row in whole if row[2] != "pass"][-1]
    summary = area.locator(".lead-who").inner_text()
    assert f"{taker[1]} 最大" in summary, (summary, taker)
    assert pop.locator(".rounds-sum").inner_text() in summary
    expect(pop.locator("li.top")).to_have_count(1)
    expect(area.locator(".lead-next")).to_have_text("小明（你） 领出")
    top = area.locator(".kept-cards .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(top) == sorted_cards(taker[2])
    # Each seat box shows its last turn of that round, as the round's list has it.
    assert seat_turns(page) == {seat: cards for seat, _, cards in whole}
    page.wait_for_timeout(300)  # the popover's entrance, for the picture
    shot(page, "rounds-popover-desktop")
    page.keyboard.press("Escape")
    expect(pop).to_have_count(0)
    page.click("button.rounds-open")
    expect(pop).to_be_visible()
    page.locator(".rounds-back").click(position={"x": 5, "y": 5})  # outside the popover
    expect(pop).to_have_count(0)

    # A reload that starts over from the server's snapshot (the game's events so far) keeps
    # it on show too.
    page.evaluate("sessionStorage.clear()")
    page.reload()
    expect(area.locator(".kept-tag")).to_have_text("上一轮")
    assert rows(page, ".kept-round ol.trick li") == kept
    assert seat_turns(page) == {seat: cards for seat, _, cards in whole}

    # In English: the same round, the words and the bots' names in English.
    page.click("button.lang")
    expect(area.locator(".kept-tag")).to_have_text("Last round")
    expect(area.locator(".lead-next")).to_have_text("小明 (you) leads")
    page.click("button.rounds-open")
    expect(pop.locator(".rounds-head strong")).to_have_text("Last round")
    english = rows(page, ".rounds-pop li")
    assert [(s, c) for s, _, c in english] == [(s, c) for s, _, c in whole]
    for seat, name, cards in english:
        assert name == ("小明 (you)" if seat == 0 else f"Bot {seat + 1}"), name  # from 1
        if cards == "pass":
            expect(pop.locator(f"li[data-seat='{seat}'] .passed").first).to_have_text("pass")
    expect(pop.locator(".rounds-sum")).to_contain_text(" took it")
    page.wait_for_timeout(300)
    shot(page, "rounds-popover-english")
    page.keyboard.press("Escape")

    # This seat leads: its play replaces the kept round, on the seats too.
    assert take_turn(page) == "play"
    deadline = time.monotonic() + 10
    while area.count():
        assert time.monotonic() < deadline, "the kept round is still on show"
        page.wait_for_timeout(20)
    expect(page.locator(".play-area .lead-who").first).to_contain_text("小明 (you)")
    assert not page.locator(".seat .last .kept").count()
    # 上一轮 still shows the round before (this one is in progress).
    page.keyboard.press("l")
    assert rows(page, ".rounds-pop li") == english


@pytest.mark.slow
def test_kept_round_on_a_phone(new_page: Callable[..., Page]) -> None:
    page = new_page(390, 844, phone=True)
    join(page, "手机")
    create_table(page, bot_delay=0.5, games=3)
    page.tap("button.ready")
    kept_at_my_lead(page)
    expect(page.locator(".kept-round .kept-tag")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "rounds-kept-phone")
    page.tap("button.rounds-open")
    pop = page.locator(".rounds-pop")
    expect(pop).to_be_visible()
    box = pop.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    page.wait_for_timeout(300)
    shot(page, "rounds-popover-phone")
    page.tap(".rounds-close")
    expect(pop).to_have_count(0)


def motions_seen(page: Page, want: int, attr: str, limit: float = 90) -> bool:
    """Play until the page root counts ``want`` flights in ``attr``; whether a flying play
    (data-animating) was caught on the way."""
    deadline = time.monotonic() + limit
    flying = False
    while int(page.locator("html").get_attribute(attr) or 0) < want:
        assert time.monotonic() < deadline, f"only {page.locator('html').get_attribute(attr)}"
        flying = flying or page.locator("[data-animating='play']").count() > 0
        if take_turn(page) is None:
            page.wait_for_timeout(20)
    return flying


def test_a_play_flies_in_unless_reduced_motion(new_page: Callable[..., Page]) -> None:
    page = new_page()
    join(page, "动")
    create_table(page, bot_delay=0.3)
    page.click("button.ready")
    my_play_turn(page)
    assert motions_seen(page, 8, "data-motions")
    assert page.locator("html").get_attribute("data-motions-skipped") is None

    still = new_page(reduced_motion="reduce")
    join(still, "静")
    create_table(still, bot_delay=0.3)
    still.click("button.ready")
    my_play_turn(still)
    assert not motions_seen(still, 4, "data-motions-skipped")
    assert still.locator("html").get_attribute("data-motions") is None


def sounds(page: Page) -> list[str]:
    return page.evaluate("window.__bhSounds || []")


@pytest.mark.slow
def test_sounds_and_the_mute_button(new_page: Callable[..., Page]) -> None:
    page = new_page()
    join(page, "声")
    page.evaluate("localStorage.setItem('bh.sound.trace', 'on')")
    create_table(page, bot_delay=0.1)
    button = page.locator("button.sound")
    expect(button).to_have_attribute("aria-pressed", "true")  # on by default
    expect(button).to_have_attribute("title", "关闭声音")

    # Muted, and still muted after a reload: no sound at all.
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_attribute("title", "打开声音")
    page.reload()
    expect(page.locator("button.sound")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('bh.sound')") == "off"
    page.click("button.ready")
    for _ in range(2):  # turns, not plays: a seat may pass the whole game (every hint a pass)
        turn_taken(page)
    assert sounds(page) == []
    assert page.locator("html").get_attribute("data-last-sound") is None

    # On again: a play, a pass, this seat's turn and game over each sound.
    page.click("button.sound")
    expect(page.locator("button.sound")).to_have_attribute("aria-pressed", "true")
    play([page], until=".modal.results")
    heard = sounds(page)
    assert {"play", "pass", "turn", "over"} <= set(heard), heard
    assert heard.count("over") == 1 and heard[-1] == "over", heard
    assert page.evaluate("localStorage.getItem('bh.sound')") == "on"
