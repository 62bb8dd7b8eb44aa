"""``baohuang loadtest --chaos`` (混沌测试): a soak of timed tables whose people misbehave.

``tables`` table slots play for ``minutes``, through the public protocol only. Each table is
timed (``timer``), with a short ``pause`` and ``bot_delay``, a reconnect ``grace``, ``games``
games a match, and five seats: the server's ``bots`` in the last ones, a :class:`Person` in
each other. A person thinks for a lognormal time that now and then runs past the timer (the
server's 托管 then plays the turn), drops the connection (sometimes on its own turn) and comes
back with ``hello`` {token, since}, switches 托管 on and off (sometimes on its own turn), takes
control back, clicks late, and rarely escapes (``leave``: a bot takes the seat; the person goes,
or watches to the end of the match). After ``match_over`` the people ready again and the table
plays another match; a table left with nobody to ready is replaced by a new one.

A watcher connection per table sees every event. A table owes a move (a ``start``, ``game``,
``game_over`` or ``match_over`` event) while its match is on, or once every seat is ready for
the next; **a stall** is a table that owes one and has not moved on for ``timer + grace +
slack`` seconds (other events, such as ``connected`` or ``auto``, do not count). It is reported
with its last move, its last event and its trail (the last events and what its people did),
and replaced. Refusals that a race with the server's
timer and bots explains (``stale``, ``not_your_turn``, ``not_allowed``, and ``illegal`` after a
newer game event) are tallied as races; any other refusal, an unexpected close, a gap in a
connection's events, a message outside the protocol is an error.

Given several servers (the nodes of a cluster), the tables' connections are spread over them
as the load test's are (:mod:`.loadtest`); a person's drop comes back on the same server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import random
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

from ..engine.state import SEATS
from .connection import IDLE_TIMEOUT
from .errors import ClientError
from .loadtest import (
    WAVE,
    LoadReport,
    SeatClient,
    TableRun,
    check_bot,
    describe_error,
    preflight,
    server_clients,
    server_urls,
)

#: σ of the lognormal think time (its median is the ``think`` setting): with a 1 s median,
#: about one turn in twelve takes over 3 s.
THINK_SPREAD = 0.8
#: The share of a person's own turns on which, instead of acting, they drop the connection or
#: switch 托管 on (half each).
TURN_CHAOS = 0.06
#: The share of chaos moves that are an escape; of the rest, half are drops and half 托管
#: toggles.
ESCAPE = 0.02
#: The chance that a person put on 托管 takes control back, and the mean seconds it takes.
TAKE_BACK = 0.7
TAKE_BACK_AFTER = 3.0
#: The chance that a click still goes out after the turn has moved on (a late click).
LATE_CLICK = 0.2
#: The chance that an escaped person keeps watching to the end of the match.
WATCH_AFTER_ESCAPE = 0.5
#: Seconds a person takes to press 准备 after a match.
READY_AFTER = (0.2, 1.5)
#: Events and moves kept per table for a stall's report.
TRAIL = 40
#: Stalls reported in full (all are counted).
KEPT_STALLS = 10
#: Refusals a race with the server's timer or bots explains.
RACES = frozenset({"stale", "not_your_turn", "not_allowed"})
#: Events by which a table moves on: a stall is a table that owes one and has none.
MOVES = frozenset({"start", "game", "game_over", "match_over"})
#: Seconds between two rounds of the stall detector.
TICK = 0.5
#: Table setups in a row a slot may fail before it gives up.
MAX_FAILURES = 3

#: Called every :data:`TICK` seconds with the seconds elapsed and the report so far.
ChaosHook = Callable[[float, "ChaosReport"], None]


@dataclass(frozen=True)
class ChaosSettings:
    """How a soak runs: its length, the tables' configuration, the people's manners."""

    minutes: float = 1.0
    tables: int = 10
    #: Seconds a person has per turn before 托管 (the table's ``timer``).
    timer: int = 3
    #: Seconds a disconnected person has to come back before 托管 (the table's ``grace``).
    grace: float = 2.0
    #: Seconds beyond ``timer + grace`` that a table may go without moving on.
    slack: float = 5.0
    pause: float = 0.5
    bot_delay: float = 0.2
    games: int = 3
    #: Seats (the last ones) the server's bots fill.
    bots: int = 0
    preset: str = "classic"
    #: The bot a person plays with.
    bot: str = "heuristic"
    #: The median of a person's think time.
    think: float = 1.0
    #: Mean seconds between a person's chaos moves (drops, 托管 toggles, escapes).
    chaos_every: float = 20.0
    seed: int = 0

    @property
    def stall_after(self) -> float:
        """Seconds without a move that make a stall."""
        return self.timer + self.grace + self.slack


def is_race(code: str, game_seq_sent: int, game_seq_now: int) -> bool:
    """Whether a refusal with ``code`` of a command sent when the latest game event was
    ``game_seq_sent`` is a race: ``stale``, ``not_your_turn``, ``not_allowed``, or
    ``illegal`` once a newer game event (``game_seq_now``) has arrived."""
    return code in RACES or (code == "illegal" and game_seq_now > game_seq_sent)


@dataclass
class ChaosReport(LoadReport):
    """What a soak measured (see the module docstring); filled in while it runs."""

    settings: ChaosSettings = field(default_factory=ChaosSettings)
    stalls: int = 0
    first_stalls: list[dict[str, Any]] = field(default_factory=list)
    #: Refusals explained by a race, by code.
    races: Counter[str] = field(default_factory=Counter)
    tables_created: int = 0
    matches_completed: int = 0
    #: 托管 switched on by the server because a person's timer ran out.
    timeouts: int = 0
    drops: int = 0
    reconnects: int = 0
    #: ``auto`` commands applied (on and off).
    toggles: int = 0
    escapes: int = 0
    #: Whether the server took the ``grace`` field (``None``: no table created yet).
    grace_accepted: bool | None = None

    @classmethod
    def of(cls, url: str | Sequence[str], settings: ChaosSettings) -> ChaosReport:
        urls = server_urls(url)
        return cls(
            urls[0],
            settings.tables,
            settings.games,
            settings.preset,
            settings.bot,
            settings.think,
            urls=urls,
            settings=settings,
        )

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.stalls == 0

    def stall(self, details: dict[str, Any]) -> None:
        self.stalls += 1
        if len(self.first_stalls) < KEPT_STALLS:
            self.first_stalls.append(details)

    def to_dict(self) -> dict[str, Any]:
        s = self.settings
        return {
            "url": self.url,
            "urls": self.urls,
            "settings": asdict(s) | {"stall_after": s.stall_after},
            "grace_accepted": self.grace_accepted,
            "stalls": self.stalls,
            "first_stalls": self.first_stalls,
            "errors": self.errors,
            "first_errors": self.first_errors,
            "tables_created": self.tables_created,
            "sockets": self.sockets,
            "games_completed": self.games_completed,
            "matches_completed": self.matches_completed,
            "commands": self.commands,
            "commands_per_s": round(self.commands_per_s, 1),
            "latency_samples": len(self.latencies_ms),
            "latency_ms": self.rounded_latency(),
            "timeouts": self.timeouts,
            "drops": self.drops,
            "reconnects": self.reconnects,
            "duplicates": self.duplicates,
            "toggles": self.toggles,
            "escapes": self.escapes,
            "races": dict(sorted(self.races.items())),
            "wall_s": round(self.play_s, 3),
            "ok": self.ok,
        }


def describe_event(data: dict[str, Any]) -> str:
    """A table event in a few words, for a trail."""
    kind = data["kind"]
    if kind == "game":
        return "game " + " ".join(f"{e['kind']}@{e.get('seat', '-')}" for e in data["events"])
    if kind == "auto":
        on = "on" if data["on"] else "off"
        return f"auto seat {data['seat']} {on} ({data['reason']})"
    if kind in ("connected", "ready"):
        return f"{kind} seat {data['seat']} {'on' if data['on'] else 'off'}"
    return kind if "seat" not in data else f"{kind} seat {data['seat']}"


class ChaosTable(TableRun):
    """One table of the soak: its people, a watcher for every event, and the stall clock."""

    def __init__(self, index: int, report: ChaosReport, rng: random.Random) -> None:
        super().__init__(index, report, report.bot, None, report.think, report.settings.seed)
        self.chaos = report
        self.settings = report.settings
        self.rng = rng
        self.timeout = IDLE_TIMEOUT
        self.people: list[Person] = []
        self.watcher: Watcher | None = None
        #: Set when the table leaves the soak: a stall, nobody to play on, the end.
        self.retired = asyncio.Event()
        self.status = "waiting"
        self.born = time.monotonic()
        #: Whether the table owes a move: a match is on, or every seat is ready for the next.
        self.due = False
        #: When the table last moved on (a game event), or became due to.
        self.moved = self.born
        self.last_move = "-"
        self.last_kind = "-"
        self.last_seq = 0
        self.trail: deque[str] = deque(maxlen=TRAIL)

    def config(self) -> dict[str, Any]:
        s = self.settings
        config = super().config()
        config |= {"bots": s.bots, "timer": s.timer, "pause": s.pause, "bot_delay": s.bot_delay}
        if self.chaos.grace_accepted is not False:
            config["grace"] = s.grace
        return config

    async def create(self, http: httpx.AsyncClient, cookie: str) -> dict[str, Any]:
        """Create the table; a server whose ``TableConfig`` has no ``grace`` (a 422 naming
        it) gets the table without it, and so do the later ones."""
        try:
            info = await super().create(http, cookie)
        except ClientError as exc:
            if not (" 422 " in str(exc) and "grace" in str(exc)):
                raise
            self.chaos.grace_accepted = False
            info = await super().create(http, cookie)
        self.chaos.grace_accepted = "grace" in info["config"]
        self.chaos.tables_created += 1
        return info

    async def open(self, http: Sequence[httpx.AsyncClient], timeout: float) -> None:
        """The table with its people seated, then the watcher (it replays every event)."""
        self.timeout = timeout
        await super().open(http, timeout)
        self.moved = time.monotonic()
        watcher = Watcher(self, "", timeout, SEATS)
        await watcher.open()
        self.watcher = watcher
        self.clients.append(watcher)
        self.report.sockets += 1

    def seat_client(self, cookie: str, timeout: float, place: int = 0) -> SeatClient:
        person = Person(self, cookie, timeout, random.Random(self.rng.random()), place)
        self.people.append(person)
        return person

    async def play(self) -> None:
        """Play matches until the table is retired."""
        assert self.watcher is not None
        await asyncio.gather(self.watcher.watch(), *(person.live() for person in self.people))

    def note(self, what: str) -> None:
        """Add to the table's trail."""
        self.trail.append(f"{time.monotonic() - self.born:7.2f}s {what}")

    def seen(self, seq: int, data: dict[str, Any]) -> None:
        """The watcher saw event ``seq``."""
        kind = data["kind"]
        now = time.monotonic()
        self.last_kind, self.last_seq = kind, seq
        self.note(f"v{seq} {describe_event(data)}")
        if kind in MOVES:
            self.moved, self.last_move = now, f"v{seq} {kind}"
        if kind == "auto" and data["on"] and data["reason"] == "timeout":
            self.chaos.timeouts += 1
        elif kind == "game_over":
            self.chaos.games_completed += 1
        elif kind == "match_over":
            self.chaos.matches_completed += 1
        if "table" in data:
            info = data["table"]
            self.status = info["status"]
            seats = info["seats"]
            due = self.status == "playing" or all(seat and seat["ready"] for seat in seats)
            if due and not self.due:
                self.moved = now
            self.due = due
            people = [seat for seat in seats if seat and seat["user"] is not None]
            if self.status == "finished" and (None in seats or not people):
                self.note("nobody left to play another match: a new table")
                self.retired.set()

    def stall(self, now: float) -> dict[str, Any] | None:
        """The table's stall, if it owes a move and has not moved on for
        :attr:`ChaosSettings.stall_after` s."""
        idle = now - self.moved
        if self.retired.is_set() or not self.due or idle <= self.settings.stall_after:
            return None
        return {
            "table": self.id,
            "index": self.index,
            "phase": "playing" if self.status == "playing" else "starting",
            "idle_s": round(idle, 1),
            "last_move": self.last_move,
            "last_event": self.last_kind,
            "last_seq": self.last_seq,
            "trail": list(self.trail),
        }

    async def close(self) -> None:
        self.retired.set()
        await super().close()


