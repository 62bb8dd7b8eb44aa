"""The page's heartbeat (conn.js): a ping every HEARTBEAT ms, answered by a pong, so that a
socket whose node is paused or cut off behind a proxy is found silent and opened again (the
browser exposes no WebSocket pings of its own)."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, WebSocket, expect

from helpers.servers import LiveServer

from .browserkit import create_table, join


def wait_until(page: Page, done: Callable[[], bool], limit: float = 90) -> None:
    """Let the page run until ``done()`` (what it waits for is the page's own timers: a
    heartbeat, the silence bound), failing only past a generous ``limit`` of seconds."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"still waiting after {limit} s"
        page.wait_for_timeout(100)


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
    wait_until(page, lambda: "pong" in heard)  # the table itself is idle: nothing else comes
    assert sent[0] == "hello" and "ping" in sent, sent


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
    assert server.proc is not None and len(hellos) == 1
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:  # the page finds its socket silent and says so (then tries a new one)
        wait_until(page, lambda: page.locator(".offline-bar").count() > 0)
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    wait_until(page, lambda: len(hellos) >= 2)  # a new socket said hello
    expect(page.locator(".seat.me")).to_have_count(1)
