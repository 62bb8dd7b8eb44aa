"""The page's heartbeat (conn.js): a ping every HEARTBEAT ms, answered by a pong, so that a
socket whose node is paused or cut off behind a proxy is found silent and opened again (the
browser exposes no WebSocket pings of its own)."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, WebSocket, expect

from helpers.servers import LiveServer

from .browserkit import create_table, join


@pytest.mark.slow
def test_the_table_page_pings_and_hears_the_pong(new_page: Callable[..., Page]) -> None:
    page = new_page()
    sent: list[str] = []
    heard: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", lambda frame: sent.append(json.loads(frame)["t"]))
        ws.on("framereceived", lambda frame: heard.append(json.loads(frame)["t"]))

    page.on("websocket", watch)
    join(page, "心跳")
    create_table(page, bots=4)
    heartbeat = page.evaluate("import('/static/conn.js').then((m) => m.HEARTBEAT)")
    page.wait_for_timeout(heartbeat + 2000)  # one heartbeat's time: the table itself is idle
    assert sent[0] == "hello" and "ping" in sent, sent
    assert "pong" in heard, heard


@pytest.mark.slow
def test_a_silent_socket_is_opened_again(server: LiveServer, new_page: Callable[..., Page]) -> None:
    """The server paused past SILENCE (SIGSTOP: its sockets stay open and say nothing, as a
    node paused behind nginx did for 60 s): the page takes its socket for lost and says
    hello again on a new one, which the server answers once it runs again."""
    page = new_page()
    hellos: list[int] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", lambda frame: hellos.append(1) if '"hello"' in str(frame) else None)

    page.on("websocket", watch)
    join(page, "暂停")
    create_table(page, bots=4)
    silence = page.evaluate("import('/static/conn.js').then((m) => m.SILENCE + m.HEARTBEAT)")
    assert server.proc is not None and len(hellos) == 1
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        page.wait_for_timeout(silence + 3000)
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    expect(page.locator(".seat.me")).to_have_count(1)
    page.wait_for_timeout(2000)
    assert len(hellos) >= 2  # a new socket said hello
