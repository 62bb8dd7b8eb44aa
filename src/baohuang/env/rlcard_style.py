"""An RLCard-style interface to the same environment, for code written against RLCard.

``reset() -> (state, player_id)``, ``step(action) -> (state, next_player_id)``,
``is_over()``, ``get_payoffs()``; a state is ``{"obs", "legal_actions", "raw_obs",
"raw_legal_actions"}`` as in RLCard: the observation vector, the legal ids (an ordered dict
of id → ``None``), the seat's view as JSON (R14) and the legal actions in notation.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt

from baohuang.engine.state import SEATS
from baohuang.features.observation import SIZE

from .aec import AGENTS, BaohuangEnv


class RLCardStyleEnv:
    """A :class:`~baohuang.env.aec.BaohuangEnv` driven the RLCard way (module docstring)."""

    num_players = SEATS

    def __init__(self, preset: str = "classic", games: int = 1, **options: Any) -> None:
        self.env = BaohuangEnv(preset, games=games, **options)
        self.num_actions = len(self.env.table)
        self.state_shape: list[list[int]] = [[SIZE] for _ in range(SEATS)]
        self.action_shape: list[None] = [None] * SEATS
        self._payoffs = np.zeros(SEATS, np.float64)

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], int]:
        """A new match; the first state and the seat to act."""
        self.env.reset(seed=seed)
        self._payoffs[:] = 0
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, action: int) -> tuple[dict[str, Any], int]:
        """Apply ``action`` (an id) for the seat to act; the next state and seat."""
        self.env.step(action)
        for seat, agent in enumerate(AGENTS):
            self._payoffs[seat] += self.env.rewards[agent]
        player = self.get_player_id()
        return self.get_state(player), player

    def is_over(self) -> bool:
        """Whether the match (the episode) is over."""
        return all(self.env.terminations.values())

    def get_player_id(self) -> int:
        """The seat to act (the last to act once the match is over)."""
        return AGENTS.index(self.env.agent_selection)

    def get_state(self, player_id: int) -> dict[str, Any]:
        """The seat's state: its observation, legal ids and view (R14)."""
        agent = AGENTS[player_id]
        observed = self.env.observe(agent)
        view = self.env.view(agent)
        ids = self.env.infos[agent].get("legal_ids", ())
        legal: OrderedDict[int, None] = OrderedDict.fromkeys(ids)
        return {
            "obs": observed["observation"],
            "legal_actions": legal,
            "raw_obs": view.to_json(),
            "raw_legal_actions": list(view.legal),
        }

    def get_payoffs(self) -> npt.NDArray[np.float64]:
        """Each seat's R10 points over the match so far."""
        return self._payoffs.copy()
