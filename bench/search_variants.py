"""A variant of the search bot (or of the heuristic) against the heuristic, in a duplicate arena.

    .venv/bin/python bench/search_variants.py --preset classic --deals 200 --seed s6 --jobs 2 \\
        endgame=120 lead_endgame=60 read=4
    .venv/bin/python bench/search_variants.py --heuristic --preset kk_classic --seed h1 \\
        open_solo_at=0.0

Each ``NAME=VALUE`` sets an argument of :class:`baohuang.bots.search.SearchBot` (numbers; the
time budget is off unless ``budget_s=`` is given, so a run is reproducible from its seed), or
with ``--heuristic`` a class attribute of :class:`baohuang.bots.heuristic.HeuristicBot` (its
thresholds). The variant plays the heuristic over ``--deals`` duplicate deals (10 games each);
the result is one row: points per game with the 95% interval, mean points by role, decision
time. ``--json`` keeps the variant's mean points per deal; ``--pair FILE`` compares this run
with such a file (``--pair`` again for each piece of one run) deal by deal over the deals both
played (the same seed: deal ``i`` is the same cards in both), an interval far narrower than
either run's alone. ``--first N`` starts at deal ``N``, so a long arena can be played in pieces
(each with its ``--json``) and ``--merge A.json B.json ...`` reads the pieces as one run
(``--plot FILE.png``: its mean over the first ``n`` deals with the 95% interval, by ``n``). How
the search's defaults and options were chosen with it: bench/search.md.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rich.progress import track

from baohuang.bots.arena import ROLES, DealRecord, mean_ci, play_deals, summarize
from baohuang.bots.base import BOTS
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.search import SearchBot, SearchSettings
from baohuang.engine.rules import Rules
from benchkit import save

NAME = "variant"


def register(settings: dict[str, Any], heuristic: bool = False) -> None:
    """Make ``variant`` a bot of :data:`BOTS` in this process (each worker calls it first)."""
    if heuristic:
        variant = type("Variant", (HeuristicBot,), settings)
        BOTS[NAME] = lambda rules, seed: variant(rules)
    else:
        BOTS[NAME] = lambda rules, seed: SearchBot(rules, seed, SearchSettings(**settings))


def number(text: str) -> int | float | None:
    if text == "None":
        return None
    return float(text) if "." in text or "e" in text else int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", default="s6")
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--heuristic", action="store_true", help="settings of the heuristic")
    parser.add_argument("--json", help="write the variant's mean points per deal here")
    parser.add_argument(
        "--pair",
        action="append",
        help="an earlier --json file of the same seed to compare with (again for each piece)",
    )
    parser.add_argument("--merge", nargs="+", help="--json files of one run's pieces to read")
    parser.add_argument("--plot", help="with --merge: draw the running mean into this PNG")
    parser.add_argument("settings", nargs="*", help="SearchBot arguments, NAME=VALUE")
    args = parser.parse_args()
    if args.merge:
        head, per_deal = merge([Path(name) for name in args.merge])
        print(merged_row(head, per_deal))
        if args.plot:
            plot_running(head, per_deal, Path(args.plot))
        return
    settings: dict[str, Any] = {} if args.heuristic else {"budget_s": None}
    for item in args.settings:
        key, _, value = item.partition("=")
        settings[key] = number(value)
    kept = {"preset": args.preset, "seed": args.seed, "first": args.first}
    earlier = earlier_run(kept, args.deals, [Path(n) for n in args.pair]) if args.pair else None
    register(settings, args.heuristic)
    rules = Rules.preset(args.preset)
    names = [NAME, "heuristic"]
    start = time.perf_counter()
    with ProcessPoolExecutor(
        args.jobs,
        mp_context=get_context("spawn"),
        initializer=register,
        initargs=(settings, args.heuristic),
    ) as pool:

        def mapper(work: Any, deals: Any) -> Any:
            return pool.map(work, deals, chunksize=max(1, args.deals // (args.jobs * 8)))

        played = play_deals(rules, names, args.deals, args.seed, mapper=mapper, first=args.first)
        records: list[DealRecord] = list(track(played, "deals", total=args.deals))
    variant, _ = summarize(names, records)
    per_deal = [sum(r.points[0]) / len(r.points[0]) for r in records]
    if args.json:
        save(Path(args.json), vars(args), **kept, settings=settings, per_deal=per_deal)
    roles = ", ".join(
        f"{role} {points:+.2f}"
        for role in ROLES
        if (points := variant.role_points.get(role)) is not None
    )
    shown = settings_text(settings)
    interval = f"[{variant.ci_low:+.3f}, {variant.ci_high:+.3f}]"
    print(
        f"{args.preset} {shown}: {variant.mean:+.3f} {interval}"
        f" over {args.deals} deals from {args.first}, seed {args.seed}; by role {roles};"
        f" {variant.time_mean_ms:.2f} ms a decision; {time.perf_counter() - start:.0f} s"
    )
    if earlier:
        print(paired(args.first, per_deal, *earlier))


def settings_text(settings: dict[str, Any]) -> str:
    """A run's settings as given on the command line, ``NAME=VALUE`` each."""
    return " ".join(f"{k}={v}" for k, v in settings.items())


