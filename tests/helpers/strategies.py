"""Hypothesis strategies for cards, hands and plays, and reference rules.

The reference functions restate docs/rules.md literally (R3, R4, R5.1, R5.2, R6.7, R6.8) without
the engine's beating or move generation, so tests can compare the engine against them.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence

from hypothesis import strategies as st

from baohuang import Card, Play, Rules
from baohuang.engine.cards import (
    BIG_JOKER,
    CARDS,
    NUM_SUITED_RANKS,
    SMALL_JOKER,
    TWO,
    deck,
    rank_index,
)

CLASSIC = Rules.preset("classic")
ROAST = Rules.preset("classic", roast=True)
HOLD_SIXES = Rules.preset("classic", hold_sixes=True)
ROAST_HOLD_SIXES = Rules.preset("classic", roast=True, hold_sixes=True)
ALL_RULES = (CLASSIC, ROAST, HOLD_SIXES, ROAST_HOLD_SIXES)


def variant(**options: bool) -> Rules:
    """`classic` with beating and holding options set, ``qq_jokers`` too (not a user option).

    Not validated: move generation takes any combination, even hold_sixes with hold_threes,
    which a game refuses (rules.py).
    """
    return dataclasses.replace(CLASSIC, **options)


TWOS_WILD = variant(twos_wild=True)
QQ_JOKERS = variant(qq_jokers=True)
#: The R5.2 beating of the `qq` preset (with 3s in the pack, so hold_threes may join).
QQ = variant(qq_jokers=True, twos_wild=True)
HOLD_THREES = variant(hold_threes=True)
#: Every combination of the options that change beating or legal plays: the joker rule (R4,
#: R5.1 roast or the R5.2 QQ rule) × twos_wild × hold_sixes × hold_threes.
OPTION_RULES = tuple(
    variant(roast=roast, qq_jokers=qq, twos_wild=twos, hold_sixes=sixes, hold_threes=threes)
    for (roast, qq), twos, sixes, threes in itertools.product(
        [(False, False), (True, False), (False, True)], *[[False, True]] * 3
    )
)


def rules_id(rules: Rules) -> str:
    """A short test id naming the options that differ from `classic`."""
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if v != getattr(CLASSIC, k)]
    return ",".join(changed) or "classic"


#: R2: the 216-card pack of four decks (no marked jokers in `classic`).
PACK: list[Card] = deck()

SIX = rank_index("6")
THREE = rank_index("3")
#: Most copies of one rank in four decks, and of each joker.
MAX_COUNT = 16
MAX_JOKERS = 4


def all_plays() -> list[Play]:
    """Every distinct play four decks allow (R3), built from (rank, count, B, R) tuples."""
    plays = [
        Play.of(-1, 0, small, big)
        for small in range(MAX_JOKERS + 1)
        for big in range(MAX_JOKERS + 1)
        if small + big
    ]
    plays += [
        Play.of(rank, count, small, big)
        for rank in range(NUM_SUITED_RANKS)
        for count in range(1, MAX_COUNT + 1)
        for small in range(MAX_JOKERS + 1)
        for big in range(MAX_JOKERS + 1)
    ]
    return plays


ALL_PLAYS: list[Play] = all_plays()


def filled_plays(max_size: int) -> list[Play]:
    """Every play with filler 2s (R5.2) of at most ``max_size`` cards."""
    return [
        Play.of(rank, count, small, big, twos)
        for rank in range(TWO)
        for count in range(1, max_size)
        for twos in range(1, max_size - count + 1)
        for small in range(min(MAX_JOKERS, max_size - count - twos) + 1)
        for big in range(min(MAX_JOKERS, max_size - count - twos - small) + 1)
    ]


def _play_or_none(rank: int, count: int, small: int, big: int, twos: int) -> Play | None:
    """The play, with the filler 2s dropped where they cannot fill (no rank, or a set of 2s)."""
    if not count or rank == TWO:
        twos = 0
    return Play.of(rank, count, small, big, twos) if count + small + big else None


def plays(
    max_count: int = MAX_COUNT, max_jokers: int = MAX_JOKERS, max_twos: int = 0
) -> st.SearchStrategy[Play]:
    """Any play with at most ``max_count`` cards of its rank, ``max_jokers`` of each joker and
    ``max_twos`` filler 2s (R5.2).

    Small limits give plays of a few cards, where equal sizes (and so R4 wins) are common.
    """
    return st.builds(
        _play_or_none,
        st.integers(0, NUM_SUITED_RANKS - 1),
        st.integers(0, max_count),
        st.integers(0, max_jokers),
        st.integers(0, max_jokers),
        st.integers(0, max_twos),
    ).filter(lambda p: p is not None)


@st.composite
def hands(
    draw: st.DrawFn,
    max_size: int = 43,
    min_size: int = 0,
    max_ranks: int | None = None,
    always: Sequence[int] = (),
) -> list[Card]:
    """A hand dealt from the 216-card pack, often concentrated on a few ranks.

    First a set of (at most ``max_ranks``) ranks is drawn, ``always`` added (e.g. 2s to fill
    sets, R5.2), then distinct pack positions holding those ranks, so hands with many copies of
    one rank and several jokers come up often.
    """
    drawn = draw(st.sets(st.integers(0, BIG_JOKER), min_size=1, max_size=max_ranks))
    ranks = drawn | set(always)
    positions = [i for i, card in enumerate(PACK) if card.rank in ranks]
    least = min(min_size, len(positions))
    picked = draw(
        st.lists(st.sampled_from(positions), unique=True, min_size=least, max_size=max_size)
    )
    return [PACK[i] for i in picked]


def cards_lists() -> st.SearchStrategy[list[Card]]:
    """Lists of cards of every kind (marked jokers included), repeats allowed."""
    return st.lists(st.sampled_from(CARDS), max_size=30)


def set_cards(play: Play) -> int:
    """The cards of the play's set: its natural cards and the 2s filling it (R5.2)."""
    return play.count + play.twos


