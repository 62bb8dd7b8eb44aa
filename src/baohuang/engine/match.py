"""A match (一场): games chained with tribute between them (R12), scores totalled."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .game import Game, new_game
from .rules import Rules
from .scoring import GameResult


def game_seed(match_seed: int | str, index: int) -> str:
    """The seed of game ``index`` (from 0) of a match."""
    return f"{match_seed}/{index}"


class Match:
    """``games`` games under ``rules``; each game's tribute comes from the one before.

    Game ``i`` is dealt from ``seeds(i)``: by default :func:`game_seed` of ``seed``, which
    anyone who knows one game's seed can extend to the next; a server passes seeds that no
    published game reveals (:mod:`baohuang.server.table.actor`).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        games: int = 1,
        seed: int | str = 0,
        seeds: Callable[[int], str] | None = None,
        results: Sequence[GameResult] = (),
    ) -> None:
        """``results``: the games already played (a match resumed at its next game)."""
        if games < 1:
            raise ValueError(f"a match has at least one game, not {games}")
        self.rules = rules or Rules()
        self.games = games
        self.seed = seed
        self.seeds = seeds or (lambda index: game_seed(seed, index))
        self.results: list[GameResult] = list(results)
        previous = self.results[-1] if self.results else None
        self.game: Game = new_game(self.rules, self.seeds(self.index), previous)

    @property
    def index(self) -> int:
        """The number of the current game, from 0."""
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return len(self.results) == self.games

    @property
    def totals(self) -> list[int]:
        """Points per seat over the finished games."""
        return [sum(r.scores[s] for r in self.results) for s in range(5)]

    def next_game(self) -> Game | None:
        """Record the finished current game and start the next; ``None`` when the match is over."""
        result = self.game.result
        if result is None:
            raise ValueError("the current game is not over yet")
        if not self.results or self.results[-1] is not result:
            self.results.append(result)
        if self.is_over:
            return None
        self.game = new_game(self.rules, self.seeds(self.index), self.game.result)
        return self.game
