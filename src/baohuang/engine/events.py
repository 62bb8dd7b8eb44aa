"""Game events: the log every state change leaves, filtered per seat (R14).

Each event is a frozen dataclass of its kind (:class:`DealEvent`, :class:`PlayEvent`, …) with a
sequence number and domain values (cards, plays, actions, the result). Some of its fields are
private to named seats. A seat's copy of an event (:meth:`Event.to_json`) is its public fields
in notation with that seat's private fields merged in, so every seat gets every sequence number;
:data:`SeatEvent` types a copy: one ``TypedDict`` per kind (``docs/record-format.md`` lists them
too), the private fields ``NotRequired``. The ``TypedDict`` is the wire's schema, the dataclass
the event.

No ``from __future__ import annotations`` here: before Python 3.12 a ``TypedDict`` tells its
``NotRequired`` keys only from evaluated annotations.
"""

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

from .actions import Action
from .cards import CARD_TEXT, Card, card_texts
from .plays import Play
from .scoring import GameResult, Outcome

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
#: How a seat came to play alone openly: four cards shown (R8.7), declared (R9.2, R9.3,
#: R11.3) or grabbed (抢独, R11.4).
SoloHow = Literal["shown", "declared", "grabbed"]
#: A private field's value per seat it is told to.
Private = dict[int, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a game's log: its sequence number; its kind's fields in subclasses. Its
    ``repr`` leaves the private fields out (a log line shows what a spectator may see)."""

    seq: int
    """The event's position in the game's log, from 0."""
    kind: ClassVar[EventKind]

    @property
    def public(self) -> dict[str, Any]:
        """The fields every seat and spectator sees, in notation (JSON)."""
        return {}

    @property
    def private(self) -> Private:
        """The fields only named seats see, per seat, in notation (JSON)."""
        return {}

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """A copy of this event as ``seat`` may see it (``None``: a spectator, public only):
        the :data:`SeatEvent` of its kind."""
        out = {"seq": self.seq, "kind": self.kind, **self.public}
        if seat is not None:
            mine = self.private.get(seat)
            if mine:
                out.update(mine)
        return out


@dataclass(frozen=True, slots=True)
class _SeatOnly(Event):
    seat: int

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class DealEvent(Event):
    """Cards dealt (R7): each seat is told its own hand."""

    kind = "deal"
    deal: int
    dealer: int
    counts: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] = field(repr=False)

    @property
    def public(self) -> dict[str, Any]:
        return {"deal": self.deal, "dealer": self.dealer, "counts": list(self.counts)}

    @property
    def private(self) -> Private:
        return {seat: {"hand": card_texts(hand)} for seat, hand in enumerate(self.hands)}


@dataclass(frozen=True, slots=True)
class VoidEvent(Event):
    """Nobody took the emperor card: the deal is void (R8.6)."""

    kind = "void"
    deal: int

    @property
    def public(self) -> dict[str, Any]:
        return {"deal": self.deal}


@dataclass(frozen=True, slots=True)
class TributeDueEvent(Event):
    """Tribute to pay (R12): (payer, receiver or ``None`` when R12 hands it out) per card."""

    kind = "tribute_due"
    payers: tuple[tuple[int, int | None], ...]

    @property
    def public(self) -> dict[str, Any]:
        return {"payers": [[p, r] for p, r in self.payers]}


@dataclass(frozen=True, slots=True)
class TributePaidEvent(_SeatOnly):
    """``seat`` paid a tribute card (R12), told to the payer alone."""

    kind = "tribute_paid"
    card: Card = field(repr=False)

    @property
    def private(self) -> Private:
        return {self.seat: {"card": CARD_TEXT[self.card.id]}}


@dataclass(frozen=True, slots=True)
class TributeEvent(Event):
    """The tribute cards handed over (R12): (payer, receiver, card) each, the card told to
    both; the hand sizes after."""

    kind = "tribute"
    transfers: tuple[tuple[int, int, Card], ...] = field(repr=False)
    counts: tuple[int, ...]

    @property
    def public(self) -> dict[str, Any]:
        moves = [{"from": p, "to": t} for p, t, _ in self.transfers]
        return {"transfers": moves, "counts": list(self.counts)}

    @property
    def private(self) -> Private:
        private: Private = {}
        for move in self.handed():
            for s in {move["from"], move["to"]}:
                private.setdefault(s, {"cards": []})["cards"].append(dict(move))
        return private

    def handed(self) -> list[dict[str, Any]]:
        """Each card handed over, ``{from, to, card}``, in order (an open replay shows them)."""
        return [{"from": p, "to": t, "card": CARD_TEXT[c.id]} for p, t, c in self.transfers]


@dataclass(frozen=True, slots=True)
class CandidateEvent(_SeatOnly):
    """``seat`` is offered the emperor card with ``pile`` (R8.5, R8.9)."""

    kind = "candidate"
    pile: tuple[Card, ...]

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "pile": card_texts(self.pile)}


@dataclass(frozen=True, slots=True)
class _PileHandedOn(_SeatOnly):
    to: int
    added: Card | None
    counts: tuple[int, ...]
    auto: bool = field(repr=False)

    @property
    def public(self) -> dict[str, Any]:
        added = CARD_TEXT[self.added.id] if self.added is not None else None
        return {"seat": self.seat, "to": self.to, "added": added, "counts": list(self.counts)}

    @property
    def private(self) -> Private:
        return {self.seat: {"auto": self.auto}}


@dataclass(frozen=True, slots=True)
class DeclineEvent(_PileHandedOn):
    """``seat`` refused (R8.5): the pile goes to ``to`` with ``added`` (R8.9); ``auto``, told
    to the decliner: the engine declined for it (R8.4)."""

    kind = "decline"


@dataclass(frozen=True, slots=True)
class TransferEvent(_PileHandedOn):
    """R9.3 weihai's 转让: R* handed to ``to``, who must accept; as :class:`DeclineEvent`."""

    kind = "transfer"


@dataclass(frozen=True, slots=True)
class AcceptEvent(_SeatOnly):
    """登基: ``seat`` took ``pile`` (R8.5)."""

    kind = "accept"
    pile: tuple[Card, ...]
    counts: tuple[int, ...]

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "pile": card_texts(self.pile), "counts": list(self.counts)}


