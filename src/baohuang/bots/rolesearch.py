"""Role-phase search for the ``search`` bot: the answers before the first play (R8, R9, R11 —
accept or decline the emperor card, which triple to call, 明独 / 独保 / 暗独, 转让, 抢独, 明保,
造反, 踢) scored on determinizations.

A determinization (:func:`sample_cards`) deals the cards the seat has not seen (the pack less
its hand and the public pile, R7) to the others by their counts, with the chain's first
candidate and turns where the view does not show them. For each answer the game is built at the
decision (:func:`~baohuang.engine.determinize.determinize`), the answer is made, the rest of the
role phase is answered by the heuristic for every seat (:func:`settle`; a seat asked before
this one in a poll passes again, except in 造反 whose answers are not shown), the play phase
is played out by the heuristic's policy (:mod:`baohuang.bots.playout`) and scored with R10 for
the seat (:func:`settled_value`; a void deal scores 0).

A declaration reads as what it says: once another seat has declared an open solo (明独, 明独保,
抢独), its hand is dealt as one the heuristic would have declared with (:func:`declared`; up to
:data:`DECLARED_TRIES` deals drawn), not as any hand.
Dealing the declarer a random hand had the rebels kick (踢) nearly every open solo, most of
which then won (bench/partnership.md).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from ..engine.actions import PASS, Action, Call, OpenSolo
from ..engine.cards import B_MARKED, R_CARD, R_MARKED, Card, deck
from ..engine.determinize import ROLE_PHASES
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.scoring import score
from ..engine.state import SEATS
from ..engine.views import View
from .handsplit import rank_counts_of
from .heuristic import HeuristicBot, strength
from .playout import Policy, game_position

#: Deals drawn at most for one determinization until an open solo's declarer holds a hand
#: the heuristic would have declared with.
DECLARED_TRIES = 200

#: A determinization of a role-phase view: the hands, the chain's first seat and its turns.
CardDeal = tuple[list[list[Card]], int, int]


@cache
def pack(rules: Rules) -> tuple[Card, ...]:
    """Every card of ``rules``' pack (R7), the emperor card set aside included."""
    return tuple(deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes))


def chain_turns(view: View, rules: Rules, asked: int, rng: random.Random) -> int:
    """The candidate turns taken before this one (R8.5, R8.9, R9.3, R11.2), from the pile where
    it tells (each decliner adds a card), else drawn; ``asked`` counts the seat's earlier turns
    as candidate in this deal (a second lap)."""
    added = len(view.pile) - (0 if rules.qq_chain else 1)
    if rules.selection == "fixed":
        return max(0, added)  # R9.3: the first yielder adds nothing, each later one a card
    if asked:
        return SEATS  # R8.6, R11.2: asked again after a lap (the called chain's c0 once more)
    if rules.qq_chain:
        return added  # R8.9: every decliner adds a card
    if rules.selection == "called":
        return added + 1 if added else rng.randrange(2)  # R8.5: c0's first decline adds none
    return rng.randrange(SEATS)  # R11.2: a yield adds nothing


def shown_cards(view: View, rules: Rules) -> list[tuple[int, Card]]:
    """Cards the public knows a seat holds: the emperor's called triple (R8.7, R11.3) and the
    emperor card it took (R8.3, R9.3, R11.2), the revealed guard's copy of the called card or
    ``B*`` (转让, 明保, 造反: R9.3–R9.5)."""
    emperor, guard = view.emperor, view.guard
    called = view.called
    shown: list[tuple[int, Card]] = []
    if emperor is not None and view.phase != "candidate":
        if called is not None:
            shown += [(emperor, called)] * 3
        if rules.emperor_card_aside or rules.marked:
            shown.append((emperor, R_MARKED if rules.marked else R_CARD))
    if guard is not None and view.guard_revealed:
        shown.append((guard, called or B_MARKED))
    return shown


