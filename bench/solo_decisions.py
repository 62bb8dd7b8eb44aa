"""How often bots play alone, and whether their solo decisions pay (R9.2, R9.3, R8.7, R11.3,
R11.4; R10.1–R10.2 score them).

One bot level at every seat plays ``--deals`` deals. At every decision that offers an open
solo (明独 showing four, 明独保, 独保, 明独 by anyone, 抢独) besides something else, the game is
also played out the other way from there: with the solo if the bot did not declare, else with
the bot's own best answer without it (every bot copied as it stood, so both branches start
alike). The decider's points in both branches say whether the decision paid against the same
bots as opponents.

Printed: the share of games by kind (a hidden guard, 暗独, an open solo declared or grabbed),
the declarer's results, the mean gain of declaring where the bot declared and where it did not,
and for the heuristic's hand strength the gain of "declare from strength θ" over never
declaring, per θ (what ``HeuristicBot``'s solo thresholds are tuned on).

    .venv/bin/python bench/solo_decisions.py --preset kk_classic --bots heuristic --deals 600
    .venv/bin/python bench/solo_decisions.py --preset kk_classic --bots strong --deals 120 \\
        --jobs 2 --json bench/solo_kk_classic_strong.json
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from baohuang.bots.arena import Z95
from baohuang.bots.base import Bot, make_bot, play_out
from baohuang.bots.handsplit import rank_counts_of
from baohuang.bots.heuristic import strength
from baohuang.engine.actions import GRAB, Action, OpenSolo
from baohuang.engine.game import Game, new_game
from baohuang.engine.match import game_seed
from baohuang.engine.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import save

#: Strength thresholds tried for "declare from θ" (the heuristic's hand strength).
THRESHOLDS = [x / 2 for x in range(-2, 15)]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision that offered an open solo, and both ways it could go."""

    deal: int
    seat: int
    #: ``call`` (the emperor's 明独/明独保), ``candidate`` (独保), ``solo`` (明独 by anyone),
    #: ``grab`` (抢独).
    kind: str
    power: float
    declared: bool
    #: The decider's points with the solo, and without it.
    solo: int
    other: int


def is_solo(action: Action) -> bool:
    return isinstance(action, OpenSolo) or action == GRAB


def power_of(game: Game, seat: int) -> float:
    """The heuristic's strength of the seat's hand (its pile added as a candidate)."""
    view = game.view(seat)
    cards = [*(view.hand or ()), *(view.pile if view.phase == "candidate" else ())]
    return strength(rank_counts_of(cards), game.rules)


def play_deal(preset: str, bot: str, seed: str, deal: int) -> tuple[str, list[Decision]]:
    """One deal with ``bot`` at every seat: the kind of game it became, and its solo
    decisions with their other branch played out."""
    rules = Rules.preset(preset)
    game = new_game(rules, game_seed(seed, deal))
    bots: list[Bot] = [make_bot(bot, rules, f"{seed}/{deal}/{s}") for s in range(5)]
    decisions: list[tuple[int, str, float, bool, Game, list[Bot], Action]] = []
    while (seat := game.current_seat) is not None:
        legal = game.legal_actions()
        solos = [a for a in legal if is_solo(a)]
        if solos and len(solos) < len(legal):
            view = game.view(seat)
            before = [copy.deepcopy(b) for b in bots]
            chosen = bots[seat].choose(view, legal)
            declared = is_solo(chosen)
            if declared:
                other = before[seat].choose(view, [a for a in legal if not is_solo(a)])
            else:
                other = solos[0]
            kind: str = "call" if view.phase == "call" else view.poll or view.phase
            branch = game.clone()
            decisions.append((seat, kind, power_of(game, seat), declared, branch, before, other))
        else:
            chosen = bots[seat].choose(game.view(seat), legal)
        game.apply(chosen)
    result = game.result
    assert result is not None
    found = []
    for seat, kind, power, declared, branch, before, other in decisions:
        branch.apply(other)
        elsewhere = play_out(branch, before).scores[seat]
        here = result.scores[seat]
        solo, not_solo = (here, elsewhere) if declared else (elsewhere, here)
        found.append(Decision(deal, seat, kind, power, declared, solo, not_solo))
    if result.guard is not None:
        shape = "guard"
    elif not result.open_solo:
        shape = "dark"
    else:
        shape = "grabbed" if any(d.kind == "grab" and d.declared for d in found) else "open"
    return shape, found


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    if len(values) < 2:
        return values[0], 0.0
    return statistics.fmean(values), Z95 * statistics.stdev(values) / len(values) ** 0.5


