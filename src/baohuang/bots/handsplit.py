"""Hands for the bots, on rank counts: reading a view, the card counter (记牌器), which plays
the unseen cards may still beat, and how a hand can go out.

A hand's minimal split into plays is one play per rank held, the jokers hung on any of them
(R3), so the skill is in the order: the *losers* (plays the unseen cards can still beat) go
out while the lead can be won back, the *winners* (nothing unseen beats them) win it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from ..engine.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, Card, deck
from ..engine.movegen import can_beat, following_plays
from ..engine.plays import SIX, THREE, Play
from ..engine.rules import Rules
from ..engine.views import View


def rank_counts_of(cards: Iterable[Card]) -> list[int]:
    """Rank counts (15 numbers, jokers last; marked jokers count as plain ones)."""
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return counts


def cards_of(play: Play) -> list[int]:
    """A play's cards as rank counts."""
    counts = [0] * NUM_RANKS
    if play.count:
        counts[play.rank] += play.count
    counts[TWO] += play.twos
    counts[SMALL_JOKER] += play.small
    counts[BIG_JOKER] += play.big
    return counts


@cache
def pack_counts(rules: Rules) -> tuple[int, ...]:
    """Rank counts of the whole pack under ``rules`` (R7), the emperor card included."""
    counts = [0] * NUM_RANKS
    for card in deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes):
        counts[card.rank] += 1
    return tuple(counts)


def unseen_counts(view: View, mine: Sequence[int], rules: Rules) -> list[int]:
    """记牌器: rank counts of the cards in the other hands (the pack less played and own)."""
    played = view.played
    pack = pack_counts(rules)
    return [max(0, pack[r] - played[r] - mine[r]) for r in range(NUM_RANKS)]


def reveal_rank(called: Card | None, rules: Rules) -> int | None:
    """The rank of the card an unrevealed guard still holds: the ``called`` card (R8.8, R11)
    or B* (R9.4)."""
    if called is not None:
        return called.rank
    return SMALL_JOKER if "B" in rules.marked else None


@cache
def held_ranks(rules: Rules) -> frozenset[int]:
    """Ranks whose plays must empty the hand: 6s (R6.7 憋6), 3s (R6.8 清3)."""
    return frozenset(
        rank for rank, on in ((SIX, rules.hold_sixes), (THREE, rules.hold_threes)) if on
    )


def is_control(play: Play) -> bool:
    """Whether a play spends control cards: 2s (filling or not) or jokers."""
    return bool(play.jokers or play.twos or play.rank == TWO)  # rank is -1 without a set


@dataclass(slots=True)
class CardCounter:
    """记牌器 for one decision: the unseen cards, as if one other hand could hold them all, up
    to the size of the largest other hand."""

    #: Rank counts of the unseen cards, each capped at ``cap``.
    pool: list[int]
    #: The most cards any single other seat holds: no answer can be bigger.
    cap: int
    rules: Rules

    def __post_init__(self) -> None:
        cap = self.cap
        self.pool = [n if n < cap else cap for n in self.pool]

    def beatable(self, play: Play) -> bool:
        """Whether some hand of unseen cards could still beat ``play`` (R4, R5)."""
        if self.rules.roast and play.jokers:  # R5.1 烤牌: answers of other sizes
            return any(p.size <= self.cap for p in following_plays(self.pool, play, self.rules))
        return play.size <= self.cap and can_beat(self.pool, play, self.rules)

    def beatable_set(self, rank: int, count: int) -> bool:
        """:meth:`beatable` for ``count`` cards of ``rank`` without jokers."""
        return self.beatable(Play.of(rank, count))


def finishing_lead(
    counts: Sequence[int], counter: CardCounter, held: frozenset[int]
) -> Play | None:
    """The lead that starts going out, when every play but the last is a winner; else None.

    Winners are plays nothing unseen beats; a loser can be made one by hanging the cheapest
    joker that does it. The last play may lose (the hand is empty by then); a held rank (R6.7,
    R6.8) must be that last play. Winners go first, the jokers hung on losers next.
    """
    ranks = [r for r in range(SMALL_JOKER) if counts[r]]
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    last_held = [r for r in ranks if r in held]
    if len(last_held) > 1 or not ranks:
        return None
    # each joker covers one loser at most: past this many the hand cannot go out so
    most = small + big + 1 - len(last_held)
    winners: list[Play] = []
    losers: list[int] = []
    for rank in ranks:
        if rank not in held:
            if counter.beatable_set(rank, counts[rank]):
                losers.append(rank)
                if len(losers) > most:
                    return None
            else:
                winners.append(Play.of(rank, counts[rank]))
    covered: list[Play] = []
    for rank in losers:
        for s, b in ((1, 0), (0, 1)):
            if s <= small and b <= big:
                hung = Play.of(rank, counts[rank], s, b)
                if not counter.beatable(hung):
                    covered.append(hung)
                    small, big = small - s, big - b
                    break
    if len(losers) - len(covered) + len(last_held) > 1:
        return None
    return next(iter(winners + covered), None)


def beyond_finishing(counts: Sequence[int], counter: CardCounter, held: frozenset[int]) -> bool:
    """Whether no single play can leave a hand that :func:`finishing_lead` takes out: more
    losing ranks than the jokers could cover, even setting aside the two ranks a play may
    change (its own and the filler 2s)."""
    most = counts[SMALL_JOKER] + counts[BIG_JOKER] + 3
    losers = 0
    for rank in range(SMALL_JOKER):
        if counts[rank] and rank not in held and counter.beatable_set(rank, counts[rank]):
            losers += 1
            if losers > most:
                return True
    return False


def strength_features(counts: Sequence[int], rules: Rules) -> tuple[float, ...]:
    """What makes a hand strong, as differences from an average hand of the pack (R7): big
    jokers, small jokers, 2s, ranks held (plays needed), cards, cards of held ranks (R6.7,
    R6.8)."""
    pack = pack_counts(rules)
    held = held_ranks(rules)
    ranks = sum(1 for r in range(SMALL_JOKER) if counts[r])
    return (
        counts[BIG_JOKER] - pack[BIG_JOKER] / 5,
        counts[SMALL_JOKER] - pack[SMALL_JOKER] / 5,
        counts[TWO] - pack[TWO] / 5,
        ranks - sum(1 for n in pack[:SMALL_JOKER] if n),
        sum(counts) - sum(pack) / 5,
        sum(counts[r] - pack[r] / 5 for r in held),
    )
