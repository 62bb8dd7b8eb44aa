"""Deep Monte-Carlo training (DMC, as in DouZero): self-play actors, one learner.

Actors (processes, or none: the learner plays its own games) play games with the current
network (:mod:`.selfplay`) and send their samples; the learner keeps the latest
:attr:`Config.buffer` in a ring, fits Q(observation, action) to the returns by mean squared
error with Adam, and copies its weights to the actors' shared copy every
:attr:`Config.sync` updates. Every :attr:`Config.eval_minutes` it exports the network for the
learned bot and plays :attr:`Config.eval_deals` duplicate deals against the heuristic.

Everything lands in the output folder: ``checkpoint.pt`` (network, optimizer, counters, log:
a later run with the same folder resumes), ``model.npz`` (the bot's weights),
``log.csv`` and ``curve.png`` (the learning curve). The learner runs on a GPU when one is there
(``device="auto"``), the actors on CPU cores.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..bots.learned import VALUE
from ..engine.rules import Rules
from ..features.actions import ACTION_FEATURES
from ..features.observation import SIZE
from ..provenance import stamp
from .actors import LocalPlay, Processes, RayActors, Source
from .curve import plot_curve
from .network import HIDDEN, QNet
from .runs import against_heuristic, keep
from .selfplay import Samples, Student

CHECKPOINT, MODEL, LOG, CURVE = "checkpoint.pt", "model.npz", "log.csv", "curve.png"


@dataclass
class Config:
    """A training run's settings (kept in the checkpoint; a resumed run keeps its own)."""

    preset: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    hidden: tuple[int, ...] = HIDDEN
    #: Actor processes (0: the learner plays its own games between updates).
    actors: int = 1
    batch: int = 512
    lr: float = 3e-4
    #: The samples kept for training, newest first out last.
    buffer: int = 200_000
    #: Updates per sample on average (each sample is drawn about this many times).
    replay: float = 4.0
    #: ε of the student's ε-greedy choice.
    epsilon: float = 0.05
    #: ``all``: the student plays every decision; ``roles``: only the answers before the first
    #: play (the heuristic plays the cards, :class:`~.selfplay.Student`), and the exported
    #: model says so (the learned bot plays the cards as the heuristic).
    phases: str = "all"
    #: The chance that a seat is played by the teacher, from the first to the last of
    #: ``anneal_minutes`` of training (then it stays at the last).
    teacher: tuple[float, float] = (1.0, 0.25)
    anneal_minutes: float = 30.0
    #: Updates between copies of the learner's weights to the actors.
    sync: int = 50
    eval_minutes: float = 5.0
    #: Duplicate deals per evaluation (at least 2: an interval needs two).
    eval_deals: int = 20
    seed: int = 0

    def rules(self) -> Rules:
        return Rules.preset(self.preset, **self.options)

    def teacher_at(self, seconds: float) -> float:
        first, last = self.teacher
        done = min(1.0, seconds / 60 / self.anneal_minutes) if self.anneal_minutes else 1.0
        return first + (last - first) * done

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Config:
        known = {f.name for f in fields(Config)}
        values = {k: v for k, v in data.items() if k in known}
        for name in ("hidden", "teacher"):
            if name in values:
                values[name] = tuple(values[name])
        return Config(**values)


@dataclass
class Counters:
    seconds: float = 0.0
    games: int = 0
    samples: int = 0
    updates: int = 0


#: What a progress display is told after each logged interval.
Progress = Callable[[Counters, dict[str, Any]], None]


class Buffer:
    """The latest ``capacity`` samples, in a ring."""

    def __init__(self, capacity: int) -> None:
        self.obs = np.zeros((capacity, SIZE), np.float32)
        self.act = np.zeros((capacity, ACTION_FEATURES), np.float32)
        self.ret = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.next = capacity, 0, 0

    def add(self, samples: Samples) -> None:
        for start in range(0, len(samples), self.capacity):
            part = slice(start, start + self.capacity)
            obs, act, ret = samples.observations[part], samples.actions[part], samples.returns[part]
            n = len(ret)
            at = (self.next + np.arange(n)) % self.capacity
            self.obs[at], self.act[at], self.ret[at] = obs, act, ret
            self.next = (self.next + n) % self.capacity
            self.size = min(self.capacity, self.size + n)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        at = rng.integers(0, self.size, n)
        return self.obs[at], self.act[at], self.ret[at]


