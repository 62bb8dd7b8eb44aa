"""Bots: the small interface (a seat's view and legal actions in, an action out), RandomBot,
and play_out running games to the end (R6.6, R10, R14)."""

from __future__ import annotations

from typing import Any

import pytest

from baohuang import Action, Rules, new_game
from baohuang.bots import Bot, RandomBot, bot_step, play_out

CLASSIC = Rules.preset("classic")


class FirstBot:
    """Always the first legal action; records every view it is shown."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        self.views.append(view)
        return legal[0]


def random_bots(seed: str) -> list[Bot]:
    return [RandomBot(f"{seed}/{seat}") for seat in range(5)]


def test_play_out_finishes_with_scores_r6_6_r10() -> None:
    game = new_game(CLASSIC, "bots/1")
    result = play_out(game, random_bots("a"))
    assert game.is_over and game.result is result
    assert sorted(result.places) == [0, 1, 2, 3, 4]
    assert sum(result.scores) == 0  # R10.1 is zero-sum


def test_same_seeds_same_game() -> None:
    first, second = new_game(CLASSIC, "bots/2"), new_game(CLASSIC, "bots/2")
    play_out(first, random_bots("b"))
    play_out(second, random_bots("b"))
    assert [str(a) for _, a in first.actions] == [str(a) for _, a in second.actions]
    assert first.result == second.result
    other = new_game(CLASSIC, "bots/2")
    play_out(other, random_bots("c"))
    assert [str(a) for _, a in other.actions] != [str(a) for _, a in first.actions]


def test_random_bot_chooses_uniformly_among_legal() -> None:
    bot = RandomBot(9)
    legal: list[Action] = list(new_game(CLASSIC, "bots/3").legal_actions())
    picks = [bot.choose({}, legal) for _ in range(200)]
    assert set(picks) <= set(legal)
    assert len(set(picks)) == len(legal)


def test_bots_see_only_their_seats_view_r14() -> None:
    bots = [FirstBot() for _ in range(5)]
    game = new_game(CLASSIC, "bots/4")
    play_out(game, bots)
    assert game.is_over
    for seat, bot in enumerate(bots):
        for view in bot.views:
            assert view["seat"] == seat and view["turn"] == seat
            assert view["legal"]  # the view of the seat to act lists its legal actions
            assert set(view) >= {"hand", "counts", "role", "called", "lead"}
    assert sum(len(bot.views) for bot in bots) == len(game.actions)


def test_bot_step_applies_the_choice() -> None:
    game = new_game(CLASSIC, "bots/5")
    seat = game.current_seat
    action = bot_step(game, FirstBot())
    assert game.actions[-1] == (seat, action)


def test_play_out_needs_five_bots_and_a_live_game() -> None:
    game = new_game(CLASSIC, "bots/6")
    with pytest.raises(ValueError, match="five bots"):
        play_out(game, random_bots("d")[:4])
    play_out(game, random_bots("d"))
    with pytest.raises(ValueError, match="the game is over"):
        bot_step(game, RandomBot())
