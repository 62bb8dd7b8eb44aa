"""Plays (一套牌) as rank multisets, and beating (R3, R4, R5.1).

A play is any number of cards of one rank plus any number of jokers (挂花). It is written as its
ranks, canonically big jokers first, then small jokers, then the rank: ``RRB999``. Every
distinct play is one interned :class:`Play`, so plays compare by identity.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import (
    BIG_JOKER,
    NUM_SUITED_RANKS,
    RANK_SYMBOLS,
    SMALL_JOKER,
    Card,
    NotationError,
    rank_index,
)

if TYPE_CHECKING:
    from .rules import Rules

#: Largest count of one kind in a play: 16 copies of a rank in four decks, 4 of each joker.
MAX_RANK_COUNT = 16
MAX_JOKERS = 4


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """``count`` cards of rank ``rank`` (-1 when none) with ``small`` B and ``big`` R jokers."""

    rank: int
    count: int
    small: int
    big: int
    #: Derived once at interning: the card count, the joker count and the notation.
    size: int = field(init=False, repr=False)
    jokers: int = field(init=False, repr=False)
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rank = RANK_SYMBOLS[self.rank] * self.count if self.count else ""
        object.__setattr__(self, "size", self.count + self.small + self.big)
        object.__setattr__(self, "jokers", self.small + self.big)
        object.__setattr__(self, "text", "R" * self.big + "B" * self.small + rank)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    @staticmethod
    def of(rank: int, count: int, small: int = 0, big: int = 0) -> Play:
        """The interned play; ``rank`` is ignored when ``count`` is 0."""
        if count == 0:
            rank = -1
        try:
            if not -1 <= rank < NUM_SUITED_RANKS or count < 0 or small < 0 or big < 0:
                raise IndexError
            play = _PLAYS[rank + 1][count][small][big]
        except IndexError:
            raise NotationError(
                f"no such play: {count} of rank {rank}, {small} B, {big} R",
                f"没有这样的牌：{count} 张点数 {rank}，{small} 个小王，{big} 个大王",
            ) from None
        if play is None:
            raise NotationError("a play needs at least one card", "出牌至少要一张")
        return play

    @staticmethod
    def parse(text: str) -> Play:
        """Parse ``BB999``, ``RRJJJ``, ``8888``, ``R``, ``RBBB``, ``101010`` (any order)."""
        src = text.strip().upper().replace("10", "T")
        if not src:
            raise NotationError(
                "empty play: write ranks like BB999, or pass",
                "没有出牌：请写 BB999 这样的点数，或 过",
            )
        small = src.count("B")
        big = src.count("R")
        others = [ch for ch in src if ch not in "BR" and not ch.isspace()]
        for ch in others:
            if ch not in RANK_SYMBOLS:
                ranks = " ".join(RANK_SYMBOLS)
                raise NotationError(
                    f"bad rank {ch!r} in play {text!r}: ranks are {ranks}",
                    f"{text!r} 中的 {ch!r} 不是点数：点数为 {ranks}",
                )
        if len(set(others)) > 1:
            mixed = "".join(sorted(set(others)))
            raise NotationError(
                f"play {text!r} mixes ranks {mixed}: a play is one rank plus jokers (R3)",
                f"{text!r} 混了点数 {mixed}：一套牌只能是同一点数加王（R3）",
            )
        rank = rank_index(others[0]) if others else -1
        if big > MAX_JOKERS or small > MAX_JOKERS or len(others) > MAX_RANK_COUNT:
            raise NotationError(
                f"play {text!r} has more cards of a kind than four decks hold",
                f"{text!r} 的同种牌比四副牌还多",
            )
        return Play.of(rank, len(others), small, big)

    @staticmethod
    def from_cards(cards: Iterable[Card]) -> Play:
        """The play that a set of concrete cards makes."""
        rank, count, small, big = -1, 0, 0, 0
        for card in cards:
            if card.rank == BIG_JOKER:
                big += 1
            elif card.rank == SMALL_JOKER:
                small += 1
            elif count and card.rank != rank:
                a, b = RANK_SYMBOLS[rank], RANK_SYMBOLS[card.rank]
                raise NotationError(
                    f"cards mix ranks {a} and {b}: a play is one rank plus jokers (R3)",
                    f"这些牌混了点数 {a} 和 {b}：一套牌只能是同一点数加王（R3）",
                )
            else:
                rank, count = card.rank, count + 1
        return Play.of(rank, count, small, big)

    def has_rank(self, rank: int) -> bool:
        return self.count > 0 and self.rank == rank


def _make_plays() -> list[list[list[list[Play | None]]]]:
    return [
        [
            [
                [
                    Play(rank, count, small, big)
                    if count + small + big and (count == 0) == (rank == -1)
                    else None
                    for big in range(MAX_JOKERS + 1)
                ]
                for small in range(MAX_JOKERS + 1)
            ]
            for count in range(MAX_RANK_COUNT + 1)
        ]
        for rank in range(-1, NUM_SUITED_RANKS)
    ]


#: _PLAYS[rank + 1][count][small][big]
_PLAYS = _make_plays()


def beats_r4(response: Play, current: Play) -> bool:
    """R4: same size, and card by card (sorted high to low) strictly higher.

    Any play with a big joker is unbeatable; small jokers must be answered by big jokers.
    """
    return (
        response.size == current.size
        and current.big == 0
        and response.big >= current.small
        and (response.count == 0 or response.rank > current.rank)
    )


def beats_roast(response: Play, current: Play) -> bool:
    """R5.1 烤牌: against a play with jokers, more joker power (B=1, R=2) may win at any size.

    The non-joker part must be empty when the current one is, else the same count and higher.
    """
    power = current.small + 2 * current.big
    if not power or response.small + 2 * response.big <= power:
        return False
    if current.count == 0:
        return response.count == 0
    return response.count == current.count and response.rank > current.rank


def _as_play(play: Play | str) -> Play:
    return play if isinstance(play, Play) else Play.parse(play)


def beats(response: Play | str, current: Play | str, rules: Rules | None = None) -> bool:
    """Whether ``response`` beats ``current`` under ``rules`` (R4, and R5.1 with ``roast``)."""
    r, c = _as_play(response), _as_play(current)
    if beats_r4(r, c):
        return True
    return rules is not None and rules.roast and beats_roast(r, c)