def _role_secrets(emperor: int, guard: int | None) -> Private:
    """The guard told it is one; an emperor without a guard told it plays a dark solo."""
    return {emperor: {"solo": "dark"}} if guard is None else {guard: {"guard": True}}


@dataclass(frozen=True, slots=True)
class RolesEvent(Event):
    """R9: roles settled without a call, the B* holder ``guard`` (``None``: 暗独保)."""

    kind = "roles"
    emperor: int
    guard: int | None = field(repr=False)

    @property
    def public(self) -> dict[str, Any]:
        return {"emperor": self.emperor}

    @property
    def private(self) -> Private:
        return _role_secrets(self.emperor, self.guard)


@dataclass(frozen=True, slots=True)
class CallEvent(_SeatOnly):
    """The emperor ``seat`` called ``card`` (R8.7, R11.3); its 4th copy's holder is
    ``guard`` (``None``: 暗独); ``forced``: the only callable triple, called by the engine
    (R14: told to the emperor alone)."""

    kind = "call"
    card: Card
    guard: int | None = field(repr=False)
    forced: bool = field(repr=False)

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": CARD_TEXT[self.card.id]}

    @property
    def private(self) -> Private:
        private = _role_secrets(self.seat, self.guard)
        if self.forced:
            private.setdefault(self.seat, {})["forced"] = True
        return private


@dataclass(frozen=True, slots=True)
class OpenSoloEvent(_SeatOnly):
    """明独 / 独保 / 明独保 / 抢独 (R8.7, R9.2, R9.3, R11.4): ``seat`` plays alone, openly,
    showing four of ``card`` when it has one."""

    kind = "open_solo"
    card: Card | None
    how: SoloHow

    @property
    def public(self) -> dict[str, Any]:
        card = self.card
        text = CARD_TEXT[card.id] if card is not None else None
        shown = [text] * 4 if text is not None else []
        return {"seat": self.seat, "card": text, "shown": shown, "how": self.how}


@dataclass(frozen=True, slots=True)
class PollEvent(Event):
    """A poll begins: ``seats`` asked, in order."""

    kind = "poll"
    poll: Poll
    seats: tuple[int, ...]

    @property
    def public(self) -> dict[str, Any]:
        return {"poll": self.poll, "seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class DeclareEvent(_SeatOnly):
    """``seat`` answered ``poll`` with ``answer`` (``pass`` or the declaration)."""

    kind = "declare"
    poll: Poll
    answer: Action

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "poll": self.poll, "answer": str(self.answer)}


