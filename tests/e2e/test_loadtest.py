"""``baohuang loadtest`` against the real server in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from baohuang.cli.loadtest import loadtest
from baohuang.client.botseat import RECONNECT_FOR
from baohuang.client.chaos import (
    ChaosReport,
    ChaosSettings,
    ChaosTable,
    Person,
    chaos_soak,
    is_race,
)
from baohuang.client.errors import ClientError, ProtocolViolation
from baohuang.client.loadtest import (
    LoadReport,
    SeatClient,
    TableRun,
    load_test,
    server_urls,
    spread,
)
from baohuang.engine.state import SEATS
from helpers.servers import LiveServer, free_port
from helpers.stamps import check_stamp


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
    data = json.loads(out.read_text())
    assert data["games_completed"] == 1
    check_stamp(data, url=[server.url], tables=1, bot="auto", json_file=str(out), chaos=False)


def test_unreachable_server_is_a_clear_error() -> None:
    started = time.monotonic()
    with pytest.raises(ClientError, match="cannot reach the server"):
        asyncio.run(load_test(f"http://127.0.0.1:{free_port()}", 2, 1))
    assert time.monotonic() - started < RECONNECT_FOR / 2  # at once, not after trying again
    result = CliRunner().invoke(typer_app(), ["--url", f"http://127.0.0.1:{free_port()}"])
    assert result.exit_code == 1
    assert "连不上服务器" in result.output


def test_unknown_preset_and_bot(server: LiveServer) -> None:
    with pytest.raises(ClientError, match="unknown preset 'nope'"):
        asyncio.run(load_test(server.url, 1, 1, preset="nope"))
    with pytest.raises(ClientError, match="unknown bot"):
        asyncio.run(load_test(server.url, 1, 1, bot="nobody"))


def test_server_dying_mid_match_is_counted(tmp_path: Path) -> None:
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    started = time.monotonic()
    try:
        # Killed once the first game is over: every socket closes under the match, and no
        # server takes the seats back in the second they keep trying.
        report = asyncio.run(
            load_test(live.url, 1, 20, bot="auto", progress=lambda _: live.kill(), reconnect_for=1)
        )
    finally:
        live.stop()
    assert time.monotonic() - started < 20
    assert 1 <= report.games_completed < 20
    assert report.errors == 5 and report.reconnects == 0
    assert all("closed unexpectedly" in line for line in report.first_errors)
    assert all("no server took the seat back in 1 s" in line for line in report.first_errors)
    assert all("ConnectionRefusedError" in line for line in report.first_errors)
    assert not report.ok


def test_without_reconnects_a_lost_connection_is_an_error(tmp_path: Path) -> None:
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    try:
        report = asyncio.run(
            load_test(live.url, 1, 20, bot="auto", progress=lambda _: live.kill(), reconnect_for=0)
        )
    finally:
        live.stop()
    assert report.errors == 5 and report.reconnects == 0
    assert all(line.split(": ", 1)[1].startswith("connection closed unexpectedly (")
               for line in report.first_errors)  # fmt: skip
    assert all("no server took" not in line for line in report.first_errors)


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


# ---------------------------------------------------------------------- many servers


class Relay:
    """A TCP relay on a free loopback port to the server at ``port``: a stand-in for a node.
    :meth:`cut` closes every connection through it at once and takes no new ones, as a node
    that dies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.cuts = 0

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.pipe, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writers |= {writer, up_writer}

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    def cut(self) -> None:
        if self.cuts == 0:
            assert self.server is not None
            self.server.close()
            for writer in self.writers:
                writer.transport.abort()
        self.cuts += 1


