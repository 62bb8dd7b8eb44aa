"""Engine benchmark: random self-play, legal-play generation, and RLCard's Doudizhu for scale.

Run ``.venv/bin/python bench/engine_bench.py [--seconds S] [--seed N] [--json FILE]``.
Each measurement runs for about ``S`` seconds of wall time, twice, alternating our engine and
RLCard, and the better run of each is reported (this machine is shared; noise only slows).
RLCard comes from the ``bench`` extra (``pip install -e '.[bench]'``); without it, its row is
skipped.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import baohuang
from baohuang import Play, Rules
from baohuang.engine.cards import format_cards
from baohuang.engine.movegen import plays_for, rank_counts
from baohuang.engine.rules import PRESETS
from benchkit import alternate, machine, save

RULES = Rules.preset("classic")
#: Positions sampled from random games before timing move generation.
POSITIONS = 4000
#: Timed runs per measurement; the best is kept.
ROUNDS = 2
#: Our decisions/s over RLCard's that the engine aims for.
TARGET_RATIO = 3.0


@dataclass
class Row:
    """One measurement: ``calls`` units of work (decisions or generator calls) in ``seconds``."""

    name: str
    seconds: float
    calls: int
    games: int = 0
    plays: int = 0

    @property
    def per_second(self) -> float:
        return self.calls / self.seconds

    def figures(self) -> dict[str, Any]:
        """The row as JSON-ready numbers."""
        out: dict[str, Any] = asdict(self)
        out["per_second"] = self.per_second
        if self.games:
            out["games_per_second"] = self.games / self.seconds
            out["decisions_per_game"] = self.calls / self.games
        else:
            out["us_per_call"] = 1e6 * self.seconds / self.calls
            out["plays_per_call"] = self.plays / self.calls
        return out


@dataclass(frozen=True)
class Position:
    """A decision of the play phase: the hand (as counts and as a string) and the play to beat."""

    counts: tuple[int, ...]
    hand: str
    current: Play | None


# ---------------------------------------------------------------------- game loops


def play_random_game(rules: Rules, game_seed: int, rng: random.Random, views: bool = False) -> int:
    """Play one game with uniformly random actions; return its number of decisions.

    With ``views``, the acting seat's view is built before each decision, as a bot would need
    (and as RLCard's ``step`` does).
    """
    g = baohuang.new_game(rules, seed=game_seed)
    decisions = 0
    while not g.is_over:
        if views:
            g.view(g.current_seat)
        acts = g.legal_actions()
        g.apply(rng.choice(acts))
        decisions += 1
    return decisions


def time_games(name: str, play_one: Callable[[int], int], seconds: float) -> Row:
    """Play games ``0, 1, 2, ...`` with ``play_one`` until ``seconds`` have passed."""
    decisions = games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += play_one(games)
        games += 1
    return Row(name, elapsed, decisions, games=games)


def baohuang_selfplay(preset: str, seconds: float, seed: int, views: bool = False) -> Row:
    """Random self-play through the public API (a decision: legal_actions() + apply())."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    name = f"{preset} self-play" + (" + views" if views else "")
    return time_games(name, lambda i: play_random_game(rules, seed + i, rng, views), seconds)


def rlcard_selfplay(seconds: float, seed: int) -> Row | None:
    """RLCard's Doudizhu engine loop with random actions, or ``None`` without RLCard."""
    try:
        import numpy as np
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError:
        return None
    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)

    def play_one(_: int) -> int:
        state, _player = game.init_game()
        decisions = 0
        while not game.is_over():
            state, _player = game.step(rng.choice(state["actions"]))
            decisions += 1
        return decisions

    return time_games("RLCard Doudizhu", play_one, seconds)


# ---------------------------------------------------------------------- move generation


