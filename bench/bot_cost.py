"""The CPU a bot level costs a decision (机器人算力): whole games with the level at every seat,
one process on one core, each ``choose`` timed (the engine's steps between are not).

The means are :data:`baohuang.server.botpool.COST` (what admission and the pool's queue count)
and the capacity model of bench/cluster.md: cores of bot thinking per 1,000 tables with k bot
seats, people taking ``--person`` s a move and bots waiting ``--delay`` s (:func:`cores`).

    .venv/bin/python bench/bot_cost.py [--presets classic weihai] [--levels heuristic search
        strong] [--games 4] [--seed 0] [--json FILE]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from baohuang.bots.base import make_bot
from baohuang.engine.game import new_game
from baohuang.engine.rules import Rules
from benchkit import save


def decisions(preset: str, level: str, games: int, seed: int, progress: Progress) -> list[float]:
    """Seconds per decision over ``games`` games of ``level`` at every seat."""
    rules = Rules.preset(preset)
    times: list[float] = []
    task = progress.add_task(f"{preset} {level}", total=games)
    for g in range(games):
        game = new_game(rules, f"{seed}/{g}")
        bots = [make_bot(level, rules, f"{seed}/{g}/{s}") for s in range(5)]
        while (seat := game.current_seat) is not None:
            view, legal = game.view(seat), game.legal_actions()
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            times.append(time.perf_counter() - start)
            game.apply(action)
        progress.advance(task)
    return times


def cores(cost: float, bots: int, delay: float, person: float) -> float:
    """Cores of thinking per 1,000 tables with ``bots`` bot seats of ``cost`` s a decision:
    the seats take turns, so a table makes 5 decisions in ``bots * (delay + cost) + (5 - bots)
    * person`` seconds, ``bots`` of them thought about."""
    return 1000 * bots * cost / (bots * (delay + cost) + (5 - bots) * person)


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "decisions": len(times),
        "mean_ms": statistics.fmean(times) * 1000,
        "p50_ms": at(0.5),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "decisions_per_game": len(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", nargs="+", default=["classic", "weihai"])
    parser.add_argument("--levels", nargs="+", default=["heuristic", "search", "strong"])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.8, help="a bot's wait before a move")
    parser.add_argument("--person", type=float, default=5.0, help="a person's seconds a move")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    rows = []
    with Progress(console=console, transient=True) as progress:
        for preset in args.presets:
            for level in args.levels:
                times = decisions(preset, level, args.games, args.seed, progress)
                row = {"preset": preset, "level": level, **summary(times)}
                row["decisions_per_game"] = len(times) / args.games
                rows.append(row)
    table = Table(title="Seconds of one core a bot decision takes (whole games, every seat)")
    for name in ("preset", "level", "decisions", "per game", "mean ms", "p50", "p95", "p99"):
        table.add_column(name, justify="left" if name in ("preset", "level") else "right")
    for r in rows:
        table.add_row(
            r["preset"],
            r["level"],
            str(r["decisions"]),
            f"{r['decisions_per_game']:.0f}",
            f"{r['mean_ms']:.2f}",
            f"{r['p50_ms']:.2f}",
            f"{r['p95_ms']:.1f}",
            f"{r['p99_ms']:.1f}",
        )
    console.print(table)
    worst = {r["level"]: max(x["mean_ms"] for x in rows if x["level"] == r["level"]) for r in rows}
    model = Table(
        title=f"Cores of bot thinking per 1,000 tables (people {args.person:g} s a move, bots "
        f"wait {args.delay:g} s; each level at its dearest preset)"
    )
    model.add_column("level")
    for k in range(1, 5):
        model.add_column(f"{k} bot seat{'s' if k > 1 else ''}", justify="right")
    capacity = {}
    for level, mean in worst.items():
        capacity[level] = [cores(mean / 1000, k, args.delay, args.person) for k in range(1, 5)]
        model.add_row(level, *(f"{c:.2f}" for c in capacity[level]))
    console.print(model)
    save(args.json, vars(args), rows=rows, capacity=capacity)


if __name__ == "__main__":
    main()
