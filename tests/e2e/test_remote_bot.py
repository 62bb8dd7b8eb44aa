"""``baohuang bot``: a bot in its own process joins a table of the real server in a subprocess,
plays its seat to the end of the match, and comes back after the server restarts."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.servers import SERVE, LiveServer, Player, create_table, guest


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log").start()
    yield live
    live.stop()


def remote_bot(server: LiveServer, table: str, *options: str) -> subprocess.Popen[str]:
    """``baohuang bot`` for ``table`` as a subprocess, its output kept."""
    args = ["bot", "--url", server.url, "--table", table, *options]
    return subprocess.Popen(
        [sys.executable, "-c", SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_remote_bot_plays_the_fifth_seat_to_the_end(server: LiveServer) -> None:
    http = guest(server, "房主")
    table = create_table(http, bots=4)
    bot = remote_bot(server, table["id"], "--bot", "heuristic", "--name", "远方")
    out, err = bot.communicate(timeout=120)
    assert bot.returncode == 0, err
    assert "入座 seated: 座位 seat 0" in out
    assert "第 1 局结束 game 1 over" in out and "整场结束 match over" in out
    info = http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "finished" and len(info["results"]) == 1
    seat = info["seats"][0]
    assert seat["name"] == "远方" and seat["user"] is not None and seat["bot"] is None


def test_a_remote_bot_comes_back_after_a_server_restart(server: LiveServer) -> None:
    http = guest(server, "房主")
    # The server's bots wait 50 ms a move, so the second game lasts seconds and the kill lands
    # inside it (with no delay it could end before the kill: a CI run saw the match over first).
    table = create_table(http, bots=4, games=2, bot_delay=0.05)
    watcher = Player(server, table["id"])
    watcher.hello()
    bot = remote_bot(server, table["id"], "--bot", "random", "--seed", "7")
    try:
        watcher.until(lambda m: m["t"] == "event" and m["d"]["kind"] == "game_over", 60)
        server.restart()  # kill -9 during the match, then the same database again
        out, err = bot.communicate(timeout=120)
    finally:
        bot.kill()
    assert bot.returncode == 0, err
    assert "重新连上 reconnected" in out and "整场结束 match over" in out
    info = http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "finished" and len(info["results"]) == 2
