"""The seats (座位) of a table: who sits where, and what is remembered per seat."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..connection import Answers, Conn


@dataclass(slots=True)
class Seat:
    """A taken seat: a person (with the hash of their seat token) or a bot."""

    name: str
    user: int | None = None
    bot: str | None = None
    token_hash: str | None = None
    ready: bool = False
    #: R13 托管, and why (request, timeout, disconnect).
    auto: bool = False
    auto_reason: str | None = None
    conns: set[Conn] = field(default_factory=set)
    answers: Answers = field(default_factory=Answers)
    #: When a person away from a game in progress goes on 托管 (clock seconds); ``None``
    #: while connected.
    away_until: float | None = None
    last_signal: float = float("-inf")

    @property
    def person(self) -> bool:
        return self.bot is None

    @property
    def played_by_bot(self) -> bool:
        """A bot acts for this seat: a bot's seat, or a person's on 托管."""
        return self.bot is not None or self.auto
