"""Bots (机器人): given a seat's view and its legal actions, choose an action.

A bot sees only what its seat may know (R14): ``game.view(seat)`` and ``game.legal_actions()``,
never the :class:`~baohuang.game.Game` itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from .actions import Action
from .game import Game
from .scoring import GameResult


class Bot(Protocol):
    """Anything that picks one of the legal actions from a seat's view."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


def bot_step(game: Game, bot: Bot) -> Action:
    """Let ``bot`` act for the seat to act: show it that seat's view only, apply its choice."""
    seat = game.current_seat
    if seat is None:
        raise ValueError("the game is over: no seat to act")
    action = bot.choose(game.view(seat), game.legal_actions())
    game.apply(action)
    return action


def play_out(game: Game, bots: Sequence[Bot]) -> GameResult:
    """Run ``game`` to the end, seat ``s`` played by ``bots[s]``; the game's result."""
    if len(bots) != 5:
        raise ValueError(f"a game needs five bots, one per seat, not {len(bots)}")
    while (seat := game.current_seat) is not None:
        bot_step(game, bots[seat])
    assert game.result is not None
    return game.result
