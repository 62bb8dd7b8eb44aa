"""Games that make training data: every seat's decisions with the return it earned.

Each seat is played either by a **teacher** (the heuristic bot) or by the **student** (the
Q-network, ε-greedy: a random legal action with probability ε, else the best valued), chosen
per seat and game with probability ``teacher``. Every decision with more than one legal action
becomes a sample (the seat's observation, the chosen action's features, and at the end the
seat's R10 points divided by :data:`~baohuang.bots.learned.POINTS_SCALE`): the Monte-Carlo
return of deep Monte-Carlo (DouZero). Teachers' games teach the network what the heuristic's
choices are worth, so that its greedy choice improves on them (policy iteration); the
student's own games then correct it where it goes its own way.

With :attr:`Student.roles_only` the student answers only before the first play (R8, R9, R11:
the emperor card, the call, 明独, 明保, 造反, 踢 …) and every seat plays the cards as the
heuristic does (R6): only the role answers are samples, a few a game with large stakes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..bots.heuristic import HeuristicBot
from ..bots.learned import POINTS_SCALE
from ..engine.determinize import ROLE_PHASES
from ..engine.game import new_game
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..features.actions import ACTION_FEATURES, action_features, action_table
from ..features.history import ViewHistory
from ..features.observation import SIZE, Encoder

#: Values of K actions (K × features) after one observation.
Values = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Samples:
    """A batch of decisions: observations, the chosen actions' features, the returns."""

    observations: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.returns)

    @staticmethod
    def empty() -> Samples:
        return Samples(
            np.zeros((0, SIZE), np.float32),
            np.zeros((0, ACTION_FEATURES), np.float32),
            np.zeros(0, np.float32),
        )


@dataclass(frozen=True)
class Student:
    """How the student plays: ε of its ε-greedy choice; whether it answers only in the role
    phases (the heuristic plays the cards)."""

    epsilon: float = 0.05
    roles_only: bool = False


def play_game(
    rules: Rules, values: Values, rng: random.Random, teacher: float, student: Student
) -> tuple[Samples, list[int], list[bool]]:
    """One game from a fresh random deal (see the module docstring): its samples, the seats'
    points, and which seats the teacher played."""
    game = new_game(rules, rng.getrandbits(64))
    table = action_table(rules.twos_wild)
    features = action_features(rules.twos_wild)
    encoder = Encoder(rules)
    histories = [ViewHistory() for _ in range(SEATS)]
    taught = [rng.random() < teacher for _ in range(SEATS)]
    teachers = {
        seat: HeuristicBot(rules)
        for seat in range(SEATS)
        if taught[seat] or student.roles_only  # roles only: the heuristic plays every seat
    }
    observations: list[np.ndarray] = []
    chosen: list[int] = []
    seats: list[int] = []
    while (seat := game.current_seat) is not None:
        view, legal = game.view(seat), game.legal_actions()
        histories[seat].see(view)
        # A teacher is shown every decision, as in any game (it remembers what it saw).
        taught_action = teachers[seat].choose(view, legal) if seat in teachers else None
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        if student.roles_only and game.phase not in ROLE_PHASES:
            assert taught_action is not None
            game.apply(taught_action)
            continue
        if not taught[seat]:
            taught_action = None
        ids = [table.ids[str(action)] for action in legal]
        observation = encoder.encode(view, histories[seat])
        if taught_action is not None:
            pick = legal.index(taught_action)
        elif rng.random() < student.epsilon:
            pick = rng.randrange(len(legal))
        else:
            pick = int(values(observation, features[ids]).argmax())
        observations.append(observation)
        chosen.append(ids[pick])
        seats.append(seat)
        game.apply(legal[pick])
    assert game.result is not None
    scores = list(game.result.scores)
    returns = np.array([scores[s] / POINTS_SCALE for s in seats], np.float32)
    batch = Samples(
        np.stack(observations) if observations else Samples.empty().observations,
        features[chosen] if chosen else Samples.empty().actions,
        returns,
    )
    return batch, scores, taught
