"""Docs/rules.md's deal restated: the pack (R2, R7), who deals (R8.1, R9.1), who may become or
yield the emperor (R8.4–R8.5, R8.9, R9.3, R11.2, R11.4), and tribute (R6.8, R12)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from baohuang import Card, GameResult, Rules
from baohuang.engine.cards import CARDS
from helpers.cards import B_STAR, R_STAR, RANKS, SEATS, TWO, B, R
from helpers.scoring import expected_tribute_side


def full_pack(rules: Rules) -> dict[Card, int]:
    """R2, R7: four copies of each joker and of every suited card from ``ranks_from`` up;
    R9.1/R11.1 mark one R as R* (and R9 one B as B*); weihai drops three 6s (the 6s card).
    The emperor card set aside (R8.1) is part of the pack."""
    lowest = RANKS.index(rules.ranks_from)
    pack = Counter({card: 4 for card in CARDS[:54] if card.is_joker or card.rank >= lowest})
    marked = {"called": [], "fixed": [(R, R_STAR), (B, B_STAR)], "kk_classic": [(R, R_STAR)]}
    for plain, mark in marked[rules.selection]:
        pack[plain] -= 1
        pack[mark] = 1
    pack[Card.parse("6s")] -= rules.removed_sixes
    return dict(+pack)


def deal_sizes(cards: int, first: int) -> list[int]:
    """R8.1, R9.1: ``cards`` dealt one by one in play order starting at seat ``first``."""
    return [cards // SEATS + ((seat - first) % SEATS < cards % SEATS) for seat in range(SEATS)]


def expected_dealer(previous: GameResult | None) -> int:
    """R9.1: seat 0 deals the first game, the previous game's emperor the later ones."""
    return previous.emperor if previous is not None and previous.emperor is not None else 0


def has_callable_triple(hand: Counter[Card]) -> bool:
    """R8.4: three or more copies of one suited card whose rank is not 2 (nor a joker)."""
    return any(n >= 3 and card.rank < TWO for card, n in hand.items())


def can_grab(hand: Counter[Card]) -> bool:
    """R11.4 抢独: three or more jokers and four copies of one suited card."""
    jokers = sum(n for card, n in hand.items() if card.is_joker)
    return jokers >= 3 and any(n >= 4 for card, n in hand.items() if not card.is_joker)


def yield_choices(rules: Rules, turn: int, hand: Counter[Card]) -> set[Card] | None:
    """The cards a yielder may add to the pile (``None``: it adds nothing).

    R8.5: every decliner but c0's first turn adds a 2 if it has one. R8.9 (QQ): the starter
    adds its biggest card (R, else B, else a 2), every later decliner a 2, else B, else R. R9.3:
    the first yielder hands only R*, each later one a 2, or else its highest non-joker card.
    R11.2: no cards.
    """
    twos = {c for c in hand if c.rank == TWO}
    if rules.qq_chain:
        order = [{R}, {B}, twos] if turn == 0 else [twos, {B}, {R}]
        return next((found for cards in order if (found := {c for c in cards if hand[c]})), None)
    if rules.selection == "called":
        return (twos or None) if 0 < turn < SEATS else None
    if rules.selection == "kk_classic" or turn == 0:
        return None
    suited = [c for c in hand if not c.is_joker]
    if twos or not suited:
        return twos or None
    top = max(c.rank for c in suited)
    return {c for c in suited if c.rank == top}


def expected_payers(rules: Rules, result: GameResult | None) -> Counter[int]:
    """R12: how many cards each seat of the paying side pays (明独 doubles; a draw, 平贡 or an
    escape: none)."""
    if result is None or result.outcome == "escape":
        return Counter()
    side = expected_tribute_side(rules, result)
    if side == "draw":
        return Counter()
    emperor, guard = result.emperor, result.guard
    rebels = [s for s in range(SEATS) if s not in (emperor, guard)]
    per = 2 if result.open_solo else 1
    if side == "emperor":
        return Counter({s: per for s in rebels})
    assert emperor is not None
    if guard is None:
        return Counter({emperor: 4 * per})
    return Counter({emperor: 2, guard: 1})


def expected_due(rules: Rules, previous: GameResult | None) -> Counter[tuple[int, int | None]]:
    """R12 payers (receiver None: R12 hands the card out) and R6.8's 清3 cards to the clearer.

    Nothing is owed after an escape (R10.4: the game is unscored for the others).
    """
    if previous is None or previous.outcome == "escape":
        return Counter()
    due: Counter[tuple[int, int | None]] = Counter()
    if rules.tribute:
        for seat, n in expected_payers(rules, previous).items():
            due[(seat, None)] += n
    for cleared, clearer in previous.cleared:
        due[(cleared, clearer)] += 1
    return due


def check_receivers(
    rules: Rules, result: GameResult, transfers: Sequence[tuple[int, int, Card]]
) -> None:
    """R12: who takes which paid card."""
    emperor, guard = result.emperor, result.guard
    got: dict[int, list[int]] = {}
    for _, to, card in transfers:
        got.setdefault(to, []).append(card.rank)
    if expected_tribute_side(rules, result) == "emperor":
        assert set(got) <= {emperor, guard}
        if guard is not None:  # the guard takes the middle card of three
            ranks = sorted(card.rank for _, _, card in transfers)
            assert got[guard] == [ranks[1]] and len(got[emperor]) == 2
        return
    rebels = [s for s in result.places if s not in (emperor, guard)]
    assert sorted(got) == sorted(rebels)
    assert all(len(got[s]) == len(transfers) // len(rebels) for s in rebels)
    for better, worse in pairwise(rebels):  # better finishers take higher cards
        assert min(got[better]) >= max(got[worse])
