"""R10.3 (revised turn 3) in the results window: a QQ game's winner is the sign of the emperor
side's points, and a note says who pays tribute next by QQ's rule (收贡, 平贡, 进贡)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .browserkit import create_table, join, play

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
