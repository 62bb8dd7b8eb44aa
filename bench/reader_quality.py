"""How well the search bot's hand reader (``read=N``, bots/inference.py) reads the hands.

    .venv/bin/python bench/reader_quality.py --preset classic --deals 6 --read 4

Each deal is played five times, a ``SearchBot(read=N)`` (no time budget, no role search) in
each seat in turn against four heuristic seats. At every search of its, before it plays: the
misses of its chains' deals (the other seats' decisions the heuristic's policy does not
reproduce on them), the misses of the true deal, the share of chains at no miss, and the share
of the other seats' cards placed where they are (by rank) by 16 deals read off the chains and
by 16 drawn from the view alone, with 60 to 90 cards left in all hands and with fewer.
Results: bench/search.md.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from collections.abc import Iterable

from rich.console import Console
from rich.progress import track
from rich.table import Table

from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.inference import placed_right
from baohuang.bots.search import SearchBot
from baohuang.engine.actions import Action
from baohuang.engine.game import Game, new_game
from baohuang.engine.rules import Rules
from baohuang.engine.state import SEATS
from baohuang.engine.views import View

DEALS_READ = 16
#: What was measured, by name: a value per search (or per deal read).
Found = dict[str, list[float]]


class Watched(SearchBot):
    """A reading search bot that measures its reader at each search (module docstring)."""

    def __init__(self, rules: Rules, seed: str, read: int, game: Game, found: Found) -> None:
        super().__init__(rules, seed, budget_s=None, roles=0, read=read)
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
        left = sum(view.counts)
        if left <= 90:
            bucket = "under 60" if left < 60 else "60-90"
            found[f"read, {bucket}"] += [placed_right(me, h, true) for h in read]
            found[f"drawn, {bucket}"] += [placed_right(me, h, true) for h in drawn]
        return super()._best(view, options)


def measure(rules: Rules, deals: Iterable[int], read: int, seed: str) -> Found:
    """Play ``deals`` (module docstring); what was measured."""
    found: Found = {
        key: []
        for key in (
            *("chain misses", "chains at 0", "true deal misses"),
            *(f"{how}, {bucket}" for bucket in ("60-90", "under 60") for how in ("read", "drawn")),
        )
    }
    for deal, seat in itertools.product(deals, range(SEATS)):
        game = new_game(rules, f"{seed}/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        bots[seat] = Watched(rules, f"{seed}/{deal}/{seat}", read, game, found)
        while (turn := game.current_seat) is not None:
            game.apply(bots[turn].choose(game.view(turn), game.legal_actions()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--read", type=int, default=4, help="the reader's chains")
    parser.add_argument("--seed", default="reader")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    found = measure(rules, track(range(args.deals), "deals"), args.read, args.seed)
    table = Table(title=f"{args.preset}, read={args.read}, {args.deals} deals × 5 seats")
    table.add_column("at each search")
    table.add_column("mean", justify="right")
    table.add_column("searches or deals", justify="right")
    for key, values in found.items():
        shown = f"{statistics.fmean(values):.3f}" if values else "-"
        table.add_row(key, shown, str(len(values)))
    Console().print(table)


if __name__ == "__main__":
    main()