@dataclass(frozen=True, slots=True)
class RebellionEvent(Event):
    """造反's outcome (R9.5)."""

    kind = "rebellion"
    success: bool
    rebels: tuple[int, ...]

    @property
    def public(self) -> dict[str, Any]:
        return {"success": self.success, "rebels": list(self.rebels)}


@dataclass(frozen=True, slots=True)
class KickEvent(_SeatOnly):
    """踢 (R9.6)."""

    kind = "kick"


@dataclass(frozen=True, slots=True)
class RoundEvent(Event):
    """A round begins (R6.3), ``leader`` to lead; ``jiefeng``: 接风 (R6.5)."""

    kind = "round"
    leader: int
    jiefeng: bool

    @property
    def public(self) -> dict[str, Any]:
        return {"leader": self.leader, "jiefeng": self.jiefeng}


@dataclass(frozen=True, slots=True)
class PlayEvent(_SeatOnly):
    """``seat`` played ``play`` with ``cards`` (R6.2), holding ``left`` cards after."""

    kind = "play"
    play: Play
    cards: tuple[Card, ...]
    left: int

    @property
    def public(self) -> dict[str, Any]:
        cards = card_texts(self.cards)
        return {"seat": self.seat, "play": self.play.text, "cards": cards, "left": self.left}


@dataclass(frozen=True, slots=True)
class PassEvent(_SeatOnly):
    """A pass (过, R6.2)."""

    kind = "pass"


@dataclass(frozen=True, slots=True)
class RevealEvent(_SeatOnly):
    """A role becomes public (R8.8, R9.3–R9.5): the guard, or a dark solo."""

    kind = "reveal"
    role: Literal["guard", "solo"]

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "role": self.role}


@dataclass(frozen=True, slots=True)
class ClearedEvent(_SeatOnly):
    """R6.8 清3: ``seat``'s play before its 3s' final play was beaten by ``by``."""

    kind = "cleared"
    by: int

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by}


@dataclass(frozen=True, slots=True)
class EscapeEvent(_SeatOnly):
    """逃跑 (R10.4)."""

    kind = "escape"


@dataclass(frozen=True, slots=True)
class OutEvent(_SeatOnly):
    """``seat`` went out (R6.4), in ``place`` (1–5)."""

    kind = "out"
    place: int

    @property
    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "place": self.place}


@dataclass(frozen=True, slots=True)
class GameOverEvent(Event):
    """The game's result (R10)."""

    kind = "game_over"
    result: GameResult

    @property
    def public(self) -> dict[str, Any]:
        return self.result.to_dict()


# ---------------------------------------------------------------------- a seat's copy, by kind


class _Numbered(TypedDict):
    #: The event's position in the game's log, from 0.
    seq: int


class DealData(_Numbered):
    """Cards dealt (R7)."""

    kind: Literal["deal"]
    deal: int
    """The deal's number (0 first; a void deal, R8.6, deals again)."""
    dealer: int
    """The seat dealt first."""
    counts: list[int]
    hand: NotRequired[list[str]]
    """Private: the seat's own hand."""


class VoidData(_Numbered):
    """Nobody took the emperor card: the deal is void, a new ``deal`` follows (R8.6)."""

    kind: Literal["void"]
    deal: int


class TributeDueData(_Numbered):
    """Tribute to pay (R12)."""

    kind: Literal["tribute_due"]
    payers: list[tuple[int, int | None]]
    """``[payer, receiver]`` per card; a null receiver: R12 hands the card out."""


class TributePaidData(_Numbered):
    """A seat paid a tribute card (R12)."""

    kind: Literal["tribute_paid"]
    seat: int
    card: NotRequired[str]
    """Private, to the payer: the card."""


#: A tribute card handed from one seat to another (``from`` is a keyword, hence this form).
Transfer = TypedDict("Transfer", {"from": int, "to": int})
TributeCard = TypedDict("TributeCard", {"from": int, "to": int, "card": str})


class TributeData(_Numbered):
    """The tribute cards handed over (R12)."""

    kind: Literal["tribute"]
    transfers: list[Transfer]
    counts: list[int]
    cards: NotRequired[list[TributeCard]]
    """Private, to payer and receiver: the cards they handed or got."""


class CandidateData(_Numbered):
    """A seat is offered the emperor card (R8.5)."""

    kind: Literal["candidate"]
    seat: int
    pile: list[str]
    """The emperor card and the cards handed along (R8.9: empty at first)."""


class _PileHandedOnData(_Numbered):
    seat: int
    to: int
    added: str | None
    counts: list[int]
    auto: NotRequired[bool]


