"""Duplicate tournaments between bots (复式赛): every deal is replayed with the bots rotated
through the seats, so that the luck of the cards cancels out.

**Seat assignments.** With ``k`` bots (2 to 5) the base pattern seats bot ``i % k`` at seat
``i``: ``A B A B A`` for two bots, ``A B C A B`` for three. Each deal is played once for each of
the 5 rotations of the pattern and each of the ``k`` relabellings ``bot -> bot + j (mod k)``;
duplicates are dropped (five bots: the 5 rotations). For two bots these are the rotations of
``A B A B A`` and of its complement ``B A B A B`` (the same set as ``A B A B B`` and its
complement): 10 games per deal, each bot in each seat 5 times. In general every bot sits in
every seat equally often (:func:`assignments`).

**Statistics.** Points are per seat-game (one bot in one seat of one game). A bot's mean and
its 95% confidence interval respect the clustering by deal: the bot's mean over each deal's
seat-games first, then the mean of those per-deal means and ``1.96`` standard errors across
deals. Win rates are by the role the bot held (emperor with a guard, guard, rebel, solo: an
emperor alone, 明独 or 暗独), a draw not being a win. Every ``choose`` call is timed.

Every game is seeded by its deal and seat assignment only, so the results are the same for any
number of processes.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import Any

from ..engine.actions import Action
from ..engine.game import new_game
from ..engine.match import game_seed
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..engine.views import View
from .base import Bot, make_bot, play_out

ROLES = ("emperor", "guard", "rebel", "solo")
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def assignments(count: int) -> list[tuple[int, ...]]:
    """The seat assignments of one deal for ``count`` bots: per seat, a bot index (module
    docstring)."""
    if not 2 <= count <= SEATS:
        raise ValueError(f"an arena takes 2 to 5 bots, not {count}")
    pattern = [i % count for i in range(SEATS)]
    rotated = (
        tuple((pattern[(seat + r) % SEATS] + j) % count for seat in range(SEATS))
        for j in range(count)
        for r in range(SEATS)
    )
    return list(dict.fromkeys(rotated))


class TimedBot:
    """A bot whose ``choose`` calls are timed into ``times`` (seconds)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: View, legal: list[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.times.append(time.perf_counter() - start)
        return action


@dataclass(slots=True)
class DealRecord:
    """One deal's games, per bot index: points per seat-game, (role, won) per seat-game, and
    the seconds of each decision."""

    points: list[list[int]]
    roles: list[list[tuple[str, bool]]]
    times: list[list[float]]


def play_deal(rules: Rules, names: Sequence[str], seed: int | str, deal: int) -> DealRecord:
    """Play deal ``deal`` once per seat assignment (``names`` are bots of :data:`BOTS`)."""
    k = len(names)
    record = DealRecord([[] for _ in names], [[] for _ in names], [[] for _ in names])
    deal_seed = game_seed(seed, deal)
    for n, seating in enumerate(assignments(k)):
        bots = [
            TimedBot(make_bot(names[b], rules, f"{deal_seed}/{n}/{seat}"), record.times[b])
            for seat, b in enumerate(seating)
        ]
        result = play_out(new_game(rules, deal_seed), bots)
        for seat, b in enumerate(seating):
            record.points[b].append(result.scores[seat])
            record.roles[b].append((result.role(seat), result.won(seat)))
    return record


#: A ``map`` that may run its calls elsewhere, results in order (a Ray cluster's tasks).
Mapper = Callable[[Callable[[int], DealRecord], Iterable[int]], Iterator[DealRecord]]


def play_deals(
    rules: Rules,
    names: Sequence[str],
    deals: int,
    seed: int | str,
    jobs: int = 1,
    mapper: Mapper | None = None,
    first: int = 0,
) -> Iterator[DealRecord]:
    """The records of deals ``first .. first+deals-1`` in order, over ``jobs`` processes
    (spawned), or through ``mapper`` (:func:`baohuang.distributed.ray_map`). Deal ``i`` of a
    seed is the same cards whichever run plays it, so a long arena can be played in pieces."""
    work = partial(play_deal, rules, list(names), seed)
    indices = range(first, first + deals)
    if mapper is not None:
        yield from mapper(work, indices)
        return
    if jobs == 1:
        yield from map(work, indices)
        return
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        yield from pool.map(work, indices, chunksize=max(1, deals // (jobs * 8)))


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation) of independent values."""
    if len(values) < 2:
        raise ValueError("a confidence interval needs at least two values")
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0–1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass(slots=True)
class BotStats:
    """One bot's results over an arena (module docstring)."""

    name: str
    mean: float
    ci_low: float
    ci_high: float
    seat_games: int
    #: role -> (games won, games played in that role)
    wins: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: role -> mean points per seat-game in that role (None: never held)
    role_points: dict[str, float | None] = field(default_factory=dict)
    decisions: int = 0
    time_mean_ms: float = 0.0
    time_p95_ms: float = 0.0

    def win_rate(self, role: str) -> float | None:
        won, games = self.wins[role]
        return won / games if games else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "seat_games": self.seat_games,
            "wins": {
                role: {
                    "games": games,
                    "won": won,
                    "rate": self.win_rate(role),
                    "points": self.role_points.get(role),
                }
                for role, (won, games) in self.wins.items()
            },
            "decisions": self.decisions,
            "decision_ms": {"mean": self.time_mean_ms, "p95": self.time_p95_ms},
        }


def summarize(names: Sequence[str], records: Sequence[DealRecord]) -> list[BotStats]:
    """Per bot: the mean points per seat-game with its deal-clustered 95% interval, wins and
    mean points by role, decision times."""
    stats = []
    for b, name in enumerate(names):
        per_deal = [statistics.fmean(r.points[b]) for r in records]
        mean, low, high = mean_ci(per_deal)
        roles = [entry for r in records for entry in r.roles[b]]
        points = [p for r in records for p in r.points[b]]
        by_role = {
            role: [p for p, (held, _) in zip(points, roles, strict=True) if held == role]
            for role in ROLES
        }
        wins = {
            role: (
                sum(won for held, won in roles if held == role),
                [h for h, _ in roles].count(role),
            )
            for role in ROLES
        }
        times = [t for r in records for t in r.times[b]]
        stats.append(
            BotStats(
                name,
                mean,
                low,
                high,
                seat_games=len(roles),
                wins=wins,
                role_points={r: statistics.fmean(p) if p else None for r, p in by_role.items()},
                decisions=len(times),
                time_mean_ms=1000 * statistics.fmean(times) if times else 0.0,
                time_p95_ms=1000 * percentile(times, 0.95) if times else 0.0,
            )
        )
    return stats


def arena_json(
    rules: Rules, deals: int, seed: int | str, stats: Sequence[BotStats]
) -> dict[str, Any]:
    """The ``--json`` document: preset, games (deals), seed, games played, and per bot its
    :meth:`BotStats.to_dict`."""
    return {
        "preset": rules.name,
        "rules": rules.to_dict(),
        "games": deals,
        "seed": seed,
        "games_played": deals * len(assignments(len(stats))),
        "bots": {s.name: s.to_dict() for s in stats},
    }
