"""Legal play generation on rank counts (R3–R6).

A hand's *rank counts* is a list of 15 numbers: how many cards of each rank index it holds, the
jokers last (marked jokers count as their plain kind). Plays come out interned, each once. With
``twos_wild`` (R5.2) the hand's 2s also fill sets of every other rank it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import (
    BIG_JOKER,
    NUM_RANKS,
    NUM_SUITED_RANKS,
    SMALL_JOKER,
    TWO,
    Card,
    parse_cards,
)
from .plays import (
    _PLAYS,
    MAX_JOKERS,
    MAX_RANK_COUNT,
    QQ_UNBEATABLE,
    SIX,
    THREE,
    Play,
    _filled,
    beats_r4,
    must_empty_hand,
)
from .rules import Rules

__all__ = [
    "SIX",
    "THREE",
    "can_beat",
    "following_plays",
    "leading_plays",
    "legal_plays",
    "plays_for",
    "rank_counts",
]


def rank_counts(cards: Iterable[Card]) -> list[int]:
    """How many cards of each rank index (0–14) ``cards`` holds."""
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return counts


#: ``_SETS[count][small][big][rank]``: the play without filler 2s (``count`` >= 1), indexed so
#: that following a play looks up one row per joker split.
_SETS: list[list[list[list[Play | None]]]] = [
    [
        [
            [_PLAYS[rank + 1][count][small][big] for rank in range(NUM_SUITED_RANKS)]
            for big in range(MAX_JOKERS + 1)
        ]
        for small in range(MAX_JOKERS + 1)
    ]
    for count in range(MAX_RANK_COUNT + 1)
]


#: ``_RANKS_FROM[lowest]``: the ranks from ``lowest`` up to 2; ``_UP_TO[n]``: 0..n.
_RANKS_FROM = [tuple(range(lowest, NUM_SUITED_RANKS)) for lowest in range(NUM_SUITED_RANKS + 1)]
_UP_TO = [tuple(range(n + 1)) for n in range(MAX_JOKERS + 1)]


def _rank_block(rank: int, have: int, small: int, big: int) -> tuple[Play, ...]:
    """Every play of 1..have cards of ``rank`` with up to ``small`` B and ``big`` R."""
    row = _PLAYS[rank + 1]
    blocks = (
        row[k][s][b] for k in range(1, have + 1) for s in range(small + 1) for b in range(big + 1)
    )
    return tuple(p for p in blocks if p is not None)


#: Leading blocks by joker holding: ``_LEAD[small][big][rank][have]`` is ``_rank_block(rank,
#: have, small, big)``; a joker holding's table is built on first use.
_LEAD: list[list[list[list[tuple[Play, ...]]] | None]] = [
    [None] * (MAX_JOKERS + 1) for _ in range(MAX_JOKERS + 1)
]


def _lead_table(small: int, big: int) -> list[list[tuple[Play, ...]]]:
    """``_LEAD[small][big]``, built if needed."""
    table = _LEAD[small][big]
    if table is None:
        table = _LEAD[small][big] = [
            [_rank_block(rank, have, small, big) for have in range(MAX_RANK_COUNT + 1)]
            for rank in range(NUM_SUITED_RANKS)
        ]
    return table


@cache
def _filled_block(rank: int, have: int, small: int, big: int, twos: int) -> tuple[Play, ...]:
    """Every play of 1..have cards of ``rank`` filled with 1..twos 2s, up to ``small`` B and
    ``big`` R (R5.2)."""
    return tuple(
        _filled(rank, k, s, b, t)
        for k in range(1, have + 1)
        for t in range(1, twos + 1)
        for s in range(small + 1)
        for b in range(big + 1)
    )


@cache
def _joker_block(small: int, big: int) -> tuple[Play, ...]:
    """Every pure-joker play with up to ``small`` B and ``big`` R (R3: ``R``, ``BB``, ``RBBB``)."""
    row = _PLAYS[0][0]
    blocks = (row[s][b] for s in range(small + 1) for b in range(big + 1))
    return tuple(p for p in blocks if p is not None)


def leading_plays(counts: Sequence[int], twos_wild: bool = False) -> list[Play]:
    """Every distinct play a hand with these rank counts can lead."""
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    table = _LEAD[small][big] or _lead_table(small, big)
    plays: list[Play] = []
    for rank in _RANKS_FROM[0]:
        have = counts[rank]
        if have:
            plays += table[rank][have]
    twos = counts[TWO] if twos_wild else 0
    if twos:
        for rank in range(TWO):
            have = counts[rank]
            if have:
                plays += _filled_block(rank, have, small, big, twos)
    plays += _joker_block(small, big)
    return plays


def _filled_sets(
    counts: Sequence[int], lowest: int, k: int, small: int, big: int, twos: int
) -> list[Play]:
    """Every play of ``k`` set cards of a rank from ``lowest`` up to A with 2s filling it,
    ``small`` B and ``big`` R (R5.2)."""
    return [
        _filled(rank, n, small, big, k - n)
        for rank in range(lowest, TWO)
        for n in range(max(1, k - twos), min(counts[rank], k - 1) + 1)
    ]


def _joker_splits(size: int, need: int, have_small: int, have_big: int) -> list[tuple[int, int]]:
    """The (small, big) joker parts of a ``size``-card response with at least ``need`` R."""
    return [
        (small, big)
        for big in range(need, min(have_big, size) + 1)
        for small in range(min(have_small, size - big) + 1)
    ]


def _big_needed(current: Play, rules: Rules) -> int:
    """The R an answer to ``current`` needs at least (more than :data:`MAX_JOKERS`: none can)."""
    if rules.qq_jokers:
        # R5.2: a play with one R can be beaten, one with two or more cannot
        unbeatable = current.big >= QQ_UNBEATABLE
        return MAX_JOKERS + 1 if unbeatable else 2 * current.big + current.small
    return MAX_JOKERS + 1 if current.big else current.small  # R4: R is unbeatable


def following_plays(counts: Sequence[int], current: Play, rules: Rules) -> list[Play]:
    """Every distinct play from these rank counts that beats ``current`` (R4, R5.1, R5.2)."""
    need = _big_needed(current, rules)
    plays: list[Play] = []
    have_big = counts[BIG_JOKER]
    if have_big >= need:
        # Builtin calls are slow: the loops index prebuilt tuples where they can.
        size, have_small, lowest = current.size, counts[SMALL_JOKER], current.rank + 1
        ranks = _RANKS_FROM[lowest]
        for big in range(need, (have_big if have_big < size else size) + 1):
            rest = size - big
            for small in _UP_TO[have_small if have_small < rest else rest]:
                k = rest - small
                if k == 0:
                    plays.append(_PLAYS[0][0][small][big])  # type: ignore[arg-type]
                elif k <= MAX_RANK_COUNT:
                    sets = _SETS[k][small][big]
                    for rank in ranks:
                        if counts[rank] >= k:
                            plays.append(sets[rank])  # type: ignore[arg-type]
        twos = counts[TWO] if rules.twos_wild else 0
        if twos:
            for small, big in _joker_splits(size, need, have_small, have_big):
                plays += _filled_sets(counts, lowest, size - small - big, small, big, twos)
    if rules.roast and current.jokers:
        plays += _roast_plays(counts, current, counts[TWO] if rules.twos_wild else 0)
    return plays


def can_beat(counts: Sequence[int], current: Play, rules: Rules) -> bool:
    """Whether these rank counts beat ``current`` at all: :func:`following_plays` is not empty,
    found without listing the answers (with wild 2s a hand can have thousands)."""
    if rules.roast and current.jokers:
        return bool(following_plays(counts, current, rules))  # R5.1 烤牌: rare, listed
    need, have_big = _big_needed(current, rules), counts[BIG_JOKER]
    if have_big < need:
        return False
    size, have_small, lowest = current.size, counts[SMALL_JOKER], current.rank + 1
    most = max(counts[lowest:NUM_SUITED_RANKS], default=0)  # the largest plain set
    twos = counts[TWO] if rules.twos_wild else 0
    # R5.2: a set of a rank below 2, filled up with 2s
    filled = max(counts[lowest:TWO], default=0) if twos else 0
    for big in range(need, min(have_big, size) + 1):
        rest = size - big
        k = rest - min(have_small, rest)  # the fewest set cards beside the jokers (0: none)
        if most >= k <= MAX_RANK_COUNT or (filled and filled + twos >= k):
            return True
    return False


def _roast_plays(counts: Sequence[int], current: Play, twos: int) -> list[Play]:
    """R5.1 烤牌 responses that R4 does not already allow."""
    power = current.small + 2 * current.big
    k, lowest = current.set_size, current.rank + 1
    ranks = [-1] if k == 0 else [r for r in range(lowest, NUM_SUITED_RANKS) if counts[r] >= k]
    plays: list[Play] = []
    for big in range(counts[BIG_JOKER] + 1):
        for small in range(counts[SMALL_JOKER] + 1):
            if small + 2 * big <= power:
                continue
            found = [_PLAYS[rank + 1][k][small][big] for rank in ranks]
            if twos and k:
                found += _filled_sets(counts, lowest, k, small, big, twos)
            plays += [p for p in found if p is not None and not beats_r4(p, current)]
    return plays


def plays_for(counts: Sequence[int], current: Play | None, rules: Rules) -> list[Play]:
    """Legal plays for a hand's rank counts under ``rules`` (``current=None`` when leading)."""
    if current is None:
        plays = leading_plays(counts, rules.twos_wild)
    else:
        plays = following_plays(counts, current, rules)
    if (rules.hold_sixes and counts[SIX]) or (rules.hold_threes and counts[THREE]):
        # R6.7 憋6, R6.8 清3: a play containing a held rank must empty the hand.
        size = sum(counts)
        plays = [p for p in plays if p.size == size or not must_empty_hand(p, rules)]
    return plays


def legal_plays(
    hand: str | Iterable[Card | str], current: Play | str | None, rules: Rules | None = None
) -> list[Play]:
    """Every distinct play ``hand`` can make: leading when ``current`` is None, else beating it.

    ``hand`` is a card string (``"9h 9h 9s B R"``) or a list of cards. Pass is not included.
    """
    counts = rank_counts(parse_cards(hand))
    if isinstance(current, str):
        current = Play.parse(current)
    return plays_for(counts, current, rules or Rules())
