"""The ``search`` bot (搜索机器人): information-set search by determinized playouts (PIMC).

Outside the play phase it answers as :class:`~baohuang.heuristic.HeuristicBot`. In play (R6),
with a real choice, it keeps a few candidate actions and scores each on *determinizations*:
hands for the other seats dealt at random from the unseen cards (the pack less the cards
played and its own hand, R7, R14), sized as the view's counts, the unrevealed guard drawn among
the seats that may be it (holding a copy of the rank that reveals it, R8.8, R9.4). Each
candidate is played out on the same deals by a fast rank-count simulator of R6 (:class:`Table`,
:func:`fast_play`), and scored with R10 for the bot's seat. The best mean replaces the
heuristic's choice only when ahead of it by ``margin`` points (measured better than always
taking the best mean). Suits are ignored: the playouts never reveal anyone.

Sampling stops after ``samples`` deals or when ``budget_s`` seconds are spent (at least one
deal is always played), so the bot is deterministic for a seed only when the budget does not
run out (``budget_s=None``: no time limit).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import PASS, Action
from .cards import BIG_JOKER, SMALL_JOKER, TWO
from .handsplit import CARD_RANK, held_ranks, is_control, rank_counts_of, unseen_counts
from .heuristic import HeuristicBot
from .movegen import plays_for
from .plays import Play
from .rules import Rules
from .scoring import score
from .state import SEATS

#: At most this many candidate actions are searched.
MAX_CANDIDATES = 8
#: A playout spends control (2s, jokers) only against an opponent with at most this many cards.
URGENT = 12


@dataclass(slots=True)
class Table:
    """A play-phase position on rank counts (R6): hands, the round in progress, the places."""

    hands: list[list[int]]
    turn: int
    lead: Play | None
    #: The seat that made the current play (meaningless while ``lead`` is None).
    last: int
    passes: int
    places: list[int]

    @property
    def over(self) -> bool:
        """R6.6: the game ends when one seat alone holds cards (every place is known)."""
        return len(self.places) == SEATS

    def _next_active(self, seat: int) -> int:
        """The next seat in play order that still holds cards."""
        for i in range(1, SEATS + 1):
            nxt = (seat + i) % SEATS
            if sum(self.hands[nxt]):
                return nxt
        raise AssertionError("no seat holds cards")

    def step(self, play: Play | None) -> None:
        """The seat to act plays ``play``, or passes (``None``)."""
        if play is None:
            self._pass()
            return
        seat, hand = self.turn, self.hands[self.turn]
        take(hand, play)
        self.lead, self.last, self.passes = play, seat, 0
        if not sum(hand):  # R6.4: out
            self.places.append(seat)
            if len(self.places) == SEATS - 1:
                self.places.append(next(s for s in range(SEATS) if s not in self.places))
                return
        self.turn = self._next_active(seat)

    def _pass(self) -> None:
        """R6.3: the round ends when every other holder passed; R6.5 接风 after going out."""
        self.passes += 1
        holding = SEATS - len(self.places)
        last_holds = bool(sum(self.hands[self.last]))
        if self.passes < holding - last_holds:
            self.turn = self._next_active(self.turn)
            return
        self.turn = self.last if last_holds else self._next_active(self.last)
        self.lead, self.passes = None, 0


def take(hand: list[int], play: Play) -> None:
    """Remove ``play``'s cards from the rank counts ``hand``."""
    if play.count:
        hand[play.rank] -= play.count
    hand[TWO] -= play.twos
    hand[SMALL_JOKER] -= play.small
    hand[BIG_JOKER] -= play.big


def fast_play(table: Table, rules: Rules, side: Sequence[int]) -> Play | None:
    """The playout policy for the seat to act: go out when one play does it; lead the lowest
    whole set (held ranks, R6.7/R6.8, last); pass on a partner; else beat with the lowest
    play without control, and with control only against an opponent near the end."""
    seat = table.turn
    hand = table.hands[seat]
    size = sum(hand)
    ranks = [r for r in range(SMALL_JOKER) if hand[r]]
    if table.lead is None:
        if len(ranks) <= 1:
            return Play.of(
                ranks[0] if ranks else -1,
                size - hand[SMALL_JOKER] - hand[BIG_JOKER],
                hand[SMALL_JOKER],
                hand[BIG_JOKER],
            )
        free = [r for r in ranks if r not in held_ranks(rules)]
        if free:
            return Play.of(free[0], hand[free[0]])
        return min(plays_for(hand, None, rules), key=lambda p: (p.size, p.jokers))
    plays = plays_for(hand, table.lead, rules)
    out = next((p for p in plays if p.size == size), None)
    if out is not None:
        return out
    if side[table.last] == side[seat] or not plays:
        return None
    plain = [p for p in plays if not is_control(p)]
    if plain:
        return min(plain, key=lambda p: (p.rank, p.size))
    if sum(table.hands[table.last]) <= URGENT:
        return min(plays, key=lambda p: (p.big, p.small, p.twos, p.rank))
    return None


def playout(table: Table, rules: Rules, side: Sequence[int]) -> list[int]:
    """Play ``table`` to the end with :func:`fast_play` for every seat; the places (R6.4)."""
    while not table.over:
        table.step(fast_play(table, rules, side))
    return table.places


