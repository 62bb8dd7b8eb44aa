"""Expert iteration (专家迭代): games of an expert bot (``strong``, the search) at every seat are
the network's lessons, and the network then plays, and searches, in its place.

**Games** (:func:`generate`): the expert plays every seat of fresh deals; each decision with
more than one legal action is kept as the seat's observation (:mod:`baohuang.features`), its
legal actions (ids in the fixed action table), the expert's choice among them, and the seat's
R10 points at the end of the game, the heuristic's choice from the same seat's view (what the
expert improves on: ``strong`` agrees with it at about nine decisions in ten), and where the
expert searched (``strong``: most of the play, and the role answers), each searched action's
mean points over the search's deals (:attr:`~baohuang.bots.search.SearchBot.searched`).
Shards recorded before the heuristic's choice was kept get it by :func:`annotate`, which
replays their games from their seeds. **DAgger** (``student``): a trained network plays every
seat instead and the expert labels each of its decisions — the positions the network reaches,
where imitation of the expert's own games never took it (:func:`dagger_game`). Games go to
numbered shards of ``shard`` games (``games/00000.npz`` …), each game from its own seed
(``SEED/INDEX``): a run that stops loses at most the shards it was writing (:data:`SHARD` games
each), and a later run plays the missing ones first; several processes (``jobs``) play shards
side by side.

**Fitting** (:mod:`.fit`): the Q-network scores each legal action; the expert's choice is the
target of a softmax over them (the policy), the points that followed it and the search's
values of the actions it weighed the targets of their values (the value), so the learned bot's
best-valued action is the expert's move.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.base import make_bot
from ..bots.heuristic import HeuristicBot
from ..bots.learned import POINTS_SCALE, LearnedBot, QModel
from ..engine.actions import Action
from ..engine.game import new_game
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..engine.views import View
from ..features.actions import action_table
from ..features.history import ViewHistory
from ..features.observation import SIZE, Encoder

#: Where the games of a run are kept, under its folder.
GAMES = "games"
#: Games a shard holds.
SHARD = 10
#: Beside a shard a student network played (DAgger): the model and its provenance.
STUDENT = ".student.json"


@dataclass
class Lessons:
    """Decisions: observations (N × SIZE), each one's legal action ids (``legal[offsets[i]:
    offsets[i + 1]]``), the index of the expert's choice among them, the seat's points scaled
    by :data:`~baohuang.bots.learned.POINTS_SCALE`, beside ``legal`` each action's value by the
    expert's search, scaled alike (NaN: not searched; all NaN in games recorded before the
    search's values were kept), and the index of the heuristic's choice (``base``; -1 in games
    recorded before it was kept, until :func:`annotate`)."""

    observations: npt.NDArray[np.float16]
    legal: npt.NDArray[np.int16]
    offsets: npt.NDArray[np.int32]
    chosen: npt.NDArray[np.int16]
    returns: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]
    base: npt.NDArray[np.int16]

    def __len__(self) -> int:
        return len(self.chosen)

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(
            tmp,
            observations=self.observations,
            legal=self.legal,
            offsets=self.offsets,
            chosen=self.chosen,
            returns=self.returns,
            values=self.values,
            base=self.base,
        )
        tmp.replace(path)  # a shard is whole or absent

    @staticmethod
    def load(path: Path) -> Lessons:
        with np.load(path) as data:
            legal = data["legal"]
            chosen = data["chosen"]
            values = data["values"] if "values" in data else np.full(len(legal), np.nan)
            base = data["base"] if "base" in data else np.full(len(chosen), -1, np.int16)
            return Lessons(
                data["observations"],
                legal,
                data["offsets"],
                chosen,
                data["returns"],
                values.astype(np.float32),
                base,
            )

    @staticmethod
    def join(parts: list[Lessons]) -> Lessons:
        """One batch of ``parts``, their offsets shifted."""
        offsets = [np.zeros(1, np.int32)]
        base = 0
        for part in parts:
            offsets.append(part.offsets[1:] + base)
            base += int(part.offsets[-1])
        return Lessons(
            np.concatenate([p.observations for p in parts]) if parts else empty_observations(),
            np.concatenate([p.legal for p in parts]) if parts else np.zeros(0, np.int16),
            np.concatenate(offsets),
            np.concatenate([p.chosen for p in parts]) if parts else np.zeros(0, np.int16),
            np.concatenate([p.returns for p in parts]) if parts else np.zeros(0, np.float32),
            np.concatenate([p.values for p in parts]) if parts else np.zeros(0, np.float32),
            np.concatenate([p.base for p in parts]) if parts else np.zeros(0, np.int16),
        )


def empty_observations() -> npt.NDArray[np.float16]:
    return np.zeros((0, SIZE), np.float16)


def expert_game(rules: Rules, expert: str, seed: str, student: QModel | None = None) -> Lessons:
    """One game of ``expert`` at every seat from the deal of ``seed`` (module docstring), or of
    the network ``student`` labelled by ``expert`` (:func:`dagger_game`)."""
    if student is not None:
        return dagger_game(rules, expert, student, seed)
    bots = [make_bot(expert, rules, f"{seed}/{seat}") for seat in range(SEATS)]

    def choose(seat: int, view: View, legal: list[Action]) -> Action:
        return bots[seat].choose(view, legal)

    return _record(rules, seed, choose, lambda seat: getattr(bots[seat], "searched", {}))


def dagger_game(rules: Rules, expert: str, student: QModel, seed: str) -> Lessons:
    """One game of the network ``student`` at every seat from the deal of ``seed``, each of its
    decisions labelled by the action ``expert`` would have played there, and the search's
    values of it. The expert thinks on a copy of itself, then sees what the seat played, as a
    bot that takes a seat over does (:func:`~baohuang.bots.base.catch_up`)."""
    experts = [make_bot(expert, rules, f"{seed}/{seat}") for seat in range(SEATS)]
    students = [LearnedBot(rules, student) for _ in range(SEATS)]
    searched: dict[Action, float] = {}

    def label(seat: int, view: View, legal: list[Action]) -> Action:
        nonlocal searched
        if len(legal) == 1:  # no lesson: the expert sees the turn when it is played
            searched = {}
            return legal[0]
        thinking = copy.deepcopy(experts[seat])
        chosen = thinking.choose(view, legal)
        searched = getattr(thinking, "searched", {})
        return chosen

    def play(seat: int, view: View, legal: list[Action], _: Action) -> Action:
        action = students[seat].choose(view, legal)
        observe = getattr(experts[seat], "observe", None)  # a bot without keeps nothing
        if observe is not None:
            observe(view, action)
        return action

    return _record(rules, seed, label, lambda _: searched, play)


Chooser = Callable[[int, View, list[Action]], Action]
#: The action a seat plays, given the label ``choose`` gave (DAgger: the student's).
Player = Callable[[int, View, list[Action], Action], Action]


def _record(
    rules: Rules,
    seed: str,
    choose: Chooser,
    searched: Callable[[int], dict[Action, float]] | None = None,
    play: Player | None = None,
) -> Lessons:
    """The game of ``seed`` as lessons, each seat's lesson by ``choose(seat, view, legal)``
    (the search's values of that choice by ``searched(seat)``), its action played by ``play``
    (default: the lesson)."""
    game = new_game(rules, seed)
    table = action_table(rules.twos_wild)
    encoder = Encoder(rules)
    histories = [ViewHistory() for _ in range(SEATS)]
    shadows = [HeuristicBot(rules) for _ in range(SEATS)]
    observations: list[npt.NDArray[np.float32]] = []
    legal_ids: list[int] = []
    values: list[float] = []
    offsets = [0]
    chosen: list[int] = []
    base: list[int] = []
    seats: list[int] = []
    while (seat := game.current_seat) is not None:
        view, legal = game.view(seat), game.legal_actions()
        histories[seat].see(view)
        heuristic = shadows[seat].choose(view, legal)  # its memory reads every view it gets
        lesson = choose(seat, view, legal)
        if len(legal) > 1:
            observations.append(encoder.encode(view, histories[seat]))
            legal_ids.extend(table.ids[str(a)] for a in legal)
            weighed = searched(seat) if searched else {}
            values.extend(weighed.get(a, math.nan) / POINTS_SCALE for a in legal)
            offsets.append(len(legal_ids))
            chosen.append(legal.index(lesson))
            base.append(legal.index(heuristic))
            seats.append(seat)
        game.apply(play(seat, view, legal, lesson) if play else lesson)
    assert game.result is not None
    scores = game.result.scores
    return Lessons(
        np.stack(observations).astype(np.float16) if observations else empty_observations(),
        np.array(legal_ids, np.int16),
        np.array(offsets, np.int32),
        np.array(chosen, np.int16),
        np.array([scores[s] / POINTS_SCALE for s in seats], np.float32),
        np.array(values, np.float32),
        np.array(base, np.int16),
    )


def shards(folder: Path) -> list[Path]:
    """The run's finished shards, in order."""
    return sorted((folder / GAMES).glob("[0-9]" * 5 + ".npz"))


def generate(
    folder: Path,
    rules: Rules,
    expert: str,
    games: int,
    seed: str,
    done: Callable[[int], None] | None = None,
    jobs: int = 1,
    student: Path | None = None,
) -> int:
    """Play ``games`` more expert games (whole shards) into ``folder``, the lowest shard
    numbers missing first (a shard lost to a stopped run is played again), by ``jobs``
    processes; ``done(n)`` as games finish; with ``student`` (a model's path), that network
    plays and the expert labels (:func:`dagger_game`). The games the run holds now."""
    (folder / GAMES).mkdir(parents=True, exist_ok=True)
    todo = list(itertools.islice(missing(folder), -(-games // SHARD)))
    if jobs <= 1:
        for index in todo:
            write_shard(folder, rules, expert, seed, index, done, student)
    else:
        spawn = multiprocessing.get_context("spawn")  # no forked torch or event loop
        with ProcessPoolExecutor(jobs, mp_context=spawn) as pool:
            running = [
                pool.submit(write_shard, folder, rules, expert, seed, index, None, student)
                for index in todo
            ]
            for finished in as_completed(running):
                finished.result()
                if done is not None:
                    done(SHARD)
    return len(shards(folder)) * SHARD


def missing(folder: Path) -> Iterator[int]:
    """The shard numbers not in ``folder`` yet, from the lowest."""
    return (i for i in itertools.count() if not (folder / GAMES / f"{i:05d}.npz").exists())


def students(folder: Path) -> dict[str, dict[str, Any]]:
    """The shards a student network played (DAgger), by name: the model and its provenance."""
    notes = sorted((folder / GAMES).glob(f"*{STUDENT}"))
    return {path.name.removesuffix(STUDENT): json.loads(path.read_text()) for path in notes}


def write_shard(
    folder: Path,
    rules: Rules,
    expert: str,
    seed: str,
    index: int,
    done: Callable[[int], None] | None = None,
    student: Path | None = None,
) -> None:
    """Shard ``index``: :data:`SHARD` games from the seeds ``SEED/INDEX·SHARD + g`` (played
    by ``student`` if given, labelled by ``expert``: noted beside it, :data:`STUDENT`)."""
    model = QModel.load(student) if student is not None else None
    parts = []
    for g in range(SHARD):
        parts.append(expert_game(rules, expert, f"{seed}/{index * SHARD + g}", model))
        if done is not None:
            done(1)
    note = folder / GAMES / f"{index:05d}{STUDENT}"
    if model is not None:  # the note first: no student's shard without it
        made = model.provenance or {}
        about = {"model": str(student), **{k: made.get(k) for k in ("commit", "updates")}}
        note.write_text(json.dumps(about, sort_keys=True) + "\n")
    else:
        note.unlink(missing_ok=True)  # a note left by a stopped run
    Lessons.join(parts).save(folder / GAMES / f"{index:05d}.npz")


def annotate(
    folder: Path, rules: Rules, seed: str, done: Callable[[int], None] | None = None
) -> int:
    """Add the heuristic's choices to the shards of ``folder`` recorded without them: each
    game replayed from its seed (as :func:`write_shard` named it) with the expert's recorded
    choices, which must give the recorded observations, legal actions and points (else a
    ``ValueError`` names the shard); ``done(n)`` as games finish. The shards annotated."""
    todo = unannotated(folder)
    for path in todo:
        lessons = Lessons.load(path)
        index = int(path.stem)
        parts, at = [], 0
        for g in range(SHARD):
            part = _replay(rules, f"{seed}/{index * SHARD + g}", lessons, at, path)
            parts.append(part)
            at += len(part)
            if done is not None:
                done(1)
        again = Lessons.join(parts)
        same = (
            len(again) == len(lessons)
            and np.array_equal(again.legal, lessons.legal)
            and np.array_equal(again.observations, lessons.observations)
            and np.array_equal(again.returns, lessons.returns)
        )
        if not same:
            raise ValueError(f"{path}: its games do not replay from the seeds {seed}/…")
        lessons.base = again.base
        lessons.save(path)
    return len(todo)


def unannotated(folder: Path) -> list[Path]:
    """The shards of ``folder`` without the heuristic's choices (:func:`annotate`): their
    arrays' names are read, not their decisions."""

    def bare(path: Path) -> bool:
        with np.load(path) as data:
            return "base" not in data.files

    return [path for path in shards(folder) if bare(path)]


def _replay(rules: Rules, seed: str, lessons: Lessons, at: int, path: Path) -> Lessons:
    """The game of ``seed`` played as ``lessons`` recorded it from decision ``at`` on."""
    table = action_table(rules.twos_wild)
    step = itertools.count(at)

    def recorded(seat: int, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        i = next(step)
        if i >= len(lessons):
            raise ValueError(f"{path}: fewer decisions than the game of {seed} has")
        start, end = lessons.offsets[i], lessons.offsets[i + 1]
        if [table.ids[str(a)] for a in legal] != lessons.legal[start:end].tolist():
            raise ValueError(f"{path}: decision {i} is not the one the game of {seed} reaches")
        return legal[int(lessons.chosen[i])]

    return _record(rules, seed, recorded)


def load_all(folder: Path) -> Lessons:
    """Every decision of the run's games."""
    return Lessons.join([Lessons.load(path) for path in shards(folder)])
