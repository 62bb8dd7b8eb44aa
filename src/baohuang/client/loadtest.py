"""``baohuang loadtest`` (压力测试): N tables of five bot clients against a running server.

Everything goes through the public protocol, as a browser would: a guest per seat over HTTP
(``POST /api/guest``), a table per five guests (``POST /api/tables``), then one WebSocket per
seat (``hello``, ``sit``, ``ready``, ``act``): a :class:`~.botseat.BotSeat`, whose bot (from
:func:`baohuang.bots.base.make_bot`) chooses from its ``view`` and the parsed ``legal`` list. Tables
are set up in waves of :data:`WAVE` sockets; then every table readies at once and they all
play concurrently.

Several servers (the nodes of a cluster) may be given: seat ``s`` of table ``i`` connects to
``urls[(i + s) % n]``, so that a table's seats are spread over the nodes and every table has
sockets on nodes that do not own it; each seat's guest logs in on the node its connection uses
first, and table ``i`` is created on ``urls[i % n]``. A seat whose connection is lost during
the match comes back on the next server in turn (``hello`` with its token and last event, for
``reconnect_for`` s: see :mod:`.botseat`) and plays on; the report counts the ``reconnects``,
and the ``duplicates``: events a connection got again (``v`` not above the last one seen),
skipped.

Counted as errors: an ``error`` message, a connection lost for good (closed unexpectedly and
not taken back, or with ``reconnect_for`` 0 closed at all), a gap in a connection's event
sequence (``v`` must be the previous plus one), a timeout, a table that could not be set up.
The latency of an ``act`` runs from sending it to receiving the ``game`` event it caused: the
first ``game`` event after the send whose first engine event is the sender's seat.

The chaos soak (:mod:`.chaos`) builds on the seats and tables here; the command and its report
are :mod:`baohuang.cli.loadtest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
from websockets.exceptions import ConnectionClosed

from ..bots.base import BOTS
from ..engine.state import SEATS
from .botseat import RECONNECT_FOR, BotSeat, refusal
from .connection import IDLE_TIMEOUT
from .errors import ClientError, ConnectionLost
from .http import create_table, guest, presets, server_client

#: Sockets set up at a time, so that setup does not stampede the server.
WAVE = 50
#: Errors kept word for word in the report (all are counted).
KEPT_ERRORS = 10

#: Called with the number of games completed so far, each time one completes.
ProgressHook = Callable[[int], None]

T = TypeVar("T")


def percentile(ordered: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile of sorted, non-empty ``ordered``."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class LoadReport:
    """What a load test measured (see the module docstring); filled in while it runs."""

    url: str
    tables: int
    games: int
    preset: str
    bot: str
    #: Seconds each seat thought before acting.
    think: float = 0.0
    sockets: int = 0
    games_completed: int = 0
    commands: int = 0
    #: Commands sent after setup, while the tables played.
    play_commands: int = 0
    errors: int = 0
    first_errors: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    setup_s: float = 0.0
    play_s: float = 0.0
    #: Every server the seats connect to (``url`` is the first).
    urls: list[str] = field(default_factory=list)
    #: Seconds a seat keeps trying to come back after a lost connection (0: it does not).
    reconnect_for: float = RECONNECT_FOR
    #: Connections opened again after a lost one.
    reconnects: int = 0
    #: Events a connection received again (``v`` not above the last one it had), skipped.
    duplicates: int = 0
    #: How seats reach the nodes: ``spread`` (seat s of table i on node i + s, moving on to
    #: the next node when a connection is lost) or ``table`` (every seat of table i on node i,
    #: reconnects too, the table made on node i + 1: a balancer hashing on the table id, the
    #: table handed to where its sockets are).
    route: str = "spread"

    def __post_init__(self) -> None:
        if not self.urls:
            self.urls = [self.url]

    @property
    def games_expected(self) -> int:
        return self.tables * self.games

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.games_completed >= self.games_expected

    @property
    def commands_per_s(self) -> float:
        """Commands per second while the tables played."""
        return self.play_commands / self.play_s if self.play_s else 0.0

    def latency(self) -> dict[str, float | None]:
        """Command→broadcast latency in ms: p50, p95, p99, max (``None`` without samples)."""
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return dict.fromkeys(("p50", "p95", "p99", "max"))
        return {
            "p50": percentile(ordered, 50),
            "p95": percentile(ordered, 95),
            "p99": percentile(ordered, 99),
            "max": ordered[-1],
        }

    def rounded_latency(self) -> dict[str, float | None]:
        """:meth:`latency` to 0.01 ms, for the JSON report."""
        return {k: None if v is None else round(v, 2) for k, v in self.latency().items()}

    def latency_text(self) -> str:
        """:meth:`latency` in words: ``p50 4.1 · p95 17.7 · p99 35.4 · max 304.0``."""
        return " · ".join(
            f"{k} {'-' if v is None else f'{v:.1f}'}" for k, v in self.latency().items()
        )

    def error(self, where: str, what: str) -> None:
        self.errors += 1
        if len(self.first_errors) < KEPT_ERRORS:
            self.first_errors.append(f"{where}: {what}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "urls": self.urls,
            "preset": self.preset,
            "bot": self.bot,
            "think_s": self.think,
            "tables": self.tables,
            "games_per_table": self.games,
            "sockets": self.sockets,
            "games_expected": self.games_expected,
            "games_completed": self.games_completed,
            "commands": self.commands,
            "commands_per_s": round(self.commands_per_s, 1),
            "errors": self.errors,
            "first_errors": self.first_errors,
            "reconnect_for_s": self.reconnect_for,
            "reconnects": self.reconnects,
            "duplicates": self.duplicates,
            "route": self.route,
            "latency_samples": len(self.latencies_ms),
            "latency_ms": self.rounded_latency(),
            "setup_s": round(self.setup_s, 3),
            "play_s": round(self.play_s, 3),
            "wall_s": round(self.setup_s + self.play_s, 3),
            "ok": self.ok,
        }


def describe_error(exc: BaseException) -> str:
    """A failure in words, naming its kind."""
    if isinstance(exc, TimeoutError):
        return f"timeout: {exc or 'no answer in time'}"
    if isinstance(exc, ConnectionClosed):
        return f"connection closed unexpectedly ({exc})"
    if isinstance(exc, ConnectionLost):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class SeatClient(BotSeat):
    """One seat of a load-test table: a guest's bot seat whose troubles are counted in the
    report, and whose ``act`` commands are timed. The ``place``-th connection of table ``i``
    uses the report's ``urls[(i + place) % n]`` first, then the next ones in turn."""

    def __init__(self, run: TableRun, cookie: str, timeout: float, place: int = 0) -> None:
        seed = f"{run.seed}/{run.index}"
        if run.by_table:  # a balancer hashing on the table id: that node, reconnects too
            servers = spread(run.report.urls, run.index)[:1]
        else:
            servers = spread(run.report.urls, run.index + place)
        super().__init__(
            servers[0],
            run.id,
            cookie,
            run.bot,
            seed,
            timeout,
            run.think,
            servers=servers,
            reconnect_for=run.report.reconnect_for,
        )
        self.run = run
        self.report = run.report
        #: When the pending ``act`` was sent (perf_counter), until its ``game`` event.
        self.sent_at: float | None = None

    @property
    def where(self) -> str:
        return f"table {self.run.index} ({self.run.id}) seat {self.seat}"

    async def send(self, op: str, **fields: Any) -> str:
        if op == "act":
            self.sent_at = time.perf_counter()
        command_id = await super().send(op, **fields)
        self.report.commands += 1
        return command_id

    def gap(self, seq: int) -> None:
        self.report.error(self.where, f"sequence gap: had {self.seq}, got {seq}")

    def duplicate(self, seq: int) -> None:
        self.report.duplicates += 1

    def lost(self) -> None:
        self.sent_at = None  # a pending act's event may come back in the replay: not timed

    def reconnected(self) -> None:
        self.report.reconnects += 1

    def refused(self, data: dict[str, Any]) -> None:
        """An ``error`` from the server: during setup it fails the table (counted once, for
        the table); later it is counted."""
        super().refused(data)
        self.sent_at = None
        self.report.error(self.where, str(refusal(data)))

    def seen(self, data: dict[str, Any]) -> None:
        self.measure(data)
        if data["kind"] == "game_over":
            self.run.finished(data["game"])

    def measure(self, data: dict[str, Any]) -> None:
        """End the pending ``act``'s latency sample at the ``game`` event it caused."""
        if data["kind"] == "game" and self.sent_at is not None:
            events = data.get("events") or []
            if events and events[0].get("seat") == self.seat:
                self.report.latencies_ms.append((time.perf_counter() - self.sent_at) * 1000)
                self.sent_at = None


