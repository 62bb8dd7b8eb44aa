"""Reading the hands for the search bot (bots/handreader.py): trick entries read back as plays,
the play phase followed from a seat's own views (R14), the true deal explaining heuristic play
far better than deals drawn at random, and the chains' deals nearer the truth than those."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from types import SimpleNamespace
from typing import cast

import pytest

from baohuang import Play, Rules, new_game
from baohuang.bots.base import play_out
from baohuang.bots.handreader import Chain, HandReader, placed_right
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.playout import Policy
from baohuang.bots.search import SearchBot, SearchSettings, sample_hands
from baohuang.engine.actions import PlayCards
from baohuang.engine.cards import NUM_RANKS
from baohuang.engine.game import Game
from baohuang.engine.trick import TrickEntry
from baohuang.engine.views import View

PRESETS = {name: Rules.preset(name) for name in ("classic", "weihai", "kk_classic", "qq")}
SEATS = 5


def play_of(text: str) -> Play:
    """The play of a trick entry read back from the wire."""
    action = TrickEntry.from_json({"seat": 0, "action": text}).action
    assert isinstance(action, PlayCards)
    return action.play


def test_r2_trick_entries_read_back_as_their_plays() -> None:
    assert play_of("9h 9s B") is Play.parse("B99")
    assert play_of("R* B 2h 2s") is Play.parse("RB22")
    assert play_of("Th Td Tc 2s") is Play.of(7, 3, twos=1)  # R5.2 a filler 2
    assert play_of("R R") is Play.parse("RR")


def true_guard(game: Game) -> int | None:
    """The guard the deal has (None: the emperor plays alone)."""
    return None if game.open_solo or game.guard == game.emperor else game.guard


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_true_deal_explains_heuristic_play_better_than_random_deals(name: str) -> None:
    """Seat 0 follows the play phase from its views, as the search bot does (see the view,
    read, act); every seat is a heuristic bot. Replayed on the true hands, nearly every
    decision of the others is the heuristic's; on deals drawn from the view alone, far fewer
    are."""
    rules = PRESETS[name]
    truth: list[int] = []
    drawn: list[int] = []
    rng = random.Random(name)
    for deal in range(3):
        game = new_game(rules, f"infer/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        reader = HandReader(Policy(rules), random.Random(deal), chains=1)
        while (seat := game.current_seat) is not None:
            view = game.view(seat)
            reading = seat == 0 and game.phase == "play"
            if reading:
                reader.see(view)
            if reading and len(reader.log.actions) > 30:
                guard = true_guard(game)
                hands = [list(game.counts[s]) for s in range(SEATS)]
                truth.append(sum(reader.explain(view, guard, hands)))
                sampled = sample_hands(view, rules, guard, rng)
                drawn.append(sum(reader.explain(view, guard, sampled)))
            action = bots[seat].choose(view, game.legal_actions())
            if reading:
                reader.acted(0, action if isinstance(action, Play) else None)
            game.apply(action)
    assert len(truth) >= 20
    assert sum(m == 0 for m in truth) >= 0.8 * len(truth)
    assert sum(drawn) > 4 * max(1, sum(truth))


def test_the_chains_place_the_hidden_cards_better_than_the_view_alone() -> None:
    """Classic, seat 0 reading the heuristic seats: the chains' deals put more of the other
    seats' cards where they are than deals drawn from the view alone."""
    rules = PRESETS["classic"]
    read: list[float] = []
    drawn: list[float] = []
    for deal in range(2):
        game = new_game(rules, f"read/{deal}")
        searcher = SearchBot(
            rules, deal, SearchSettings(read=4, roles=0, budget_s=None, lead_endgame=0)
        )
        bots = [searcher, *(HeuristicBot(rules) for _ in range(SEATS - 1))]
        reader = searcher.reader
        assert reader is not None
        while (seat := game.current_seat) is not None:
            if seat == 0 and game.phase == "play" and reader.chains:
                true = [list(game.counts[s]) for s in range(SEATS)]
                read += [placed_right(0, chain.hands, true) for chain in reader.chains]
            view = game.view(seat)
            if seat == 0 and game.phase == "play" and reader.chains:
                drawn += [
                    placed_right(0, sample_hands(view, rules, true_guard(game), searcher.rng), true)
                    for _ in reader.chains
                ]
            game.apply(bots[seat].choose(view, game.legal_actions()))
    assert len(read) >= 20
    assert sum(read) / len(read) > sum(drawn) / len(drawn) + 0.04


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r14_search_reading_the_hands_plays_legal_moves(name: str) -> None:
    rules = PRESETS[name]
    bots = [
        SearchBot(rules, f"i{s}", SearchSettings(samples=4, budget_s=0.05, read=2))
        if s % 2 == 0
        else HeuristicBot(rules)
        for s in range(SEATS)
    ]
    result = play_out(new_game(rules, "inference/legal"), bots)  # apply() checks legality
    assert sorted(result.places) == list(range(SEATS)) and sum(result.scores) == 0


def test_the_chains_steps_keep_cards_dealt_at_random_when_no_play_is_read() -> None:
    """With no decisions to explain, a chain's steps (moving one card or a pair or triple
    whole, with the Hastings ratio) must leave the deal of the cards at random: each way
    of splitting the ranks among three seats as often as the card-level deals that make it."""
    size = [0, 3, 3, 2, 0]
    totals = [3, 3, 2]  # three cards of rank 0, three of rank 1, two of rank 2
    start = [[0] * NUM_RANKS for _ in range(SEATS)]
    start[1][:3], start[2][:3], start[3][:3] = [3, 0, 0], [0, 3, 0], [0, 0, 2]
    reader = HandReader(Policy(PRESETS["classic"]), random.Random(7))
    view = cast(View, SimpleNamespace(seat=0, emperor=4))
    chain = Chain(None, start, [0] * SEATS)
    seen: Counter[tuple[int, ...]] = Counter()
    steps = 60_000
    for _ in range(steps):
        reader._step(view, chain, [1, 2, 3], None)
        assert [sum(chain.hands[s]) for s in range(SEATS)] == size
        seen[tuple(chain.hands[1][:3] + chain.hands[2][:3])] += 1
    exact: dict[tuple[int, ...], int] = {}
    for one in itertools.product(*(range(t + 1) for t in totals)):
        rest = [t - o for t, o in zip(totals, one, strict=True)]
        for two in itertools.product(*(range(r + 1) for r in rest)):
            if sum(one) == size[1] and sum(two) == size[2]:  # seat 3 holds the rest
                ways = (math.comb(t, o) for t, o in zip(totals, one, strict=True))
                splits = (math.comb(r, w) for r, w in zip(rest, two, strict=True))
                exact[(*one, *two)] = math.prod(ways) * math.prod(splits)
    whole = sum(exact.values())
    distance = sum(abs(seen[k] / steps - w / whole) for k, w in exact.items()) / 2
    assert len(exact) > 10 and set(seen) <= set(exact)
    assert distance < 0.04, distance  # 0.11 without the Hastings ratio