def sample_cards(view: View, rules: Rules, asked: int, rng: random.Random) -> CardDeal:
    """A determinization of ``view`` in a role phase (module docstring)."""
    me = view.seat
    assert me is not None and view.hand is not None, "a seat's view"
    mine = list(view.hand)
    unseen = Counter(pack(rules))
    unseen.subtract(mine)
    unseen.subtract(view.pile)
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    hands[me] = mine
    need = list(view.counts)
    need[me] = 0
    for seat, card in shown_cards(view, rules):
        if seat != me and unseen[card] > 0:
            unseen[card] -= 1
            hands[seat].append(card)
            need[seat] -= 1
    pool = list(unseen.elements())
    known = [list(hand) for hand in hands]
    declarer = view.emperor if view.solo == "open" and view.emperor != me else None
    for _ in range(DECLARED_TRIES if declarer is not None else 1):
        rng.shuffle(pool)
        at = 0
        for seat in range(SEATS):
            hands[seat] = known[seat] + pool[at : at + need[seat]]
            at += need[seat]
        if declarer is None or declared(hands[declarer], rules):
            break
    if view.phase == "poll" and view.poll == "solo":  # R9.2: asked from the R* holder
        first = next(s for s in range(SEATS) if R_MARKED in hands[s])
        return hands, first, 0
    turns = chain_turns(view, rules, asked, rng) if view.phase == "candidate" else 0
    return hands, (me + turns) % SEATS, turns


def declared(hand: Sequence[Card], rules: Rules) -> bool:
    """Whether the heuristic would declare an open solo holding ``hand``: at the call in the
    classic family (明独 showing four, R8.7), in a poll or as the candidate in the fixed-guard
    family (明独, 独保, R9.2, R9.3)."""
    return strength(rank_counts_of(hand), rules) >= _solo_need(rules)


@cache
def _solo_need(rules: Rules) -> float:
    """The heuristic's strength for an open solo under ``rules`` (see :func:`declared`)."""
    at_call = rules.emperor_card_aside or rules.qq_chain
    return HeuristicBot(rules)._solo_at(call=at_call)


def settle(game: Game, me: int, answer: Action, bot: HeuristicBot) -> bool:
    """Make ``answer`` for ``me`` at its turn and the rest of the role phase by ``bot`` (seats
    asked before ``me`` in a poll pass, but in 造反); whether the play phase began (not a void
    deal)."""
    deal, poll, pending = game.deal_no, game.poll, True
    while game.phase in ROLE_PHASES:
        seat = game.current_seat
        assert seat is not None
        if pending and seat == me:
            action, pending = answer, False
        else:
            legal = game.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif pending and game.poll == poll and poll != "rebel" and PASS in legal:
                action = PASS  # its answer was a pass, or this seat would not be asked
            else:
                action = bot.choose(game.view(seat), legal)
        game.apply(action)
        if game.deal_no != deal:
            return False
    return game.phase == "play"


def settled_value(game: Game, me: int, policy: Policy) -> int:
    """``me``'s R10 points after the heuristic's policy plays ``game`` out from its first lead."""
    emperor = game.emperor
    assert emperor is not None and game.phase == "play"
    position = game_position(game)
    places = policy.playout(position)
    return score(
        game.rules,
        emperor=emperor,
        guard=game.guard,
        places=places,
        open_solo=game.open_solo,
        rebellion=game.rebellion,
        open_guard=game.open_guard,
        kicked=game.kicked,
    )[me]


def role_answers(base: Action, legal: Sequence[Action], hand: Sequence[Card]) -> list[Action]:
    """The answers worth scoring, the heuristic's first: every answer but calls, and of the
    calls the lowest of each kind (a dark one, holding all four, and a plain one)."""
    held = Counter(hand)
    answers: list[Action] = [base]
    kinds: set[tuple[type, bool]] = set()
    for action in legal:
        if isinstance(action, Call | OpenSolo) and action.card is not None:
            kind = (type(action), held[action.card] >= 4)
            if kind in kinds:
                continue
            kinds.add(kind)
        answers.append(action)
    return list(dict.fromkeys(answers))
