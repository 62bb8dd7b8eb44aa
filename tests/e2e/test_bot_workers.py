"""Bots thinking in worker processes on the real server (``serve --bot-workers``): a person's
match against four ``search`` bots played out through the pool, a worker killed by ``kill -9``
between moves, and costly tables beyond a share or the node's budget refused over HTTP."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from e2e.test_server import play_hints, seated
from helpers.servers import LiveServer, create_table, guest


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        "--bot-workers",
        "1",
        "--bot-share",
        "1.5",
        "--bot-budget",
        "2.5",
    ).start()
    yield live
    live.stop()


def workers(server: LiveServer) -> list[int]:
    """The server's bot worker processes (its children running ``baohuang.server.botworker``)."""
    assert server.proc is not None
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == server.proc.pid and b"baohuang.server.botworker" in cmdline:
            found.append(int(entry.name))
    return found


def metric(server: LiveServer, name: str) -> float:
    text = httpx.get(f"{server.url}/metrics").text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def test_a_match_against_search_bots_is_thought_in_a_worker_that_may_die(
    server: LiveServer,
) -> None:
    """The four bots of a ``search`` table think in the server's worker process; killed with
    ``kill -9`` mid-match, it is replaced and the match goes on to its end."""
    _, player = seated(server, games=2, bot_level="search")
    assert play_hints(player, 3) == 3
    while not workers(server):  # the person may have acted alone so far (登基, the call, a lead)
        assert play_hints(player, 1) == 1, "the match ended before a bot thought"
    (first,) = workers(server)
    os.kill(first, signal.SIGKILL)
    assert play_hints(player) > 0
    assert player.events[-1]["kind"] == "match_over"
    assert len(player.events[-1]["table"]["results"]) == 2
    (second,) = workers(server)
    assert second != first
    assert metric(server, "baohuang_bot_worker_restarts_total") == 1


def test_costly_bot_tables_beyond_a_share_or_the_budget_are_refused(server: LiveServer) -> None:
    """A table of ``strong`` bots at zero delay asks for about a core: a user's second one
    passes the share (1.5), a third user's the node's budget (2.5, two tables made); each
    refusal says so in both languages, and the same table at the default pace is welcome."""
    first, second, third = guest(server, "甲"), guest(server, "乙"), guest(server, "丙")
    costly = {"bots": 4, "bot_level": "strong", "bot_delay": 0}
    create_table(first, **costly)
    refused = first.post("/api/tables", json=costly)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert detail["code"] == "bot_share" and "算力" in detail["zh"] and "share" in detail["message"]
    create_table(second, **costly)
    full = third.post("/api/tables", json=costly)
    assert full.status_code == 503 and full.json()["detail"]["code"] == "bot_budget"
    create_table(first, **{**costly, "bot_delay": 0.8})  # a tenth of a core: it fits
