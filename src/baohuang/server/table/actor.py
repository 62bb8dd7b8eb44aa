"""A table (牌桌): one asyncio task that feeds commands to the engine in order (an actor).

The server holds no game logic: every action goes through :meth:`Game.apply`, every refusal is
the engine's error. Each state change is a table event: stored first (:class:`Store`), then
sent to every connection as that connection's seat may see it (R14) under one sequence number.
The actor has the table's state (:attr:`TableActor.state`, a :class:`.tablestate.TableState`):
a fold over its events, which is how a table comes back after a restart, ``kill -9`` included.
The actor does the I/O (connections, storage, timers, bots). Time comes from one injected
:class:`Clock`; every pending wake-up is set by :func:`.liveness.arrange` alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from sqlalchemy import update
from sqlalchemy.orm import Session

from ...bots.heuristic import HeuristicBot
from ...engine.actions import PASS, Action, Escape, parse_action
from ...engine.cards import format_cards
from ...engine.errors import BaohuangError
from ...engine.plays import Play
from ...engine.record import to_record
from ...engine.state import SEATS
from ...engine.views import views_json
from ...protocol.messages import (
    SIGNALS,
    Act,
    AddBot,
    Auto,
    Command,
    Hint,
    Leave,
    Ready,
    RemoveBot,
    Signal,
    Sit,
    Start,
    TableConfig,
)
from ...protocol.messages import Hello as HelloData
from ...text.catalog import MESSAGES
from .. import metrics, ratings
from ..botpool import BotPool, SeatBot
from ..clock import Clock, SystemClock
from ..connection import Conn, Refused, message
from ..store import Append, Fenced, GameRow, Store, TableRow, Work
from ..tokens import hash_token
from . import liveness
from .mailbox import (
    BotMove,
    Cmd,
    Gone,
    GraceOver,
    Hello,
    Message,
    NextGame,
    Overdue,
    TakeOver,
    Watchdog,
)
from .results import Scored, game_over_data, scored, store_game
from .scheduler import Scheduler
from .seats import Seat
from .tableevents import (
    AutoChanged,
    Connected,
    GameOver,
    Left,
    MatchOver,
    ReadyChanged,
    RoomOpened,
    Sat,
    Signalled,
    TableEvent,
)
from .tablelog import ENGINE_KINDS, TABLE_KINDS, Logged
from .tablestate import TableState

log = logging.getLogger("baohuang.server")

#: A reconnect missing more events than this gets a snapshot instead of a replay.
MAX_REPLAY = 1000
#: Seconds people have to reconnect after a server restart before 托管 takes their seats
#: (at least; a table's own grace when longer).
RESTART_GRACE = 10.0
#: Seconds between two quick signals (心战) of one seat.
SIGNAL_GAP = 1.5


class TableActor:
    """See the module docstring. Create, load stored events into :attr:`state` if any
    (:meth:`TableState.load`), then :meth:`start`."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        seed: str,
        store: Store,
        clock: Clock | None = None,
        token: Callable[[int], str] = secrets.token_hex,
        pool: BotPool | None = None,
    ) -> None:
        #: Everything about the table that its events decide (no I/O, no clock).
        self.state = TableState(table_id, config, seed)
        self.store = store
        #: Where the bots think (``None``: in this process).
        self.pool = pool
        #: Seat bots made so far (each gets its own key in the pool).
        self.made = 0
        #: Random hex of n bytes: each game's deal seed.
        self.token = token
        self.clock: Clock = clock or SystemClock()
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.scheduler = Scheduler(self.clock, self.submit)
        self.task: asyncio.Task[None] | None = None
        self.broken = False
        #: Many nodes: the table's epoch when this node took it (its writes' fence).
        self.epoch: int | None = None
        #: Times the watchdog found the table stalled (0 in a healthy table).
        self.stalls = 0
        #: When the table last handled anything (for the lobby's clean-up).
        self.touched = self.clock.now()
        #: Events folded but not yet stored, and work for the same transaction (:meth:`_flush`).
        self._rows: list[dict[str, Any]] = []
        self._works: list[Work] = []
        #: Seats whose own view changed with no event: a sealed poll's answer kept (R14).
        self._own_views: set[int] = set()
        self._started = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.state.id}")

    async def run(self) -> None:
        """The actor loop: one message at a time, in order; then the wake-ups it calls for."""
        self.touched = self.clock.now()
        self._resume_clock()
        await self._complete()
        await self._flush()
        liveness.arrange(self)
        self._started.set()
        while True:
            item = await self.inbox.get()
            self.touched = self.clock.now()
            try:
                await self._handle(item)
                await self._flush()
                liveness.arrange(self)
            except Exception as exc:
                # A storage failure leaves memory ahead of the database: drop this copy; the
                # lobby folds the table again from what was stored (or, fenced, the node that
                # runs it now has it).
                if isinstance(exc, Fenced):
                    metrics.FENCED.inc()
                    log.warning("%s; another node runs it", exc)
                else:
                    log.exception("table %s failed; it will be reloaded", self.state.id)
                self.broken = True
                self.scheduler.cancel_all()
                for conn in self._all_conns():
                    conn.close()
                return
            finally:
                self.inbox.task_done()

    async def settled(self) -> None:
        """Wait until the table has started and handled every message submitted so far."""
        await self._started.wait()
        await self.inbox.join()

    async def stop(self) -> None:
        """Stop the actor; the sockets whose messages it had not read yet are closed (they
        reconnect and find the table wherever it is run now)."""
        self.scheduler.cancel_all()
        if self.pool is not None:
            self.pool.forget(self.state.id)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        while not self.inbox.empty():
            _close_sender(self.inbox.get_nowait())

    @property
    def seq(self) -> int:
        """The table's latest event sequence number (what a :class:`.mailbox.Target` tells)."""
        return self.state.seq

    def submit(self, item: Message) -> None:
        """Queue ``item`` for the actor; to a stopped (or failed) actor, close its socket at
        once instead: a socket reaching a node just as it let the table go was never
        answered, nor closed, and its page froze."""
        if self.task is not None and self.task.done():
            _close_sender(item)
            return
        self.inbox.put_nowait(item)

    # ------------------------------------------------------------------ the public state

    def clock_info(self) -> dict[str, Any] | None:
        """The countdown of the person the game waits on: seconds until 托管 takes over; in a
        sealed poll (R14) the poll's, the same for every seat asked and naming none."""
        if self.state.in_game() and self.state.game.sealed:
            at = liveness.poll_deadline(self.state)
            if at is None:
                return None
            remaining = round(max(0.0, at - self.clock.now()), 3)
            return {"seat": None, "remaining": remaining, "timer": self.state.config.timer}
        due = liveness.acting(self.state)
        if due is None or not isinstance(due.wake, TakeOver):
            return None
        full = self.state.config.timer if due.wake.reason == "timeout" else self.state.config.grace
        seat = self.state.game.current_seat
        return {
            "seat": seat,
            "remaining": round(max(0.0, due.at - self.clock.now()), 3),
            "timer": full,
        }

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        view = self.state.game.view(seat).to_json() if self.state.match else None
        return {
            "table": self.state.info().model_dump(),
            "seat": seat,
            "view": view,
            "prompt": self.state.prompt(view),
            "clock": self.clock_info(),
            "history": self.state.log.history(seat),
        }

    # ------------------------------------------------------------------ events

    def _conns(self) -> list[tuple[int | None, set[Conn]]]:
        """The table's connections by seat (``None``: the watchers')."""
        groups: list[tuple[int | None, set[Conn]]] = [(None, self.state.watchers)]
        seats = self.state.seats
        groups += [(s, seat.conns) for s, seat in enumerate(seats) if seat and seat.conns]
        return groups

    def _all_conns(self) -> list[Conn]:
        """Every connection to the table, seated or watching."""
        return [*self.state.watchers, *(c for s in self.state.seats if s for c in s.conns)]

    def _tell(
        self, event: TableEvent, status: str | None = None, extra: Work | None = None
    ) -> None:
        """Fold one of the table's own events into its state and queue it (:meth:`_record`)."""
        self.state.fold(event)
        self._record(event.kind, event.public(), secret=event.secret(), status=status, extra=extra)

    def _record(
        self,
        kind: str,
        public: dict[str, Any],
        private: dict[int, dict[str, Any]] | None = None,
        secret: dict[str, Any] | None = None,
        status: str | None = None,
        extra: Work | None = None,
    ) -> None:
        """Queue an event (with ``extra`` work and the table's new ``status``) for
        :meth:`_flush`, which stores everything one message caused in one transaction and
        only then sends it; a game's event has changed the game already, a table's own
        event is folded first (:meth:`_tell`)."""
        private = private or {}
        row = {
            "table_id": self.state.id,
            "seq": self.state.seq + 1,
            "kind": kind,
            "public": public,
            "private": {str(s): d for s, d in private.items()},
            "secret": secret or {},
            "at": self.clock.wall(),
        }
        if status is not None:
            self._works.append(_set_status(self.state.id, status))
        if extra is not None:
            self._works.append(extra)
        self._rows.append(row)
        if kind in ENGINE_KINDS or (kind == "auto" and self._is_current(public["seat"])):
            self.state.turn_since = self.clock.now()  # the turn, or who plays it, changed
        self.state.log.add(Logged(kind, public, private))

    async def _flush(
        self, answering: Conn | None = None, ack: dict[str, Any] | None = None
    ) -> bool:
        """The atomicity rule: every event one message caused (an action and what follows
        from it: game over, match over, a leaver replaced by a bot) in one write; then each
        is sent, in order. The last event's frame to ``answering`` carries the command's
        ``ack`` as ``a`` (one frame, not two); whether it did."""
        if not self._rows:
            self._send_own_views()
            return False
        rows, works = self._rows, self._works
        self._rows, self._works = [], []

        def work(session: Session) -> None:
            for job in works:
                job(session)

        fence = (self.state.id, self.epoch) if self.epoch is not None else None
        await self.store.write(Append(rows, work if works else None, fence))
        groups = [(seat, conns) for seat, conns in self._conns() if conns]
        views: dict[int | None, dict[str, Any]] = {}
        if self.state.match and any(
            self.state.log[row["seq"] - 1].kind in ENGINE_KINDS for row in rows
        ):
            # The views after everything the message caused, each seat's built once (their
            # public part once for all) for all of its events.
            views = views_json(self.state.game, [seat for seat, _ in groups])
        # A seat's own view still to come (R14) goes before the answer: no fold then.
        folding = answering if ack is not None and not self._own_views else None
        for row in rows[:-1]:
            self._broadcast(row["seq"] - 1, groups, views)
        folded = self._broadcast(rows[-1]["seq"] - 1, groups, views, folding, ack)
        self._send_own_views()
        return folded

    def _send_own_views(self) -> None:
        """R14: a seat whose answer to the sealed poll in progress was kept gets its new view
        (answered, waiting for the others) on its own connections; no other connection hears
        of it. Once the answers are published, their event carries every view instead."""
        seats, self._own_views = self._own_views, set()
        if not seats or not self.state.in_game() or not self.state.game.sealed:
            return
        for seat in sorted(seats):
            chair = self.state.seats[seat]
            if chair is None or not chair.conns:
                continue
            view = self.state.game.view(seat).to_json()
            data = {"view": view, "prompt": self.state.prompt(view), "clock": self.clock_info()}
            text = message("view", self.state.seq, data)
            for conn in chair.conns:
                conn.send(text)

    def _is_current(self, seat: int) -> bool:
        """``seat`` is the one the game waits on (in a sealed poll none is: its clock is the
        poll's, R14)."""
        return (
            self.state.in_game()
            and not self.state.game.sealed
            and self.state.game.current_seat == seat
        )

    def _broadcast(
        self,
        index: int,
        groups: list[tuple[int | None, set[Conn]]],
        views: dict[int | None, dict[str, Any]],
        answering: Conn | None = None,
        ack: dict[str, Any] | None = None,
    ) -> bool:
        """Event ``index`` to every connection, with its seat's view from ``views``; to
        ``answering``, with ``ack`` as ``a`` (whether it was among them)."""
        folded = False
        info = self.state.info().model_dump() if self.state.log[index].kind in TABLE_KINDS else None
        clock = self.clock_info()
        for seat, conns in groups:
            data = self.state.log[index].for_seat(seat)
            if data["kind"] in ENGINE_KINDS and views:
                data["view"] = views[seat]
                data["prompt"] = self.state.prompt(views[seat])
            if info is not None:
                data["table"] = info
            data["clock"] = clock
            text = message("event", index + 1, data)
            for conn in conns:
                if conn is answering:
                    conn.send(f'{text[:-1]},"a":{orjson.dumps(ack).decode()}}}')
                    folded = True
                else:
                    conn.send(text)
        return folded

    # ------------------------------------------------------------------ loading (the fold)

    def _resume_clock(self) -> None:
        """Time starts now: the turn in progress, and people's grace to come back."""
        now = self.state.turn_since = self.clock.now()
        grace = max(self.state.config.grace, RESTART_GRACE)
        for chair in self.state.seats:
            if chair and chair.person and not chair.conns:
                chair.away_until = now + grace

    async def _complete(self) -> None:
        """After a load, finish what a crash cut short (any prefix of the log is legal): a
        start everyone was ready for, a game without its ``game_over``, a last game without
        its ``match_over``, an escaper still seated, an empty seat in a match."""
        if self.state.status == "waiting":
            await self._maybe_start()
        if self.state.match is None:
            return
        if self.state.status == "playing" and self.state.game.is_over:
            if len(self.state.results) == self.state.game_index:
                await self._finish_game()
            elif not liveness.more_games(self.state):
                totals = [sum(r[s] for r in self.state.results) for s in range(SEATS)]
                self._tell(MatchOver(totals), status="finished")
        if (
            self.state.escaped is not None
            and (chair := self.state.seats[self.state.escaped])
            and chair.person
        ):
            self._vacate(self.state.escaped)
        for seat, chair in enumerate(self.state.seats):
            if chair is None and self.state.status == "playing":
                self._tell(self._bot(seat, self.state.config.bot_level))

    # ------------------------------------------------------------------ the mailbox

    async def _handle(self, item: Message) -> None:
        match item:
            case Hello(conn, hello):
                await self._hello(conn, hello)
            case Cmd(conn, seen, command):
                await self._command(conn, seen, command)
            case Gone(conn):
                await self._gone(conn)
            case BotMove(turn) if turn == self.state.turn():
                await self._bot_turn()
            case TakeOver(turn, reason) if turn == self.state.turn():
                await self._take_over(reason)
            case GraceOver():
                await self._grace_over()
            case NextGame(match, game) if self._next_due(match, game):
                await self._start(match, game)
            case Watchdog():
                self._watchdog()

    def _watchdog(self) -> None:
        """A wake-up long past due means the table is stuck: say so, and set it again."""
        late = liveness.overdue(self)
        if late:
            self.stalls += 1
            log.error(
                "table %s stalled at event %d: %s overdue; rescheduling",
                self.state.id,
                self.state.seq,
                ", ".join(late),
            )
            for slot in late:
                self.scheduler.want(slot, None)
        self.scheduler.want("watchdog", None)  # arrange sets the next check

    def _next_due(self, match: int, game: int) -> bool:
        return (
            self.state.status == "playing"
            and self.state.match is not None
            and self.state.game.is_over
            and (match, game) == (self.state.matches, self.state.match.index + 1)
        )

    async def _take_over(self, reason: Overdue) -> None:
        """R13: 托管 takes the seat to act (its timer ran out, or its person stayed away)."""
        if self.state.game.sealed:
            await self._poll_timeout()
            return
        seat = self.state.game.current_seat
        chair = self.state.seats[seat] if seat is not None else None
        if seat is not None and chair is not None and not chair.played_by_bot:
            self._tell(AutoChanged(seat, True, reason))

    async def _grace_over(self) -> None:
        now = self.clock.now()
        for seat, chair in enumerate(self.state.seats):
            if chair is None or chair.auto or chair.away_until is None:
                continue
            if chair.away_until <= now and self.state.in_game():
                self._tell(AutoChanged(seat, True, "disconnect"))

    async def _hello(self, conn: Conn, hello: HelloData) -> None:
        if conn.greeted:
            refused = Refused("not_allowed", "error.server.hello_twice")
            conn.send(message("error", self.state.seq, refused.data(None)))
            return
        conn.greeted = True
        if not self.state.admits(conn.user, hello.code):  # a friends' table: its members, its code
            refused = Refused("room_code", "error.room.code_needed")
            conn.send(message("error", self.state.seq, refused.data(None)))
            conn.close()
            return
        seat = None
        if hello.token:
            digest = hash_token(hello.token)
            seat = next(
                (s for s, c in enumerate(self.state.seats) if c and c.token_hash == digest), None
            )
            bad = None
            if seat is None:
                bad = Refused("bad_token", "error.server.token_invalid")
            elif self.state.chair(seat).user != conn.user:  # only for the player it was issued to
                bad = Refused("bad_token", "error.server.token_other")
                seat = None
            if bad is not None:
                conn.send(message("error", self.state.seq, bad.data(None)))
        conn.seat = seat
        chair = self.state.seats[seat] if seat is not None else None
        (chair.conns if chair else self.state.watchers).add(conn)
        welcome = {
            "table": self.state.info().model_dump(),
            "seat": seat,
            "user": conn.user,
            "clock": self.clock_info(),
        }
        conn.send(message("welcome", self.state.seq, welcome))
        since = hello.since
        if (
            since is not None
            and 0 <= since <= self.state.seq
            and self.state.seq - since <= MAX_REPLAY
        ):
            last_game = max(
                (i for i in range(since, self.state.seq) if self.state.log[i].kind in ENGINE_KINDS),
                default=-1,
            )
            for index in range(since, self.state.seq):
                data = self.state.event_data(index, seat, view=index == last_game)
                conn.send(message("event", index + 1, data))
        else:
            conn.send(message("snapshot", self.state.seq, self.snapshot(seat)))
        if chair and seat is not None and self.state.in_game() and self.state.game.sealed:
            # R14: its own view as it is now (a restart forgets kept answers: asked again)
            view = self.state.game.view(seat).to_json()
            own = {"view": view, "prompt": self.state.prompt(view), "clock": self.clock_info()}
            conn.send(message("view", self.state.seq, own))
        if chair and seat is not None and len(chair.conns) == 1:
            chair.away_until = None
            self._tell(Connected(seat, True))
            if chair.auto and chair.auto_reason in ("disconnect", "timeout"):
                self._tell(AutoChanged(seat, False, "reconnect"))

    async def _gone(self, conn: Conn) -> None:
        conn.close(drop=True)  # nobody reads what it still held
        self.state.watchers.discard(conn)
        seat = conn.seat
        chair = self.state.seats[seat] if seat is not None else None
        if seat is None or chair is None or conn not in chair.conns:
            return
        chair.conns.discard(conn)
        if not chair.conns:
            # R13: 托管 after the grace, unless they come back (liveness.grace/acting).
            chair.away_until = self.clock.now() + self.state.config.grace
            self._tell(Connected(seat, False))

    # ------------------------------------------------------------------ commands

    async def _command(self, conn: Conn, seen: int, command: Command) -> None:
        started, refusal = metrics.start(), None  # metrics: latency to the answer, refusals
        chair = self.state.seats[conn.seat] if conn.seat is not None else None
        answers = chair.answers if chair else conn.answers
        if command.id in answers:
            conn.send(answers[command.id])
            return
        snapshot, ack = False, None
        try:
            extra = await self._run(conn, seen, command)
            ack = {"id": command.id, **extra}
            reply = message("ack", self.state.seq, ack)
        except Refused as refused:
            reply = message("error", self.state.seq, refused.data(command.id))
            snapshot, refusal = refused.code == "stale", refused.code
        # What the command caused is stored and sent before its answer (with its last event).
        folded = await self._flush(conn, ack)
        chair = self.state.seats[conn.seat] if conn.seat is not None else None
        (chair.answers if chair else conn.answers).keep(command.id, reply)
        if not folded:
            conn.send(reply)
        metrics.command_answered(command.op, refusal, started)
        if snapshot and conn.resynced != self.state.seq:  # a burst of stale commands: one snapshot
            conn.resynced = self.state.seq
            conn.send(message("snapshot", self.state.seq, self.snapshot(conn.seat)))

    async def _run(self, conn: Conn, seen: int, command: Command) -> dict[str, Any]:
        if isinstance(command, Sit):
            return await self._sit(conn, command)
        seat = conn.seat
        if seat is None or self.state.seats[seat] is None:
            raise Refused("not_seated", "error.server.not_seated")
        chair = self.state.chair(seat)
        match command:
            case Act():
                await self._act(seat, chair, seen, command)
            case Hint():
                return {"hint": self._hint(seat)}
            case Leave():
                await self._leave(seat)
            case Ready():
                self._not_playing("ready")
                self._tell(ReadyChanged(seat, command.on))
                await self._maybe_start()
            case Start():
                await self._start_with_bots(conn, seat)
            case AddBot() | RemoveBot():
                await self._bot_seat(conn, command)
            case Auto():
                await self._auto(seat, chair, command)
            case Signal():
                await self._signal(seat, chair, command)
        return {}

    async def _auto(self, seat: int, chair: Seat, command: Auto) -> None:
        """R13: 托管 on or off by the person (off in one's own turn restarts a fair timer)."""
        if not self.state.in_game():
            raise Refused("not_allowed", "error.server.auto_no_game")
        if chair.auto != command.on:
            self._tell(AutoChanged(seat, command.on, "request", command.id))

    def _not_playing(self, what: str) -> None:
        if self.state.status == "playing":
            raise Refused("not_allowed", "error.server.match_on", op=what)

    async def _sit(self, conn: Conn, command: Sit) -> dict[str, Any]:
        if conn.user is None:
            raise Refused("login_required", "error.server.nickname")
        if conn.seat is not None:
            raise Refused("not_allowed", "error.server.seated", seat=conn.seat)
        self._not_playing("sit")
        if any(c and c.user == conn.user for c in self.state.seats):
            raise Refused("not_allowed", "error.server.at_table")
        free = [s for s, c in enumerate(self.state.seats) if c is None]
        seat = command.seat if command.seat is not None else (free[0] if free else None)
        if seat is None or seat not in free:
            if seat is None:
                raise Refused("seat_taken", "error.server.table_full")
            raise Refused("seat_taken", "error.server.seat_taken", seat=seat)
        token = secrets.token_urlsafe(24)
        name = conn.name or f"玩家{conn.user}"
        self._tell(Sat(seat, name, conn.user, None, hash_token(token), command.id))
        self.state.watchers.discard(conn)
        conn.seat = seat
        self.state.chair(seat).conns.add(conn)
        self._tell(Connected(seat, True))
        return {"token": token, "seat": seat}

    async def _leave(self, seat: int) -> None:
        if self.state.in_game():
            await self._apply(seat, Escape(seat), None)  # R10.4 逃跑
        self._vacate(seat)

    def _vacate(self, seat: int) -> None:
        """The person leaves the seat (and stays, watching); in a match a bot takes it."""
        for conn in self.state.chair(seat).conns:
            conn.seat = None
            self.state.watchers.add(conn)
        self._tell(Left(seat))
        if self.state.status == "playing":  # the match goes on after an escape
            self._tell(self._bot(seat, self.state.config.bot_level))

    async def seat_bots(self, seats: Iterable[int]) -> None:
        """Fill ``seats`` with the table's bots (at creation, before :meth:`start`)."""
        for seat in seats:
            self._tell(self._bot(seat, self.state.config.bot_level))
        await self._flush()

    async def open_room(self, code: str, creator: int | None, row: Work) -> None:
        """Make this new table a friends' table (好友房) with room ``code`` (before
        :meth:`start`): its first event, stored with ``row`` (the table's row) and folded
        again after a restart."""
        self._tell(RoomOpened(creator, code), extra=row)
        await self._flush()

    async def _start_with_bots(self, conn: Conn, seat: int) -> None:
        """开始（空位补机器人）: the creator of a friends' table is ready, the table's bots take
        the empty seats, and the match starts once every person seated is ready."""
        if self.state.code is None:
            raise Refused("not_allowed", "error.server.start_private")
        if conn.user is None or conn.user != self.state.creator:
            raise Refused("not_allowed", "error.server.start_creator")
        self._not_playing("start")
        if not self.state.chair(seat).ready:
            self._tell(ReadyChanged(seat, True))
        for empty in [s for s, chair in enumerate(self.state.seats) if chair is None]:
            self._tell(self._bot(empty, self.state.config.bot_level))
        await self._maybe_start()

    def _bot(self, seat: int, level: str) -> Sat:
        # Named after the seat it sits in (座位2's bot is 机器人2); pages show it translated.
        return Sat(seat, f"机器人{seat}", bot=level)

    async def _bot_seat(self, conn: Conn, command: AddBot | RemoveBot) -> None:
        """A bot into an empty seat, by anyone seated; out of its seat, by the table's creator
        (anyone seated when the table's creator is not known: a table a restart recovered)."""
        self._not_playing(command.op)
        chair = self.state.seats[command.seat]
        if isinstance(command, AddBot):
            if chair is not None:
                raise Refused("seat_taken", "error.server.seat_taken", seat=command.seat)
            self._tell(self._bot(command.seat, self.state.config.bot_level))
            await self._maybe_start()
        else:
            if chair is None or chair.bot is None:
                raise Refused("not_allowed", "error.server.no_bot", seat=command.seat)
            if self.state.owner is not None and conn.user != self.state.owner:
                raise Refused("not_allowed", "error.server.bot_creator")
            self._tell(Left(command.seat))

    async def _signal(self, seat: int, chair: Seat, command: Signal) -> None:
        if command.signal not in SIGNALS:
            signals = ", ".join(SIGNALS)
            raise Refused(
                "bad_message", "error.server.signal", signal=command.signal, signals=signals
            )
        now = self.clock.now()
        if now - chair.last_signal < SIGNAL_GAP:
            raise Refused("not_allowed", "error.server.signal_gap")
        chair.last_signal = now
        zh, en = MESSAGES[f"signal.{command.signal}"]
        self._tell(Signalled(seat, command.signal, zh, en))

    async def _act(self, seat: int, chair: Seat, seen: int, command: Act) -> None:
        if not self.state.in_game():
            raise Refused("not_allowed", "error.server.no_game")
        last = self.state.log.last_game_seq
        if seen < last:
            raise Refused("stale", "error.server.stale", seen=seen, last=last)
        game = self.state.game
        if game.sealed and seat not in game.to_act:  # R14: names nobody else
            asked = seat in self.state.game.view(None).asked
            key = "error.server.poll_answered" if asked else "error.server.poll_not_asked"
            raise Refused("not_your_turn", key)
        turn = game.current_seat
        if turn is not None and seat not in game.to_act:  # a game in progress has a seat to act
            raise Refused("not_your_turn", "error.server.turn_of", seat=turn)
        if chair.auto:
            raise Refused("not_allowed", "error.server.auto_on")
        try:
            action = parse_action(command.action)
        except BaohuangError as exc:
            raise Refused("illegal", exc.code, **exc.params) from None
        if isinstance(action, Escape):
            raise Refused("not_allowed", "error.server.escape")
        await self._apply(seat, action, command.id)

    async def _apply(self, seat: int, action: Action, command_id: str | None) -> None:
        """Apply an action through the engine, then store and send its events."""
        game = self.state.game
        try:
            fresh = game.apply(action, seat)
        except BaohuangError as exc:
            raise Refused("illegal", exc.code, **exc.params) from None
        if not fresh:
            # R14: an answer to a sealed poll, kept until the last is in: no event, only the
            # seat's own view (_send_own_views); stored with the action that closes the poll.
            self.state.sealed.append((seat, str(action)))
            self._own_views.add(seat)
            return
        private = {
            s: {"events": [e.to_json(s) for e in fresh]}
            for s in range(SEATS)
            if any(s in e.private for e in fresh)
        }
        # A play as the cards it took; a sealed poll's answers are in the poll's order now.
        applied = str(game.actions[-1][1] if isinstance(action, Play) else action)
        secret: dict[str, Any] = {"seat": seat, "action": applied, "id": command_id}
        if self.state.sealed:
            secret["sealed"] = [[s, a] for s, a in self.state.sealed]
            self.state.sealed = []
        self._record(
            "game",
            {"game": self.state.game_index, "events": [e.to_json(None) for e in fresh]},
            private,
            secret,
        )
        if game.is_over:
            await self._finish_game()

    def _hint(self, seat: int) -> str:
        if not self.state.in_game():
            raise Refused("not_allowed", "error.server.no_game")
        game = self.state.game
        if seat not in game.to_act:
            raise Refused("not_your_turn", "error.server.not_turn")
        choice = HeuristicBot(self.state.rules).choose(game.view(seat), game.legal_actions(seat))
        if isinstance(choice, Play):
            return format_cards(game.cards_for(seat, choice))
        return str(choice)

    # ------------------------------------------------------------------ the match

    async def _maybe_start(self) -> None:
        if self.state.status == "playing" or any(c is None for c in self.state.seats):
            return
        if all(c.ready or c.bot for c in self.state.seats if c):
            await self._start(self.state.matches + 1, 0)

    async def _start(self, match: int, index: int) -> None:
        seed = self.token(16)  # unpredictable: no published record or id leads to it
        self.state.begin(match, index, seed)
        self._record(
            "start",
            {"match": match, "game": index, "events": self.state.game.events_for(None)},
            {s: {"events": self.state.game.events_for(s)} for s in range(SEATS)},
            secret={"seed": seed},
            status="playing",
        )
        if self.state.game.is_over:  # every deal voided, R8.6 … (the engine ends it)
            await self._finish_game()

    async def _finish_game(self) -> None:
        """Store the finished game's record and results with its ``game_over`` event."""
        game, index = self.state.game, self.state.game_index
        assert game.result is not None
        players = [chair.name if chair else "" for chair in self.state.seats]
        match_info = {
            "game": index,
            "games": self.state.config.games,
            "players": players,
            "bots": [chair.bot if chair else None for chair in self.state.seats],
            "users": [chair.user if chair else None for chair in self.state.seats],
        }
        counted = scored(self.state.rules, game.result, self.state.seats)
        game_id = f"{self.state.id}-{self.state.matches}-{index + 1}"
        row = GameRow(
            id=game_id,
            table_id=self.state.id,
            index=index,
            preset=self.state.rules.name,
            finished=self.clock.wall(),
            record=to_record(game, match_info),
        )
        users = [(s, c.user) for s, c in enumerate(self.state.seats) if c and c.user is not None]
        totals = [sum(r[s] for r in self.state.results) + counted.scores[s] for s in range(SEATS)]
        rated = await self._rate(counted)
        public = game_over_data(self.state.rules, counted, index, players, totals, game_id, rated)
        self._tell(GameOver(public), extra=store_game(row, counted, users, rated))
        if not liveness.more_games(self.state):
            self._tell(MatchOver(totals), status="finished")

    async def _rate(self, counted: Scored) -> list[ratings.Change]:
        """段位 steps of a finished game (none when R13 leaves it unscored)."""
        if counted.unscored:
            return []
        players = ratings.rated_seats(self.state.seats, counted.result)
        known = await ratings.skills(
            self.store, sorted(set(players.values())), self.state.rules.name
        )
        return ratings.rate(counted.result, players, known)

    # ------------------------------------------------------------------ bots

    async def _bot_turn(self) -> None:
        """The bot of the seat to act (its own, or the table's for 托管) acts; in a sealed
        poll every bot asked answers at once (R14), in the poll's order."""
        game = self.state.game
        if game.sealed:
            turn = self.state.turn()
            for seat in game.to_act:
                chair = self.state.seats[seat]
                if self.state.turn() != turn or chair is None or not chair.played_by_bot:
                    continue  # the answers were published (the last was in), or a person's
                await self._apply(seat, await self._seat_bot(seat, chair).choose(game, seat), None)
            return
        current = game.current_seat
        chair = self.state.seats[current] if current is not None else None
        if current is None or chair is None or not chair.played_by_bot:
            return
        await self._apply(current, await self._seat_bot(current, chair).choose(game, current), None)

    def _seat_bot(self, seat: int, chair: Seat) -> SeatBot:
        """The bot playing ``seat`` (made at its first turn)."""
        bot = self.state.bots[seat]
        if bot is None:
            self.made += 1
            level = chair.bot or self.state.config.bot_level
            key = f"{self.state.id}/{seat}/{self.made}"
            bot = self.state.bots[seat] = SeatBot(
                key, level, self.state.rules, f"{self.state.seed}/{seat}", self.pool
            )
        return bot

    async def _poll_timeout(self) -> None:
        """A sealed poll's timer ran out (R14): every person yet to answer answers ``pass``,
        R13's default answer, without going on 托管 (who was still thinking must not show)."""
        turn = self.state.turn()
        for seat in self.state.game.to_act:
            chair = self.state.seats[seat]
            if self.state.turn() == turn and chair is not None and not chair.played_by_bot:
                await self._apply(seat, PASS, None)


def _set_status(table_id: str, status: str) -> Work:
    def work(session: Session) -> None:
        session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    return work


def _close_sender(item: Message) -> None:
    """Close the socket a message came from (messages of the actor's own have none)."""
    conn = getattr(item, "conn", None)
    if isinstance(conn, Conn):
        conn.close()