def powers(play: Play) -> list[int]:
    """R2: the play's card powers (rank index; B 13, R 14), high to low.

    R5.2: a filling 2 counts as the set's rank.
    """
    cards = [BIG_JOKER] * play.big + [SMALL_JOKER] * play.small + [play.rank] * set_cards(play)
    return sorted(cards, reverse=True)


def literal_beats_r4(response: Play, current: Play) -> bool:
    """R4 as written: same size, and position by position strictly higher."""
    mine, theirs = powers(response), powers(current)
    return len(mine) == len(theirs) and all(a > b for a, b in zip(mine, theirs, strict=True))


def joker_power(play: Play) -> int:
    """R5.1: B counts 1, R counts 2."""
    return play.small + 2 * play.big


def literal_beats_roast(response: Play, current: Play) -> bool:
    """R5.1 烤牌 as written (the extra wins only; R4 wins are separate)."""
    if not current.jokers or joker_power(response) <= joker_power(current):
        return False
    if set_cards(current) == 0:
        return set_cards(response) == 0
    return set_cards(response) == set_cards(current) and response.rank > current.rank


def literal_beats_qq(response: Play, current: Play) -> bool:
    """R5.2 QQ rule as written: the same number of cards; at least 2b + s big jokers against b
    R and s B (small jokers of the response do not count), and nothing against two or more R;
    and, when both plays have non-joker cards, a strictly higher rank (a pure-joker response
    counts as higher, [decision] in plays.py)."""
    if len(powers(response)) != len(powers(current)) or current.big >= 2:
        return False
    if response.big < 2 * current.big + current.small:
        return False
    return not (set_cards(response) and set_cards(current)) or response.rank > current.rank


def reference_beats(response: Play, current: Play, rules: Rules) -> bool:
    """R4, plus R5.1 with ``roast``; the R5.2 QQ rule instead with ``qq_jokers``. A response
    with filler 2s needs ``twos_wild`` (R3)."""
    if response.twos and not rules.twos_wild:
        return False
    if rules.qq_jokers:
        return literal_beats_qq(response, current)
    return literal_beats_r4(response, current) or (
        rules.roast and literal_beats_roast(response, current)
    )


def held(rank: int, rules: Rules) -> bool:
    """R6.7 憋6 / R6.8 清3: a play with a set of this rank must empty the hand."""
    return (rules.hold_sixes and rank == SIX) or (rules.hold_threes and rank == THREE)


def brute_force_plays(hand: Sequence[Card], current: Play | None, rules: Rules) -> set[Play]:
    """R3/R4/R5/R6.7/R6.8 by enumeration: every sub-multiset of the hand's ranks that is a play.

    A set is one rank (or none) with 1..all of its cards; with ``twos_wild``, a set of another
    rank than 2 may also take 1..all of the hand's 2s as fillers.
    """
    counts = Counter(card.rank for card in hand)
    fillers = counts[TWO] if rules.twos_wild else 0
    sets = [(-1, 0, 0)] + [
        (rank, k, twos)
        for rank in range(NUM_SUITED_RANKS)
        for k in range(1, counts[rank] + 1)
        for twos in range(fillers + 1 if rank != TWO else 1)
    ]
    found: set[Play] = set()
    for rank, k, twos in sets:
        for small in range(counts[SMALL_JOKER] + 1):
            for big in range(counts[BIG_JOKER] + 1):
                if k + small + big == 0:
                    continue
                play = Play.of(rank, k, small, big, twos)
                if current is not None and not reference_beats(play, current, rules):
                    continue
                if held(rank, rules) and play.size != len(hand):
                    continue  # R6.7 憋6, R6.8 清3
                found.add(play)
    return found
