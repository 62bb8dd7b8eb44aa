"""Seeded random policies: what a seat plays, chosen so that games reach every branch."""

from __future__ import annotations

import random
from collections.abc import Callable

from baohuang import DECLINE, PASS, Action, Call, Game, PlayCards
from helpers.cards import B_STAR

Policy = Callable[[Game, random.Random], Action]


def random_policy(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(game.legal_actions())


def preferring(wanted: Callable[[Game, Action], bool]) -> Policy:
    """A random policy that picks a ``wanted`` action whenever one is legal."""

    def policy(game: Game, rng: random.Random) -> Action:
        legal = game.legal_actions()
        return rng.choice([a for a in legal if wanted(game, a)] or legal)

    return policy


def wants(*choices: tuple[str, Action]) -> Callable[[Game, Action], bool]:
    """For :func:`preferring`: each (where, action) pair wants ``action`` in the poll or phase
    named ``where`` (``"solo"``, ``"guard"``, ``"kick"``, ``"grab"``, ``"candidate"``, …)."""
    return lambda game, action: (game.poll or game.phase, action) in choices


def sparing(declare: float) -> Policy:
    """Random, but in a poll it declares (明独, 造反, 明保, 踢, 抢独) only with probability
    ``declare``, so that games reach every branch of the role phases."""

    def policy(game: Game, rng: random.Random) -> Action:
        legal = game.legal_actions()
        if game.phase == "poll" and PASS in legal and rng.random() >= declare:
            return PASS
        return rng.choice(legal)

    return policy


def leading_b_star(base: Policy) -> Policy:
    """``base``, except that a seat leading a round with B* in hand plays it alone (R9.4)."""

    def policy(game: Game, rng: random.Random) -> Action:
        seat, legal = game.current_seat, game.legal_actions()
        leading = game.phase == "play" and PASS not in legal
        if leading and seat is not None and B_STAR in game.hand(seat):
            return PlayCards((B_STAR,))
        return base(game, rng)

    return policy


#: Policies that, cycled over seeds, reach open solos, chains, rebellions, 明保 and 踢 alike.
VARIED = (random_policy, sparing(0.15), leading_b_star(sparing(0.5)))


def varied(seed: int) -> Policy:
    """The policy of :data:`VARIED` for ``seed``."""
    return VARIED[seed % len(VARIED)]


#: Declines whenever it may in the first deal (declining always would void deals forever, R8.6).
FIRST_DEAL_DECLINER = preferring(lambda g, a: a == DECLINE and g.deal_no == 0)


def is_dark_solo_call(game: Game, action: Action) -> bool:
    """A call of a card the caller holds all four copies of (暗独, R8.7; 暗独保, R11.3)."""
    seat = game.current_seat
    return isinstance(action, Call) and seat is not None and game.hand(seat).count(action.card) == 4
