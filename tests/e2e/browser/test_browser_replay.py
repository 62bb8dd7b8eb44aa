"""The replay (回放) of a match's second game: it starts before the tribute (R12 进贡), shows
each card paid and handed over, and its last step shows the results (R10) as the table's
results window did, in Chinese and in English."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .browserkit import create_table, join, one_game_in_history, play, shot

ROLES_ZH = {"皇帝", "保皇派", "反贼", "皇帝 · 明独", "皇帝 · 暗独"}
ROLES_EN = {"emperor", "guard", "rebel", "emperor · open solo", "emperor · dark solo"}
PLACES_ZH = ["头科", "二科", "三科", "二落", "大落"]
PLACES_EN = ["1st", "2nd", "3rd", "4th", "5th"]


def table_cells(table: Locator) -> list[list[str]]:
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(5)
    return rows.evaluate_all("trs => trs.map(tr => [...tr.cells].map(td => td.innerText))")


def check_result(page: Page, roles: set[str], places: list[str], points: list[int]) -> None:
    """The last step's results: a row per seat, its role, place and points."""
    panel = page.locator(".replay-result")
    expect(panel).to_be_visible()
    expect(panel.locator(".results-note.scoring")).to_contain_text("T")
    cells = table_cells(panel.locator("table.results-table"))
    assert {row[1] for row in cells} <= roles, cells
    assert sorted(row[2] for row in cells) == sorted(places), cells
    assert [int(row[3]) for row in cells] == points, cells
    assert sum(int(row[3]) for row in cells) == 0


def step_to(page: Page, at: int) -> None:
    page.locator(".controls input[type=range]").fill(str(at))
    expect(page.locator(".step-label")).to_contain_text(f" {at + 1}/")


def cards_shown(page: Page) -> int:
    hands = page.locator(".rseat .open-hand .card").count()
    return hands + page.locator(".replay-centre .pile .card").count()


