"""Actions and their notation: every decision a seat makes is one of these (the rules they
carry out: ``docs/rules.md``).

=========================  ==========================================================
notation                   meaning
=========================  ==========================================================
``BB999``, ``B B 9 9 9``    play these ranks (the engine picks the cards, see game.py)
``9h 9h 9s B B``           play exactly these cards
``pass``                   pass (过)
``accept`` / ``decline``   take or refuse the emperor card (同意 / 放弃, R8.5)
``call 9h``                call the triple of 9h; the 4th copy's holder is the guard (R8.7)
``solo 9h``                明独: show four 9h and play alone, openly (R8.7)
``solo``                   明独 / 独保 / 明独保 without showing cards (R9.2, R9.3, R11.3)
``tribute 2h``             pay this card as tribute (进贡, R12)
``transfer``               weihai's 转让: hand R* to the 上家, who must be emperor (R9.3)
``show``                   明保: the guard reveals itself (R9.4); 暗保 is ``pass``
``rebel``                  造反 (R9.5); not rebelling is ``pass``
``kick``                   踢 (R9.6); not kicking is ``pass``
``grab``                   抢独: claim open solo (R11.4); not claiming is ``pass``
``escape 3``               seat 3 leaves the game for good (逃跑, R10.4), at any time
=========================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import Card, NotationError, format_cards, parse_cards, sort_cards
from .plays import Play


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Accept:
    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Decline:
    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class PlayCards:
    """Play exactly these cards (canonically sorted, high first)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sort_cards(self.cards)))

    @property
    def play(self) -> Play:
        return Play.from_cards(self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Call:
    """Call the triple of ``card`` (亮出三张, R8.7)."""

    card: Card

    def __str__(self) -> str:
        return f"call {self.card}"


@dataclass(frozen=True, slots=True)
class OpenSolo:
    """明独: play alone against four, openly; in R8 by showing four copies of ``card``."""

    card: Card | None = None

    def __str__(self) -> str:
        return "solo" if self.card is None else f"solo {self.card}"


DeclareKind = Literal["transfer", "show", "rebel", "kick", "grab"]


@dataclass(frozen=True, slots=True)
class Declare:
    """A declaration of the fixed-guard and 叫保 families: 转让, 明保, 造反, 踢, 抢独."""

    kind: DeclareKind

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Escape:
    """逃跑 (R10.4): ``seat`` leaves the game for good, at any moment, whoever is to act."""

    seat: int

    def __str__(self) -> str:
        return f"escape {self.seat}"


@dataclass(frozen=True, slots=True)
class Tribute:
    """Pay ``card`` as tribute (进贡, R12)."""

    card: Card

    def __str__(self) -> str:
        return f"tribute {self.card}"


Action = Play | PlayCards | Pass | Accept | Decline | Call | OpenSolo | Tribute | Declare | Escape

PASS = Pass()
ACCEPT = Accept()
DECLINE = Decline()
SOLO = OpenSolo()
TRANSFER = Declare("transfer")
SHOW = Declare("show")
REBEL = Declare("rebel")
KICK = Declare("kick")
GRAB = Declare("grab")

_WORDS: dict[str, Action] = {
    "pass": PASS, "p": PASS, "过": PASS, "不要": PASS,
    "暗保": PASS, "不造反": PASS, "不踢": PASS, "不抢": PASS,
    "accept": ACCEPT, "y": ACCEPT, "yes": ACCEPT, "同意": ACCEPT, "登基": ACCEPT,
    "decline": DECLINE, "n": DECLINE, "no": DECLINE, "放弃": DECLINE, "让位": DECLINE,
    "solo": SOLO, "明独": SOLO, "独保": SOLO, "明独保": SOLO,
    "transfer": TRANSFER, "转让": TRANSFER,
    "show": SHOW, "明保": SHOW,
    "rebel": REBEL, "造反": REBEL,
    "kick": KICK, "踢": KICK,
    "grab": GRAB, "抢独": GRAB,
}  # fmt: skip
_CARD_VERBS: dict[str, type[Call] | type[OpenSolo] | type[Tribute]] = {
    "call": Call, "叫": Call, "亮": Call,
    "solo": OpenSolo, "明独": OpenSolo,
    "tribute": Tribute, "进贡": Tribute,
}  # fmt: skip
_RANK_ONLY = set("3456789TJQKA2BRtjqkabr10 ")


def parse_action(text: str) -> Action:
    """Parse an action in the notation above (Chinese words accepted too)."""
    words = text.strip().split()
    if not words:
        raise NotationError("error.action.empty")
    head = words[0].lower()
    if len(words) == 1 and head in _WORDS:
        return _WORDS[head]
    if head in ("escape", "逃跑"):
        if len(words) != 2 or words[1] not in ("0", "1", "2", "3", "4"):  # not a substring
            raise NotationError("error.action.escape_seat", word=head)
        return Escape(int(words[1]))
    verb = _CARD_VERBS.get(head)
    if verb is not None:
        if len(words) != 2:
            raise NotationError("error.action.one_card", word=head)
        return verb(Card.parse(words[1]))
    if all(set(word) <= _RANK_ONLY for word in words):
        return Play.parse("".join(words))  # ranks alone, spaced or not: 9 9 B, BB999
    cards = parse_cards(text)
    if not cards:
        raise NotationError("error.action.no_cards", text=text)
    return PlayCards(tuple(cards))
