"""``baohuang loadtest`` against the real server in a subprocess."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from baohuang.server.loadtest import LoadTestError, load_test, loadtest
from servers import LiveServer, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("load")
    live = LiveServer("sqlite:///" + str(root / "x.db"), root / "log").start()
    try:
        yield live
    finally:
        live.stop()


def test_tables_play_their_games(server: LiveServer) -> None:
    seen: list[int] = []
    report = asyncio.run(load_test(server.url, 3, 1, bot="heuristic", progress=seen.append))
    assert report.errors == 0, report.first_errors
    assert report.games_completed == report.games_expected == 3
    assert seen == [1, 2, 3]
    assert report.sockets == 15
    latency = report.latency()
    assert len(report.latencies_ms) > 100
    assert all(value is not None and value > 0 for value in latency.values())
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] and data["commands"] > len(report.latencies_ms)
    assert data["commands_per_s"] > 0


def test_command_writes_the_report(server: LiveServer, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["--url", server.url, "--tables", "1", "--bot", "auto", "--lang", "en"]
    result = CliRunner().invoke(typer_app(), [*args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Load test" in result.output and "1 / 1" in result.output
    assert json.loads(out.read_text())["games_completed"] == 1


def test_unreachable_server_is_a_clear_error() -> None:
    started = time.monotonic()
    with pytest.raises(LoadTestError, match="cannot reach the server"):
        asyncio.run(load_test(f"http://127.0.0.1:{free_port()}", 2, 1))
    assert time.monotonic() - started < 5
    result = CliRunner().invoke(typer_app(), ["--url", f"http://127.0.0.1:{free_port()}"])
    assert result.exit_code == 1
    assert "连不上服务器" in result.output


def test_unknown_preset_and_bot(server: LiveServer) -> None:
    with pytest.raises(LoadTestError, match="unknown preset 'nope'"):
        asyncio.run(load_test(server.url, 1, 1, preset="nope"))
    with pytest.raises(LoadTestError, match="unknown bot"):
        asyncio.run(load_test(server.url, 1, 1, bot="nobody"))


def test_server_dying_mid_match_is_counted(tmp_path: Path) -> None:
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    try:
        # Killed once the first game is over: every socket closes under the match.
        report = asyncio.run(load_test(live.url, 1, 20, bot="auto", progress=lambda _: live.kill()))
    finally:
        live.stop()
    assert 1 <= report.games_completed < 20
    assert report.errors == 5
    assert all("closed unexpectedly" in line for line in report.first_errors)
    assert not report.ok


def test_a_frozen_server_times_out(tmp_path: Path) -> None:
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    assert live.proc is not None
    pid = live.proc.pid
    started = time.monotonic()

    def freeze(_: int) -> None:
        """SIGSTOP once the first game is over: the sockets stay open, silent."""
        os.kill(pid, signal.SIGSTOP)

    try:
        report = asyncio.run(load_test(live.url, 1, 20, bot="auto", progress=freeze, timeout=1))
    finally:
        os.kill(pid, signal.SIGCONT)
        live.stop()
    assert time.monotonic() - started < 15
    assert report.errors == 5
    assert all("timeout: no message for 1 s" in line for line in report.first_errors)


def typer_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(loadtest)
    return app
