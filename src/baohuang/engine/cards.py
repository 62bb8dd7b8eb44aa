"""Cards and their notation (R2).

Ranks, low to high: ``3 4 5 6 7 8 9 T J Q K A 2``, then the small joker ``B`` (小王) and the big
joker ``R`` (大王). A suited card is rank + suit (``9h``); jokers have no suit. The marked jokers
of the fixed-guard variants are ``R*`` (皇牌) and ``B*`` (保牌); they play like ``R`` and ``B``.

Every distinct card is one interned :class:`Card` object, so cards compare by identity and
hash fast. Card ids: suited cards ``rank * 4 + suit`` (0–51), then ``B`` 52, ``R`` 53, ``B*`` 54,
``R*`` 55.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .errors import NotationError as NotationError

RANK_SYMBOLS = "3456789TJQKA2BR"
SUIT_SYMBOLS = "shdc"

#: Rank indices: 0 is ``3`` … 12 is ``2``, then the jokers.
TWO = 12
SMALL_JOKER = 13
BIG_JOKER = 14
NUM_RANKS = 15
NUM_SUITED_RANKS = 13
NUM_CARD_IDS = 56


def rank_index(symbol: str) -> int:
    """The rank index of a rank symbol (``"T"`` and ``"10"`` are both ten)."""
    if symbol == "10":
        return RANK_SYMBOLS.index("T")
    i = RANK_SYMBOLS.find(symbol.upper()) if len(symbol) == 1 else -1
    if i < 0:
        ranks = " ".join(RANK_SYMBOLS)
        raise NotationError("error.card.rank", rank=symbol, ranks=ranks)
    return i


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: a rank index, a suit (``None`` for jokers) and, for jokers, a mark."""

    id: int
    rank: int
    suit: str | None
    marked: bool

    def __str__(self) -> str:
        if self.suit is None:
            return RANK_SYMBOLS[self.rank] + ("*" if self.marked else "")
        return RANK_SYMBOLS[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """A copy or an unpickled card is the card itself: cards compare by identity."""
        return _card, (self.id,)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: ``9h``, ``10s``, ``Ts``, ``B``, ``R``, ``B*``, ``R*`` (any case)."""
        card = _CARD_BY_TEXT.get(_canonical(text))
        if card is None:
            bad = text.strip()
            raise NotationError("error.card.bad", card=bad)
        return card


def _make_cards() -> list[Card]:
    cards = [
        Card(rank * 4 + s, rank, SUIT_SYMBOLS[s], False)
        for rank in range(NUM_SUITED_RANKS)
        for s in range(4)
    ]
    cards += [
        Card(52, SMALL_JOKER, None, False),
        Card(53, BIG_JOKER, None, False),
        Card(54, SMALL_JOKER, None, True),
        Card(55, BIG_JOKER, None, True),
    ]
    return cards


#: All distinct cards, indexed by id.
CARDS: list[Card] = _make_cards()


def _card(card_id: int) -> Card:
    return CARDS[card_id]


B_CARD, R_CARD, B_MARKED, R_MARKED = CARDS[52], CARDS[53], CARDS[54], CARDS[55]
#: The notation of each card id.
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
#: Card ids in display order: by power, high first; equal ranks by suit order s h d c.
IDS_HIGH_FIRST: tuple[int, ...] = tuple(
    sorted(range(NUM_CARD_IDS), key=lambda i: (-CARDS[i].rank, i))
)


def _canonical(text: str) -> str:
    """Card text with the rank upper-case, the suit lower-case and ``10`` written ``T``."""
    text = text.strip()
    if len(text) >= 2 and text[-1].lower() in SUIT_SYMBOLS:
        rank = text[:-1].upper()
        return ("T" if rank == "10" else rank) + text[-1].lower()
    return text.upper()


_CARD_BY_TEXT = {str(card): card for card in CARDS}
_TOKEN = re.compile(r"\s*(10[shdc]|[3-9TJQKA2][shdc]|[BR]\*?)\s*", re.IGNORECASE)


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse cards written with or without spaces (``"9h 9h 9s B R"`` or ``"9h9h9sBR"``)."""
    if not isinstance(text, str):
        return [c if isinstance(c, Card) else Card.parse(c) for c in text]
    fast = [_CARD_BY_TEXT.get(token) for token in text.split()]
    if None not in fast:
        return fast  # type: ignore[return-value]
    cards: list[Card] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise NotationError("error.card.bad_in", card=bad, text=text)
        cards.append(_CARD_BY_TEXT[_canonical(m.group(1))])
        pos = m.end()
    return cards


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards by power, high first; equal ranks by suit order s h d c."""
    return sorted(cards, key=lambda c: (-c.rank, c.id))


def card_texts(cards: Iterable[Card]) -> list[str]:
    """Each card's notation, in the given order."""
    return [CARD_TEXT[card.id] for card in cards]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards by power, high first, separated by spaces."""
    return " ".join(str(c) for c in sort_cards(cards))


def deck(
    ranks_from: int = 0, decks: int = 4, marked: str = "", removed_sixes: int = 0
) -> list[Card]:
    """The pack: ``decks`` copies of every suited card from ``ranks_from`` up and of each joker.

    ``marked`` names the jokers replaced by their marked copy: ``"R"`` (R*, R11) or ``"RB"``
    (R* and B*, R9). ``removed_sixes`` copies of ``6s`` leave the pack (weihai, R7).
    """
    suited = [c for c in CARDS[:52] if c.rank >= ranks_from]
    pack = suited * decks + [B_CARD, R_CARD] * decks
    for plain, mark in ((R_CARD, R_MARKED), (B_CARD, B_MARKED)):
        if str(plain) in marked:
            pack.remove(plain)
            pack.append(mark)
    six_spades = CARDS[3 * 4]
    for _ in range(removed_sixes):
        pack.remove(six_spades)
    return pack
