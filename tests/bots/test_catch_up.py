"""托管 mid-game (#48 item 5): a bot that takes a seat mid-game reads the seat's turns so far
(:func:`~baohuang.bots.base.catch_up`) and keeps what the bot that played from the start kept."""

from __future__ import annotations

import pytest

from baohuang.bots.base import catch_up
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.search import SearchBot, SearchSettings
from baohuang.engine.game import new_game
from baohuang.engine.record import history
from baohuang.engine.rules import Rules


@pytest.mark.parametrize(("preset", "stop"), [("classic", 120), ("weihai", 90), ("qq", 60)])
def test_a_bot_caught_up_mid_game_keeps_what_one_that_played_from_the_start_kept(
    preset: str, stop: int
) -> None:
    """Five heuristic seats play ``stop`` actions; a fresh heuristic and a fresh reading search
    bot shown seat 2's history hold the same guard suspicion, the same log of the play, and
    choose as the heuristic that played from the start."""
    rules = Rules.preset(preset)
    game = new_game(rules, f"catch-up/{preset}")
    players = [HeuristicBot(rules) for _ in range(5)]
    reader = SearchBot(
        rules, "r", SearchSettings(read=2)
    )  # shadows seat 2 from the start, choosing nothing
    while len(game.actions) < stop or game.current_seat != 2:
        seat = game.current_seat
        assert seat is not None, "the game ended before seat 2's turn"
        view = game.view(seat)
        action = players[seat].choose(view, game.legal_actions())
        if seat == 2:
            reader.observe(view, action)
        game.apply(action)
    assert game.phase == "play"
    fresh, late = HeuristicBot(rules), SearchBot(rules, "r", SearchSettings(read=2))
    catch_up(fresh, history(game), 2)
    catch_up(late, history(game), 2)
    assert fresh.memory == players[2].memory
    assert late.memory == reader.memory
    assert late.reader is not None and reader.reader is not None
    assert late.reader.log.actions == reader.reader.log.actions
    assert any(play is not None for _, play in late.reader.log.actions)
    view, legal = game.view(2), game.legal_actions()
    assert fresh.choose(view, legal) == players[2].choose(view, legal)


def test_nothing_to_catch_up_before_the_first_action() -> None:
    rules = Rules.preset("classic")
    bot = HeuristicBot(rules)
    catch_up(bot, history(new_game(rules, "empty")), 0)
    assert bot.memory == HeuristicBot(rules).memory
