"""What a table actor's mailbox (信箱) holds: typed messages, handled one at a time.

From connections: :class:`Hello`, :class:`Cmd`, :class:`Gone`. From the table's own
scheduler: the wake-ups (:data:`Wake`), each for the moment of the table it was set for, so a
late one finds the table moved on and does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from ...protocol.messages import Command
from ...protocol.messages import Hello as HelloData
from ..connection import Conn

#: A turn: (match, game, engine event count). An acting wake-up is for one turn only.
TurnKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Hello:
    """A connection said hello (who it is, what it has seen)."""

    conn: Conn
    hello: HelloData


@dataclass(frozen=True, slots=True)
class Cmd:
    """A command from a connection that had seen events up to ``seen``."""

    conn: Conn
    seen: int
    command: Command


@dataclass(frozen=True, slots=True)
class Gone:
    """A connection closed."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class BotMove:
    """R13: the bot (a bot's seat, or 托管) acts for the seat to act in ``turn``."""

    turn: TurnKey


#: Why 托管 takes a seat unasked (R13): its timer ran out, or its person stayed away.
Overdue = Literal["timeout", "disconnect"]


@dataclass(frozen=True, slots=True)
class TakeOver:
    """R13: the person to act in ``turn`` ran out of time, or stayed away past the grace:
    托管 takes the seat."""

    turn: TurnKey
    reason: Overdue


@dataclass(frozen=True, slots=True)
class GraceOver:
    """People away from a game in progress for longer than the grace go on 托管."""


@dataclass(frozen=True, slots=True)
class NextGame:
    """Deal game ``game`` of match ``match`` after the pause between games."""

    match: int
    game: int


@dataclass(frozen=True, slots=True)
class Watchdog:
    """The periodic check that the table is moving (see :mod:`.liveness`)."""


Wake = BotMove | TakeOver | GraceOver | NextGame | Watchdog
Message = Hello | Cmd | Gone | Wake


class Target(Protocol):
    """What a table socket talks to: the table's actor, or (many nodes) a relay to the node
    that runs the table."""

    @property
    def seq(self) -> int:
        """The table's latest event sequence number, as this socket knows it."""
        ...

    def submit(self, item: Message) -> None: ...
