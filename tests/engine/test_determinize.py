"""Determinizations (engine/determinize.py): a game built from a seat's role-phase view and the
true hands shows that seat the view it had (R14), in every preset and role phase."""

from __future__ import annotations

import pytest

from baohuang import Rules, new_game
from baohuang.bots.heuristic import HeuristicBot
from baohuang.engine.determinize import ROLE_PHASES, determinize
from baohuang.engine.game import Game
from baohuang.engine.state import SEATS
from baohuang.engine.views import View

NAMES = ("classic", "weihai", "kk_simple", "kk_classic", "qq")


def same_view(built: View, real: View) -> None:
    """Everything but the event count (a determinization has no event log)."""
    for name in View.__slots__:
        if name != "seq":
            assert getattr(built, name) == getattr(real, name), name


def replay_poll(built: Game, real: Game, seat: int) -> None:
    """Answer the poll in ``built`` (asked again from its first seat) as the seats asked before
    ``seat`` answered in ``real``."""
    asked = len(built.poll_queue) - len(real.poll_queue)
    for mover, answer in real.actions[len(real.actions) - asked :] if asked else ():
        assert built.current_seat == mover
        built.apply(answer)
    assert built.current_seat == seat


@pytest.mark.parametrize("name", NAMES)
def test_r14_a_determinization_on_the_true_hands_shows_the_same_view(name: str) -> None:
    rules = Rules.preset(name)
    checked = set()
    for deal in range(12):
        game = new_game(rules, f"determinize/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        while (seat := game.current_seat) is not None and game.phase in ROLE_PHASES:
            view = game.view(seat)
            hands = [game.hand(s) for s in range(SEATS)]
            built = determinize(view, rules, hands, first=game.c0, turns=game.cand_turn)
            if view.poll is not None:
                replay_poll(built, game, seat)
            same_view(built.view(seat), view)
            assert built.guard == game.guard or not game.teams_set
            checked.add(view.poll or view.phase)
            game.apply(bots[seat].choose(view, game.legal_actions()))
    assert {"candidate"} <= checked
    assert len(checked) >= 2


def test_r14_a_determinization_refuses_hands_that_do_not_fit_the_view() -> None:
    rules = Rules.preset("classic")
    game = new_game(rules, "refuse")
    view = game.view(game.current_seat)
    hands = [game.hand(s) for s in range(SEATS)]
    with pytest.raises(ValueError, match="sizes"):
        determinize(view, rules, [hands[0][1:], *hands[1:]], first=0)
    swapped = [hands[1], hands[0], *hands[2:]] if view.seat == 0 else hands[::-1]
    if [len(h) for h in swapped] == list(view.counts):
        with pytest.raises(ValueError, match="other cards"):
            determinize(view, rules, swapped, first=0)
    with pytest.raises(ValueError, match="role-phase"):
        determinize(game.view(None), rules, hands, first=0)
