"""``baohuang loadtest`` (压力测试): N tables of five bot clients against a running server.

Everything goes through the public protocol, as a browser would: a guest per seat over HTTP
(``POST /api/guest``), a table per five guests (``POST /api/tables``), then one WebSocket per
seat (``hello``, ``sit``, ``ready``, ``act``). Each seat plays with a bot from
:func:`baohuang.bots.base.make_bot` choosing from its ``view`` and the parsed ``legal`` list. Tables
are set up in waves of :data:`WAVE` sockets; then every table readies at once and they all
play concurrently.

Counted as errors: an ``error`` message, an unexpected close, a gap in a connection's event
sequence (``v`` must be the previous plus one), a timeout, a table that could not be set up.
The latency of an ``act`` runs from sending it to receiving the ``game`` event it caused: the
first ``game`` event after the send whose first engine event is the sender's seat.

``--chaos`` runs a soak of timed tables with misbehaving people instead (:mod:`.chaos`, built on
the clients here).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Annotated, Any

import httpx
import orjson
import typer
from rich.console import Console
from rich.progress import Progress
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ..bots.base import BOTS, Bot, make_bot
from ..cli.terminal import metrics_table
from ..engine.actions import parse_action
from ..engine.errors import BaohuangError
from ..engine.rules import Rules
from ..protocol.messages import SEATS

#: Sockets set up at a time, so that setup does not stampede the server.
WAVE = 50
#: Seconds a connection may wait for its next message before that counts as a timeout.
IDLE_TIMEOUT = 30.0
#: Seconds to wait for the server's side of a closing handshake.
CLOSE_TIMEOUT = 1.0
#: Errors kept word for word in the report (all are counted).
KEPT_ERRORS = 10

#: The envelope types a server sends.
SERVER_MESSAGES = frozenset({"welcome", "event", "snapshot", "ack", "error", "pong"})

#: Called with the number of games completed so far, each time one completes.
ProgressHook = Callable[[int], None]


class LoadTestError(BaohuangError):
    """The load test cannot run at all: the server is unreachable, or a preset or bot is
    unknown."""


class ProtocolViolation(Exception):
    """The server sent something that is not a protocol message."""


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
    return f"{type(exc).__name__}: {exc}"


class SeatClient:
    """One seat: a guest's WebSocket that sits, readies and plays with a bot."""

    def __init__(self, run: TableRun, ws: ClientConnection, timeout: float) -> None:
        self.run = run
        self.report = run.report
        self.ws = ws
        self.timeout = timeout
        self.seq = 0
        self.seat: int | None = None
        #: The seat token from ``sit``: a reconnect's ``hello`` claims the seat with it.
        self.token: str | None = None
        #: Set once setup is over: from then on an ``error`` is counted, not raised.
        self.playing = False
        self.commands = 0
        self.bot: Bot | None = None
        #: When the pending ``act`` was sent (perf_counter), until its ``game`` event.
        self.sent_at: float | None = None

    @property
    def where(self) -> str:
        return f"table {self.run.index} ({self.run.id}) seat {self.seat}"

    async def send(self, op: str, **fields: Any) -> str:
        """Send a command; its id."""
        self.commands += 1
        command_id = f"c{self.commands}"
        data = {"id": command_id, "op": op, **fields}
        await self.ws.send(json.dumps({"t": "cmd", "v": self.seq, "d": data}))
        self.report.commands += 1
        return command_id

    async def recv(self) -> dict[str, Any]:
        """The next message, checked by :meth:`take`; a silence of ``timeout`` s raises."""
        try:
            async with asyncio.timeout(self.timeout):
                text = await self.ws.recv()
        except TimeoutError:
            raise TimeoutError(f"no message for {self.timeout:g} s") from None
        return self.take(text)

    def take(self, text: str | bytes) -> dict[str, Any]:
        """A received message, parsed and its sequence number checked (an event's ``v`` is the
        previous plus one; a snapshot's is the state; a welcome's is news); an ``error`` goes to
        :meth:`refused`."""
        try:
            msg: dict[str, Any] = orjson.loads(text)
            kind, seq, data = msg["t"], msg["v"], msg["d"]
            if kind not in SERVER_MESSAGES or not isinstance(data, dict):
                raise ValueError(kind)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            raise ProtocolViolation(f"not a server message: {text[:200]!r}") from None
        if kind == "event":
            if seq != self.seq + 1:
                self.report.error(self.where, f"sequence gap: had {self.seq}, got {seq}")
            self.seq = seq
        elif kind == "snapshot":
            self.seq = seq
        elif kind == "error":
            self.refused(data)
        return msg

    def refused(self, data: dict[str, Any]) -> None:
        """An ``error`` from the server: during setup it fails the table; later it is
        counted."""
        what = f"error {data['code']}: {data['message']}"
        if not self.playing:
            raise LoadTestError(what)  # setup fails; counted once, for the table
        self.sent_at = None
        self.report.error(self.where, what)

    async def answer(self, command_id: str) -> dict[str, Any]:
        """Read until the ack answering ``command_id``."""
        while True:
            msg = await self.recv()
            if msg["t"] == "ack" and msg["d"].get("id") == command_id:
                return msg

    async def join(self, rules: Rules, seed: int) -> None:
        """``hello`` and ``sit``: this connection holds a seat."""
        await self.ws.send(json.dumps({"t": "hello", "v": None, "d": {}}))
        while (await self.recv())["t"] != "snapshot":
            pass
        ack = await self.answer(await self.send("sit"))
        self.seat, self.token = ack["d"]["seat"], ack["d"]["token"]
        self.bot = make_bot(self.run.bot, rules, f"{seed}/{self.run.index}/{self.seat}")

    async def play(self) -> None:
        """``ready``, then act whenever the seat's view says so, until ``match_over``."""
        self.playing = True
        await self.send("ready")
        while True:
            msg = await self.recv()
            if msg["t"] != "event":
                continue
            data = msg["d"]
            kind = data["kind"]
            self.measure(data)
            if kind == "game_over":
                self.run.finished(data["game"])
            elif kind == "match_over":
                return
            view = data.get("view")
            if view and view["turn"] == self.seat and view["legal"]:
                await self.act(view)

    def measure(self, data: dict[str, Any]) -> None:
        """End the pending ``act``'s latency sample at the ``game`` event it caused."""
        if data["kind"] == "game" and self.sent_at is not None:
            events = data.get("events") or []
            if events and events[0].get("seat") == self.seat:
                self.report.latencies_ms.append((time.perf_counter() - self.sent_at) * 1000)
                self.sent_at = None

    async def act(self, view: dict[str, Any]) -> None:
        if self.run.think:
            await asyncio.sleep(self.run.think)
        await self.send_act(view)

    async def send_act(self, view: dict[str, Any]) -> str:
        """Send the bot's choice from ``view``'s legal actions; the command's id."""
        assert self.bot is not None
        legal = [parse_action(text) for text in view["legal"]]
        action = self.bot.choose(view, legal)
        self.sent_at = time.perf_counter()
        return await self.send("act", action=str(action))

    async def close(self) -> None:
        await self.ws.close()


