"""Plays (一套牌) as rank multisets, and beating (R3, R4, R5).

A play is any number of cards of one rank plus any number of jokers (挂花). It is written as its
ranks, canonically big jokers first, then small jokers, then the rank: ``RRB999``. With the
option ``twos_wild`` (R5.2) 2s may fill a set of another rank; the filler 2s come last:
``B99922`` is a set of five 9s (three natural, two filling 2s) hung with a B. Every distinct play
is one interned :class:`Play`, so plays compare by identity.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import (
    BIG_JOKER,
    NUM_SUITED_RANKS,
    RANK_SYMBOLS,
    SMALL_JOKER,
    TWO,
    Card,
    NotationError,
    rank_index,
)

if TYPE_CHECKING:
    from .rules import Rules

#: Largest count of one kind in a play: 16 copies of a rank in four decks, 4 of each joker.
MAX_RANK_COUNT = 16
MAX_JOKERS = 4
#: The ranks that R6.8 清3 and R6.7 憋6 hold back.
THREE = rank_index("3")
SIX = rank_index("6")
#: R5.2: under the QQ joker rule a play with this many big jokers cannot be beaten.
QQ_UNBEATABLE = 2


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """``count`` cards of rank ``rank`` (-1 when none) with ``small`` B and ``big`` R jokers.

    ``twos`` is the number of 2s filling the set (R5.2 ``twos_wild``): 0 for every plain play;
    a filled play has ``rank`` 0–11 (not 2), ``count >= 1`` natural cards and ``twos >= 1``.
    """

    rank: int
    count: int
    small: int
    big: int
    twos: int = 0
    #: Derived once at interning: the card count, the joker count, the cards that count as
    #: ``rank`` (natural cards and filler 2s) and the notation.
    size: int = field(init=False, repr=False)
    jokers: int = field(init=False, repr=False)
    set_size: int = field(init=False, repr=False)
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rank = RANK_SYMBOLS[self.rank] * self.count if self.count else ""
        set_size = self.count + self.twos
        object.__setattr__(self, "size", set_size + self.small + self.big)
        object.__setattr__(self, "jokers", self.small + self.big)
        object.__setattr__(self, "set_size", set_size)
        text = "R" * self.big + "B" * self.small + rank + "2" * self.twos
        object.__setattr__(self, "text", text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def __reduce__(self) -> tuple[Callable[..., Play], tuple[int, int, int, int, int]]:
        """A copy or an unpickled play is the interned play itself: plays compare by identity
        (a search bot copied for a look ahead, a bot's state sent to another process)."""
        return Play.of, (self.rank, self.count, self.small, self.big, self.twos)

    @staticmethod
    def of(rank: int, count: int, small: int = 0, big: int = 0, twos: int = 0) -> Play:
        """The interned play; ``rank`` is ignored when ``count`` is 0 (and ``twos`` is 0)."""
        if twos:
            return _filled(rank, count, small, big, twos)
        if count == 0:
            rank = -1
        try:
            if not -1 <= rank < NUM_SUITED_RANKS or count < 0 or small < 0 or big < 0:
                raise IndexError
            play = _PLAYS[rank + 1][count][small][big]
        except IndexError:
            raise _no_such_play(rank, count, small, big, twos) from None
        if play is None:
            raise NotationError("error.play.no_cards")
        return play

    @staticmethod
    def parse(text: str) -> Play:
        """Parse ``BB999``, ``RRJJJ``, ``8888``, ``R``, ``RBBB``, ``101010`` (any order).

        2s with one other rank are filler 2s (R5.2: ``22999`` is ``99922``); a play of 2s alone
        is a set of 2s.
        """
        src = text.strip().upper().replace("10", "T")
        if not src:
            raise NotationError("error.play.empty")
        others = [ch for ch in src if ch not in "BR" and not ch.isspace()]
        for ch in others:
            if ch not in RANK_SYMBOLS:
                ranks = " ".join(RANK_SYMBOLS)
                raise NotationError("error.play.rank", rank=ch, text=text, ranks=ranks)
        kinds = set(others) - {"2"}
        if len(kinds) > 1:
            mixed = "".join(sorted(kinds))
            raise NotationError("error.play.mixed", text=text, ranks=mixed)
        twos = others.count("2")
        small, big = src.count("B"), src.count("R")
        naturals = len(others) - twos
        if big > MAX_JOKERS or small > MAX_JOKERS or max(twos, naturals) > MAX_RANK_COUNT:
            raise NotationError("error.play.too_many", text=text)
        if not kinds:
            return Play.of(TWO, twos, small, big)
        return Play.of(rank_index(kinds.pop()), naturals, small, big, twos)

    @staticmethod
    def from_cards(cards: Iterable[Card]) -> Play:
        """The play that a set of concrete cards makes (2s with another rank fill its set)."""
        rank, count, small, big, twos = -1, 0, 0, 0, 0
        for card in cards:
            if card.rank == BIG_JOKER:
                big += 1
            elif card.rank == SMALL_JOKER:
                small += 1
            elif card.rank == TWO:
                twos += 1
            elif count and card.rank != rank:
                a, b = RANK_SYMBOLS[rank], RANK_SYMBOLS[card.rank]
                raise NotationError("error.play.mixed_cards", a=a, b=b)
            else:
                rank, count = card.rank, count + 1
        if not count:
            return Play.of(TWO, twos, small, big)
        return Play.of(rank, count, small, big, twos)

    def has_rank(self, rank: int) -> bool:
        """Whether the play's set is of ``rank`` (filler 2s do not make a set of 2s)."""
        return self.count > 0 and self.rank == rank

    def fits(self, counts: Sequence[int]) -> bool:
        """Whether a hand with these rank counts (15 numbers, jokers last) holds the play."""
        return (
            (not self.count or counts[self.rank] >= self.count)
            and counts[TWO] >= self.twos
            and counts[SMALL_JOKER] >= self.small
            and counts[BIG_JOKER] >= self.big
        )


def _no_such_play(rank: int, count: int, small: int, big: int, twos: int) -> NotationError:
    return NotationError(
        "error.play.no_such", count=count, rank=rank, twos=twos, small=small, big=big
    )


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


#: _PLAYS[rank + 1][count][small][big]: every play without filler 2s.
_PLAYS = _make_plays()
#: Plays with filler 2s, interned on first use: (rank, count, small, big, twos) -> play.
_FILLED: dict[tuple[int, int, int, int, int], Play] = {}


def _filled(rank: int, count: int, small: int, big: int, twos: int) -> Play:
    """The interned play of ``count`` natural cards of ``rank`` filled with ``twos`` 2s."""
    key = (rank, count, small, big, twos)
    play = _FILLED.get(key)
    if play is None:
        if not (
            0 <= rank < TWO
            and 1 <= count <= MAX_RANK_COUNT
            and 1 <= twos <= MAX_RANK_COUNT
            and 0 <= small <= MAX_JOKERS
            and 0 <= big <= MAX_JOKERS
        ):
            raise _no_such_play(rank, count, small, big, twos)
        play = _FILLED[key] = Play(rank, count, small, big, twos)
    return play


def allowed(play: Play, rules: Rules) -> bool:
    """Whether ``rules`` allow ``play`` at all: filler 2s need ``twos_wild`` (R3, R5.2).

    Filler plays parse and exist under every rule set (so records and messages can name them),
    but without ``twos_wild`` a 2 is just a rank and R3 forbids mixing ranks. :func:`beats` and
    the move generator already refuse them; a game must also check a play it is led with.
    """
    return not play.twos or rules.twos_wild


def must_empty_hand(play: Play, rules: Rules) -> bool:
    """Whether ``play`` may only be a player's final play: it holds 6s under ``hold_sixes``
    (R6.7 憋6) or 3s under ``hold_threes`` (R6.8 清3); filler 2s count as the set's rank."""
    return (rules.hold_sixes and play.has_rank(SIX)) or (rules.hold_threes and play.has_rank(THREE))


def beats_r4(response: Play, current: Play) -> bool:
    """R4: same size, and card by card (sorted high to low) strictly higher.

    Any play with a big joker is unbeatable; small jokers must be answered by big jokers. A
    filler 2 counts as its set's rank (R5.2), so only the set's rank and size matter.
    """
    return (
        response.size == current.size
        and current.big == 0
        and response.big >= current.small
        and (response.count == 0 or response.rank > current.rank)
    )


def beats_roast(response: Play, current: Play) -> bool:
    """R5.1 烤牌: against a play with jokers, more joker power (B=1, R=2) may win at any size.

    The non-joker part must be empty when the current one is, else the same count (filler 2s
    included) and a higher rank.
    """
    power = current.small + 2 * current.big
    if not power or response.small + 2 * response.big <= power:
        return False
    if current.count == 0:
        return response.count == 0
    return response.set_size == current.set_size and response.rank > current.rank


def beats_qq(response: Play, current: Play) -> bool:
    """R5.2 QQ joker rule: same size, a higher rank, and ``2b + s`` big jokers against ``b`` R
    and ``s`` B (the response's small jokers do not count). A play with one R can be beaten; one
    with two or more cannot (000: "2张大王没人能管").
    """
    # [decision] The rank must be higher only when both plays have non-joker cards: a
    # pure-joker response counts as higher than any rank, and against a pure-joker play (rank
    # -1) any rank is higher (the joker count then forces an all-R response anyway).
    return (
        response.size == current.size
        and current.big < QQ_UNBEATABLE
        and response.big >= 2 * current.big + current.small
        and (response.count == 0 or response.rank > current.rank)
    )


def _as_play(play: Play | str) -> Play:
    return play if isinstance(play, Play) else Play.parse(play)


def beats(response: Play | str, current: Play | str, rules: Rules | None = None) -> bool:
    """Whether ``response`` beats ``current`` under ``rules`` (default: classic).

    R4, or R5.1 too with ``roast``, or the R5.2 QQ rule instead with ``qq_jokers``. A response
    with filler 2s beats nothing unless ``twos_wild`` allows it (:func:`allowed`).
    """
    r, c = _as_play(response), _as_play(current)
    if rules is None:
        return not r.twos and beats_r4(r, c)
    if r.twos and not rules.twos_wild:
        return False
    if rules.qq_jokers:
        return beats_qq(r, c)
    return beats_r4(r, c) or (rules.roast and beats_roast(r, c))
