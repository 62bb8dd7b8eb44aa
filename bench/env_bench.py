"""Environment benchmark: baohuang.env's AEC steps/s against RLCard Doudizhu's ``env.step``.

Run ``.venv/bin/python bench/env_bench.py [--seconds S] [--seed N] [--presets P,Q] [--json FILE]``.
A step of ours is one observation (the acting seat's view encoded, plus its action mask), one
uniformly random legal id drawn from the acting agent's ``legal_ids`` info, and one ``step``;
RLCard's is one random legal action drawn from its state's ``legal_actions`` and one
``env.step``, which extracts the next player's state (its observation). Rows marked "mask
scanned" draw the id from the mask instead (``nonzero``), as an agent without the info would.
Each measurement runs for about ``S`` seconds of wall time, twice, alternating ours and
RLCard's, and the better run of each is reported (this machine is shared; noise only slows).
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

import numpy as np
from rich.console import Console
from rich.table import Table

from baohuang import env as bh
from baohuang.engine.rules import PRESETS
from benchkit import alternate, machine, save

#: Timed runs per measurement; the best is kept.
ROUNDS = 2
#: Our steps/s over RLCard's that the raw environment aims for (the wrapped row is shown for
#: information: PettingZoo's wrappers cost what they cost, see ``bench/env.md``).
TARGET_RATIO = 5.0


@dataclass
class Row:
    """One measurement: ``steps`` environment steps over ``games`` games in ``seconds``."""

    name: str
    seconds: float
    steps: int
    games: int
    actions: int = 0
    wrapped: bool = False
    #: Where the random legal id comes from: the ``legal_ids`` info, or the mask scanned.
    pick: str = "ids"

    @property
    def per_second(self) -> float:
        return self.steps / self.seconds

    def figures(self) -> dict[str, Any]:
        """The row as JSON-ready numbers."""
        out: dict[str, Any] = asdict(self)
        out["per_second"] = self.per_second
        out["us_per_step"] = 1e6 * self.seconds / self.steps
        out["steps_per_game"] = self.steps / self.games
        return out


def time_games(name: str, play_one: Callable[[int], int], seconds: float, actions: int) -> Row:
    """Play episodes ``0, 1, 2, ...`` with ``play_one`` until ``seconds`` have passed."""
    steps = games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += play_one(games)
        games += 1
    return Row(name, elapsed, steps, games, actions)


def baohuang_env(
    preset: str, seconds: float, seed: int, wrapped: bool = False, pick: str = "ids"
) -> Row:
    """Random legal play through the raw AEC env (``observe`` + ``step``), or the wrapped one
    (``last`` + ``step``, as PettingZoo's loops do); ``pick``: the id from the ``legal_ids``
    info (``ids``) or from the mask (``mask``)."""
    rng = random.Random(seed)
    env = bh.env(preset) if wrapped else bh.raw_env(preset)
    raw = env.unwrapped

    def play_one(game: int) -> int:
        env.reset(seed=seed + game)
        steps = 0
        while raw.agents:
            agent = raw.agent_selection
            if raw.terminations[agent]:
                env.step(None)
                continue
            obs = env.last()[0] if wrapped else raw.observe(agent)
            if pick == "ids":
                legal = raw.infos[agent]["legal_ids"]
            else:
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    name = f"{preset} env" + (" (wrapped)" if wrapped else "")
    name += ", mask scanned" if pick == "mask" else ""
    row = time_games(name, play_one, seconds, len(raw.table))
    row.wrapped, row.pick = wrapped, pick
    return row


def rlcard_env(seconds: float, seed: int) -> Row | None:
    """RLCard's Doudizhu ``env.step`` with random legal actions, or ``None`` without RLCard."""
    try:
        import rlcard
    except ImportError:
        return None
    rng = random.Random(seed)
    env = rlcard.make("doudizhu", config={"seed": seed})

    def play_one(_: int) -> int:
        state, _player = env.reset()
        steps = 0
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return time_games("RLCard Doudizhu env", play_one, seconds, env.num_actions)


def measure(
    presets: Sequence[str], seconds: float, seed: int, console: Console
) -> tuple[list[Row], Row | None]:
    """Every measurement, ``ROUNDS`` times alternating ours and RLCard's; the best of each."""

    def ours() -> list[Row]:
        rows = [baohuang_env(preset, seconds, seed) for preset in presets]
        scanned = dict.fromkeys([presets[0], *(p for p in presets if p == "qq")])
        rows += [baohuang_env(preset, seconds, seed, pick="mask") for preset in scanned]
        return [*rows, baohuang_env(presets[0], seconds, seed, wrapped=True)]

    return alternate(ROUNDS, ours, lambda: rlcard_env(seconds, seed), console, "baohuang.env")


def table(rows: Sequence[Row], rlcard: Row | None) -> Table:
    """The Rich table of the figures, with each row's ratio to RLCard's."""
    t = Table(
        title=f"Environment benchmark (best of {ROUNDS} runs each)",
        caption="a step: observation + action mask + random legal id + step",
    )
    t.add_column("measurement", no_wrap=True)
    for col in ("steps/s", "µs/step", "steps/game", "actions", "× RLCard"):
        t.add_column(col, justify="right", no_wrap=True)
    for row in [*rows, *([rlcard] if rlcard else [])]:
        ratio = ""
        if rlcard is not None and row is not rlcard:
            ratio = f"{row.per_second / rlcard.per_second:.2f}×"
        t.add_row(
            row.name,
            f"{row.per_second:,.0f}",
            f"{1e6 * row.seconds / row.steps:,.1f}",
            f"{row.steps / row.games:,.1f}",
            f"{row.actions:,}",
            ratio,
        )
    if rlcard is None:
        t.add_row("RLCard Doudizhu env", "skipped")
    return t


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per measurement")
    parser.add_argument("--seed", type=int, default=0, help="seed of games and random choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)"
    )
    args = parser.parse_args(argv)
    console = Console(width=100)
    rows, rlcard = measure(args.presets.split(","), args.seconds, args.seed, console)
    ratios = {r.name: r.per_second / rlcard.per_second for r in rows if rlcard}
    # The target is the raw environment's with the ids RLCard's agents get too: the wrapped
    # row (PettingZoo's wrappers) and the mask-scanned ones inform.
    low = min(ratios[r.name] for r in rows if not r.wrapped and r.pick == "ids") if ratios else None
    info = machine(numpy=np.__version__)
    console.print(table(rows, rlcard))
    if low is None:
        console.print(
            "rlcard is not importable (pip install -e '.[bench]'): its row is skipped", markup=False
        )
    else:
        verdict = "met" if low >= TARGET_RATIO else "MISSED"
        console.print(
            f"lowest ratio of the raw environment {low:.2f}× (target ≥ {TARGET_RATIO:g}×: "
            f"{verdict}); the wrapped and mask-scanned rows are for information"
        )
    console.print(
        f"Python {info['python']} ({info['implementation']}) on {info['processor']}, "
        f"{info['cpu_count']} CPUs, numpy {info['numpy']}; {args.seconds:g} s per run, "
        f"seed {args.seed}"
    )
    save(
        args.json,
        vars(args),
        machine=info,
        seconds=args.seconds,
        seed=args.seed,
        rows=[r.figures() for r in rows],
        rlcard=rlcard.figures() if rlcard else None,
        ratios=ratios,
        lowest_raw_ratio=low,
        target_ratio=TARGET_RATIO,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