class Watcher(SeatClient):
    """A connection without a seat: it sees every event of the table (the stall clock)."""

    async def watch(self) -> None:
        self.playing = True
        table = self.run
        assert isinstance(table, ChaosTable)
        try:
            await self.hello(since=0)
            async for msg in self.messages():
                if msg["t"] == "event":
                    table.seen(msg["v"], msg["d"])
            problem = "the server closed the connection"
        except Exception as exc:
            problem = describe_error(exc)
        if not table.retired.is_set():
            self.report.error(self.where, problem)
            table.retired.set()

    @property
    def where(self) -> str:
        return f"table {self.run.index} ({self.run.id}) watcher"


class Person(SeatClient):
    """A person in a seat, with the manners the module docstring lists.

    One coroutine per connection reads messages and carries out planned moves when they fall
    due (:attr:`plans`: move → monotonic time): ``turn`` (act, or drop, or 托管 on), ``ready``,
    ``take_back`` (托管 off) and ``chaos`` (a drop, a 托管 toggle, an escape).
    """

    def __init__(
        self,
        table: ChaosTable,
        cookie: str,
        timeout: float,
        rng: random.Random,
        place: int = 0,
    ) -> None:
        super().__init__(table, cookie, timeout, place)
        self.table = table
        self.settings = table.settings
        self.chaos = table.chaos
        self.rng = rng
        self.view: dict[str, Any] | None = None
        self.auto = False
        self.in_game = False
        #: The sequence number of the latest ``start`` or ``game`` event seen.
        self.game_seq = 0
        self.plans: dict[str, float] = {}
        #: The planned turn: what to do, and the view (and its game event) it is planned on.
        self.turn_move = "act"
        self.turn_view: dict[str, Any] = {}
        self.turn_seq = 0
        #: Commands awaiting their answer: id → (op, the latest game event when sent).
        self.sent: dict[str, tuple[str, int]] = {}
        #: Set while this client closes its own connection (a drop, an escape, the end).
        self.closing = False
        #: Set once the seat is not this person's: they escaped (or their token failed).
        self.gone = False
        self.moves: dict[str, Callable[[], Awaitable[None]]] = {
            "turn": self.turn,
            "ready": self.ready,
            "take_back": self.take_back,
            "chaos": self.chaos_move,
        }

    def plan(self, move: str, after: float) -> None:
        self.plans[move] = time.monotonic() + after

    def say(self, what: str) -> None:
        self.table.note(f"seat {self.seat} {what}")

    async def send(self, op: str, **fields: Any) -> str:
        command_id = await super().send(op, **fields)
        self.sent[command_id] = (op, self.game_seq)
        return command_id

    # ------------------------------------------------------------------ connections

    async def live(self) -> None:
        """Play until the table is retired or this person is gone; come back after a drop."""
        self.playing = True
        self.plan("ready", self.rng.uniform(*READY_AFTER))
        self.plan("chaos", self.rng.expovariate(1 / self.settings.chaos_every))
        back = False
        while True:
            try:
                if back:
                    await self.come_back()
                await self.session()
            except Exception as exc:
                if not self.closing:
                    self.report.error(self.where, describe_error(exc))
            await self.close()
            if self.gone or self.table.retired.is_set():
                return
            away = self.rng.uniform(0.2, 2 * self.settings.grace + 1)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(away):
                    await self.table.retired.wait()
                return
            back = True

    async def come_back(self) -> None:
        """A new connection: ``hello`` with the seat token and the last event seen."""
        self.closing = False
        await self.open()
        if self.table.retired.is_set():
            self.closing = True
            return
        # Answers to the old connection's commands are lost with it; a pending act's event
        # comes back in the replay, too late to time.
        self.sent.clear()
        self.sent_at = None
        await self.hello(self.token, self.seq)
        self.chaos.reconnects += 1
        self.say(f"back (hello since {self.seq})")

    async def session(self) -> None:
        """Read one connection and make the planned moves, until it closes."""
        heard, limit = time.monotonic(), self.table.timeout
        while not (self.closing or self.table.retired.is_set()):
            silence = heard + limit
            due = min([silence, *self.plans.values()])
            try:
                msg = await self.recv(max(0.0, due - time.monotonic()))
            except TimeoutError:
                if time.monotonic() >= silence:
                    raise TimeoutError(f"no message for {limit:g} s") from None
            else:
                heard = time.monotonic()
                self.on_message(msg)
            await self.make_moves()

    async def make_moves(self) -> None:
        """Make the moves that are due, in order (one may cancel the others: an escape)."""
        now = time.monotonic()
        for move in [move for move, at in self.plans.items() if at <= now]:
            if self.plans.pop(move, None) is None:
                continue
            await self.moves[move]()
            if self.closing:
                return

    async def close(self) -> None:
        self.closing = True
        await super().close()

    # ------------------------------------------------------------------ what comes in

    def on_message(self, msg: dict[str, Any]) -> None:
        kind, data = msg["t"], msg["d"]
        if kind == "event":
            self.on_event(msg["v"], data)
        elif kind in ("welcome", "snapshot"):
            self.on_table(data["table"])
            self.in_game = data["table"]["status"] == "playing"
            if kind == "snapshot" and data["view"] and not self.gone:
                self.on_view(data["view"])
        elif kind == "view" and not self.gone:  # R14: its own answer to a sealed poll kept
            self.on_view(data["view"])
        elif kind == "ack":
            self.on_ack(data)

    def on_table(self, info: dict[str, Any]) -> None:
        """The table's header: this seat's 托管, and whether to ready for the next match."""
        if self.gone:
            return
        seat = info["seats"][self.seat] if self.seat is not None else None
        if seat is None:
            return
        self.auto = seat["auto"]
        readying = "ready" in self.plans or "ready" in (op for op, _ in self.sent.values())
        if info["status"] == "finished" and not seat["ready"] and not readying:
            self.plan("ready", self.rng.uniform(*READY_AFTER))

    def on_event(self, seq: int, data: dict[str, Any]) -> None:
        kind = data["kind"]
        self.measure(data)
        if kind in ("start", "game"):
            self.game_seq = seq
        if kind == "start":
            self.in_game = True
            self.plans.pop("ready", None)
        elif kind in ("game_over", "match_over"):
            self.in_game = False
            if kind == "match_over" and self.gone:
                self.closing = True  # the escaped person watched to the end
        elif kind == "auto" and data["seat"] == self.seat and not self.gone:
            self.on_auto(data["on"])
        if "table" in data:
            self.on_table(data["table"])
        if "view" in data and not self.gone:
            self.on_view(data["view"])

    def on_view(self, view: dict[str, Any]) -> None:
        """A fresh view: plan this seat's turn, and drop (most) pending clicks."""
        self.view = view
        mine = self.my_turn(view)
        if "turn" in self.plans and (mine or self.rng.random() >= LATE_CLICK):
            del self.plans["turn"]
        if mine and not self.auto:
            self.plan_turn(view)

    def plan_turn(self, view: dict[str, Any]) -> None:
        think = self.rng.lognormvariate(math.log(self.settings.think), THINK_SPREAD)
        odds = self.rng.random()
        self.turn_move = "act"
        if odds < TURN_CHAOS:
            self.turn_move = "drop" if odds < TURN_CHAOS / 2 else "auto"
            think = self.rng.uniform(0, min(think, self.settings.timer))
        self.turn_view, self.turn_seq = view, self.game_seq
        self.plan("turn", think)

    def on_auto(self, on: bool) -> None:
        self.auto = on
        if on and self.rng.random() < TAKE_BACK:
            self.plan("take_back", self.rng.expovariate(1 / TAKE_BACK_AFTER))
        elif not on:
            self.plans.pop("take_back", None)
            if self.view and self.my_turn(self.view):
                self.plan_turn(self.view)

    def on_ack(self, data: dict[str, Any]) -> None:
        op, _ = self.sent.pop(data["id"], ("", 0))
        if op == "auto":
            self.chaos.toggles += 1
        elif op == "leave":
            self.chaos.escapes += 1
            self.closing = self.rng.random() >= WATCH_AFTER_ESCAPE
            self.say("escaped" + ("" if self.closing else ", watching"))

    def refused(self, data: dict[str, Any]) -> None:
        op, game_seq = self.sent.pop(data.get("id") or "", ("", -1))
        if op == "act":
            self.sent_at = None
        if op and is_race(data["code"], game_seq, self.game_seq):
            self.chaos.races[data["code"]] += 1
            self.say(f"{op} refused: {data['code']} (a race)")
            return
        if data["code"] == "bad_token":  # the seat is lost: this person can only watch
            self.gone = self.closing = True
            self.plans.clear()
        super().refused(data)

    # ------------------------------------------------------------------ moves

    async def turn(self) -> None:
        view, move = self.turn_view, self.turn_move
        if move == "act":
            # A late click is judged against the view it was made on.
            self.sent[await self.send_act(view)] = ("act", self.turn_seq)
            self.say(f"acts on v{self.turn_seq}")
        elif move == "drop":
            self.say("drops the connection on its own turn")
            self.drop()
        else:
            self.say("托管 on, on its own turn")
            await self.send("auto", on=True)

    def drop(self) -> None:
        self.chaos.drops += 1
        self.closing = True

    async def ready(self) -> None:
        if not self.in_game:
            await self.send("ready")

    async def take_back(self) -> None:
        if self.auto:
            self.say("takes control back (托管 off)")
            await self.send("auto", on=False)

    async def chaos_move(self) -> None:
        """A drop, a 托管 toggle or (in a game, rarely) an escape; and plan the next."""
        self.plan("chaos", self.rng.expovariate(1 / self.settings.chaos_every))
        odds = self.rng.random()
        if self.in_game and odds < ESCAPE:
            self.say("escapes (leave)")
            self.gone = True  # from now on the seat is not theirs: no more moves
            self.plans.clear()
            await self.send("leave")
        elif odds < (1 + ESCAPE) / 2 or not self.in_game:
            self.say("drops the connection")
            self.drop()
        else:
            self.say(f"托管 {'off' if self.auto else 'on'}")
            await self.send("auto", on=not self.auto)


