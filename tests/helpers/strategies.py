"""Hypothesis strategies for cards, hands and plays, and every play four decks allow."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from baohuang import Card, Play
from baohuang.engine.cards import BIG_JOKER, CARDS, NUM_SUITED_RANKS, TWO, deck

#: R2: the 216-card pack of four decks (no marked jokers in `classic`).
PACK: list[Card] = deck()

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