class Trainer:
    """One training run into ``folder`` (see the module docstring); :meth:`run` trains."""

    def __init__(self, folder: Path, config: Config | None = None, device: str = "auto") -> None:
        self.folder = folder
        self.device = torch.device(
            ("cuda" if torch.cuda.is_available() else "cpu") if device == "auto" else device
        )
        self.counters = Counters()
        self.log: list[dict[str, Any]] = []
        saved = folder / CHECKPOINT
        state = torch.load(saved, weights_only=False) if saved.exists() else None
        self.config = Config.from_dict(state["config"]) if state else (config or Config())
        self.rules = self.config.rules()
        torch.manual_seed(self.config.seed)
        self.net = QNet(self.config.hidden).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=self.config.lr)
        if state:
            self.net.load_state_dict(state["model"])
            self.optimizer.load_state_dict(state["optimizer"])
            self.counters = Counters(**state["counters"])
            self.log = state["log"]
        self.buffer = Buffer(self.config.buffer)
        self.rng = np.random.default_rng(self.config.seed + self.counters.updates)
        self.losses: list[float] = []

    @property
    def resumed(self) -> bool:
        return self.counters.updates > 0

    # ------------------------------------------------------------------ the loop

    def run(
        self,
        minutes: float,
        progress: Progress | None = None,
        ray: str | None = None,
        games: int | None = None,
        updates: int | None = None,
    ) -> Counters:
        """Train for ``minutes`` more of wall time (or until ``games`` more games are in, or
        ``updates`` more updates are done, if that comes first), the actors on this machine or
        on the Ray cluster at ``ray``; the counters after it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        config, counters = self.config, self.counters
        torch.set_num_threads(1 if config.actors else 2)
        source = self._source(ray)
        started = time.monotonic() - counters.seconds
        deadline = time.monotonic() + minutes * 60
        next_eval = time.monotonic() + config.eval_minutes * 60
        next_log = time.monotonic() + 5.0
        credit = 0.0  # updates the new samples allow (Config.replay)
        enough = counters.games + games if games is not None else None
        goal = counters.updates + updates if updates is not None else float("inf")
        source.publish(self.net, config.teacher_at(counters.seconds))
        try:
            while (
                time.monotonic() < deadline
                and (enough is None or counters.games < enough)
                and counters.updates < goal
            ):
                got = source.collect()
                for samples in got:
                    self.buffer.add(samples)
                    counters.samples += len(samples)
                    counters.games += 1
                    credit += len(samples) * config.replay / config.batch
                while credit >= 1 and self.buffer.size >= config.batch and counters.updates < goal:
                    self._update()
                    credit -= 1
                    if counters.updates % config.sync == 0:
                        source.publish(self.net, config.teacher_at(counters.seconds))
                counters.seconds = time.monotonic() - started
                if time.monotonic() >= next_log:
                    self._note(progress)
                    next_log = time.monotonic() + 5.0
                if time.monotonic() >= next_eval:
                    self._note(progress, evaluate=True)
                    next_eval = time.monotonic() + config.eval_minutes * 60
                if not got:
                    time.sleep(0.01)
        finally:
            source.stop()
        self._note(progress, evaluate=True)
        return counters

    def _source(self, ray: str | None) -> Source:
        config, seed = self.config, self.config.seed * 1000 + self.counters.games
        student = Student(config.epsilon, roles_only=config.phases == "roles")
        if ray is not None:
            count = max(1, config.actors)
            return RayActors(ray, self.rules, self.net, count, student, seed)
        if config.actors:
            return Processes(self.rules, self.net, config.actors, student, seed)
        return LocalPlay(self.rules, student, seed)

    def _update(self) -> None:
        obs, act, ret = self.buffer.sample(self.config.batch, self.rng)
        device = self.device
        observations, actions = torch.from_numpy(obs).to(device), torch.from_numpy(act).to(device)
        predicted = self.net(observations, actions)[:, VALUE]
        loss = torch.nn.functional.mse_loss(predicted, torch.from_numpy(ret).to(device))
        self.optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 10.0)
        self.optimizer.step()
        self.losses.append(float(loss.detach()))
        self.counters.updates += 1

    # ------------------------------------------------------------------ notes, evaluation

    def _note(self, progress: Progress | None, evaluate: bool = False) -> None:
        """Log the loss since the last note (and an evaluation); save everything."""
        c = self.counters
        row: dict[str, Any] = {
            "seconds": round(c.seconds, 1),
            "games": c.games,
            "samples": c.samples,
            "updates": c.updates,
            "loss": float(np.mean(self.losses)) if self.losses else None,
            "teacher": round(self.config.teacher_at(c.seconds), 3),
        }
        self.losses = []
        self.export()
        if evaluate:
            row |= self.evaluate(self.config.eval_deals)
        self.log.append(row)
        self.save()
        if evaluate:
            plot_curve(self.log, self.folder / CURVE, self.rules.name)
        if progress is not None:
            progress(c, row)

    def evaluate(self, deals: int) -> dict[str, Any]:
        """The exported model against the heuristic over ``deals`` duplicate deals."""
        seed = f"eval/{self.counters.updates}"
        return against_heuristic(self.rules, self.folder / MODEL, deals, seed)

    def export(self) -> None:
        roles_only = self.config.phases == "roles"
        rules = json.dumps(self.rules.to_dict(), sort_keys=True)
        provenance = {
            "method": "deep Monte-Carlo self-play (baohuang.learn.dmc)",
            **stamp(asdict(self.config)),
            "games": self.counters.games,
            "samples": self.counters.samples,
            "updates": self.counters.updates,
        }
        self.net.to_model(roles_only, rules, provenance).save(self.folder / MODEL)

    def save(self) -> None:
        keep(self, self.folder / CHECKPOINT, self.folder / LOG, _column_order)


_ORDER = ("seconds", "games", "samples", "updates", "loss", "teacher")


def _column_order(name: str) -> tuple[int, str]:
    return (_ORDER.index(name) if name in _ORDER else len(_ORDER), name)
