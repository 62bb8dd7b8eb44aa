"""The PettingZoo AEC environment: five agents ``seat_0`` … ``seat_4`` play one match.

An episode is a match of ``games`` games (default 1) under one rule set: tribute (R12) and 清3
cards (R6.8) pass between its games. The agent to act is the engine's current seat, in every
phase (tribute, candidate chain, call, polls, plays). Observations are
``{"observation": float32[SIZE], "action_mask": int8[N]}`` (:mod:`.observation`,
:mod:`.actions`), and the acting agent's info lists the same legal actions as ids
(``legal_ids``, in the view's order), as RLCard's states do; the reward is each seat's R10
points when a game ends, 0 otherwise.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from baohuang.engine.cards import format_cards
from baohuang.engine.game import Game
from baohuang.engine.match import Match
from baohuang.engine.rules import Rules
from baohuang.engine.state import SEATS
from baohuang.engine.views import View
from baohuang.features.actions import ActionTable, action_table
from baohuang.features.history import PublicHistory
from baohuang.features.observation import HIGH, SIZE, Encoder

from .masks import Masks

Observation = dict[str, npt.NDArray[Any]]
AGENTS = tuple(f"seat_{seat}" for seat in range(SEATS))
_SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}


class BaohuangEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see the module docstring); :func:`env` wraps it."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "baohuang_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "classic",
        games: int = 1,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """``preset`` and ``options`` are :meth:`Rules.preset`'s (R7); ``games`` per episode."""
        super().__init__()
        if games < 1:
            raise ValueError(f"an episode is a match of at least one game, not {games}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of ansi, human")
        self.rules = Rules.preset(preset, **options)
        self.games = games
        self.render_mode = render_mode
        self.table: ActionTable = action_table(self.rules.twos_wild)
        self._masks = Masks(len(self.table))
        self.encoder = Encoder(self.rules, games)
        self.history = PublicHistory()
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, HIGH, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.table),), np.int8),
            }
        )
        self.observation_spaces = {a: observation_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(len(self.table)) for a in AGENTS}
        self.match: Match | None = None
        self._rng = random.Random()
        self._scored = False
        self._texts: tuple[str, ...] = ()
        self._ids: tuple[int, ...] = ()

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the game

    @property
    def game(self) -> Game:
        """The game in progress (after :meth:`reset`)."""
        assert self.match is not None, "call reset() first"
        return self.match.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; ``seed`` fixes its deals, and seeds the next seedless resets."""
        if seed is not None:
            self._rng.seed(seed)
        match_seed = seed if seed is not None else self._rng.getrandbits(63)
        self.match = Match(self.rules, self.games, seed=match_seed)
        self.history.reset()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._scored = False
        self.agent_selection = AGENTS[self._turn()]
        self._offer()

    def _turn(self) -> int:
        seat = self.game.current_seat
        assert seat is not None
        return seat

    def _legal_ids(self) -> tuple[int, ...]:
        """The ids of the acting seat's legal actions, kept while the game stands still."""
        texts = self.game.legal_texts()
        if texts is not self._texts:
            self._texts, self._ids = texts, tuple(self.table.ids_of(texts))
        return self._ids

    def _offer(self) -> None:
        """The acting agent's info lists its legal ids (only its own, on its turn: R14)."""
        self.infos[self.agent_selection]["legal_ids"] = self._legal_ids()

    def view(self, agent: str) -> View:
        """The agent's view of the game (R14), as the engine builds it."""
        return self.game.view(_SEAT[agent])

    def observe(self, agent: str) -> Observation:
        """The agent's observation and action mask, from its view and the public history."""
        match = self.match
        assert match is not None, "call reset() first"
        game = match.game
        self.history.update(game.events)
        view = game.view(_SEAT[agent])
        obs = self.encoder.encode(view, self.history, match.index)
        # The acting agent's own legal actions, only on its turn (R14): in a sealed poll the
        # others asked have options in their views too, but act when they are selected.
        ids = self._legal_ids() if agent == self.agent_selection and view.legal else ()
        return {"observation": obs, "action_mask": self._masks.make(ids)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply ``action`` (an id) for :attr:`agent_selection`; ``None`` once it is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent's action is an id, not None"
        game, actions = self.game, self.table.actions
        index = int(action)
        if not 0 <= index < len(actions):
            raise ValueError(f"action {index} is not an id of this space (0-{len(actions) - 1})")
        game.apply(actions[index])
        del self.infos[agent]["legal_ids"]
        self._cumulative_rewards[agent] = 0.0
        if self._scored:
            self._clear_rewards()
            self._scored = False
        seat = game.current_seat
        if seat is None:  # the game is over
            self._end_game(game)
        else:
            self.agent_selection = AGENTS[seat]
            self._offer()
        if self._scored:
            self._accumulate_rewards()

    def _end_game(self, game: Game) -> None:
        """R10: each seat's points; then the match's next game (R12), or the episode's end."""
        assert game.result is not None and self.match is not None
        self.rewards = {a: float(p) for a, p in zip(AGENTS, game.result.scores, strict=True)}
        self._scored = True
        if self.match.next_game() is not None:
            self.history.reset()
            self.agent_selection = AGENTS[self._turn()]
            self._offer()
        else:
            self.terminations = dict.fromkeys(AGENTS, True)

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """``ansi``: the acting seat's view as text; ``human``: printed."""
        if self.render_mode is None or self.match is None:
            return None
        seat = self.game.current_seat
        view = self.game.view(seat)
        lead = view.lead.play if view.lead else "-"
        text = (
            f"game {self.match.index} phase {view.phase} turn {view.turn} lead {lead} "
            f"counts {list(view.counts)}"
        )
        if seat is not None:
            text += f"\nseat {seat}: {format_cards(view.hand or ())}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(preset: str = "classic", **options: Any) -> BaohuangEnv:
    """The raw AEC environment: :class:`BaohuangEnv` (``games=``, ``render_mode=`` and the
    rules options of :meth:`Rules.preset`)."""
    return BaohuangEnv(preset, **options)


def env(preset: str = "classic", **options: Any) -> Any:
    """The wrapped environment, as PettingZoo's classic games wrap theirs: an illegal action
    ends the episode with −1 for its agent, an out-of-range id asserts, calls are ordered."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(preset, **options), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