class TableRun:
    """One table of the load test and its five seats."""

    def __init__(
        self,
        index: int,
        report: LoadReport,
        bot: str,
        progress: ProgressHook | None,
        think: float = 0.0,
    ) -> None:
        self.index = index
        #: Seconds each seat waits before acting, as a person would (0: a saturation test).
        self.think = think
        self.report = report
        self.bot = bot
        self.progress = progress
        self.id = "?"
        self.clients: list[SeatClient] = []
        self.ready = False
        self.games_done: set[int] = set()

    async def setup(self, http: httpx.AsyncClient, ws_base: str, seed: int, timeout: float) -> None:
        """Guests, a table, seated connections; a failure is counted, not raised."""
        try:
            await self.open(http, ws_base, seed, timeout)
            self.ready = True
        except Exception as exc:
            self.report.error(f"table {self.index} ({self.id}) setup", describe_error(exc))

    def config(self) -> dict[str, Any]:
        """The table's ``TableConfig`` as JSON."""
        config: dict[str, Any] = {"bots": 0, "timer": 0, "pause": 0, "bot_delay": 0}
        return config | {"games": self.report.games, "preset": self.report.preset}

    async def create(self, http: httpx.AsyncClient, cookie: str) -> dict[str, Any]:
        """Create the table as the guest with ``cookie``; its ``TableInfo``."""
        response = await http.post("/api/tables", json=self.config(), headers={"Cookie": cookie})
        checked(response)
        info: dict[str, Any] = response.json()
        return info

    async def open(self, http: httpx.AsyncClient, ws_base: str, seed: int, timeout: float) -> None:
        """A guest per person's seat, the table, a seated connection per guest."""
        people = SEATS - self.config()["bots"]
        cookies = await asyncio.gather(
            *(guest(http, f"压测{self.index}-{seat}") for seat in range(people))
        )
        info = await self.create(http, cookies[0])
        self.id = info["id"]
        rules = Rules.from_dict(info["rules"])
        await asyncio.gather(
            *(self._join(ws_base, cookie, rules, seed, timeout) for cookie in cookies)
        )

    async def _join(
        self, ws_base: str, cookie: str, rules: Rules, seed: int, timeout: float
    ) -> None:
        ws = await open_socket(ws_base, self.id, cookie, timeout)
        client = self.seat_client(ws, cookie, timeout)
        self.clients.append(client)
        self.report.sockets += 1
        await client.join(rules, seed)

    def seat_client(self, ws: ClientConnection, cookie: str, timeout: float) -> SeatClient:
        """The client for a seat of this table, on ``ws`` as the guest with ``cookie``."""
        return SeatClient(self, ws, timeout)

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


