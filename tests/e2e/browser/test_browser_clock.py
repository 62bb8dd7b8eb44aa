"""Timed tables: a person who does nothing or turns 托管 on still sees the game end (R13); the
results window stays up across the next game's start; the turn countdown is the server's
(after a reload too); a spectator joining mid-game sees the game's log."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .browserkit import Size, clock_at, create_table, in_view, join, my_turn, results_rows, shot

#: A whole game of bots with no delay, and the person's turns until the timer puts them on 托管.
GAME = 120_000
UNSCORED = "所有玩家都在托管，本局不计分"

#: Records each (results title, game 2 begun) the page shows, to see when the window closes.
WATCH_RESULTS = """() => {
  window.resultsSeen = [];
  const note = () => {
    const title = document.querySelector(".modal.results h2")?.textContent ?? null;
    const second = document.querySelector(".log")?.textContent.includes("第 2 局开始") ?? false;
    const last = window.resultsSeen.at(-1);
    if (!last || last[0] !== title || last[1] !== second) window.resultsSeen.push([title, second]);
  };
  new MutationObserver(note).observe(document.getElementById("app"), {
    childList: true,
    subtree: true,
  });
}"""


def sit_at_timed_table(page: Page, name: str, timer: int, games: int = 1) -> str:
    join(page, name)
    table = create_table(page, timer=timer, games=games)
    page.click("button.ready")
    return table


def unscored_results(page: Page, name: str) -> None:
    """The game's results: every seat by name, and nobody scored (the only person on 托管)."""
    results = page.locator(".modal.results")
    expect(results).to_have_count(1, timeout=GAME)
    rows = results_rows(page)
    assert rows[0][0] == f"{name}（你）", rows
    assert not any(r[0].startswith("座位") for r in rows), rows
    assert [r[1] for r in rows] == [0] * 5, rows
    expect(results).to_contain_text(UNSCORED)


def test_idle_person_is_played_for(new_page: Callable[..., Page]) -> None:
    page = new_page()
    sit_at_timed_table(page, "发呆", timer=2)
    # Doing nothing: the turn timer runs out, 托管 plays the seat to the end of the game.
    unscored_results(page, "发呆")
    expect(page.locator(".seat.me .tag.auto")).to_have_count(1)
    shot(page, "results-unscored")


def test_auto_on_own_turn_plays_on(new_page: Callable[..., Page]) -> None:
    page = new_page()
    sit_at_timed_table(page, "托管", timer=15)  # the click comes long before a timeout
    deadline = time.monotonic() + 30
    while not my_turn(page):
        assert time.monotonic() < deadline, "never this seat's turn"
        page.wait_for_timeout(50)
    auto = page.locator("button.auto")
    auto.click()
    expect(auto).to_have_attribute("aria-pressed", "true")
    unscored_results(page, "托管")


@pytest.mark.slow
def test_results_stay_across_the_next_game(new_page: Callable[..., Page]) -> None:
    page = new_page()
    sit_at_timed_table(page, "看结果", timer=2, games=2)
    page.evaluate(WATCH_RESULTS)
    # The idle person is on 托管 from the first timeout on: no decision of theirs closes it.
    results = page.locator(".modal.results")
    expect(results).to_contain_text("比赛总分", timeout=2 * GAME)
    seen = page.evaluate("window.resultsSeen")
    shown = seen[next(i for i, (title, _) in enumerate(seen) if title) :]
    assert all(title for title, _ in shown), seen  # never closed by itself
    assert any("第 1 局" in title and second for title, second in shown), seen
    assert "第 2 局" in shown[-1][0], seen
    results.locator("button.close").click()
    expect(results).to_have_count(0)


def test_spectator_sees_the_log(new_page: Callable[..., Page]) -> None:
    player, watcher = new_page(), new_page()
    table = sit_at_timed_table(player, "主人", timer=0)
    player.wait_for_selector(".mine.my-turn")  # untimed: the game waits for this person
    join(watcher, "看客")
    watcher.goto(f"/#/table/{table}")
    log = watcher.locator(".log li")
    expect(log.last).to_have_text("第 1 局开始")
    assert any(line.startswith("发牌（第 1 副）") for line in log.all_inner_texts())
    expect(watcher.locator(".seat.me")).to_have_count(0)
    shot(watcher, "spectator")


def test_reload_keeps_the_servers_countdown(new_page: Callable[..., Page]) -> None:
    timer = 12
    page = new_page()
    sit_at_timed_table(page, "刷新", timer=timer)
    page.wait_for_selector(".mine.my-turn")
    seat = int(page.locator(".seat.me").get_attribute("data-seat") or 0)
    assert clock_at(page, seat) <= timer
    page.wait_for_timeout(3_000)
    page.reload()
    page.wait_for_selector(".mine.my-turn")
    # The server's remaining time, not the full timer again.
    left = clock_at(page, seat)
    assert 0 < left <= timer - 2, left
    shot(page, "countdown")


def test_auto_shows_a_banner_and_log_lines(new_page: Callable[..., Page], size: Size) -> None:
    """托管 you cannot miss: switched on, a banner takes the place of the selection note with
    a button that takes the seat back, and the log says who went on 托管 and why; taken back,
    the banner goes and the log says so. A turn timer running out is told with its reason."""
    page = new_page(*size)
    join(page, "横幅")
    create_table(page, timer=0, bot_delay=2)  # bots slow enough to take the seat back
    page.click("button.ready")
    page.wait_for_selector(".mine.my-turn")  # untimed: the game waits for this person
    page.click("button.auto")
    banner = page.locator(".mine .auto-banner")
    expect(banner).to_contain_text("托管中")
    expect(page.locator(".log li", has_text="横幅（你） 开启托管")).to_have_count(1)
    assert in_view(page, ".mine .auto-banner button.cancel-auto")
    shot(page, f"auto-banner-{size.name}")
    banner.locator("button.cancel-auto").click()
    expect(banner).to_have_count(0)
    expect(page.locator("button.auto")).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".log li", has_text="横幅（你） 取消托管")).to_have_count(1)


def test_a_timeout_is_told_in_the_log(new_page: Callable[..., Page]) -> None:
    page = new_page()
    sit_at_timed_table(page, "超时者", timer=2)
    expect(page.locator(".log li", has_text="超时者（你） 超时，托管了")).to_have_count(
        1, timeout=GAME
    )
