"""Fitting the network to the expert's games (expert iteration, :mod:`.expert`), to an update
budget: a run with the same folder and a larger ``updates`` goes on where the last stopped.

Each update draws ``batch`` decisions; the network (:class:`~.network.QNet`) gives every legal
action of each a value and, with ``heads`` 2, a policy logit; with ``hint``, an action's
features say whether it is the heuristic's choice there, so the network learns where the
expert departs from the heuristic (``strong`` keeps its answer at about nine decisions in ten)
rather than the whole policy from nothing. The loss is the cross-entropy of a softmax over the
logits against the expert's choice (weighted ``depart_weight`` where the expert departed from
the heuristic: the choices that carry what it knows better), plus ``value_weight`` times the
squared error of the chosen action's value against the points that followed (scaled), plus
``search_weight`` times that of each action the expert's search weighed against its mean
points there. The learned bot plays the action the policy prefers, as the expert would where
the network has learnt it; the values, the search's where the search weighed them, are what a
margin (``@M``) and a search read. With one head (fits from before the policy had its own) the
logits are the values divided by ``temperature``: one output pulled two ways.

Every ``eval_every`` updates the model is exported and plays ``eval_deals`` duplicate deals
against the heuristic (a resumed fit takes these two from the run, its other settings from its
checkpoint). The folder holds ``fit.pt`` (network, optimizer, counters, log), ``model.npz``
(the bot's weights), ``best.npz`` (the model of the best evaluation so far: chosen on those
deals, so confirm it on others), ``provenance.json`` (the :func:`~baohuang.provenance.stamp`:
commit, date, machine, command and settings; games, decisions, updates), ``fit_log.csv`` and
``fit_curve.png``. The learner uses a GPU when one is there.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional

from ..bots.learned import VALUE
from ..engine.rules import Rules
from ..features.actions import action_features
from ..provenance import stamp
from .curve import plot_curve
from .expert import SHARD, Lessons, shards
from .network import HIDDEN, QNet
from .runs import against_heuristic, keep

CHECKPOINT, MODEL, BEST, PROVENANCE = "fit.pt", "model.npz", "best.npz", "provenance.json"
LOG, CURVE = "fit_log.csv", "fit_curve.png"


@dataclass
class FitConfig:
    """A fit's settings (kept in its checkpoint; a resumed fit keeps its own)."""

    preset: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    hidden: tuple[int, ...] = HIDDEN
    heads: int = 2
    hint: bool = True
    #: The weight of a decision where the expert departed from the heuristic's choice, in the
    #: policy's loss (1: as any other; 5 measured better, bench/learned.md).
    depart_weight: float = 5.0
    batch: int = 128
    lr: float = 3e-4
    temperature: float = 0.1
    value_weight: float = 1.0
    search_weight: float = 1.0
    eval_every: int = 1000
    eval_deals: int = 50
    seed: int = 0

    def rules(self) -> Rules:
        return Rules.preset(self.preset, **self.options)


@dataclass
class FitCounters:
    updates: int = 0
    decisions: int = 0
    seconds: float = 0.0


