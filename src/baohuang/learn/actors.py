"""Where the trainer's games come from: the learner itself, actor processes on this machine, or
actors on a Ray cluster. Each source plays games with the latest weights it was given
(:meth:`Source.publish`) and hands over the samples of the games finished since it was last
asked (:meth:`Source.collect`)."""

from __future__ import annotations

import queue
import random
from typing import Any, Protocol

import torch
import torch.multiprocessing as mp

from ..engine.rules import Rules
from .network import QNet
from .selfplay import Samples, Student, play_game

#: Games an actor plays per request on a Ray cluster.
GAMES_PER_TASK = 4


class Source(Protocol):
    def publish(self, net: QNet, teacher: float) -> None:
        """From now on, play with ``net``'s weights and this teacher probability."""

    def collect(self) -> list[Samples]:
        """The samples of the games finished since the last call (perhaps none)."""

    def stop(self) -> None: ...


class LocalPlay:
    """No actors: the learner plays one game per call, with its own network."""

    def __init__(self, rules: Rules, student: Student, seed: int) -> None:
        self.rules, self.student, self.rng = rules, student, random.Random(seed)
        self.net: QNet | None = None
        self.teacher = 1.0

    def publish(self, net: QNet, teacher: float) -> None:
        self.net, self.teacher = net, teacher

    def collect(self) -> list[Samples]:
        assert self.net is not None
        samples, _, _ = play_game(self.rules, self.net.values, self.rng, self.teacher, self.student)
        return [samples]

    def stop(self) -> None:
        pass


def _actor_process(
    rules_data: dict[str, Any],
    shared: QNet,
    out: Any,
    stop: Any,
    teacher: Any,
    student: Student,
    seed: int,
) -> None:
    """An actor process: games with the shared network until ``stop`` is set."""
    torch.set_num_threads(1)
    rules, rng = Rules.from_dict(rules_data), random.Random(seed)
    while not stop.is_set():
        samples, _, _ = play_game(rules, shared.values, rng, teacher.value, student)
        while not stop.is_set():
            try:
                out.put(samples, timeout=0.5)
                break
            except queue.Full:
                continue


class Processes:
    """Actor processes (spawned) reading one network in shared memory, which :meth:`publish`
    overwrites (as DouZero's actors read the learner's latest weights)."""

    def __init__(self, rules: Rules, net: QNet, count: int, student: Student, seed: int) -> None:
        self.shared = QNet(net.hidden)
        self.shared.load_state_dict(net.state_dict())
        self.shared.share_memory()
        context = mp.get_context("spawn")
        self.queue: Any = context.Queue(maxsize=64)
        self.stop_flag = context.Event()
        self.teacher = context.Value("d", 1.0)
        self.processes = [
            context.Process(
                target=_actor_process,
                args=(
                    rules.to_dict(),
                    self.shared,
                    self.queue,
                    self.stop_flag,
                    self.teacher,
                    student,
                    seed + n,
                ),
                daemon=True,
            )
            for n in range(count)
        ]
        for process in self.processes:
            process.start()

    def publish(self, net: QNet, teacher: float) -> None:
        self.shared.load_state_dict(net.state_dict())
        self.teacher.value = teacher

    def collect(self) -> list[Samples]:
        got = []
        while True:
            try:
                got.append(self.queue.get_nowait())
            except queue.Empty:
                return got

    def stop(self) -> None:
        self.stop_flag.set()
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


class SelfPlay:
    """A Ray actor's work: games with the weights it is sent (see :class:`RayActors`)."""

    def __init__(
        self, rules_data: dict[str, Any], hidden: tuple[int, ...], student: Student, seed: int
    ) -> None:
        torch.set_num_threads(1)
        self.rules, self.net = Rules.from_dict(rules_data), QNet(hidden)
        self.student, self.rng = student, random.Random(seed)

    def games(self, weights: dict[str, torch.Tensor], teacher: float, count: int) -> list[Samples]:
        self.net.load_state_dict(weights)
        values, rules = self.net.values, self.rules
        return [play_game(rules, values, self.rng, teacher, self.student)[0] for _ in range(count)]


class RayActors:
    """Actors on a Ray cluster (``ray.init(address)``, ``"local"``: a fresh local instance):
    each plays :data:`GAMES_PER_TASK` games per request with the weights last published to
    the object store; the learner keeps one request in flight per actor."""

    def __init__(
        self, address: str, rules: Rules, net: QNet, count: int, student: Student, seed: int
    ) -> None:
        from ..distributed import connect

        ray = connect(address)
        self.ray = ray
        actor_class = ray.remote(num_cpus=1)(SelfPlay)
        self.actors = [
            actor_class.remote(rules.to_dict(), net.hidden, student, seed + n) for n in range(count)
        ]
        self.weights: Any = None
        self.teacher = 1.0
        self.inflight: dict[Any, Any] = {}

    def publish(self, net: QNet, teacher: float) -> None:
        cpu = {name: tensor.detach().cpu() for name, tensor in net.state_dict().items()}
        self.weights, self.teacher = self.ray.put(cpu), teacher
        for actor in self.actors:
            if actor not in self.inflight.values():
                self._ask(actor)

    def _ask(self, actor: Any) -> None:
        task = actor.games.remote(self.weights, self.teacher, GAMES_PER_TASK)
        self.inflight[task] = actor

    def collect(self) -> list[Samples]:
        ready, _ = self.ray.wait(list(self.inflight), num_returns=len(self.inflight), timeout=0)
        got: list[Samples] = []
        for task in ready:
            actor = self.inflight.pop(task)
            got += self.ray.get(task)
            self._ask(actor)
        return got

    def stop(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