def earlier_run(
    kept: dict[str, Any], deals: int, paths: list[Path]
) -> tuple[str, dict[int, float]]:
    """The run kept in ``paths`` (its ``--json``, or its pieces) to pair this one with (``kept``:
    its preset, seed and first deal; ``deals`` long): its name and settings, and its points by
    deal over the deals both play. Refused before anything is played unless the deals are the
    same (preset, seed) and some are in common."""
    head, per_deal = merge(paths)
    names = " ".join(map(str, paths))
    if any(head[key] != kept[key] for key in ("preset", "seed")):
        raise SystemExit(f"not the same deals: {names} is {head['preset']}, seed {head['seed']}")
    last = min(kept["first"] + deals, head["first"] + len(per_deal))
    common = range(max(kept["first"], head["first"]), last)
    if not common:
        raise SystemExit(f"no deal in common with {names}")
    label = f"{names} ({settings_text(head['settings'])})"
    return label, {i: per_deal[i - head["first"]] for i in common}


def paired(first: int, per_deal: list[float], label: str, other: dict[int, float]) -> str:
    """This run's lead (from deal ``first``) over the ``other`` run's points, deal by deal."""
    leads = [per_deal[i - first] - points for i, points in other.items()]
    mean, low, high = mean_ci(leads)
    interval = f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"
    return f"paired with {label}: {interval} over {len(leads)} deals ({min(other)}..{max(other)})"


def merge(paths: list[Path]) -> tuple[dict[str, Any], list[float]]:
    """The pieces of one run (the same preset, seed and settings; deals that follow on without
    a gap or overlap) read as one: the first piece's header and every deal's mean points."""
    pieces = sorted((json.loads(path.read_text()) for path in paths), key=lambda p: p["first"])
    head = pieces[0]
    per_deal: list[float] = []
    for piece in pieces:
        same = all(piece[key] == head[key] for key in ("preset", "seed", "settings"))
        if not same or piece["first"] != head["first"] + len(per_deal):
            raise SystemExit(f"not pieces of one run: {paths}")
        per_deal += piece["per_deal"]
    return head, per_deal


def merged_row(head: dict[str, Any], per_deal: list[float]) -> str:
    """Points per game with the 95% interval over the merged deals."""
    mean, low, high = mean_ci(per_deal)
    shown = settings_text(head["settings"])
    last = head["first"] + len(per_deal) - 1
    return (
        f"{head['preset']} {shown}: {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
        f" over {len(per_deal)} deals ({head['first']}..{last}), seed {head['seed']}"
    )


def plot_running(head: dict[str, Any], per_deal: list[float], path: Path) -> None:
    """The mean over the first ``n`` deals with its 95% interval, by ``n`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = range(10, len(per_deal) + 1)
    rows = [mean_ci(per_deal[:n]) for n in counts]
    fig, axes = plt.subplots(figsize=(7, 3.6), constrained_layout=True)
    axes.fill_between(counts, [r[1] for r in rows], [r[2] for r in rows], alpha=0.25)
    axes.plot(counts, [r[0] for r in rows], color="#2a6f97", label="mean, 95% interval")
    axes.axhline(0.75, color="#b0413e", linewidth=0.8, linestyle="--", label="+0.75")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set(
        xlabel="deals (10 games each)",
        ylabel="points/game vs heuristic",
        title=f"{head['preset']}, seed {head['seed']}: the variant over the first n deals",
    )
    axes.legend(loc="lower right")
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
