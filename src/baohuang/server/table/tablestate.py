"""A table's state (牌桌状态): seats, the match and its games, results, and the event log, as
a fold over the table's events (:meth:`TableState.fold`). No I/O and no clock: the actor
(:mod:`.actor`) holds one as its ``state``, stores each event and folds it here; after a
restart the stored events are folded again (:meth:`TableState.load`).
"""

from __future__ import annotations

import secrets
from typing import Any

from ...engine.actions import parse_action
from ...engine.describe import pack_counts
from ...engine.game import Game
from ...engine.match import Match
from ...engine.rules import Rules
from ...engine.scoring import GameResult
from ...engine.state import SEATS
from ...protocol.messages import SeatInfo, TableConfig, TableInfo
from ...text.prompts import prompt
from ..botpool import SeatBot
from ..connection import Answers, Conn, message
from ..store import EventRow
from .mailbox import TurnKey
from .seats import Seat
from .tableevents import (
    AutoChanged,
    GameOver,
    Left,
    MatchOver,
    ReadyChanged,
    RoomOpened,
    Sat,
    TableEvent,
    read,
)
from .tablelog import ENGINE_KINDS, Logged, TableLog


class TableState:
    """Everything about a table that its events decide."""

    def __init__(self, table_id: str, config: TableConfig, seed: str) -> None:
        self.id = table_id
        self.config = config
        self.rules = Rules.preset(config.preset, **config.options)
        self.pack = pack_counts(self.rules)
        self.seed = seed
        self.status = "waiting"
        self.seats: list[Seat | None] = [None] * SEATS
        #: Each seat's bot while one plays it (made at its first turn; a new one when the
        #: seat changes hands or goes on 托管, to read the game so far).
        self.bots: list[SeatBot | None] = [None] * SEATS
        self.match: Match | None = None
        self.matches = 0
        self.results: list[list[int]] = []
        self.log = TableLog()
        self.watchers: set[Conn] = set()
        #: R10.4: a seat that escaped and has not left yet (between ``game_over`` and ``leave``).
        self.escaped: int | None = None
        #: The current match's finished games (what tribute and a resumed match start from).
        self.match_results: list[GameResult] = []
        #: The current match's deal seeds by game (kept in each ``start`` event's secret).
        self.deal_seeds: dict[int, str] = {}
        #: A friends' table's room code and its creator's user id (its ``room`` event).
        self.code: str | None = None
        self.creator: int | None = None
        #: The user who made the table (建桌): its bots count against their share and only they
        #: send bots away; a friends' table's is its creator, a public table's is known while
        #: the node that made it runs it (``None`` after a restart).
        self.owner: int | None = None
        #: R14: the answers to the sealed poll in progress (明保, 造反) applied to the game and
        #: not stored yet, as (seat, action): no event may tell who answered when, so they are
        #: stored with the action that closes the poll (its secret's ``sealed``). A restart
        #: forgets them: the poll is asked again of the seats that had answered.
        self.sealed: list[tuple[int, str]] = []
        #: When the current turn began, or its seat's controller last changed: a time the actor
        #: writes from its clock (as a seat's ``away_until``), from which :mod:`.liveness`
        #: plans the table's wake-ups.
        self.turn_since = 0.0

    def info(self) -> TableInfo:
        seats = [
            None
            if seat is None
            else SeatInfo(
                name=seat.name,
                user=seat.user,
                bot=seat.bot,  # type: ignore[arg-type]
                ready=seat.ready or seat.bot is not None,
                auto=seat.auto,
                connected=seat.bot is not None or bool(seat.conns),
            )
            for seat in self.seats
        ]
        return TableInfo(
            id=self.id,
            config=self.config,
            rules=self.rules.to_dict(),
            pack=self.pack,
            status=self.status,  # type: ignore[arg-type]
            seats=seats,
            game=self.match.index if self.match else None,
            totals=[sum(r[s] for r in self.results) for s in range(SEATS)],
            results=self.results,
            watching=len(self.watchers),
            seq=self.seq,
            code=self.code,
            creator=self.owner if self.owner is not None else self.creator,
        )

    def admits(self, user: int | None, code: str | None) -> bool:
        """Whether a connection of ``user`` holding ``code`` may see this table: any, unless
        it is a friends' table, which admits its creator, the users seated at it and the
        holders of its room code (:func:`admitted`)."""
        seated = {chair.user for chair in self.seats if chair}
        return admitted(self.code, self.creator, seated, user, code)

    def fold(self, event: TableEvent) -> None:
        """Apply one of the table's own events to its state (live and when loading)."""
        match event:
            case RoomOpened(creator=creator, code=code):
                self.code, self.creator = code, creator
            case Sat(seat=seat):
                self.seats[seat] = Seat(
                    name=event.name, user=event.user, bot=event.bot, token_hash=event.token_hash
                )
                self._new_bot(seat)
            case Left(seat=seat):
                self.seats[seat] = None
                if seat == self.escaped:
                    self.escaped = None
                self._new_bot(seat)
            case ReadyChanged(seat=seat, on=on):
                self.chair(seat).ready = on
            case AutoChanged(seat=seat, on=on, reason=reason):
                chair = self.chair(seat)
                chair.auto, chair.auto_reason = on, reason
                if chair.auto:
                    self._new_bot(seat)
            case GameOver(told=told):
                self.escaped = told["result"].get("escaped")
                self.match_results.append(GameResult.from_dict(told["result"]))
                self.results.append(told.get("scores", told["result"]["scores"]))
            case MatchOver():
                self.status = "finished"
                for taken in self.seats:
                    if taken:
                        taken.ready = False
        if isinstance(event, Sat | AutoChanged) and event.command:
            self._remember(self.chair(event.seat).answers, event.command, self.seq + 1, event.seat)

    def _new_bot(self, seat: int) -> None:
        """The seat's bot, if any, goes: the next one reads the game so far."""
        bot, self.bots[seat] = self.bots[seat], None
        if bot is not None:
            bot.close()

    def chair(self, seat: int) -> Seat:
        """Who sits in ``seat`` (someone must)."""
        chair = self.seats[seat]
        assert chair is not None
        return chair

    def _remember(self, answers: Answers, command_id: str, seq: int, seat: int | None) -> None:
        """Keep the answer to a command applied before a reload (no token: it is not kept)."""
        answers.keep(command_id, message("ack", seq, {"id": command_id, "seat": seat}))

    def load(self, rows: list[EventRow]) -> None:
        """Fold stored events: the table as it was when the last one was written. Only the
        current game goes through the engine again; earlier games are kept as they were
        stored (their results are in their ``game_over`` events)."""
        current = max((i for i, row in enumerate(rows) if row.kind == "start"), default=0)
        for i, row in enumerate(rows):
            private = {int(s): d for s, d in row.private.items()}
            if row.kind in ENGINE_KINDS and i >= current:
                self._replay(row)
            elif row.kind == "start" and row.public["game"] == 0:  # an earlier match began
                self.matches, self.results, self.match_results = row.public["match"], [], []
            elif row.kind not in ENGINE_KINDS:
                self.fold(read(row.kind, row.public, row.secret))
            self.log.add(Logged(row.kind, row.public, private))

    def _replay(self, row: EventRow) -> None:
        """Re-apply a stored ``start`` or action through the engine; it must agree."""
        if row.kind == "start":
            match, index = row.public["match"], row.public["game"]
            # Tables started before deals had their own secret seeds: the old derivation.
            seed = row.secret.get("seed") or f"{self.seed}/{match}/{index}"
            self.begin(match, index, seed)
            fresh = list(self.game.events)
        else:
            # R14: a sealed poll's answers kept before this one are stored with it ("sealed").
            fresh = []
            for seat, action in row.secret.get("sealed", ()):
                fresh += self.game.apply(parse_action(action), seat)
            fresh += self.game.apply(parse_action(row.secret["action"]), row.secret.get("seat"))
        if [e.to_json(None) for e in fresh] != row.public["events"]:
            raise RuntimeError(f"table {self.id} event {row.seq}: the engine replays differently")
        seat, command_id = row.secret.get("seat"), row.secret.get("id")
        if command_id and seat is not None and self.seats[seat]:
            self._remember(self.chair(seat).answers, command_id, row.seq, None)

    def in_game(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.game.is_over

    @property
    def game(self) -> Game:
        assert self.match is not None
        return self.match.game

    @property
    def game_index(self) -> int:
        assert self.match is not None
        return self.match.index

    def turn(self) -> TurnKey | None:
        """The turn the game waits on, or ``None`` when no game is in progress."""
        if not self.in_game():
            return None
        return (self.matches, self.game_index, len(self.game.events))

    def begin(self, match: int, index: int, seed: str) -> None:
        """Deal game ``index`` of match number ``match`` (a new match at 0) from ``seed``, a
        secret of this game alone: its record may show it once the game is over, and nothing
        else follows from it."""
        self.deal_seeds[index] = seed
        self.sealed = []
        seeds = self.deal_seeds.__getitem__
        if index == 0:
            self.matches = match
            self.match = Match(self.rules, self.config.games, seeds=seeds)
            self.results, self.match_results = [], []
        elif self.match is None:  # loading: the games before this one were not replayed
            self.match = Match(
                self.rules, self.config.games, seeds=seeds, results=self.match_results
            )
        else:
            assert self.match is not None
            self.match.next_game()
        self.status = "playing"

    def event_data(self, index: int, seat: int | None, view: bool) -> dict[str, Any]:
        """Event ``index`` as ``seat`` sees it; with its view and prompt now if ``view``."""
        logged = self.log[index]
        data = logged.for_seat(seat)
        if logged.kind in ENGINE_KINDS and view and self.match:
            data["view"] = self.game.view(seat).to_json()
            data["prompt"] = self.prompt(data["view"])
        return data

    def prompt(self, view: dict[str, Any] | None) -> dict[str, Any] | None:
        """What the seat of ``view`` is asked now (:func:`baohuang.text.prompts.prompt`)."""
        return None if view is None else prompt(view, self.rules.selection)

    @property
    def seq(self) -> int:
        return self.log.seq

    @property
    def deserted(self) -> bool:
        """Nobody connected, and no match in progress (托管 plays a match out to its end)."""
        if self.watchers or any(seat and seat.conns for seat in self.seats):
            return False
        return self.status != "playing"


def typed_code(text: str) -> str:
    """A room code as typed, letter case, spaces and dashes aside."""
    return text.strip().upper().replace(" ", "").replace("-", "")


def same_code(given: str | None, code: str) -> bool:
    """Whether room code ``given`` (as typed: :func:`typed_code`) is ``code``."""
    if not given:
        return False
    return secrets.compare_digest(typed_code(given).encode(), code.encode())


def admitted(
    room: str | None,
    creator: int | None,
    seated: set[int | None],
    user: int | None,
    code: str | None,
) -> bool:
    """Whether a table with room code ``room`` (``None``: a public table) admits ``user``
    holding ``code``: a public table anyone; a friends' table (好友房) its creator, its seated
    users and the holders of its room code, nobody else (its id alone opens nothing)."""
    if room is None:
        return True
    member = user is not None and (user == creator or user in seated)
    return member or same_code(code, room)


def admits(info: dict[str, Any], user: int | None, code: str | None) -> bool:
    """:func:`admitted` for a table's public info (``TableInfo`` as JSON)."""
    seated = {seat.get("user") for seat in info["seats"] if seat}
    return admitted(info.get("code"), info.get("creator"), seated, user, code)