class DeclineData(_PileHandedOnData):
    """The candidate refused (R8.5): the pile goes to ``to``, its 上家, with ``added`` (the
    card added to it, R8.9, or null). Private, to the decliner: ``auto``, the engine declined
    for it (no callable triple, R8.4); others can tell it from the timing, as the rule makes
    it automatic (docs/rules.md, readings)."""

    kind: Literal["decline"]


class TransferData(_PileHandedOnData):
    """R9.3 weihai's 转让: R* handed to ``to``, the 上家, who must accept; the fields as
    ``decline``'s; a ``reveal`` of the transferer as guard follows."""

    kind: Literal["transfer"]


class AcceptData(_Numbered):
    """登基: the candidate took the pile (R8.5)."""

    kind: Literal["accept"]
    seat: int
    pile: list[str]
    counts: list[int]


class _RoleSecrets(_Numbered):
    guard: NotRequired[Literal[True]]
    solo: NotRequired[Literal["dark"]]


class RolesData(_RoleSecrets):
    """R9: roles settled without a call, the B* holder the guard. Private: ``guard`` (true, to
    the guard), ``solo`` (``dark``, to the emperor holding both marked jokers: 暗独保)."""

    kind: Literal["roles"]
    emperor: int


class CallData(_RoleSecrets):
    """The emperor called a card (R8.7, R11.3). Private: ``guard`` (true, to the guard),
    ``solo`` (``dark``, to the emperor holding all four: 暗独), ``forced`` (true, to the
    emperor: the only callable triple, called by the engine; R14: only the emperor may learn
    that its hand left no choice)."""

    kind: Literal["call"]
    seat: int
    card: str
    forced: NotRequired[Literal[True]]


class OpenSoloData(_Numbered):
    """明独 / 独保 / 明独保 / 抢独: a seat plays alone, openly (R8.7, R9.2, R9.3, R11.4)."""

    kind: Literal["open_solo"]
    seat: int
    card: str | None
    shown: list[str]
    how: SoloHow


class PollData(_Numbered):
    """A poll begins: the seats asked, in order."""

    kind: Literal["poll"]
    poll: Poll
    seats: list[int]


class DeclareData(_Numbered):
    """A seat answered a poll."""

    kind: Literal["declare"]
    seat: int
    poll: Poll
    answer: str
    """``pass`` or the declaration."""


class RebellionData(_Numbered):
    """造反's outcome (R9.5)."""

    kind: Literal["rebellion"]
    success: bool
    rebels: list[int]


class KickData(_Numbered):
    """踢 (R9.6)."""

    kind: Literal["kick"]
    seat: int


class RoundData(_Numbered):
    """A round begins (R6.3)."""

    kind: Literal["round"]
    leader: int
    jiefeng: bool
    """接风 (R6.5): the round's winner was out, the next holder leads."""


class PlayData(_Numbered):
    """A play (R6.2)."""

    kind: Literal["play"]
    seat: int
    play: str
    """The play in rank notation."""
    cards: list[str]
    left: int
    """Cards the seat holds after it."""


class PassData(_Numbered):
    """A pass (过, R6.2)."""

    kind: Literal["pass"]
    seat: int


class RevealData(_Numbered):
    """A role becomes public: the guard (called card or B* played, 转让, 明保, 造反) or a dark
    solo (R8.8, R9.3–R9.5)."""

    kind: Literal["reveal"]
    seat: int
    role: Literal["guard", "solo"]


class ClearedData(_Numbered):
    """R6.8 清3: ``seat``'s play before its 3s' final play was beaten by ``by``."""

    kind: Literal["cleared"]
    seat: int
    by: int


class EscapeData(_Numbered):
    """逃跑 (R10.4)."""

    kind: Literal["escape"]
    seat: int


class OutData(_Numbered):
    """A seat went out (R6.4)."""

    kind: Literal["out"]
    seat: int
    place: int
    """1–5."""


class GameOverData(_Numbered):
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
    DealData
    | VoidData
    | TributeDueData
    | TributePaidData
    | TributeData
    | CandidateData
    | DeclineData
    | TransferData
    | AcceptData
    | RolesData
    | CallData
    | OpenSoloData
    | PollData
    | DeclareData
    | RebellionData
    | KickData
    | RoundData
    | PlayData
    | PassData
    | RevealData
    | ClearedData
    | EscapeData
    | OutData
    | GameOverData
)
