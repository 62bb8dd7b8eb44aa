"""Game events: the log every state change leaves, filtered per seat (R14).

Each event has a sequence number, a kind, public fields every seat and spectator sees, and
private fields that only named seats see. A seat's copy of an event (:meth:`Event.to_json`) is
the public fields with that seat's private fields merged in, so every seat gets every sequence
number. :data:`SeatEvent` types a copy: one ``TypedDict`` per kind (``docs/record-format.md``
lists them too), the private fields ``NotRequired``.

No ``from __future__ import annotations`` here: before Python 3.12 a ``TypedDict`` tells its
``NotRequired`` keys only from evaluated annotations.
"""

from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from .scoring import Outcome

#: Every kind of event the engine emits.
EventKind = Literal[
    "deal",
    "void",
    "tribute_due",
    "tribute_paid",
    "tribute",
    "candidate",
    "decline",
    "transfer",
    "accept",
    "roles",
    "call",
    "open_solo",
    "poll",
    "declare",
    "rebellion",
    "kick",
    "round",
    "play",
    "pass",
    "reveal",
    "cleared",
    "escape",
    "out",
    "game_over",
]
#: The polls (表态): 明独 (R9.2), 抢独 (R11.4), 明保 (R9.4, R8.10), 造反 (R9.5), 踢 (R9.6).
Poll = Literal["solo", "grab", "show", "rebel", "kick"]


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: EventKind
    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """A copy of this event as ``seat`` may see it (``None``: a spectator, public only):
        the :data:`SeatEvent` of its kind."""
        out = {"seq": self.seq, "kind": self.kind, **_copy(self.public)}
        if seat is not None and seat in self.private:
            out.update(_copy(self.private[seat]))
        return out


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# ---------------------------------------------------------------------- a seat's copy, by kind


class _Numbered(TypedDict):
    #: The event's position in the game's log, from 0.
    seq: int


class DealEvent(_Numbered):
    """Cards dealt (R7)."""

    kind: Literal["deal"]
    deal: int
    """The deal's number (0 first; a void deal, R8.6, deals again)."""
    dealer: int
    """The seat dealt first."""
    counts: list[int]
    hand: NotRequired[list[str]]
    """Private: the seat's own hand."""


class VoidEvent(_Numbered):
    """Nobody took the emperor card: the deal is void, a new ``deal`` follows (R8.6)."""

    kind: Literal["void"]
    deal: int


class TributeDueEvent(_Numbered):
    """Tribute to pay (R12)."""

    kind: Literal["tribute_due"]
    payers: list[tuple[int, int | None]]
    """``[payer, receiver]`` per card; a null receiver: R12 hands the card out."""


class TributePaidEvent(_Numbered):
    """A seat paid a tribute card (R12)."""

    kind: Literal["tribute_paid"]
    seat: int
    card: NotRequired[str]
    """Private, to the payer: the card."""


#: A tribute card handed from one seat to another (``from`` is a keyword, hence this form).
Transfer = TypedDict("Transfer", {"from": int, "to": int})
TributeCard = TypedDict("TributeCard", {"from": int, "to": int, "card": str})


class TributeEvent(_Numbered):
    """The tribute cards handed over (R12)."""

    kind: Literal["tribute"]
    transfers: list[Transfer]
    counts: list[int]
    cards: NotRequired[list[TributeCard]]
    """Private, to payer and receiver: the cards they handed or got."""


class CandidateEvent(_Numbered):
    """A seat is offered the emperor card (R8.5)."""

    kind: Literal["candidate"]
    seat: int
    pile: list[str]
    """The emperor card and the cards handed along (R8.9: empty at first)."""


class _PileHandedOn(_Numbered):
    seat: int
    to: int
    added: str | None
    counts: list[int]
    auto: NotRequired[bool]


class DeclineEvent(_PileHandedOn):
    """The candidate refused (R8.5): the pile goes to ``to``, its 上家, with ``added`` (the
    card added to it, R8.9, or null). Private, to the decliner: ``auto``, the engine declined
    for it (no callable triple, R8.4); others can tell it from the timing, as the rule makes
    it automatic (docs/rules.md, readings)."""

    kind: Literal["decline"]


class TransferEvent(_PileHandedOn):
    """R9.3 weihai's 转让: R* handed to ``to``, the 上家, who must accept; the fields as
    ``decline``'s; a ``reveal`` of the transferer as guard follows."""

    kind: Literal["transfer"]


