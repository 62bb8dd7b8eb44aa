"""The lobby's list in pages (issue "Hardening": a flood of tables made it one 694 KB answer):
上一页/下一页 move through them, the tables waiting for players first."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from baohuang.server.lobby import LOBBY_PAGE
from helpers.servers import LiveServer, create_table, guest

from .browserkit import join


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server that lets this address make more tables than the per-address limit."""
    options = ("--exempt", "127.0.0.1")
    live = LiveServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "s.log", *options).start()
    yield live
    live.stop()


@pytest.mark.slow
def test_the_lobby_pages_through_many_tables(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    http = guest(server, "建桌人")
    for _ in range(LOBBY_PAGE + 2):
        create_table(http, bots=2)
    fuller = create_table(http, bots=4)["id"]  # one seat left: listed first
    page = new_page()
    join(page, "看桌人")
    rows = page.locator(".panel.tables tbody tr")
    expect(rows).to_have_count(LOBBY_PAGE)
    expect(rows.first).to_have_attribute("data-table", fuller)
    pager = page.locator(".panel.tables .pager")
    expect(pager).to_contain_text(f"第 1/2 页，共 {LOBBY_PAGE + 3} 张牌桌")
    expect(pager.locator("button.prev")).to_be_disabled()
    pager.locator("button.next").click()
    expect(rows).to_have_count(3)
    expect(pager).to_contain_text("第 2/2 页")
    expect(pager.locator("button.next")).to_be_disabled()
    pager.locator("button.prev").click()
    expect(rows).to_have_count(LOBBY_PAGE)
