"""Shared test helpers: hypothesis strategies for cards, hands and plays, and reference rules.

The reference functions restate RULES.md literally (R3, R4, R5.1, R6.7) without using the
engine's beating or move generation, so tests can compare the engine against them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import settings
from hypothesis import strategies as st

from baohuang import Card, Play, Rules
from baohuang.cards import BIG_JOKER, CARDS, NUM_SUITED_RANKS, SMALL_JOKER, deck, rank_index

# The machine is shared: never fail a test on hypothesis' per-example deadline.
settings.register_profile("baohuang", deadline=None)
settings.load_profile("baohuang")

CLASSIC = Rules.preset("classic")
ROAST = Rules.preset("classic", roast=True)
HOLD_SIXES = Rules.preset("classic", hold_sixes=True)
ROAST_HOLD_SIXES = Rules.preset("classic", roast=True, hold_sixes=True)
ALL_RULES = (CLASSIC, ROAST, HOLD_SIXES, ROAST_HOLD_SIXES)


def rules_id(rules: Rules) -> str:
    """A short test id naming the options that differ from `classic`."""
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if v != getattr(CLASSIC, k)]
    return ",".join(changed) or "classic"


#: R2: the 216-card pack of four decks (no marked jokers in `classic`).
PACK: list[Card] = deck()

SIX = rank_index("6")
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


def _play_or_none(rank: int, count: int, small: int, big: int) -> Play | None:
    return Play.of(rank, count, small, big) if count + small + big else None


def plays(max_count: int = MAX_COUNT, max_jokers: int = MAX_JOKERS) -> st.SearchStrategy[Play]:
    """Any play with at most ``max_count`` cards of its rank and ``max_jokers`` of each joker.

    Small limits give plays of a few cards, where equal sizes (and so R4 wins) are common.
    """
    return st.builds(
        _play_or_none,
        st.integers(0, NUM_SUITED_RANKS - 1),
        st.integers(0, max_count),
        st.integers(0, max_jokers),
        st.integers(0, max_jokers),
    ).filter(lambda p: p is not None)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 43) -> list[Card]:
    """A hand dealt from the 216-card pack, often concentrated on a few ranks.

    First a set of ranks is drawn, then distinct pack positions holding those ranks, so hands
    with many copies of one rank and several jokers come up often.
    """
    ranks = draw(st.sets(st.integers(0, BIG_JOKER), min_size=1))
    positions = [i for i, card in enumerate(PACK) if card.rank in ranks]
    picked = draw(st.lists(st.sampled_from(positions), unique=True, max_size=max_size))
    return [PACK[i] for i in picked]


def cards_lists() -> st.SearchStrategy[list[Card]]:
    """Lists of cards of every kind (marked jokers included), repeats allowed."""
    return st.lists(st.sampled_from(CARDS), max_size=30)


def powers(play: Play) -> list[int]:
    """R2: the play's card powers (rank index; B 13, R 14), high to low."""
    cards = [BIG_JOKER] * play.big + [SMALL_JOKER] * play.small + [play.rank] * play.count
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
    if current.count == 0:
        return response.count == 0
    return response.count == current.count and response.rank > current.rank


def reference_beats(response: Play, current: Play, roast: bool) -> bool:
    """R4, plus R5.1 when ``roast`` is on."""
    return literal_beats_r4(response, current) or (roast and literal_beats_roast(response, current))


def brute_force_plays(hand: Sequence[Card], current: Play | None, rules: Rules) -> set[Play]:
    """R3/R4/R5.1/R6.7 by enumeration: every sub-multiset of the hand's ranks that is a play."""
    counts = Counter(card.rank for card in hand)
    rank_options = [(-1, 0)] + [
        (rank, k) for rank in range(NUM_SUITED_RANKS) for k in range(1, counts[rank] + 1)
    ]
    found: set[Play] = set()
    for rank, k in rank_options:
        for small in range(counts[SMALL_JOKER] + 1):
            for big in range(counts[BIG_JOKER] + 1):
                if k + small + big == 0:
                    continue
                play = Play.of(rank, k, small, big)
                if current is not None and not reference_beats(play, current, rules.roast):
                    continue
                if rules.hold_sixes and rank == SIX and play.size != len(hand):
                    continue  # R6.7 憋6
                found.add(play)
    return found