def test_seats_are_spread_over_the_servers_in_turn() -> None:
    urls = ["http://a:1", "http://b:2/", "http://c:3"]
    report = LoadReport(urls[0], 2, 1, "classic", "auto", urls=server_urls(urls))
    assert report.urls == ["http://a:1", "http://b:2", "http://c:3"]
    run = TableRun(1, report, "auto", None)
    for place in range(SEATS):
        client = SeatClient(run, "", 1, place)
        first = (1 + place) % 3
        assert client.server == report.urls[first]
        # A reconnect goes to the next server, round the list.
        assert [client.next_server() for _ in range(3)] == [
            report.urls[(first + 1) % 3],
            report.urls[(first + 2) % 3],
            report.urls[first],
        ]
    assert spread(["x", "y"], 5) == ["y", "x"]
    one = LoadReport("http://a:1", 1, 1, "classic", "auto")
    alone = SeatClient(TableRun(0, one, "auto", None), "", 1, 3)
    assert alone.urls == ["http://a:1"] and alone.next_server() == "http://a:1"
    assert one.to_dict()["urls"] == ["http://a:1"]


def test_a_repeated_event_is_counted_and_skipped_not_a_gap() -> None:
    report = LoadReport("http://127.0.0.1:1", 1, 1, "classic", "auto")
    client = SeatClient(TableRun(0, report, "auto", None), "", 1)
    repeats = []
    for seq in (1, 2, 2, 1, 3):
        client.take(f'{{"t": "event", "v": {seq}, "d": {{"kind": "sit"}}}}')
        repeats.append(client.repeat)
    assert repeats == [False, False, True, True, False]
    assert client.seq == 3 and report.duplicates == 2 and report.errors == 0
    data = report.to_dict()
    assert data["duplicates"] == 2 and data["reconnects"] == 0 and data["ok"] is False
    with pytest.raises(ProtocolViolation, match="not a server message"):
        client.take('{"t": "event", "v": "4", "d": {"kind": "sit"}}')