class AcceptEvent(_Numbered):
    """登基: the candidate took the pile (R8.5)."""

    kind: Literal["accept"]
    seat: int
    pile: list[str]
    counts: list[int]


class _RoleSecrets(_Numbered):
    guard: NotRequired[Literal[True]]
    solo: NotRequired[Literal["dark"]]


class RolesEvent(_RoleSecrets):
    """R9: roles settled without a call, the B* holder the guard. Private: ``guard`` (true, to
    the guard), ``solo`` (``dark``, to the emperor holding both marked jokers: 暗独保)."""

    kind: Literal["roles"]
    emperor: int


class CallEvent(_RoleSecrets):
    """The emperor called a card (R8.7, R11.3). Private: ``guard`` (true, to the guard),
    ``solo`` (``dark``, to the emperor holding all four: 暗独), ``forced`` (true, to the
    emperor: the only callable triple, called by the engine; R14: only the emperor may learn
    that its hand left no choice)."""

    kind: Literal["call"]
    seat: int
    card: str
    forced: NotRequired[Literal[True]]


class OpenSoloEvent(_Numbered):
    """明独 / 独保 / 明独保 / 抢独: a seat plays alone, openly (R8.7, R9.2, R9.3, R11.4)."""

    kind: Literal["open_solo"]
    seat: int
    card: str | None
    shown: list[str]
    how: Literal["shown", "declared", "grabbed"]


class PollEvent(_Numbered):
    """A poll begins: the seats asked, in order."""

    kind: Literal["poll"]
    poll: Poll
    seats: list[int]


class DeclareEvent(_Numbered):
    """A seat answered a poll."""

    kind: Literal["declare"]
    seat: int
    poll: Poll
    answer: str
    """``pass`` or the declaration."""


class RebellionEvent(_Numbered):
    """造反's outcome (R9.5)."""

    kind: Literal["rebellion"]
    success: bool
    rebels: list[int]


class KickEvent(_Numbered):
    """踢 (R9.6)."""

    kind: Literal["kick"]
    seat: int


class RoundEvent(_Numbered):
    """A round begins (R6.3)."""

    kind: Literal["round"]
    leader: int
    jiefeng: bool
    """接风 (R6.5): the round's winner was out, the next holder leads."""


class PlayEvent(_Numbered):
    """A play (R6.2)."""

    kind: Literal["play"]
    seat: int
    play: str
    """The play in rank notation."""
    cards: list[str]
    left: int
    """Cards the seat holds after it."""


class PassEvent(_Numbered):
    """A pass (过, R6.2)."""

    kind: Literal["pass"]
    seat: int


class RevealEvent(_Numbered):
    """A role becomes public: the guard (called card or B* played, 转让, 明保, 造反) or a dark
    solo (R8.8, R9.3–R9.5)."""

    kind: Literal["reveal"]
    seat: int
    role: Literal["guard", "solo"]


class ClearedEvent(_Numbered):
    """R6.8 清3: ``seat``'s play before its 3s' final play was beaten by ``by``."""

    kind: Literal["cleared"]
    seat: int
    by: int


class EscapeEvent(_Numbered):
    """逃跑 (R10.4)."""

    kind: Literal["escape"]
    seat: int


class OutEvent(_Numbered):
    """A seat went out (R6.4)."""

    kind: Literal["out"]
    seat: int
    place: int
    """1–5."""


class GameOverEvent(_Numbered):
    """The game's result (R10), as ``GameResult.to_dict``."""

    kind: Literal["game_over"]
    emperor: int | None
    guard: int | None
    places: list[int]
    scores: list[int]
    outcome: Outcome
    open_solo: bool
    rebellion: bool
    open_guard: bool
    kicked: bool
    escaped: int | None
    cleared: list[tuple[int, int]]


#: A seat's copy of an event, by kind.
SeatEvent = (
    DealEvent
    | VoidEvent
    | TributeDueEvent
    | TributePaidEvent
    | TributeEvent
    | CandidateEvent
    | DeclineEvent
    | TransferEvent
    | AcceptEvent
    | RolesEvent
    | CallEvent
    | OpenSoloEvent
    | PollEvent
    | DeclareEvent
    | RebellionEvent
    | KickEvent
    | RoundEvent
    | PlayEvent
    | PassEvent
    | RevealEvent
    | ClearedEvent
    | EscapeEvent
    | OutEvent
    | GameOverEvent
)