async def open_socket(ws_base: str, table_id: str, cookie: str, timeout: float) -> ClientConnection:
    """A WebSocket to table ``table_id`` as the guest with ``cookie``."""
    return await connect(
        f"{ws_base}/ws/v1/tables/{table_id}",
        additional_headers={"Cookie": cookie},
        proxy=None,
        open_timeout=timeout,
        close_timeout=CLOSE_TIMEOUT,
    )


def checked(response: httpx.Response) -> None:
    """Raise the server's own words for a refused HTTP request."""
    if response.is_error:
        raise LoadTestError(f"{response.request.url.path}: {response.status_code} {response.text}")


async def guest(http: httpx.AsyncClient, name: str) -> str:
    """A new guest's session, as a ``Cookie`` header value."""
    response = await http.post("/api/guest", json={"name": name})
    checked(response)
    return "; ".join(f"{k}={v}" for k, v in response.cookies.items())


async def load_test(
    url: str,
    tables: int,
    games: int,
    preset: str = "classic",
    bot: str = "heuristic",
    seed: int = 0,
    progress: ProgressHook | None = None,
    timeout: float = IDLE_TIMEOUT,
    think: float = 0.0,
) -> LoadReport:
    """Play ``games`` games at each of ``tables`` tables of five ``bot`` clients on the
    server at ``url`` (``http://host:port``); raise :class:`LoadTestError` if it cannot start.
    ``timeout``: the seconds a connection may go without a message; ``think``: the seconds
    each seat waits before acting (0: as fast as the server answers)."""
    check_bot(bot)
    url = url.rstrip("/")
    report = LoadReport(url, tables, games, preset, bot, think)
    runs = [TableRun(index, report, bot, progress, think) for index in range(tables)]
    ws_base = websocket_base(url)
    async with server_client(url, preset, timeout) as http:
        started = time.perf_counter()
        try:
            per_wave = max(1, WAVE // SEATS)
            for first in range(0, tables, per_wave):
                wave = runs[first : first + per_wave]
                await asyncio.gather(*(run.setup(http, ws_base, seed, timeout) for run in wave))
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
        raise LoadTestError(
            f"unknown bot {bot!r}: bots are {', '.join(BOTS)}", f"没有机器人 {bot!r}"
        )


def websocket_base(url: str) -> str:
    """The WebSocket address of the server at ``url``: http → ws, https → wss."""
    return "ws" + url.removeprefix("http")


@contextlib.asynccontextmanager
async def server_client(url: str, preset: str, timeout: float) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client for the server at ``url``, once it has answered and knows ``preset``."""
    # The cookie jar takes nothing: each request carries its own guest's cookie.
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
    # Idle connections are dropped before the server's keep-alive (5 s) ends them: reusing
    # one the server is closing fails with a ReadError.
    limits = httpx.Limits(keepalive_expiry=2.0)
    async with httpx.AsyncClient(
        base_url=url, timeout=timeout, cookies=jar, trust_env=False, limits=limits
    ) as http:
        await preflight(http, url, preset)
        yield http


async def preflight(http: httpx.AsyncClient, url: str, preset: str) -> None:
    """The server answers and knows ``preset``."""
    try:
        response = await http.get("/api/presets")
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise LoadTestError(
            f"cannot reach the server at {url}: {exc}", f"连不上服务器 {url}：{exc}"
        ) from None
    presets = response.json()["presets"]
    if preset not in presets:
        raise LoadTestError(
            f"unknown preset {preset!r}: presets are {', '.join(presets)}",
            f"没有规则预设 {preset!r}，可选：{', '.join(presets)}",
        )


# ---------------------------------------------------------------------- the command


class Lang(StrEnum):
    zh = "zh"
    en = "en"


class LoadBot(StrEnum):
    """The bots a load test plays with (``search`` is too slow to load a server)."""

    heuristic = "heuristic"
    auto = "auto"
    random = "random"


#: Report rows: (中文, English).
LABELS: dict[str, tuple[str, str]] = {
    "title": ("压力测试", "Load test"),
    "tables": ("牌桌", "tables"),
    "sockets": ("连接", "sockets"),
    "think": ("每步思考 s", "think time per action s"),
    "games": ("完成局数 / 预期", "games completed / expected"),
    "errors": ("错误", "errors"),
    "commands": ("发送指令", "commands sent"),
    "latency": ("指令→广播延迟 ms", "command→broadcast latency ms"),
    "setup": ("建桌入座用时 s", "setup time s"),
    "wall": ("总用时 s", "wall time s"),
    "rate": ("对局中指令/秒", "commands/s while playing"),
    "progress": ("已完成局数", "games completed"),
    "first": ("最先的错误：", "first errors:"),
    "failed": ("压测无法进行：", "load test cannot run:"),
}


def report_rows(report: LoadReport, lang: str) -> list[tuple[str, str]]:
    """The report as (label, value) rows in ``lang``."""
    pick = 0 if lang == "zh" else 1
    rows = {
        "tables": str(report.tables),
        "sockets": str(report.sockets),
        "think": f"{report.think:g}",
        "games": f"{report.games_completed} / {report.games_expected}",
        "errors": str(report.errors),
        "commands": str(report.commands),
        "latency": report.latency_text(),
        "setup": f"{report.setup_s:.2f}",
        "wall": f"{report.setup_s + report.play_s:.2f}",
        "rate": f"{report.commands_per_s:.0f}",
    }
    return [(LABELS[key][pick], value) for key, value in rows.items()]


def loadtest(
    url: Annotated[str, typer.Option(help="服务器地址 server URL")] = "http://127.0.0.1:8000",
    tables: Annotated[int, typer.Option(min=1, help="牌桌数（每桌五个连接） tables of 5")] = 10,
    games: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=50,
            help="每桌局数（混沌：每场，默认 3） games per table (chaos: per match, 3)",
        ),
    ] = None,
    preset: Annotated[str, typer.Option(help="规则预设 rule preset")] = "classic",
    bot: Annotated[LoadBot, typer.Option(help="出牌机器人 bot")] = LoadBot.heuristic,
    seed: Annotated[int, typer.Option(help="机器人种子 bot seed")] = 0,
    think: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="每步思考秒数（0：压满；混沌：中位数，默认 1） seconds each seat thinks before "
            "acting (chaos: the median, 1)",
        ),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="报告另存为 JSON write the report here")
    ] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="界面语言 language: zh | en")] = Lang.zh,
    chaos: Annotated[
        bool,
        typer.Option(
            "--chaos",
            help="混沌测试：计时牌桌上的人会超时、掉线、托管、逃跑，查卡住的牌桌 a soak of timed "
            "tables whose people time out, drop, switch 托管 and escape; finds stalled tables",
        ),
    ] = False,
    minutes: Annotated[float, typer.Option(min=0.01, help="（混沌）持续分钟 soak minutes")] = 1.0,
    timer: Annotated[int, typer.Option(min=1, max=600, help="（混沌）每步限时秒 turn timer s")] = 3,
    grace: Annotated[
        float, typer.Option(min=0, help="（混沌）断线重连宽限秒 reconnect grace s")
    ] = 2.0,
    slack: Annotated[
        float,
        typer.Option(min=0, help="（混沌）判定卡住的余量秒 stall after timer + grace + slack s"),
    ] = 5.0,
    pause: Annotated[
        float, typer.Option(min=0, help="（混沌）局间停顿秒 pause between games s")
    ] = 0.5,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="（混沌）机器人出牌前等待秒 bot delay s")
    ] = 0.2,
    bots: Annotated[
        int, typer.Option(min=0, max=4, help="（混沌）每桌服务器机器人座位 server bots per table")
    ] = 0,
    chaos_every: Annotated[
        float,
        typer.Option(
            min=0.1, help="（混沌）每人平均捣乱间隔秒 mean s between a person's chaos moves"
        ),
    ] = 20.0,
) -> None:
    """压力测试：多桌机器人通过 WebSocket 对战一台运行中的服务器；--chaos：混沌测试。 Load-test a
    running server with tables of bot clients over real WebSockets; --chaos: a chaos soak."""
    console = Console(highlight=False)
    if chaos:
        from .chaos import ChaosSettings, chaos_command  # chaos builds on this module

        settings = ChaosSettings(
            minutes=minutes,
            tables=tables,
            timer=timer,
            grace=grace,
            slack=slack,
            pause=pause,
            bot_delay=bot_delay,
            games=games or 3,
            bots=bots,
            preset=preset,
            bot=bot.value,
            think=think or 1.0,
            chaos_every=chaos_every,
            seed=seed,
        )
        chaos_command(console, url, settings, json_file, lang.value)
        return
    pick = 0 if lang == Lang.zh else 1
    games = games or 1
    with Progress(console=console, transient=True) as bar, cannot_run(console, lang.value):
        task = bar.add_task(LABELS["progress"][pick], total=tables * games)
        report = asyncio.run(
            load_test(
                url,
                tables,
                games,
                preset,
                bot.value,
                seed,
                lambda done: bar.update(task, completed=done),
                think=think or 0.0,
            )
        )
    show(
        console,
        LABELS["title"][pick],
        report_rows(report, lang.value),
        report,
        json_file,
        lang.value,
    )


@contextlib.contextmanager
def cannot_run(console: Console, lang: str) -> Iterator[None]:
    """A :class:`LoadTestError` inside is printed in ``lang`` and exits 1."""
    try:
        yield
    except LoadTestError as exc:
        pick = 0 if lang == "zh" else 1
        console.print(f"{LABELS['failed'][pick]} {exc.text(lang)}", style="bold red")
        raise typer.Exit(1) from None


def show(
    console: Console,
    title: str,
    rows: Sequence[tuple[str, str]],
    report: LoadReport,
    json_file: Path | None,
    lang: str,
    notes: Sequence[str] = (),
) -> None:
    """Print the report's ``rows``, ``notes`` and first errors, write its JSON; exit 1 unless it
    is ok."""
    console.print(metrics_table(title, rows, lang))
    for line in notes:
        console.print(line, style="bold red", markup=False)
    if report.first_errors:
        console.print(LABELS["first"][0 if lang == "zh" else 1], style="bold red")
        for line in report.first_errors:
            console.print(f"  {line}", markup=False)
    if json_file is not None:
        json_file.write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n")
    if not report.ok:
        raise typer.Exit(1)