@pytest.mark.slow
def test_the_replay_of_game_two_shows_the_tribute_and_the_result(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    join(page, "小明")
    create_table(page, games=2, bots=4, bot_delay=0)
    page.click("button.ready")
    play([page], until=".modal.results .results-table + h2", limit=240)  # the match's totals
    modal = page.locator(".modal.results")
    expect(modal.locator("h2").first).to_contain_text("第 2 局结果")
    points = [int(row[3]) for row in table_cells(modal.locator("table.results-table").first)]
    modal.locator("button.close").click()

    page.click("#top nav a[href='#/history']")
    row = page.locator(".history tbody tr").first
    expect(row.locator("td.num")).to_have_text(f"+{points[0]}" if points[0] > 0 else str(points[0]))
    game_id = row.get_attribute("data-game")
    assert game_id and game_id.endswith("-2"), game_id
    row.locator("a.replay").click()
    label = page.locator(".step-label")
    expect(label).to_contain_text("第 1/")
    total = int(re.search(r"/(\d+)", label.inner_text()).group(1))  # type: ignore[union-attr]
    data = page.request.get(f"/api/games/{game_id}/replay").json()
    assert len(data["steps"]) == total
    assert data["result"]["scores"] == points
    steps = data["steps"]
    handed = [i for i, s in enumerate(steps) if any(e["kind"] == "tribute" for e in s["events"])]
    # the first deal's tribute (a void deal, R8.6, pays it again later)
    paid = [
        e
        for s in steps[: handed[0] if handed else 0]
        for e in s["events"]
        if e["kind"] == "tribute_paid"
    ]
    previous = data["record"]["previous"]
    did = page.locator(".replay-centre .did")

    if previous["outcome"] == "draw":  # R12: a draw, no tribute (rare)
        assert not paid
    else:
        # The first step: the hands as dealt, before the tribute, who pays how many.
        assert paid
        expect(did).to_contain_text("发牌后，进贡前")
        expect(did).to_contain_text("进贡：")
        expect(page.locator(".replay-centre .phase")).to_contain_text("进贡")
        assert cards_shown(page) == 216
        shot(page, "replay-tribute")
        # Each card paid, its payer's panel saying which; then the cards handed over.
        for n, event in enumerate(paid):
            page.keyboard.press("ArrowRight")
            expect(label).to_contain_text(f"第 {n + 2}/")
            expect(did).to_contain_text("进贡")
            payer = page.locator(f".rseat[data-seat='{event['seat']}'] .tribute-note")
            expect(payer).to_contain_text("进贡")
        page.keyboard.press("ArrowRight")
        expect(did).to_contain_text("的贡牌")
        expect(did).to_contain_text("交给")
        expect(page.locator(".rseat .tribute-note").first).to_contain_text("收到")
        shot(page, "replay-handover")
        assert cards_shown(page) == 216
        page.keyboard.press("ArrowRight")
        after = [e["kind"] for e in steps[handed[0] + 1]["events"]]
        if "void" in after:  # R8.6: every candidate declined by itself (no triple), dealt again
            expect(did).to_contain_text("重新发牌")
        else:
            expect(did).to_contain_text("进贡后")

    # The last step: the results, as the results window said them.
    step_to(page, total - 1)
    check_result(page, ROLES_ZH, PLACES_ZH, points)
    names = [row[0] for row in table_cells(page.locator(".replay-result table"))]
    assert names == ["小明", "机器人2", "机器人3", "机器人4", "机器人5"], names  # from 1
    expect(page.locator(".replay-result h3")).to_contain_text("第 2 局结果")
    shot(page, "replay-result")

    # In English the page is drawn again at the same step.
    page.click("button.lang")
    expect(page.locator(".step-label")).to_contain_text(f"step {total}/{total}")
    check_result(page, ROLES_EN, PLACES_EN, points)
    names = [row[0] for row in table_cells(page.locator(".replay-result table"))]
    assert names == ["小明", "Bot 2", "Bot 3", "Bot 4", "Bot 5"], names
    expect(page.locator(".replay-result h3")).to_contain_text("Game 2 result")
    if paid:
        step_to(page, 0)
        expect(did).to_contain_text("before the tribute")
        expect(did).to_contain_text("tribute (进贡)")
        step_to(page, 1)
        expect(did).to_contain_text("pays tribute")
        expect(page.locator(".replay-result")).to_have_count(0)


@pytest.mark.slow
def test_the_replay_analyses_the_players_seat(new_page: Callable[..., Page]) -> None:
    """复盘 in the replay: the player's own seat is offered first; while the server weighs it
    the page shows its progress, then each decision's moves and loss, the summary and the
    chart; a decision's move number takes the replay to that move's step."""
    page = new_page()
    one_game_in_history(page, "小红")
    page.locator(".history tbody tr").first.locator("a.replay").click()
    panel = page.locator("section.analysis")
    expect(panel).to_contain_text("复盘")
    expect(panel.locator("select.analysis-seat")).to_have_value("0")
    panel.locator("button.analyse").click()
    rows = panel.locator(".analysis-table tbody tr")
    expect(rows.first).to_be_visible(timeout=120_000)
    expect(panel.locator(".analysis-summary")).to_contain_text("个决定")
    expect(panel.locator("svg.analysis-chart polyline")).to_have_count(1)
    shot(page, "replay-analysis")
    index = int(rows.last.get_attribute("data-index") or "-1")
    assert index >= 0
    rows.last.locator("button.go").click()
    label = page.locator(".step-label")
    total = int(re.search(r"/(\d+)", label.inner_text()).group(1))  # type: ignore[union-attr]
    at = int(re.search(r"(\d+)/", label.inner_text()).group(1))  # type: ignore[union-attr]
    assert 1 < at <= total
    page.click("button.lang")
    expect(page.locator("section.analysis .analysis-summary")).to_contain_text("decisions")