class Fitter:
    """See the module docstring."""

    def __init__(self, folder: Path, config: FitConfig | None = None, device: str = "auto") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        saved = torch.load(folder / CHECKPOINT, weights_only=False) if self.resumed else None
        if saved is not None:
            older = {"heads": 1, "hint": False, "depart_weight": 1.0}  # fits from before them
            kept = {**older, **saved["config"], "hidden": tuple(saved["config"]["hidden"])}
            if config is not None:  # how often and how widely to evaluate: this run's
                kept |= {"eval_every": config.eval_every, "eval_deals": config.eval_deals}
            config = FitConfig(**kept)
        self.config = config = config or FitConfig()
        self.rules = config.rules()
        self.net = QNet(config.hidden, config.heads, int(config.hint)).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.lr)
        self.counters = FitCounters()
        self.log: list[dict[str, Any]] = []
        if saved is not None:
            self.net.load_state_dict(saved["model"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self.counters = FitCounters(**saved["counters"])
            self.log = saved["log"]
        self.features = torch.from_numpy(action_features(self.rules.twos_wild).copy()).to(
            self.device
        )
        self.rng = np.random.default_rng([config.seed, self.counters.updates])
        self.lessons: Lessons | None = None
        self.games = 0

    @property
    def resumed(self) -> bool:
        return (self.folder / CHECKPOINT).exists()

    def run(self, updates: int, show: Callable[[FitCounters, dict[str, Any]], None]) -> None:
        """Fit until ``updates`` updates in all (this run and the ones before it)."""
        found = shards(self.folder)  # the games fitted (more may be written meanwhile)
        self.games = len(found) * SHARD
        self.lessons = Lessons.join([Lessons.load(path) for path in found])
        if not len(self.lessons):
            raise ValueError(f"no games in {self.folder}: generate them first")
        if self.config.hint and self.lessons.base.min() < 0:
            raise ValueError(
                f"games in {self.folder} without the heuristic's choices: annotate them first "
                "(baohuang.learn.expert.annotate; `baohuang train --method expert` does)"
            )
        start, losses = time.monotonic(), []
        while self.counters.updates < updates:
            losses.append(self._update(self.lessons))
            every = self.config.eval_every
            last = self.counters.updates == updates
            evaluate = self.counters.updates % every == 0 or last
            if self.counters.updates % 50 == 0 or evaluate:
                self.counters.seconds += time.monotonic() - start
                start = time.monotonic()
                row = self._row(losses)
                losses = []
                if evaluate:
                    self.export()
                    row |= self.evaluate(self.config.eval_deals)
                    if all(row["eval_mean"] > old.get("eval_mean", -np.inf) for old in self.log):
                        shutil.copyfile(self.folder / MODEL, self.folder / BEST)
                    self.log.append(row)
                    self.save()
                show(self.counters, row)

    def _row(self, losses: list[tuple[float, float, float | None]]) -> dict[str, Any]:
        policy = float(np.mean([p for p, _, _ in losses])) if losses else None
        value = float(np.mean([v for _, v, _ in losses])) if losses else None
        known = [s for _, _, s in losses if s is not None]
        search = float(np.mean(known)) if known else None
        return {
            "updates": self.counters.updates,
            "decisions": self.counters.decisions,
            "seconds": round(self.counters.seconds, 1),
            "loss": None if policy is None else round(policy, 4),
            "value_loss": None if value is None else round(value, 4),
            "search_loss": None if search is None else round(search, 4),
            "games": self.games,
        }

    def _update(self, lessons: Lessons) -> tuple[float, float, float | None]:
        """One Adam step on ``batch`` decisions; (policy loss, value loss, search-value loss:
        ``None`` when no decision drawn was searched)."""
        picks = self.rng.integers(0, len(lessons), self.config.batch)
        starts, ends = lessons.offsets[picks], lessons.offsets[picks + 1]
        sizes = torch.from_numpy((ends - starts).astype(np.int64)).to(self.device)
        rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)])
        ids = lessons.legal[rows]
        searched = torch.from_numpy(lessons.values[rows]).to(self.device)
        observations = torch.from_numpy(lessons.observations[picks].astype(np.float32))
        observations = observations.to(self.device).repeat_interleave(sizes, dim=0)
        actions = self.features[torch.from_numpy(ids.astype(np.int64)).to(self.device)]
        first = torch.cumsum(sizes, 0) - sizes
        if self.config.hint:
            hint = torch.zeros((len(actions), 1), device=self.device)
            base = torch.from_numpy(lessons.base[picks].astype(np.int64)).to(self.device)
            hint[first + base] = 1.0
            actions = torch.cat([actions, hint], dim=1)
        outputs = self.net(observations, actions)
        values = outputs[:, VALUE]
        preferences = outputs[:, -1] if self.config.heads > 1 else values / self.config.temperature
        # Each decision's legal actions padded into one row: -inf where it has none.
        width = int(sizes.max())
        row = torch.repeat_interleave(torch.arange(len(picks), device=self.device), sizes)
        column = torch.arange(len(values), device=self.device) - first[row]
        logits = torch.full((len(picks), width), float("-inf"), device=self.device)
        logits[row, column] = preferences
        chosen = torch.from_numpy(lessons.chosen[picks].astype(np.int64)).to(self.device)
        policy = functional.cross_entropy(logits, chosen, reduction="none")
        if self.config.depart_weight != 1.0:
            departs = torch.from_numpy(lessons.base[picks] != lessons.chosen[picks]).to(self.device)
            policy = policy * torch.where(departs, self.config.depart_weight, 1.0)
        policy = policy.mean()
        returns = torch.from_numpy(lessons.returns[picks]).to(self.device)
        value = functional.mse_loss(values[first + chosen], returns)
        loss = policy + self.config.value_weight * value
        known = torch.isfinite(searched)
        search = None
        if bool(known.any()):
            search = functional.mse_loss(values[known], searched[known])
            loss = loss + self.config.search_weight * search
        self.optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        self.optimizer.step()
        self.counters.updates += 1
        self.counters.decisions += len(picks)
        return policy.item(), value.item(), None if search is None else search.item()

    def evaluate(self, deals: int) -> dict[str, Any]:
        """The exported model against the heuristic over ``deals`` duplicate deals."""
        seed = f"eval/{self.config.seed}"
        return against_heuristic(self.rules, self.folder / MODEL, deals, seed)

    def export(self) -> None:
        rules = json.dumps(self.rules.to_dict(), sort_keys=True)
        provenance = {
            "method": "expert iteration: imitation of the expert's games (baohuang.learn.fit)",
            **stamp(asdict(self.config)),
            "games": self.games,
            "decisions": len(self.lessons) if self.lessons is not None else None,
            "updates": self.counters.updates,
        }
        self.net.to_model(False, rules, provenance).save(self.folder / MODEL)
        (self.folder / PROVENANCE).write_text(json.dumps(provenance, indent=1) + "\n")

    def save(self) -> None:
        keep(self, self.folder / CHECKPOINT, self.folder / LOG)
        plot_curve(self.log, self.folder / CURVE, self.config.preset, by="updates")
