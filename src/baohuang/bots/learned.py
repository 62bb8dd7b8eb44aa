"""The learned bot (学习型): a Q-function trained by self-play (``baohuang train``, deep
Monte-Carlo as in DouZero) scores each legal action from the seat's observation; the bot plays
the best. Inference is numpy only (the ``rl`` extra): the trainer exports its network as an
``.npz`` of plain weights, and nothing is downloaded at run time.

The observation is :mod:`baohuang.features`' (the seat's view, R14, and the plays it has seen:
:class:`~baohuang.features.history.ViewHistory`), each action is its row of
:func:`~baohuang.features.actions.action_features`. The network: the observation scaled by its
bounds, concatenated with the action's features, through fully connected ReLU layers to the
action's value (the points the seat expects, R10, divided by :data:`POINTS_SCALE`) and, in a
model fitted to an expert's games (``--method expert``), a second output: the policy's logit,
how much the expert prefers the action. The bot plays the action the policy prefers (the best
value where the model has one output). A model may take a hint: one more feature per action,
1 for the heuristic's choice (:attr:`QModel.hints`), so that it learns where to depart from it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.determinize import ROLE_PHASES
from ..engine.rules import Rules
from ..engine.views import View

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The output column of an action's value; the last column is the policy's logit (the same
#: column in a model with one output).
VALUE = 0
#: Returns are points (R10) divided by this, so that most targets lie in [-1, 1].
POINTS_SCALE = 8.0
#: The models shipped in the package, each one that earned its place (bench/learned.md), with
#: the margin it plays at (:class:`LearnedBot`; ``None``: its policy's choice): weihai's role
#: answers, given where the model prefers them by a point (chosen over 300 deals of seed 7:
#: greedy answers gain less); classic's whole game, reading the heuristic's choice.
SHIPPED: dict[str, float | None] = {"learned.npz": 1.0, "learned-classic.npz": None}


class QModel:
    """The Q-network's weights as numpy arrays: ``scale`` (the observation's bounds, inverted)
    and layers ``w0, b0, w1, b1, …`` (``x @ w + b``, ReLU between; one output, the value, or
    two: the value and the policy's logit); ``roles_only``:
    trained on the answers before the first play alone (R8, R9, R11; the heuristic plays the
    cards), under the rules ``rules`` (:meth:`Rules.to_dict`, as JSON); ``provenance``: where
    the weights come from (:func:`baohuang.provenance.stamp`: the commit, the settings, the
    command; with the games and updates they were trained on)."""

    def __init__(
        self,
        scale: npt.NDArray[np.float32],
        layers: list[tuple[Any, Any]],
        roles_only: bool = False,
        rules: str | None = None,
        provenance: dict[str, Any] | None = None,
    ) -> None:
        import numpy as np

        self.roles_only, self.rules, self.provenance = roles_only, rules, provenance
        self.scale = scale.astype(np.float32)
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        first, _ = self.layers[0]
        #: The first layer split in two: the observation's part is computed once per decision.
        self.obs_part, self.act_part = first[: len(scale)], first[len(scale) :]
        from ..features.actions import ACTION_FEATURES

        #: Features an action has beyond its row of the action table: 1 where the model reads
        #: the heuristic's choice (the module docstring), else 0.
        self.hints = len(self.act_part) - ACTION_FEATURES

    @staticmethod
    def load(path: str | Path) -> QModel:
        """A model saved by :meth:`save` (or exported by the trainer)."""
        import numpy as np

        with np.load(path) as data:
            count = sum(1 for key in data.files if key.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            roles_only = "roles_only" in data.files and bool(data["roles_only"])
            rules = str(data["rules"]) if "rules" in data.files else None
            made = json.loads(str(data["provenance"])) if "provenance" in data.files else None
            return QModel(data["scale"], layers, roles_only, rules, made)

    def save(self, path: str | Path) -> None:
        import numpy as np

        arrays: dict[str, Any] = {"scale": self.scale, "roles_only": np.array(self.roles_only)}
        if self.rules is not None:
            arrays["rules"] = np.array(self.rules)
        if self.provenance is not None:
            arrays["provenance"] = np.array(json.dumps(self.provenance, sort_keys=True))
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        np.savez_compressed(path, allow_pickle=False, **arrays)

    def trained_under(self, rules: Rules) -> bool:
        """Whether the model was trained under ``rules`` (``False`` when it does not say)."""
        return self.rules is not None and json.loads(self.rules) == rules.to_dict()

    def values(
        self, observation: npt.NDArray[np.float32], actions: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The value of each row of ``actions`` (``K × features``) after ``observation``."""
        return self.outputs(observation, actions)[:, VALUE]

    def outputs(
        self, observation: npt.NDArray[np.float32], actions: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """Every output for each row of ``actions`` (``K × features``, and the hints): ``K ×
        outputs`` (the class docstring)."""
        import numpy as np

        b0 = self.layers[0][1]
        hidden = (observation * self.scale) @ self.obs_part + actions @ self.act_part + b0
        x = np.maximum(hidden, 0.0)
        for w, b in self.layers[1:-1]:
            x = np.maximum(x @ w + b, 0.0)
        w, b = self.layers[-1]
        out: npt.NDArray[np.float32] = x @ w + b
        return out


def _shipped() -> list[tuple[Any, float | None]]:
    """The files of :data:`SHIPPED` that are in the package, with their margins."""
    folder = resources.files("baohuang.bots").joinpath("models")
    found = [(folder.joinpath(name), margin) for name, margin in SHIPPED.items()]
    return [(file, margin) for file, margin in found if file.is_file()]


def has_shipped_model() -> bool:
    """Whether a model ships with the package and numpy (the ``rl`` extra) is there to run it
    (then ``learned`` is a bot level)."""
    return bool(_shipped()) and find_spec("numpy") is not None


@cache
def shipped_models() -> tuple[tuple[QModel, float | None], ...]:
    """The models that ship with the package, each with its margin (loaded once)."""
    loaded = []
    for file, margin in _shipped():
        with resources.as_file(file) as path:
            loaded.append((QModel.load(path), margin))
    return tuple(loaded)


def shipped_model(rules: Rules) -> tuple[QModel, float | None]:
    """The shipped model for ``rules``, with its margin: the one trained under them, else the
    first (under other rules a role-answers model leaves every decision to the heuristic); a
    clear error when none ships."""
    models = shipped_models()
    if not models:
        raise ValueError(
            "no learned model ships with this version: train one with `baohuang train` and "
            "name it as learned:PATH/model.npz"
        )
    own = [(m, margin) for m, margin in models if m.trained_under(rules)]
    return (own or list(models))[0]


class LearnedBot:
    """Plays the action the model's policy prefers (the module docstring). With a
    ``margin`` (points), the heuristic's choice stands unless the model values another action
    at least that much higher: the model improves on the heuristic where it is sure, as the
    search bot does with its playouts."""

    def __init__(
        self, rules: Rules, model: QModel | None = None, margin: float | None = None
    ) -> None:
        """``model`` (default: the shipped one for ``rules``, at its own margin)."""
        from ..features.actions import action_features, action_table
        from ..features.history import ViewHistory
        from ..features.observation import Encoder
        from .heuristic import HeuristicBot

        if model is None:
            model, margin = shipped_model(rules)
        self.model = model
        self.table = action_table(rules.twos_wild)
        self.features = action_features(rules.twos_wild)
        self.encoder = Encoder(rules)
        self.history = ViewHistory()
        self.margin = margin
        model = self.model
        #: A role-answers model knows its own rules' stakes: under others the heuristic answers.
        own = model.rules is None or model.trained_under(rules)
        self.answers = not model.roles_only or own
        needs_base = margin is not None or model.roles_only or model.hints > 0
        self.base = HeuristicBot(rules) if needs_base else None

    def choose(self, view: View, legal: list[Action]) -> Action:
        self.history.see(view)
        proposed = self.base.choose(view, legal) if self.base is not None else None
        if len(legal) == 1:
            return legal[0]
        if self.model.roles_only and (view.phase not in ROLE_PHASES or not self.answers):
            assert proposed is not None
            return proposed  # the model knows its preset's role answers; the heuristic plays
        outputs = self.outputs(view, legal, proposed)
        if proposed is None or self.margin is None:
            return legal[int(outputs[:, -1].argmax())]
        values = outputs[:, VALUE]
        best = int(values.argmax())
        own = values[legal.index(proposed)]
        return legal[best] if values[best] - own >= self.margin / POINTS_SCALE else proposed

    def observe(self, view: View, action: Action) -> None:
        """A turn of this seat played by someone else (:func:`~.base.catch_up`)."""
        self.history.see(view)
        if self.base is not None:
            self.base.observe(view, action)

    def outputs(
        self, view: View, legal: list[Action], proposed: Action | None = None
    ) -> npt.NDArray[np.float32]:
        """The model's outputs for each legal action (the history already read ``view``), the
        heuristic's choice ``proposed`` marked where the model reads it."""
        import numpy as np

        ids = [self.table.ids[str(action)] for action in legal]
        observation = self.encoder.encode(view, self.history)
        features = self.features[ids]
        if self.model.hints:
            if proposed is None:
                raise ValueError("this model reads the heuristic's choice: pass it as proposed")
            hint = np.zeros((len(legal), 1), np.float32)
            hint[legal.index(proposed)] = 1.0
            features = np.concatenate([features, hint], axis=1)
        return self.model.outputs(observation, features)
