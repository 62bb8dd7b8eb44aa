"""Drivers that play seeded games and matches, and find the first seed showing a situation."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from baohuang import Game, Match, Rules, new_game
from helpers.policies import Policy, random_policy
from helpers.referee import Referee
from helpers.rulesets import CLASSIC


def play(
    game: Game,
    rng: random.Random,
    policy: Policy = random_policy,
    after: Callable[[Game], None] | None = None,
    until: Callable[[Game], bool] | None = None,
) -> Game:
    """Apply ``policy`` until the game is over or ``until`` holds; ``after`` runs after each."""
    while not game.is_over and not (until and until(game)):
        game.apply(policy(game, rng))
        if after:
            after(game)
    return game


def random_game(
    seed: int | str,
    policy: Policy = random_policy,
    after: Callable[[Game], None] | None = None,
    rules: Rules = CLASSIC,
) -> Game:
    """A whole game dealt from ``seed`` and played by ``policy`` seeded with ``seed`` too."""
    game = new_game(rules, seed=seed)
    if after:
        after(game)
    return play(game, random.Random(seed), policy, after)


def find_game(
    wanted: Callable[[Game], bool],
    policy: Policy = random_policy,
    limit: int = 300,
    rules: Rules = CLASSIC,
) -> Game:
    """The first random game of seeds 0, 1, … (bounded) for which ``wanted`` holds.

    The search plays fast; the game found is played again under a :class:`Referee`.
    """
    for seed in range(limit):
        if wanted(random_game(seed, policy, rules=rules)):
            return random_game(seed, policy, after=Referee(), rules=rules)
    raise AssertionError(f"none of {limit} seeded games shows the wanted situation")


def reach(
    wanted: Callable[[Game], bool],
    policy: Policy = random_policy,
    limit: int = 100,
    rules: Rules = CLASSIC,
) -> Game:
    """A game stopped at the first state where ``wanted`` holds (seeds 0, 1, …, bounded)."""
    for seed in range(limit):
        game = play(new_game(rules, seed=seed), random.Random(seed), policy, until=wanted)
        if wanted(game):
            return game
    raise AssertionError(f"none of {limit} seeded games reaches the wanted state")


def replay_steps(game: Game) -> Iterator[Game]:
    """A new game from ``game``'s rules and seed, yielded after each of its actions in turn."""
    again = new_game(game.rules, seed=game.seed, previous=game.previous)
    for _, action in game.actions:
        again.apply(action)
        yield again


def play_match(
    seed: int | str,
    games: int = 3,
    policy: Policy = random_policy,
    rules: Rules = CLASSIC,
    checker: Callable[[], Callable[[Game], None]] | None = None,
) -> tuple[Match, list[Game]]:
    """A whole match of ``policy`` games; ``checker()`` gives each game a fresh after-hook."""
    match = Match(rules, games=games, seed=seed)
    rng = random.Random(seed)
    played: list[Game] = []
    game: Game | None = match.game
    while game is not None:
        after = checker() if checker else None
        if after:
            after(game)
        played.append(play(game, rng, policy, after))
        game = match.next_game()
    return match, played


def find_match(
    wanted: Callable[[list[Game]], bool],
    policy: Policy = random_policy,
    limit: int = 200,
    rules: Rules = CLASSIC,
) -> list[Game]:
    """The games of the first two-game match (seeds 0, 1, …, bounded) for which ``wanted`` holds.

    The search plays fast; the match found is played again with a :class:`Referee` per game.
    """
    for seed in range(limit):
        if wanted(play_match(seed, 2, policy, rules)[1]):
            return play_match(seed, 2, policy, rules, checker=Referee)[1]
    raise AssertionError(f"none of {limit} seeded matches shows the wanted situation")
