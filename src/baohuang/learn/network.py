"""The Q-network in PyTorch, the twin of :class:`~baohuang.bots.learned.QModel` (numpy): the
observation scaled by its bounds, concatenated with an action's features, through fully
connected ReLU layers to the action's value and, with two heads, its policy logit (how much
the expert prefers it). With ``hints`` 1 an action's features end with one more column: 1 for
the heuristic's choice (the network learns where the expert departs from it).
:meth:`QNet.to_model` exports the weights for the bot."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots.learned import VALUE, QModel
from ..features.actions import ACTION_FEATURES
from ..features.observation import HIGH, SIZE

#: The hidden layers' widths by default.
HIDDEN = (512, 256, 128)


def observation_scale() -> np.ndarray:
    """What an observation is multiplied by: the inverse of each element's bound."""
    return (1.0 / np.maximum(HIGH, 1.0)).astype(np.float32)


class QNet(nn.Module):
    """Q(observation, action) and, with ``heads`` 2, a policy logit (the module docstring)."""

    def __init__(self, hidden: tuple[int, ...] = HIDDEN, heads: int = 1, hints: int = 0) -> None:
        super().__init__()
        self.hidden, self.heads, self.hints = tuple(hidden), heads, hints
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.from_numpy(observation_scale()))
        dims = [SIZE + ACTION_FEATURES + hints, *self.hidden, heads]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in pairwise(dims))

    def forward(self, observations: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Outputs of a batch, B × heads (column :data:`~baohuang.bots.learned.VALUE` the value,
        the last the policy's logit): ``observations`` (B × SIZE) with ``actions`` (B ×
        features and hints)."""
        x = torch.cat([observations * self.scale, actions], dim=1)
        for layer in self.layers[:-1]:
            x = torch.relu(layer(x))
        out: torch.Tensor = self.layers[-1](x)
        return out

    @torch.no_grad()
    def values(self, observation: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The value of each of ``actions`` (K × features) after one ``observation``."""
        obs = torch.from_numpy(observation).unsqueeze(0).expand(len(actions), -1)
        out: np.ndarray = self(obs, torch.from_numpy(actions))[:, VALUE].numpy()
        return out

    def to_model(
        self,
        roles_only: bool = False,
        rules: str | None = None,
        provenance: dict[str, Any] | None = None,
    ) -> QModel:
        """The numpy model the learned bot plays with (``roles_only``: trained on the role
        answers alone, :class:`~.selfplay.Student`, under ``rules`` as JSON), saying where it
        comes from (``provenance``)."""
        layers = [
            (linear.weight.detach().cpu().numpy().T, linear.bias.detach().cpu().numpy())
            for linear in self.linears()
        ]
        return QModel(self.scale.cpu().numpy(), layers, roles_only, rules, provenance)

    def linears(self) -> list[nn.Linear]:
        return [layer for layer in self.layers if isinstance(layer, nn.Linear)]
