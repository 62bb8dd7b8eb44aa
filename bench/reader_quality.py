"""How well the search bot's hand reader (``read=N``, bots/handreader.py) reads the hands.

    .venv/bin/python bench/reader_quality.py --preset classic --deals 6 --read 4
    .venv/bin/python bench/reader_quality.py --deals 10 --read 4 \\
        samples=32 sure=2.0 endgame=215 lead_endgame=160 steps=300

Each deal is played five times, a ``SearchBot`` with ``SearchSettings(read=N)`` (no time budget,
no role search; each ``NAME=VALUE`` another of its settings) in each seat in turn against four
heuristic seats. At every search of its, before it plays: the misses of its chains' deals (the
other seats' decisions the heuristic's policy does not reproduce on them), the misses of the
true deal, the share of chains at no miss, how many of 16 deals read off the chains differ, and
the share of the other seats' cards placed where they are (by rank) by those 16 deals and by 16
drawn from the view alone, by the cards left in all hands. Results: bench/search.md.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

from baohuang.bots.handreader import placed_right
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.search import SearchBot, SearchSettings
from baohuang.engine.actions import Action
from baohuang.engine.game import Game, new_game
from baohuang.engine.rules import Rules
from baohuang.engine.state import SEATS
from baohuang.engine.views import View
from search_variants import number

DEALS_READ = 16
#: Where a search is, by the cards left in all hands: the name of each range and its least.
BUCKETS = (("over 150", 151), ("91-150", 91), ("60-90", 60), ("under 60", 0))
#: What was measured, by name: a value per search (or per deal read).
Found = dict[str, list[float]]


class Watched(SearchBot):
    """A reading search bot that measures its reader at each search (module docstring)."""

    def __init__(
        self, rules: Rules, seed: str, read: int, game: Game, found: Found, **settings: Any
    ) -> None:
        chosen = SearchSettings(budget_s=None, roles=0, read=read, **settings)
        super().__init__(rules, seed, chosen)
        self.game, self.found = game, found

    def _best(self, view: View, options: list[Action]) -> int:
        reader, game, me = self.reader, self.game, view.seat
        assert reader is not None and me is not None
        true = [list(row) for row in game.counts]
        guard = None if game.open_solo or game.guard == game.emperor else game.guard
        read = [h for _, h in itertools.islice(self._deals(view), DEALS_READ)]
        self.reader = None  # deals from the view alone
        drawn = [h for _, h in itertools.islice(self._deals(view), DEALS_READ)]
        self.reader = reader
        found = self.found
        found["chain misses"].append(statistics.fmean(sum(c.misses) for c in reader.chains))
        found["chains at 0"].append(statistics.fmean(not any(c.misses) for c in reader.chains))
        found["true deal misses"].append(sum(reader.explain(view, guard, true)))
        found["distinct of 16 read"].append(len({tuple(itertools.chain(*h)) for h in read}))
        bucket = next(name for name, least in BUCKETS if sum(view.counts) >= least)
        found[f"read, {bucket}"] += [placed_right(me, h, true) for h in read]
        found[f"drawn, {bucket}"] += [placed_right(me, h, true) for h in drawn]
        return super()._best(view, options)


def measure(
    rules: Rules, deals: Iterable[int], read: int, seed: str, settings: dict[str, Any]
) -> Found:
    """Play ``deals`` (module docstring); what was measured."""
    found: Found = {
        key: []
        for key in (
            *("chain misses", "chains at 0", "true deal misses", "distinct of 16 read"),
            *(f"{how}, {bucket}" for bucket, _ in BUCKETS for how in ("read", "drawn")),
        )
    }
    for deal, seat in itertools.product(deals, range(SEATS)):
        game = new_game(rules, f"{seed}/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        bots[seat] = Watched(rules, f"{seed}/{deal}/{seat}", read, game, found, **settings)
        while (turn := game.current_seat) is not None:
            game.apply(bots[turn].choose(game.view(turn), game.legal_actions()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--read", type=int, default=4, help="the reader's chains")
    parser.add_argument("--seed", default="reader")
    parser.add_argument("settings", nargs="*", help="other SearchBot arguments, NAME=VALUE")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    settings = {k: number(v) for k, v in (text.split("=", 1) for text in args.settings)}
    found = measure(rules, track(range(args.deals), "deals"), args.read, args.seed, settings)
    shown = " ".join(args.settings)
    table = Table(title=f"{args.preset}, read={args.read} {shown}, {args.deals} deals × 5 seats")
    table.add_column("at each search")
    table.add_column("mean", justify="right")
    table.add_column("searches or deals", justify="right")
    for key, values in found.items():
        shown = f"{statistics.fmean(values):.3f}" if values else "-"
        table.add_row(key, shown, str(len(values)))
    Console().print(table)


if __name__ == "__main__":
    main()
