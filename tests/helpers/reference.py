"""Docs/rules.md's plays restated literally (R2–R6), apart from the engine's beating and moves.

Beating is restated once, on card powers (R2: rank index, B 13, R 14, a filler 2 counting as
its set's rank); :func:`reference_beats` applies it to the engine's plays, :func:`referee_beats`
to cards, and :func:`brute_force_plays` enumerates a hand's legal plays with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from baohuang import Card, Play, Rules
from helpers.cards import BIG, RANKS, SIX, SMALL, THREE, TWO


def set_ranks(cards: Sequence[Card], rules: Rules) -> list[int]:
    """Card powers (R2), a filler 2 counting as its set's rank (R5.2 ``twos_wild``)."""
    natural = {c.rank for c in cards if not c.is_joker and c.rank != TWO}
    if not (rules.twos_wild and len(natural) == 1):
        return [c.rank for c in cards]
    rank = natural.pop()
    return [rank if c.rank == TWO else c.rank for c in cards]


def is_one_set(cards: Sequence[Card], rules: Rules) -> bool:
    """R3: one rank plus jokers; R5.2 ``twos_wild``: 2s may join a set of another rank."""
    ranks = {c.rank for c in cards if not c.is_joker}
    if rules.twos_wild and len(ranks) > 1:
        ranks.discard(TWO)
    return len(ranks) <= 1


def play_text(cards: Sequence[Card]) -> str:
    """R2's canonical notation: ``R``s, ``B``s, the set's rank, then any filler 2s (R5.2)."""
    jokers = "".join(RANKS[c.rank] for c in sorted(cards, key=lambda c: -c.rank) if c.is_joker)
    natural = [RANKS[c.rank] for c in cards if not c.is_joker and c.rank != TWO]
    return jokers + "".join(natural) + "2" * sum(1 for c in cards if c.rank == TWO)


def set_cards(play: Play) -> int:
    """The cards of the play's set: its natural cards and the 2s filling it (R5.2)."""
    return play.count + play.twos


def powers(play: Play) -> list[int]:
    """R2: the play's card powers, high to low; R5.2: a filling 2 counts as the set's rank."""
    cards = [BIG] * play.big + [SMALL] * play.small + [play.rank] * set_cards(play)
    return sorted(cards, reverse=True)


def r4_beats(response: Sequence[int], current: Sequence[int]) -> bool:
    """R4 as written: same size, and sorted high to low every card strictly higher."""
    mine, theirs = sorted(response, reverse=True), sorted(current, reverse=True)
    return len(mine) == len(theirs) and all(a > b for a, b in zip(mine, theirs, strict=True))


def roast_beats(response: Sequence[int], current: Sequence[int]) -> bool:
    """R5.1 烤牌 as written (the extra wins only; R4 wins are separate): more joker power (B 1,
    R 2); the rest empty, or same count higher."""

    def power(ranks: Sequence[int]) -> int:
        return sum(r - TWO for r in ranks if r > TWO)

    mine = [r for r in response if r <= TWO]
    theirs = [r for r in current if r <= TWO]
    if not power(current) or power(response) <= power(current):
        return False
    if not theirs:
        return not mine
    return len(mine) == len(theirs) and mine[0] > theirs[0]


def qq_beats(response: Sequence[int], current: Sequence[int]) -> bool:
    """R5.2 as written: same size; ``2b + s`` big jokers against b R and s B (small jokers of
    the response do not count), and nothing beats two or more R; a higher rank when both plays
    have non-joker cards [decision, plays.py: a pure-joker response is higher than any rank]."""
    mine = [r for r in response if r <= TWO]
    theirs = [r for r in current if r <= TWO]
    needed = 2 * current.count(BIG) + current.count(SMALL)
    if len(response) != len(current) or response.count(BIG) < needed:
        return False
    if current.count(BIG) >= 2:  # 000: "2张大王没人能管"
        return False
    return not theirs or not mine or mine[0] > theirs[0]


def powers_beat(response: Sequence[int], current: Sequence[int], rules: Rules) -> bool:
    """R4, plus R5.1 with ``roast``; the R5.2 QQ rule instead with ``qq_jokers``; on powers."""
    if rules.qq_jokers:
        return qq_beats(response, current)
    return r4_beats(response, current) or (rules.roast and roast_beats(response, current))


def literal_beats_r4(response: Play, current: Play) -> bool:
    """R4 as written, between two plays."""
    return r4_beats(powers(response), powers(current))


def reference_beats(response: Play, current: Play, rules: Rules) -> bool:
    """:func:`powers_beat` between two plays; a response with filler 2s needs ``twos_wild``
    (R3)."""
    if response.twos and not rules.twos_wild:
        return False
    return powers_beat(powers(response), powers(current), rules)


def referee_beats(response: Sequence[Card], current: Sequence[Card], rules: Rules) -> bool:
    """:func:`powers_beat` between two sets of cards."""
    return powers_beat(set_ranks(response, rules), set_ranks(current, rules), rules)


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
        for rank in range(SMALL)  # every suited rank
        for k in range(1, counts[rank] + 1)
        for twos in range(fillers + 1 if rank != TWO else 1)
    ]
    found: set[Play] = set()
    for rank, k, twos in sets:
        for small in range(counts[SMALL] + 1):
            for big in range(counts[BIG] + 1):
                if k + small + big == 0:
                    continue
                play = Play.of(rank, k, small, big, twos)
                if current is not None and not reference_beats(play, current, rules):
                    continue
                if held(rank, rules) and play.size != len(hand):
                    continue  # R6.7 憋6, R6.8 清3
                found.add(play)
    return found
