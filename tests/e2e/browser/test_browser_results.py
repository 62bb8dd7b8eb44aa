"""R10.3 (revised turn 3) in the results window: a QQ game's winner is the sign of the emperor
side's points, and a note says who pays tribute next by QQ's rule (收贡, 平贡, 进贡)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .browserkit import Size, create_table, in_view, join, my_play_turn, play

OUTCOMES = {"emperor": "皇帝方胜", "rebels": "反贼胜", "draw": "平局"}
TRIBUTE = {"收贡": "emperor", "平贡": "draw", "进贡": "rebels"}


@pytest.mark.slow
def test_r10_3_a_qq_results_window_says_the_winner_and_who_pays_tribute(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    join(page, "小明")
    create_table(page, preset="qq", bots=4)
    page.click("button.ready")
    play([page], until=".modal.results")
    results = page.locator(".modal.results")
    rows = results.locator("table.results-table").first.locator("tbody tr")
    expect(rows).to_have_count(5)
    cells = rows.evaluate_all("trs => trs.map(tr => [...tr.cells].map(td => td.innerText))")
    side = sum(int(points) for _, role, _, points, *_ in cells if not role.startswith("反贼"))
    won = "emperor" if side > 0 else "rebels" if side < 0 else "draw"
    expect(results.locator("h2").first).to_contain_text(OUTCOMES[won])
    note = results.locator(".results-note", has_text="按QQ规则")
    expect(note).to_have_count(1)
    text = note.inner_text()
    assert f"皇帝方得分 {f'{side:+d}' if side else 0}" in text, text
    told = re.search("收贡|平贡|进贡", text.split("；", 1)[1])
    assert told, text
    # the note stands out when QQ's rule and the points disagree
    expect(note).to_have_class(re.compile("rule" if TRIBUTE[told[0]] == won else "warn"))


# ---------------------------------------------------------------- a window that stays readable


#: Notes whether the results window, once shown, was ever gone (the page is drawn anew on
#: every event: a window closed by one would be missing from a draw).
WATCH_WINDOW = """() => {
  const open = () => !!document.querySelector(".modal.results");
  const seen = (window.windowSeen = { shown: open(), gone: false });
  const note = () => {
    if (open()) seen.shown = true;
    else if (seen.shown) seen.gone = true;
  };
  new MutationObserver(note).observe(document.getElementById("app"), {
    childList: true,
    subtree: true,
  });
}"""


def since_game_two(page: Page) -> int:
    """The log's lines after 第 2 局开始 (the log lists the newest first); -1 before it, or
    after 60 more lines."""
    lines = page.locator(".log li").all_inner_texts()
    return lines.index("第 2 局开始") if "第 2 局开始" in lines else -1


def table_seq(page: Page) -> int:
    """The number of the last table event the page has taken in (kept for a reload)."""
    return int(page.evaluate(TABLE_SEQ))


TABLE_SEQ = """() => {
  const key = Object.keys(sessionStorage).find((k) => k.startsWith("bh.table."));
  return JSON.parse(sessionStorage.getItem(key)).seq;
}"""


@pytest.mark.slow
def test_results_stay_open_while_the_next_game_goes_on(
    new_page: Callable[..., Page], size: Size
) -> None:
    page = new_page(*size)
    join(page, "看成绩")
    create_table(page, bots=4, bot_delay=0, timer=0, games=2)  # untimed: the game waits for me
    page.click("button.ready")
    play([page], until=".modal.results")
    page.evaluate(WATCH_WINDOW)
    results = page.locator(".modal.results")
    expect(results.locator("h2").first).to_contain_text("第 1 局结果")

    # Game 2 is dealt and played behind the window up to this seat's first decision, which
    # the window tells (the table waits for it): it was never closed meanwhile (with bots at
    # no delay that may all be over before the watch begins: the log says game 2 is on).
    bar = results.locator(".results-next.my-turn")
    expect(bar).to_contain_text("轮到你了", timeout=60_000)
    expect(bar).to_contain_text("第 2 局已经开始")
    assert since_game_two(page) >= 1  # the deal at least, and any decisions before mine
    seen = page.evaluate("window.windowSeen")
    assert seen["shown"] and not seen["gone"], seen
    expect(results.locator("h2").first).to_contain_text("第 1 局结果")
    assert in_view(page, ".modal.results .to-table")

    # Back to the table: the decision is there to take.
    results.locator(".to-table").click()
    expect(results).to_have_count(0)
    expect(page.locator(".dialog, #btn-hint:enabled").first).to_be_visible()
    my_play_turn(page)

    # 成绩 reopens the last game's full table and the match table.
    page.click(".topbar button.scores")
    expect(results.locator("h2").first).to_contain_text("第 1 局结果")
    game = results.locator("table.results-table").first
    expect(game.locator("tbody tr")).to_have_count(5)
    expect(game.locator("thead")).to_contain_text("身份")
    expect(results.locator("h2").nth(1)).to_contain_text("本场至今（1 局）")
    match = results.locator("table.match-table")
    expect(match.locator("thead th")).to_have_text(["玩家", "第1局", "总分"])
    expect(match.locator("tbody tr")).to_have_count(5)
    points = [row[3] for row in table_cells(game)]
    firsts = [row[1] for row in table_cells(match)]
    assert points == firsts, (points, firsts)

    # Played by the keyboard with the window open: the game goes on, the window stays.
    page.evaluate(WATCH_WINDOW)
    start = table_seq(page)
    for _ in range(3):
        expect(page.locator("#btn-hint:enabled")).to_have_count(1, timeout=60_000)
        before = table_seq(page)
        page.keyboard.press("h")
        page.wait_for_selector("#btn-play:enabled, #btn-pass.suggested")
        page.keyboard.press("Enter" if page.locator("#btn-play:enabled").count() else "p")
        for _ in range(200):  # the move's event, at most 10 s
            if table_seq(page) > before:
                break
            page.wait_for_timeout(50)
        assert table_seq(page) > before, "the keyboard's move was not taken"
        expect(results).to_have_count(1)
    assert table_seq(page) >= start + 3
    seen = page.evaluate("window.windowSeen")
    assert seen["shown"] and not seen["gone"], seen
    results.locator("button.close").click()
    expect(results).to_have_count(0)


def table_cells(table: Locator) -> list[list[str]]:
    rows = table.locator("tbody tr")
    return rows.evaluate_all("trs => trs.map(tr => [...tr.cells].map(td => td.innerText))")