def signed(mean: float, half: float) -> str:
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def report(shapes: Counter[str], decisions: list[Decision], console: Console) -> dict[str, Any]:
    games = sum(shapes.values())
    table = Table(title=f"{games} games")
    table.add_column("game")
    table.add_column("share", justify="right")
    for shape, name in [
        ("guard", "a hidden guard (保皇派)"),
        ("dark", "dark solo (暗独)"),
        ("open", "open solo declared (明独, 明独保, 独保)"),
        ("grabbed", "open solo grabbed (抢独)"),
    ]:
        table.add_row(name, f"{shapes[shape] / games:.1%} ({shapes[shape]})")
    console.print(table)
    made = [d for d in decisions if d.declared]
    passed = [d for d in decisions if not d.declared]
    won = [d for d in made if d.solo > 0]
    summary: dict[str, Any] = {
        "games": games,
        "shares": {k: shapes[k] / games for k in ("guard", "dark", "open", "grabbed")},
        "decisions": len(decisions),
        "declared": len(made),
        "declarer_won": len(won),
        "declarer_points": statistics.fmean(d.solo for d in made) if made else None,
        "gain_declared": mean_ci([d.solo - d.other for d in made]),
        "gain_not_declared": mean_ci([d.solo - d.other for d in passed]),
    }
    gains = Table(title="solo decisions: the decider's points, declaring − not")
    for column in ("decisions", "n", "declarer won", "gain, 95% CI"):
        gains.add_column(column, justify="right")
    gains.add_row(
        "declared", str(len(made)), f"{len(won)}/{len(made)}", signed(*summary["gain_declared"])
    )
    gains.add_row("not declared", str(len(passed)), "", signed(*summary["gain_not_declared"]))
    console.print(gains)
    by_kind = Counter((d.kind, d.declared) for d in decisions)
    console.print("by kind (kind, declared): " + ", ".join(f"{k}: {n}" for k, n in by_kind.items()))
    rows = []
    thresholds = Table(title="declare from strength θ: the gain over never declaring, per decision")
    for column in ("θ", "share declaring", "gain, 95% CI"):
        thresholds.add_column(column, justify="right")
    for theta in THRESHOLDS:
        gain = [d.solo - d.other if d.power >= theta else 0 for d in decisions]
        share = sum(d.power >= theta for d in decisions) / max(1, len(decisions))
        mean, half = mean_ci(gain)
        rows.append({"theta": theta, "share": share, "gain": mean, "half": half})
        thresholds.add_row(f"{theta:.1f}", f"{share:.1%}", signed(mean, half))
    console.print(thresholds)
    summary["thresholds"] = rows
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kk_classic")
    parser.add_argument("--bots", default="heuristic", help="the bot level at every seat")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--seed", default="solo")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    started = time.perf_counter()
    shapes: Counter[str] = Counter()
    decisions: list[Decision] = []
    deals = range(args.first, args.first + args.deals)
    with ProcessPoolExecutor(args.jobs) as pool, Progress(console=console) as progress:
        task = progress.add_task(f"{args.preset}, {args.bots} at every seat", total=args.deals)
        jobs = [pool.submit(play_deal, args.preset, args.bots, args.seed, d) for d in deals]
        for job in jobs:
            shape, found = job.result()
            shapes[shape] += 1
            decisions += found
            progress.advance(task)
    summary = report(shapes, decisions, console)
    seconds = time.perf_counter() - started
    console.print(f"{seconds:.0f} s")
    decided = [asdict(d) for d in decisions]
    save(args.json, vars(args), seconds=round(seconds), summary=summary, decisions=decided)


if __name__ == "__main__":
    main()
