"""Shared by the environment's tests: the rule sets they run under, an observer of a bare
game built exactly as the environment builds observations, and a random episode runner."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from baohuang import Game, Rules
from baohuang.env import BaohuangEnv, Encoder, PublicHistory, action_table
from baohuang.features.actions import ActionTable
from helpers.rulesets import PRESET_NAMES

#: (preset, options) pairs: every preset (R7) and the options of R5, R6.7, R6.8 and R12.
RULE_SETS: tuple[tuple[str, dict[str, object]], ...] = (
    *((name, {}) for name in PRESET_NAMES),
    ("classic", {"roast": True, "hold_sixes": True}),
    ("classic", {"twos_wild": True}),
    ("qq", {"ranks_from": "3", "hold_threes": True}),
    ("weihai", {"tribute": True}),
    ("kk_classic", {"roast": True, "ranks_from": "6"}),
)


def rules_id(rule_set: tuple[str, dict[str, object]]) -> str:
    name, options = rule_set
    return ",".join([name, *(f"{k}={v}" for k, v in options.items())])


@dataclass
class Observer:
    """Observations of a bare :class:`Game` for one rule set, as the environment makes them:
    the seat's view and the public history, nothing else (R14)."""

    rules: Rules
    encoder: Encoder = field(init=False)
    table: ActionTable = field(init=False)
    history: PublicHistory = field(default_factory=PublicHistory)

    def __post_init__(self) -> None:
        self.encoder = Encoder(self.rules)
        self.table = action_table(self.rules.twos_wild)

    def observe(
        self, game: Game, seat: int
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        self.history.update(game.events)
        view = game.view(seat)
        return self.encoder.encode(view, self.history), self.table.mask(map(str, view.legal))


def episode(
    env: BaohuangEnv, seed: int, rng: random.Random
) -> Iterator[tuple[str, dict[str, np.ndarray], int]]:
    """Play one episode of the raw env with random legal ids; yield (agent, observation, id)
    before each live step."""
    env.reset(seed=seed)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        observed = env.observe(agent)
        legal = np.flatnonzero(observed["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        yield agent, observed, action
        env.step(action)
