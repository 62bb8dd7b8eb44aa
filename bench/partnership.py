"""Team play, measured (issue "Bots that play as a team"): games with one bot level at every
seat, and per game what a strong player read in them.

- **draws in guard games**: games with a guard (no solo) that end in a draw (R10: the
  emperor first and the guard last, or the like);
- **early overtakes**: plays by the hidden guard (not yet revealed to all) over a lead of its
  own emperor, in the first half of the cards;
- **the emperor's guard guess**: at each of the emperor's play decisions while the guard is
  hidden, whether the seat it thinks likeliest (``_guard_odds``) is the guard, by quarter of
  the cards played;
- **passive rebels**: a rebel's passes when it could have followed with a whole plain set (all
  its copies of a rank, no 2s or jokers: nothing broken, no control spent); games whose last
  player still held 20 cards or more;
- **open solos** (weihai): declared, kicked (踢), and won by the soloist when kicked.

    .venv/bin/python bench/partnership.py --preset classic --bots heuristic strong
        [--games 24] [--seed 0] [--jobs 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from baohuang.bots.base import make_bot
from baohuang.bots.handsplit import rank_counts_of
from baohuang.bots.heuristic import HeuristicBot
from baohuang.engine.actions import PASS
from baohuang.engine.cards import Card
from baohuang.engine.game import new_game
from baohuang.engine.plays import Play
from baohuang.engine.rules import Rules
from benchkit import save


def one_game(preset: str, level: str, seed: str) -> dict[str, Any]:
    """One game's figures (see the module docstring)."""
    rules = Rules.preset(preset)
    game = new_game(rules, seed)
    bots = [make_bot(level, rules, f"{seed}/{s}") for s in range(5)]
    total: int | None = None
    overtakes, rebel_passes = 0, 0
    guesses: list[tuple[int, int]] = []  # (quarter, guessed seat)
    while (seat := game.current_seat) is not None:
        view, legal = game.view(seat), game.legal_actions()
        action = bots[seat].choose(view, legal)
        if view.phase == "play":
            left = sum(view.counts)
            total = total or left
            played = 1 - left / total
            emperor = view.emperor
            hidden = not game.view(None).guard_revealed
            lead = view.lead
            if seat == emperor and hidden and view.solo is None:
                bot = bots[seat]
                assert isinstance(bot, HeuristicBot)
                odds = bot._guard_odds(view)
                guesses.append((min(3, int(played * 4)), max(range(5), key=odds.__getitem__)))
            if lead is not None and isinstance(action, Play) and lead.seat == emperor:
                overtakes += hidden and played < 0.5 and seat == game_guard(game)
            if lead is not None and action == PASS and whole_set(legal, view.hand or ()):
                rebel_passes += seat not in (emperor, game_guard(game))
        game.apply(action)
    result = game.result
    assert result is not None
    guard = result.guard
    last = result.places[-1] if result.places else None
    left_at_end = game.view(None).counts[last] if last is not None else 0
    return {
        "guard_game": guard is not None and not result.open_solo,
        "draw": result.outcome == "draw",
        "overtakes": overtakes,
        "guesses": [(q, g == guard) for q, g in guesses],
        "rebel_passes": rebel_passes,
        "last_holds_20": left_at_end >= 20,
        "open_solo": result.open_solo,
        "kicked": result.kicked,
        "solo_won": result.open_solo
        and result.emperor is not None
        and result.scores[result.emperor] > 0,
    }


def whole_set(legal: list[Any], hand: tuple[Card, ...]) -> bool:
    """Whether a legal play is a whole plain set of the hand: all its copies of a rank, no 2s
    or jokers (playing it breaks nothing and spends no control)."""
    counts = rank_counts_of(hand)
    return any(
        isinstance(p, Play) and p.count == counts[p.rank] and not p.jokers and not p.twos
        for p in legal
        if isinstance(p, Play) and p.count
    )


def game_guard(game: Any) -> int | None:
    """The game's guard (the engine's, to score the bots; never shown to them)."""
    return game.guard


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    guard_games = [r for r in rows if r["guard_game"]]
    by_quarter = []
    for q in range(4):
        hits = [ok for r in rows for quarter, ok in r["guesses"] if quarter == q]
        by_quarter.append(round(100 * statistics.fmean(hits), 1) if hits else None)
    solos = [r for r in rows if r["open_solo"]]
    kicked = [r for r in solos if r["kicked"]]
    return {
        "games": len(rows),
        "draws_in_guard_games_pct": round(100 * statistics.fmean(r["draw"] for r in guard_games), 1)
        if guard_games
        else None,
        "early_overtakes_per_game": round(statistics.fmean(r["overtakes"] for r in rows), 2),
        "guard_guess_pct_by_quarter": by_quarter,
        "rebel_passes_with_a_whole_set_per_game": round(
            statistics.fmean(r["rebel_passes"] for r in rows), 2
        ),
        "last_player_holds_20_pct": round(
            100 * statistics.fmean(r["last_holds_20"] for r in rows), 1
        ),
        "open_solos": len(solos),
        "kicked": len(kicked),
        "kicked_solos_won": sum(r["solo_won"] for r in kicked),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--bots", nargs="+", default=["heuristic", "strong"])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    results = {}
    with (
        Progress(console=console, transient=True) as progress,
        ProcessPoolExecutor(args.jobs) as pool,
    ):
        for level in args.bots:
            task = progress.add_task(level, total=args.games)
            play = partial(one_game, args.preset, level)
            rows = []
            seeds = [f"team/{args.seed}/{g}" for g in range(args.games)]
            for row in pool.map(play, seeds):
                rows.append(row)
                progress.advance(task)
            results[level] = figures(rows)
    table = Table(title=f"Team play, {args.preset}, {args.games} games a level, every seat")
    table.add_column("figure")
    for level in args.bots:
        table.add_column(level, justify="right")
    for key in results[args.bots[0]]:
        table.add_row(key, *(str(results[level][key]) for level in args.bots))
    console.print(table)
    save(args.json, vars(args), results=results)


if __name__ == "__main__":
    main()