class TableRun:
    """One table of the load test and its five seats."""

    def __init__(
        self,
        index: int,
        report: LoadReport,
        bot: str,
        progress: ProgressHook | None,
        think: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.index = index
        #: Seconds each seat waits before acting, as a person would (0: a saturation test).
        self.think = think
        self.report = report
        self.bot = bot
        self.progress = progress
        self.seed = seed
        self.id = "?"
        self.clients: list[SeatClient] = []
        self.ready = False
        self.games_done: set[int] = set()
        #: Every seat on one node, the table made on another (``route="table"``).
        self.by_table = report.route == "table"

    async def setup(self, http: Sequence[httpx.AsyncClient], timeout: float) -> None:
        """Guests, a table, seated connections (``http``: a client per server of the report's
        ``urls``); a failure is counted, not raised."""
        try:
            await self.open(http, timeout)
            self.ready = True
        except Exception as exc:
            self.report.error(f"table {self.index} ({self.id}) setup", describe_error(exc))

    def config(self) -> dict[str, Any]:
        """The table's ``TableConfig`` as JSON."""
        config: dict[str, Any] = {"bots": 0, "timer": 0, "pause": 0, "bot_delay": 0}
        return config | {"games": self.report.games, "preset": self.report.preset}

    async def create(self, http: httpx.AsyncClient, cookie: str) -> dict[str, Any]:
        """Create the table as the guest with ``cookie``; its ``TableInfo``."""
        return await create_table(http, cookie, self.config())

    async def open(self, http: Sequence[httpx.AsyncClient], timeout: float) -> None:
        """A guest per person's seat (on the server its connection will use first), the
        table, a seated connection per guest."""
        people = SEATS - self.config()["bots"]
        home = [0] * people if self.by_table else list(range(people))
        cookies = await asyncio.gather(
            *(
                guest(spread(http, self.index + home[seat])[0], f"压测{self.index}-{seat}")
                for seat in range(people)
            )
        )
        info = await self.create(spread(http, self.index + self.by_table)[0], cookies[0])
        self.id = info["id"]
        await asyncio.gather(
            *(self._join(cookie, timeout, place) for place, cookie in enumerate(cookies))
        )

    async def _join(self, cookie: str, timeout: float, place: int) -> None:
        client = self.seat_client(cookie, timeout, place)
        await client.open()
        self.clients.append(client)
        self.report.sockets += 1
        await client.join()

    def seat_client(self, cookie: str, timeout: float, place: int = 0) -> SeatClient:
        """The client for the ``place``-th seat of this table, as the guest with ``cookie``."""
        return SeatClient(self, cookie, timeout, place)

    async def play(self) -> None:
        await asyncio.gather(*(self._play(client) for client in self.clients))

    async def _play(self, client: SeatClient) -> None:
        try:
            await client.play()
        except Exception as exc:
            self.report.error(client.where, describe_error(exc))

    def finished(self, game: int) -> None:
        """Some seat saw game ``game`` end (counted once per table)."""
        if game not in self.games_done:
            self.games_done.add(game)
            self.report.games_completed += 1
            if self.progress:
                self.progress(self.report.games_completed)

    async def close(self) -> None:
        await asyncio.gather(*(client.close() for client in self.clients))


def spread(items: Sequence[T], first: int) -> list[T]:
    """``items`` in turn from ``items[first % len(items)]``: the servers a seat uses."""
    first %= len(items)
    return [*items[first:], *items[:first]]


def server_urls(url: str | Sequence[str]) -> list[str]:
    """The servers of ``url`` (one, or several), without trailing slashes; at least one."""
    urls = [url] if isinstance(url, str) else list(url)
    if not urls:
        raise ValueError("no server URL")
    return [u.rstrip("/") for u in urls]


@contextlib.asynccontextmanager
async def server_clients(
    urls: Sequence[str], timeout: float
) -> AsyncIterator[list[httpx.AsyncClient]]:
    """An HTTP client for each of ``urls``."""
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(server_client(u, timeout)) for u in urls]


