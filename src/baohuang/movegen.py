"""Legal play generation on rank counts (R3–R6).

A hand's *rank counts* is a list of 15 numbers: how many cards of each rank index it holds, the
jokers last (marked jokers count as their plain kind). Plays come out interned, each once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import (
    BIG_JOKER,
    NUM_RANKS,
    NUM_SUITED_RANKS,
    SMALL_JOKER,
    Card,
    parse_cards,
    rank_index,
)
from .plays import _PLAYS, Play, beats_r4
from .rules import Rules

SIX = rank_index("6")


def rank_counts(cards: Iterable[Card]) -> list[int]:
    """How many cards of each rank index (0–14) ``cards`` holds."""
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return counts


@cache
def _rank_block(rank: int, have: int, small: int, big: int) -> tuple[Play, ...]:
    """Every play of 1..have cards of ``rank`` with up to ``small`` B and ``big`` R."""
    row = _PLAYS[rank + 1]
    blocks = (
        row[k][s][b] for k in range(1, have + 1) for s in range(small + 1) for b in range(big + 1)
    )
    return tuple(p for p in blocks if p is not None)


@cache
def _joker_block(small: int, big: int) -> tuple[Play, ...]:
    """Every pure-joker play with up to ``small`` B and ``big`` R (R3: ``R``, ``BB``, ``RBBB``)."""
    row = _PLAYS[0][0]
    blocks = (row[s][b] for s in range(small + 1) for b in range(big + 1))
    return tuple(p for p in blocks if p is not None)


def leading_plays(counts: Sequence[int]) -> list[Play]:
    """Every distinct play a hand with these rank counts can lead."""
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    plays: list[Play] = []
    for rank in range(NUM_SUITED_RANKS):
        have = counts[rank]
        if have:
            plays += _rank_block(rank, have, small, big)
    plays += _joker_block(small, big)
    return plays


def following_plays(counts: Sequence[int], current: Play, roast: bool = False) -> list[Play]:
    """Every distinct play from these rank counts that beats ``current`` (R4, and R5.1)."""
    size, small_needed = current.size, current.small
    have_small, have_big = counts[SMALL_JOKER], counts[BIG_JOKER]
    plays: list[Play] = []
    if not current.big and have_big >= small_needed:  # R4: a big joker is unbeatable
        for big in range(small_needed, min(have_big, size) + 1):
            for small in range(min(have_small, size - big) + 1):
                k = size - big - small
                if k == 0:
                    plays.append(_PLAYS[0][0][small][big])  # type: ignore[arg-type]
                    continue
                for rank in range(current.rank + 1, NUM_SUITED_RANKS):
                    if counts[rank] >= k:
                        plays.append(_PLAYS[rank + 1][k][small][big])  # type: ignore[arg-type]
    if roast and current.jokers:
        plays += _roast_plays(counts, current)
    return plays


def _roast_plays(counts: Sequence[int], current: Play) -> list[Play]:
    """R5.1 烤牌 responses that R4 does not already allow."""
    power = current.small + 2 * current.big
    k = current.count
    ranks = (
        [-1] if k == 0 else [r for r in range(current.rank + 1, NUM_SUITED_RANKS) if counts[r] >= k]
    )
    plays: list[Play] = []
    for big in range(counts[BIG_JOKER] + 1):
        for small in range(counts[SMALL_JOKER] + 1):
            if small + 2 * big <= power:
                continue
            for rank in ranks:
                play = _PLAYS[rank + 1][k][small][big]
                if play is not None and not beats_r4(play, current):
                    plays.append(play)
    return plays


def plays_for(counts: Sequence[int], current: Play | None, rules: Rules) -> list[Play]:
    """Legal plays for a hand's rank counts under ``rules`` (``current=None`` when leading)."""
    if current is None:
        plays = leading_plays(counts)
    else:
        plays = following_plays(counts, current, rules.roast)
    if rules.hold_sixes and counts[SIX]:
        # R6.7 憋6: a play containing a 6 must empty the hand.
        size = sum(counts)
        plays = [p for p in plays if not p.has_rank(SIX) or p.size == size]
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