# ---------------------------------------------------------------------- the soak


async def chaos_soak(
    url: str | Sequence[str],
    settings: ChaosSettings,
    progress: ChaosHook | None = None,
    timeout: float = IDLE_TIMEOUT,
) -> ChaosReport:
    """Run the soak (see the module docstring) against the server at ``url`` (or spread over
    several); raise :class:`ClientError` if it cannot start. It stops itself after
    ``settings.minutes``."""
    check_bot(settings.bot)
    report = ChaosReport.of(url, settings)
    # A person's connection may be silent for as long as a table may be.
    timeout = max(timeout, 2 * settings.stall_after)
    rng = random.Random(settings.seed)
    tables: set[ChaosTable] = set()
    setups = asyncio.Semaphore(max(1, WAVE // SEATS))
    serial = itertools.count()

    async def slot(http: list[httpx.AsyncClient], deadline: float) -> None:
        failures = 0
        while failures < MAX_FAILURES and time.monotonic() < deadline:
            table = ChaosTable(next(serial), report, random.Random(rng.random()))
            tables.add(table)
            try:
                async with asyncio.timeout(deadline - time.monotonic()), setups:
                    await table.setup(http, timeout)
                if table.ready:
                    failures = 0
                    playing = asyncio.create_task(table.play())
                    await table.retired.wait()
                    await table.close()
                    await playing
                else:
                    failures += 1
            except TimeoutError:  # the soak ended during the setup
                pass
            finally:
                tables.discard(table)
                await table.close()

    async with server_clients(report.urls, timeout) as http:
        for client in http:
            await preflight(client, settings.preset)
        started = time.monotonic()
        deadline = started + settings.minutes * 60
        slots = [asyncio.create_task(slot(http, deadline)) for _ in range(settings.tables)]
        while (now := time.monotonic()) < deadline and not all(s.done() for s in slots):
            for table in list(tables):
                if table.ready and (stall := table.stall(now)) is not None:
                    report.stall(stall)
                    table.retired.set()
            report.play_s = now - started
            if progress:
                progress(report.play_s, report)
            await asyncio.sleep(TICK)
        for table in list(tables):
            table.retired.set()
        await asyncio.gather(*slots)
        report.play_s = time.monotonic() - started
        report.play_commands = report.commands
    return report