def sample_positions(count: int, seed: int) -> list[Position]:
    """Play-phase positions from random games (seeds after the self-play ones)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    game_seed = seed + 1_000_000
    while len(positions) < count:
        g = baohuang.new_game(RULES, seed=game_seed)
        game_seed += 1
        while not g.is_over:
            if g.phase == "play":
                assert g.current_seat is not None
                hand = g.hand(g.current_seat)
                positions.append(Position(tuple(rank_counts(hand)), format_cards(hand), g.lead))
            g.apply(rng.choice(g.legal_actions()))
    return positions[:count]


def time_calls(
    name: str, args: Sequence[tuple[Any, ...]], generate: Callable[..., list[Play]], seconds: float
) -> Row:
    """Call ``generate(*a)`` over ``args`` in passes until ``seconds`` have passed."""
    calls = plays = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for a in args:
            plays += len(generate(*a))
        calls += len(args)
    return Row(name, elapsed, calls, plays=plays)


def movegen_rows(positions: Sequence[Position], seconds: float) -> list[Row]:
    """plays_for on counts and legal_plays on strings, leading and following."""
    leading = [p for p in positions if p.current is None]
    following = [p for p in positions if p.current is not None]
    return [
        time_calls(
            "plays_for lead", [(p.counts, None, RULES) for p in leading], plays_for, seconds
        ),
        time_calls(
            "plays_for follow",
            [(p.counts, p.current, RULES) for p in following],
            plays_for,
            seconds,
        ),
        time_calls(
            "legal_plays lead",
            [(p.hand, None, RULES) for p in leading],
            baohuang.legal_plays,
            seconds,
        ),
        time_calls(
            "legal_plays follow",
            [(p.hand, str(p.current), RULES) for p in following],
            baohuang.legal_plays,
            seconds,
        ),
    ]


# ---------------------------------------------------------------------- report


def measure(
    presets: Sequence[str], seconds: float, seed: int, console: Console
) -> tuple[list[Row], Row | None]:
    """Every measurement, ``ROUNDS`` times alternating engines; the best of each, and RLCard's."""
    with console.status(f"sampling {POSITIONS} positions from random games"):
        positions = sample_positions(POSITIONS, seed)

    def ours() -> list[Row]:
        selfplay = [
            baohuang_selfplay(preset, seconds, seed, views)
            for preset in presets
            for views in (False, True)
        ]
        return [*selfplay, *movegen_rows(positions, seconds)]

    return alternate(ROUNDS, ours, lambda: rlcard_selfplay(seconds, seed), console, "baohuang")


def cells(row: Row) -> list[str]:
    """A row's figures as table cells: the rate, then per game or per call."""
    if row.games:
        per_game = [f"{row.games / row.seconds:,.1f}", f"{row.calls / row.games:,.1f}", "", ""]
    else:
        per_game = [
            "",
            "",
            f"{1e6 * row.seconds / row.calls:,.2f}",
            f"{row.plays / row.calls:,.1f}",
        ]
    return [f"{row.per_second:,.0f}", *per_game]


def table(rows: Sequence[Row], rlcard: Row | None) -> Table:
    """The Rich table of the figures."""
    t = Table(
        title=f"Engine benchmark (best of {ROUNDS} runs each)",
        caption="per s: decisions (self-play) or calls (generators); "
        "legal_plays parses hand and play strings",
    )
    t.add_column("measurement", no_wrap=True)
    for col in ("per s", "games/s", "dec/game", "µs/call", "plays/call"):
        t.add_column(col, justify="right", no_wrap=True)
    for row in rows:
        t.add_row(row.name, *cells(row))
    if rlcard is None:
        t.add_row("RLCard Doudizhu", "skipped")
    else:
        t.add_row(rlcard.name, *cells(rlcard))
    if rlcard is not None:
        for row in rows:
            if row.games:
                ratio = row.per_second / rlcard.per_second
                verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
                name = "ratio " + row.name.replace(" self-play", "")
                t.add_row(name, f"{ratio:.2f}×", "", "", "", f"≥{TARGET_RATIO:g}× {verdict}")
    return t


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per measurement")
    parser.add_argument("--seed", type=int, default=0, help="seed of games and random choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--presets",
        default=",".join(PRESETS),
        help="comma-separated presets to self-play (default: all)",
    )
    args = parser.parse_args(argv)
    console = Console(width=100)
    rows, rlcard = measure(args.presets.split(","), args.seconds, args.seed, console)
    ratios = {r.name: r.per_second / rlcard.per_second for r in rows if rlcard and r.games}
    info = machine()
    console.print(table(rows, rlcard))
    if rlcard is None:
        console.print(
            "rlcard is not importable (pip install -e '.[bench]'): its row is skipped", markup=False
        )
    console.print(
        f"Python {info['python']} ({info['implementation']}) on {info['processor']}, "
        f"{info['cpu_count']} CPUs; {args.seconds:g} s per run, seed {args.seed}"
    )
    save(
        args.json,
        vars(args),
        machine=info,
        seconds=args.seconds,
        seed=args.seed,
        positions=POSITIONS,
        rows=[r.figures() for r in rows],
        rlcard=rlcard.figures() if rlcard else None,
        ratios=ratios,
        target_ratio=TARGET_RATIO,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