async def load_test(
    url: str | Sequence[str],
    tables: int,
    games: int,
    preset: str = "classic",
    bot: str = "heuristic",
    seed: int = 0,
    progress: ProgressHook | None = None,
    timeout: float = IDLE_TIMEOUT,
    think: float = 0.0,
    reconnect_for: float = RECONNECT_FOR,
    on_play: Callable[[], None] | None = None,
    route: str = "spread",
) -> LoadReport:
    """Play ``games`` games at each of ``tables`` tables of five ``bot`` clients on the
    server at ``url`` (``http://host:port``), or spread over several servers (the nodes of a
    cluster: see the module docstring); raise :class:`ClientError` if it cannot start.
    ``timeout``: the seconds a connection may go without a message; ``think``: the seconds
    each seat waits before acting (0: as fast as the server answers); ``reconnect_for``: the
    seconds a seat tries to come back after a lost connection (0: a lost one is an error);
    ``on_play``: called once every table is set up, as play begins (a benchmark's mark);
    ``route``: how seats reach the nodes (:attr:`LoadReport.route`)."""
    check_bot(bot)
    if route not in ("spread", "table"):
        raise ValueError(f"route: spread or table, not {route!r}")
    urls = server_urls(url)
    report = LoadReport(
        urls[0],
        tables,
        games,
        preset,
        bot,
        think,
        urls=urls,
        reconnect_for=reconnect_for,
        route=route,
    )
    runs = [TableRun(index, report, bot, progress, think, seed) for index in range(tables)]
    async with server_clients(urls, timeout) as http:
        for client in http:
            await preflight(client, preset)
        started = time.perf_counter()
        try:
            per_wave = max(1, WAVE // SEATS)
            for first in range(0, tables, per_wave):
                wave = runs[first : first + per_wave]
                await asyncio.gather(*(run.setup(http, timeout) for run in wave))
            if on_play is not None:
                on_play()
            playing = time.perf_counter()
            report.setup_s = playing - started
            before = report.commands
            await asyncio.gather(*(run.play() for run in runs if run.ready))
            report.play_s = time.perf_counter() - playing
            report.play_commands = report.commands - before
        finally:
            await asyncio.gather(*(run.close() for run in runs))
    return report


def check_bot(bot: str) -> None:
    """``bot`` is a bot's name."""
    if bot not in BOTS:
        raise ClientError("error.loadtest.bot", bot=bot, bots=", ".join(BOTS))


async def preflight(http: httpx.AsyncClient, preset: str) -> None:
    """The server answers and knows ``preset``."""
    known = (await presets(http))["presets"]
    if preset not in known:
        raise ClientError("error.rules.preset", preset=preset, presets=", ".join(known))
