"""A table's own events (牌桌事件) as values, typed as the mailbox's messages are: who sat,
left, got ready, went on or off 托管, connected; a signal; a friends' table's room; a game's and
the match's end. :meth:`~.tablestate.TableState.fold` applies them. Each is stored as its
``kind`` with its public fields (everyone's) and its secret ones (the server's alone:
:meth:`secret`) and read back by :func:`read`; a match's engine events (``start``, ``game``)
are the engine's (:data:`.tablelog.ENGINE_KINDS`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

#: Why a seat's 托管 went on or off (R13): it asked, its timer ran out, its person stayed away
#: past the grace, its person came back.
AutoReason = Literal["request", "timeout", "disconnect", "reconnect"]


class _Event:
    """Stored as ``kind``, the public fields and the secret ones (:attr:`secrets`)."""

    kind: ClassVar[str]
    #: The fields only the server keeps (never sent).
    secrets: ClassVar[frozenset[str]] = frozenset()

    def public(self) -> dict[str, Any]:
        names = (f.name for f in fields(self))  # type: ignore[arg-type]
        return {name: getattr(self, name) for name in names if name not in self.secrets}

    def secret(self) -> dict[str, Any]:
        """The secret fields that are set; the command that caused the event as its ``id``
        and ``seat`` (what answers a repeat of it)."""
        data = {k: getattr(self, k) for k in sorted(self.secrets) if getattr(self, k) is not None}
        if "command" in data:
            data["id"] = data.pop("command")
            data["seat"] = getattr(self, "seat")  # noqa: B009 (Sat and AutoChanged: a seat)
        return data


@dataclass(frozen=True, slots=True)
class Sat(_Event):
    """A person (``user``) or a bot (``bot``: its level) sat in ``seat``. A person's seat
    token is kept as its hash; ``command`` is the ``sit`` command that did it (its answer
    is kept for a repeat)."""

    kind: ClassVar[str] = "sit"
    secrets: ClassVar[frozenset[str]] = frozenset({"token_hash", "command"})
    seat: int
    name: str
    user: int | None = None
    bot: str | None = None
    token_hash: str | None = None
    command: str | None = None


@dataclass(frozen=True, slots=True)
class Left(_Event):
    kind: ClassVar[str] = "leave"
    seat: int


@dataclass(frozen=True, slots=True)
class ReadyChanged(_Event):
    kind: ClassVar[str] = "ready"
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class AutoChanged(_Event):
    """R13: 托管 on or off for ``seat``, and why (``command``: the person's ``auto``)."""

    kind: ClassVar[str] = "auto"
    secrets: ClassVar[frozenset[str]] = frozenset({"command"})
    seat: int
    on: bool
    reason: AutoReason
    command: str | None = None


@dataclass(frozen=True, slots=True)
class Connected(_Event):
    """The seat's person has a connection now (``on``), or its last one went."""

    kind: ClassVar[str] = "connected"
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class Signalled(_Event):
    """A quick signal (快捷语) from ``seat``, in both languages."""

    kind: ClassVar[str] = "signal"
    seat: int
    signal: str
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class RoomOpened(_Event):
    """A friends' table's (好友房) first event: its creator, and its room code (secret)."""

    kind: ClassVar[str] = "room"
    secrets: ClassVar[frozenset[str]] = frozenset({"code"})
    creator: int | None
    code: str


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """A game ended: its results as the results window shows them
    (:func:`.results.game_over_data`: ``game``, ``result``, ``scores`` …)."""

    kind: ClassVar[str] = "game_over"
    told: dict[str, Any]

    def public(self) -> dict[str, Any]:
        return self.told


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    kind: ClassVar[str] = "match_over"
    totals: list[int]


TableEvent = (
    Sat
    | Left
    | ReadyChanged
    | AutoChanged
    | Connected
    | Signalled
    | RoomOpened
    | GameOver
    | MatchOver
)
_KINDS: dict[str, type[TableEvent]] = {
    kind.kind: kind
    for kind in (Sat, Left, ReadyChanged, AutoChanged, Connected, Signalled, RoomOpened, MatchOver)
}


def read(kind: str, public: dict[str, Any], secret: dict[str, Any]) -> TableEvent:
    """The stored event ``kind`` (its public and secret fields) as a value. Fields a version
    of the server did not write take their defaults; ones it no longer knows are left out."""
    if kind == "game_over":
        return GameOver(public)
    made = _KINDS[kind]
    known = {f.name for f in fields(made)}
    given = {**public, **secret}
    if kind in ("sit", "auto") and "id" in secret:  # the command that did it, as stored
        given["command"] = secret["id"]
    return made(**{k: v for k, v in given.items() if k in known})