def guard_options(view: dict[str, Any]) -> list[int | None]:
    """The seats that may be the guard as the view's seat knows it (``None``: no guard)."""
    if view["solo"] is not None:
        return [None]
    if view["guard"] is not None:
        return [view["guard"]]
    me, emperor, sizes = view["seat"], view["emperor"], view["counts"]
    seats = [s for s in range(SEATS) if s not in (me, emperor) and sizes[s]]
    return [*seats] or [None]


def reveal_rank(view: dict[str, Any], rules: Rules) -> int | None:
    """The rank of the card an unrevealed guard still holds: the called card (R8.8, R11) or
    B* (R9.4)."""
    if view["called"]:
        return CARD_RANK[view["called"]]
    return SMALL_JOKER if "B" in rules.marked else None


def sample_hands(
    view: dict[str, Any], rules: Rules, guard: int | None, rng: random.Random
) -> list[list[int]]:
    """Rank counts for every seat: the own hand, the unseen cards dealt at random to the others
    by their counts; an unrevealed ``guard`` gets a copy of :func:`reveal_rank` first."""
    me, sizes = view["seat"], view["counts"]
    mine = rank_counts_of(view["hand"])
    unseen = unseen_counts(view, mine, rules)
    hands = [[0] * len(mine) for _ in range(SEATS)]
    hands[me] = mine
    need = list(sizes)
    rank = reveal_rank(view, rules)
    if guard is not None and guard != me and rank is not None and unseen[rank] and need[guard]:
        unseen[rank] -= 1
        hands[guard][rank] += 1
        need[guard] -= 1
    pool = [r for r, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    at = 0
    for seat in range(SEATS):
        if seat != me:
            for r in pool[at : at + need[seat]]:
                hands[seat][r] += 1
            at += need[seat]
    return hands


def root_table(view: dict[str, Any], hands: list[list[int]]) -> Table:
    """The view's round as a :class:`Table` on ``hands``, the view's seat to act."""
    lead = view["lead"]
    passes = 0
    for entry in reversed(view["trick"]):
        if entry["action"] != "pass":
            break
        passes += 1
    return Table(
        hands=hands,
        turn=view["seat"],
        lead=Play.parse(lead["play"]) if lead else None,
        last=lead["seat"] if lead else view["seat"],
        passes=passes,
        places=list(view["places"]),
    )


def candidates(base: Action, legal: list[Action], hand: list[int]) -> list[Action]:
    """Every legal action when few; else the heuristic's, pass, the whole sets and the
    cheapest plays (no control first, then the lowest)."""
    if len(legal) <= MAX_CANDIDATES:
        return list(legal)
    plays = [a for a in legal if isinstance(a, Play)]
    whole = [p for p in plays if p.count and p.count == hand[p.rank] and not p.jokers]
    cheap = sorted(plays, key=lambda p: (is_control(p), p.jokers, p.rank, p.size))
    chosen = [base, *([PASS] if PASS in legal else []), *sorted(whole, key=lambda p: p.rank)[:3]]
    return list(dict.fromkeys([*chosen, *cheap]))[:MAX_CANDIDATES]


class SearchBot:
    """See the module docstring. One instance may play many games in a row (a match)."""

    def __init__(
        self,
        rules: Rules,
        seed: int | str = 0,
        samples: int = 16,
        budget_s: float | None = 0.04,
        margin: float = 1.0,
    ) -> None:
        self.rules = rules
        self.margin = margin
        self.samples = samples
        self.budget_s = budget_s
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(rules)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        base = self.heuristic.choose(view, legal)  # keeps its memory of the game current
        if view["phase"] != "play" or len(legal) <= 1:
            return base
        options = candidates(base, legal, rank_counts_of(view["hand"]))
        means = self._means(view, options)
        best = max(range(len(options)), key=lambda k: means[k])
        return options[best] if means[best] > means[options.index(base)] + self.margin else base

    def _means(self, view: dict[str, Any], options: list[Action]) -> list[float]:
        """Per option, its mean score over the determinizations."""
        deadline = None if self.budget_s is None else time.perf_counter() + self.budget_s
        totals = [0.0] * len(options)
        deals = 0
        guards = guard_options(view)
        for i in range(self.samples):
            if i and deadline is not None and time.perf_counter() > deadline:
                break
            guard = self.rng.choice(guards)
            hands = sample_hands(view, self.rules, guard, self.rng)
            deals += 1
            for k, option in enumerate(options):
                totals[k] += self._value(view, hands, guard, option)
        return [total / deals for total in totals]

    def _value(
        self, view: dict[str, Any], hands: list[list[int]], guard: int | None, option: Action
    ) -> int:
        """The view's seat's R10 score after ``option`` and a playout on ``hands``."""
        table = root_table(view, [list(h) for h in hands])
        table.step(option if isinstance(option, Play) else None)
        emperor, me = view["emperor"], int(view["seat"])
        side = [int(s in (emperor, guard)) for s in range(SEATS)]
        places = playout(table, self.rules, side)
        return score(
            self.rules,
            emperor=emperor,
            guard=guard,
            places=places,
            open_solo=view["solo"] == "open",
            rebellion=bool(view.get("rebellion")),
            open_guard=bool(view.get("open_guard")),
            kicked=bool(view.get("kicked")),
        )[me]