def test_the_same_server_twice_is_two_urls(server: LiveServer, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["--url", server.url, "--url", server.url + "/", "--tables", "2", "--bot", "auto"]
    result = CliRunner().invoke(typer_app(), [*args, "--lang", "en", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.count(server.url) == 2  # a line each
    assert "reconnects · duplicate events" in result.output
    data = json.loads(out.read_text())
    assert data["urls"] == [server.url, server.url] and data["url"] == server.url
    assert data["sockets"] == 10 and data["games_completed"] == 2 and data["ok"]
    assert (data["reconnects"], data["duplicates"], data["errors"]) == (0, 0, 0)
    assert data["reconnect_for_s"] == 60


def test_seats_on_a_dead_node_come_back_on_the_next(server: LiveServer) -> None:
    """Seats 0, 2 and 4 of table 0 connect through a relay (seats 1 and 3 straight to the
    server); the relay dies after the first game: those three come back on the server itself,
    with the events they missed, and the match ends with no gap and no error."""

    async def scenario() -> tuple[LoadReport, Relay]:
        relay = Relay(server.port)
        url = await relay.start()
        # A hundredth of a second to think, as people do: at none, a fast machine plays over
        # 200 commands a second per seat, past the server's limit for a connection.
        report = await load_test(
            [url, server.url], 1, 3, bot="auto", think=0.01, progress=lambda _: relay.cut()
        )
        return report, relay

    report, relay = asyncio.run(scenario())
    assert relay.cuts == 3
    assert report.errors == 0, report.first_errors
    assert report.games_completed == report.games_expected == 3 and report.ok
    assert report.reconnects == 3 and report.sockets == 5
    assert report.urls[1] == server.url


def test_seats_come_back_after_the_server_restarts(tmp_path: Path) -> None:
    """kill -9 once the first game is over, then the same database on the same port: every
    seat comes back with ``hello`` {token, since} and the match goes on to its end."""
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    restarts: list[int] = []

    def restart(done: int) -> None:
        if not restarts:
            restarts.append(done)
            live.restart()

    try:
        report = asyncio.run(load_test([live.url, live.url], 1, 2, bot="auto", progress=restart))
    finally:
        live.stop()
    assert report.errors == 0, report.first_errors
    assert report.games_completed == 2 and report.ok
    assert report.reconnects >= 5


# ---------------------------------------------------------------------- the chaos soak


@pytest.mark.slow
def test_chaos_soak_on_timed_tables(tmp_path: Path) -> None:
    """People who time out, drop and come back, switch 托管 and escape: no table stalls."""
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    settings = ChaosSettings(
        minutes=0.6, tables=4, timer=1, grace=1, pause=0.2, bot_delay=0.1, games=1,
        think=0.3, chaos_every=4,
    )  # fmt: skip
    seen: list[float] = []
    try:
        report = asyncio.run(chaos_soak(live.url, settings, lambda t, _: seen.append(t)))
    finally:
        live.stop()
    assert report.stalls == 0, json.dumps(report.first_stalls, ensure_ascii=False, indent=1)
    assert report.errors == 0, report.first_errors
    assert report.grace_accepted
    assert report.timeouts > 0 and report.reconnects > 0 and report.toggles > 0
    assert report.drops >= report.reconnects
    assert report.latencies_ms  # (a game lasts longer than this soak unless someone escapes)
    # It plays out its 36 s (a busy machine makes them no shorter), tells progress no later,
    # and then stops (the bound is a safety net: closing its tables takes a moment).
    assert 30 <= report.play_s < 36 + 60 and seen and seen[-1] <= 36
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] and data["settings"]["stall_after"] == 7


@pytest.mark.slow
def test_chaos_command_reports_a_frozen_table(tmp_path: Path) -> None:
    """SIGSTOP once a match is under way: the table stops moving on, a stall, exit 1."""
    live = LiveServer("sqlite:///" + str(tmp_path / "x.db"), tmp_path / "log").start()
    assert live.proc is not None
    pid = live.proc.pid

    def freeze() -> None:
        """SIGSTOP the server once its table plays: the sockets stay open, silent."""
        for _ in range(100):
            listing = httpx.get(f"{live.url}/api/tables", timeout=1).json()["tables"]
            if any(table["status"] == "playing" for table in listing):
                os.kill(pid, signal.SIGSTOP)
                return
            time.sleep(0.1)

    out = tmp_path / "report.json"
    args = ["--chaos", "--url", live.url, "--tables", "1", "--minutes", "0.25", "--timer", "1"]
    args += ["--grace", "0", "--slack", "1", "--think", "0.2", "--json", str(out), "--lang", "en"]
    freezer = threading.Thread(target=freeze)
    freezer.start()
    try:
        result = CliRunner().invoke(typer_app(), args)
    finally:
        freezer.join()
        os.kill(pid, signal.SIGCONT)
        live.stop()
    assert result.exit_code == 1, result.output
    assert "Chaos soak" in result.output and "first stalls:" in result.output
    data = json.loads(out.read_text())
    assert data["stalls"] == 1 and data["errors"] == 0 and not data["ok"]
    check_stamp(data, chaos=True, minutes=0.25, tables=1, json_file=str(out))
    stall = data["first_stalls"][0]
    assert stall["phase"] == "playing" and stall["idle_s"] >= 2  # timer 1 + grace 0 + slack 1
    assert stall["table"] in result.output and stall["trail"]


def test_stall_detector() -> None:
    """A table owes a move while a match is on or every seat is ready; past the limit
    without one it is a stall, named with its last events."""
    report = ChaosReport.of("http://127.0.0.1:1", ChaosSettings(timer=3, grace=2, slack=5))
    table = ChaosTable(7, report, random.Random(0))
    table.id = "t7"
    waiting = {"status": "waiting", "seats": [{"user": s, "ready": s < 4} for s in range(SEATS)]}
    table.seen(1, {"kind": "sit", "seat": 0, "table": waiting})
    assert table.stall(table.moved + 60) is None  # waiting for a person to ready: nothing owed
    ready = {"status": "waiting", "seats": [{"user": s, "ready": True} for s in range(SEATS)]}
    table.seen(2, {"kind": "ready", "seat": 4, "on": True, "table": ready})
    assert table.stall(table.moved + 10) is None
    assert table.stall(table.moved + 10.5) == {
        "table": "t7",
        "index": 7,
        "phase": "starting",
        "idle_s": 10.5,
        "last_move": "-",
        "last_event": "ready",
        "last_seq": 2,
        "trail": list(table.trail),
    }
    playing = ready | {"status": "playing"}
    table.seen(3, {"kind": "start", "game": 0, "events": [], "table": playing})
    table.seen(4, {"kind": "game", "game": 0, "events": [{"kind": "play", "seat": 1}]})
    table.seen(5, {"kind": "auto", "seat": 2, "on": True, "reason": "timeout", "table": playing})
    table.seen(6, {"kind": "connected", "seat": 3, "on": False, "table": playing})
    assert table.stall(table.moved + 10) is None
    stall = table.stall(table.moved + 11)
    assert stall is not None and stall["phase"] == "playing"
    assert (stall["last_move"], stall["last_event"], stall["last_seq"]) == (
        "v4 game",
        "connected",
        6,
    )
    assert [line.split("s ", 1)[1] for line in stall["trail"]] == [
        "v1 sit seat 0",
        "v2 ready seat 4 on",
        "v3 start",
        "v4 game play@1",
        "v5 auto seat 2 on (timeout)",
        "v6 connected seat 3 off",
    ]
    assert report.timeouts == 1 and report.stalls == 0  # the soak's loop counts stalls
    escaped = {"status": "finished", "seats": [None, *playing["seats"][1:]]}
    table.seen(7, {"kind": "leave", "seat": 0, "table": escaped})
    assert table.retired.is_set()  # nobody can ready seat 0: a new table, not a stall
    assert table.stall(table.moved + 60) is None


def test_refusals_races_and_protocol_errors() -> None:
    assert is_race("stale", 10, 10) and is_race("not_your_turn", 10, 10)
    assert is_race("not_allowed", 10, 10)
    assert is_race("illegal", 10, 12) and not is_race("illegal", 10, 10)
    assert not is_race("bad_message", 10, 12) and not is_race("bad_token", 10, 12)
    report = LoadReport("http://127.0.0.1:1", 1, 1, "classic", "auto")
    client = SeatClient(TableRun(0, report, "auto", None), "", 1)
    assert client.take('{"t": "event", "v": 1, "d": {"kind": "sit"}}')["v"] == 1
    client.take('{"t": "event", "v": 3, "d": {"kind": "sit"}}')
    assert report.first_errors == ["table 0 (?) seat None: sequence gap: had 1, got 3"]
    for text in ("{not json", '{"t": "gossip", "v": 3, "d": {}}', '{"t": "ack", "v": 3}'):
        with pytest.raises(ProtocolViolation, match="not a server message"):
            client.take(text)


def test_an_escape_cancels_the_moves_due_with_it() -> None:
    """A person whose chaos move is an escape makes no other move: the seat is not theirs."""

    class Socket:
        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        async def send(self, text: str) -> None:
            self.sent.append(json.loads(text))

    class Dice(random.Random):
        def random(self) -> float:
            return 0.0  # the rarest branch: an escape

    report = ChaosReport.of("http://127.0.0.1:1", ChaosSettings())
    ws = Socket()
    person = Person(ChaosTable(0, report, random.Random(0)), "", 1, Dice())
    person.ws = ws  # type: ignore[assignment]
    person.seat, person.in_game = 2, True
    person.plans = {"chaos": 0.0, "turn": 1.0, "take_back": 2.0}
    asyncio.run(person.make_moves())
    assert [(m["t"], m["d"]["op"]) for m in ws.sent] == [("cmd", "leave")]
    assert person.gone and not person.plans
    assert person.table.trail[-1].endswith("seat 2 escapes (leave)")
