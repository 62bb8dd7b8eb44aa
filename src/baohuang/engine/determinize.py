"""Determinizations: a game at a seat's role-phase decision with the hidden hands laid out, for
search (R14: the seat knows its own hand and the public state; the rest is given).

:func:`determinize` builds a :class:`~baohuang.engine.game.Game` in the candidate, call or
poll phase (R8, R9, R11) that shows the seat the view it has, with ``hands`` as every seat's
cards. What a view does not show is given too: the candidate chain's first seat and the turns
taken so far (R8.5, R9.3, R11.2). A poll starts again from its first seat: the seats asked
before the view's seat answer again (a search replays them, passing where their answer was a
pass); in a sealed poll (明保, 造反, R14) the view shows no answer of another seat, and nobody has
answered yet. The guard follows from the hands (R8.7: the other holder of the called card; R9.4:
``B*``'s holder).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import B_MARKED, NUM_RANKS, Card
from .game import Game
from .rules import Rules
from .state import SEATS
from .views import View

#: The phases a determinization may start in.
ROLE_PHASES = ("candidate", "call", "poll")


def determinize(
    view: View, rules: Rules, hands: Sequence[Sequence[Card]], *, first: int, turns: int = 0
) -> Game:
    """A game at ``view``'s role-phase decision with ``hands`` laid out (module docstring):
    ``first`` is the chain's first candidate (R9: the ``R*`` holder), ``turns`` the candidate
    turns taken. Raises :class:`ValueError` when ``hands`` do not fit the view (sizes, own
    hand)."""
    me = view.seat
    if me is None or view.phase not in ROLE_PHASES:
        raise ValueError(f"not a seat's role-phase view: phase {view.phase}")
    if [len(h) for h in hands] != list(view.counts):
        raise ValueError("the hands do not have the view's sizes")
    if sorted(hands[me]) != sorted(view.hand or ()):
        raise ValueError("the view's seat holds other cards")
    game = Game.__new__(Game)
    game.rules, game.marked, game.seed = rules, rules.marked, f"determinized:{view.deal}"
    game.previous, game.given, game.dealt = None, None, []
    game.deal_no, game.dealer = view.deal, first
    game.lay_out(hands)
    game.played = [0] * NUM_RANKS
    game.events, game.actions, game.tribute_due, game.tribute_paid = [], [], [], []
    game.c0, game.cand_turn, game.forced = first, turns, False
    game.pile = list(view.pile)
    game.emperor = view.emperor
    game.called = view.called
    game.open_solo = view.solo == "open"
    game.guard = _guard(game, view)
    game.teams_set = view.emperor is not None and view.phase == "poll"
    game.reveal_card = None
    if game.teams_set and not game.open_solo:
        game.reveal_card = game.called or B_MARKED
    game.guard_revealed = view.guard_revealed
    game.solo_revealed = view.rebellion and game.guard is None  # R9.5
    game.open_guard, game.rebellion, game.kicked = view.open_guard, view.rebellion, view.kicked
    game.lead, game.last_player, game.passes = None, -1, 0
    game.trick, game.places, game.clear_watch, game.cleared = [], [], None, []
    game.escaped, game.result, game._legal, game._texts = None, None, None, None
    game.phase, game.poll, game.poll_queue, game.poll_yes = view.phase, None, [], []
    game.poll_sealed = []
    game.current_seat = view.turn
    if view.poll is not None:
        game.poll = view.poll
        game.poll_queue = game._poll_seats(view.poll)
        game.current_seat = game.poll_queue[0]
    return game


def _guard(game: Game, view: View) -> int | None:
    """The guard the hands make once the roles are settled (R8.7, R9.4, R11.3)."""
    emperor = view.emperor
    if emperor is None or game.open_solo or view.phase != "poll":
        return None
    card = game.called or B_MARKED
    holders = [s for s in range(SEATS) if s != emperor and game.cards[s][card.id]]
    return holders[0] if holders else None
