"""Inference for the search bot (bots/inference.py): trick entries read back as plays, the
record of the play phase followed from a seat's own views (R14), and the true deal explaining
heuristic play far better than deals drawn at random."""

from __future__ import annotations

import random

import pytest

from baohuang import Play, Rules, new_game
from baohuang.bots.base import play_out
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.inference import play_of
from baohuang.bots.search import SearchBot, sample_hands
from baohuang.engine.game import Game

PRESETS = {name: Rules.preset(name) for name in ("classic", "weihai", "kk_classic", "qq")}
SEATS = 5


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
    """Seat 0 follows the play phase from its views; the others are heuristic bots. Replayed
    on the true hands, nearly every action of theirs is the heuristic's; on deals drawn from
    the view alone, far fewer are."""
    rules = PRESETS[name]
    truth: list[float] = []
    drawn: list[float] = []
    rng = random.Random(name)
    for deal in range(3):
        game = new_game(rules, f"infer/{deal}")
        bots = [
            SearchBot(rules, deal, infer=3, endgame=0, lead_endgame=0),
            *(HeuristicBot(rules) for _ in range(SEATS - 1)),
        ]
        reader = bots[0]
        assert isinstance(reader, SearchBot)
        while (seat := game.current_seat) is not None:
            view = game.view(seat)
            action = bots[seat].choose(view, game.legal_actions())
            if seat == 0 and game.phase == "play" and len(reader.record.kept) > 1:
                guard = true_guard(game)
                hands = [list(game.counts[s]) for s in range(SEATS)]
                record, policy, at = reader.record, reader.policy, reader._position
                truth.append(record.weight(policy, hands, guard, 0.2, at))
                sampled = sample_hands(view, rules, guard, rng)
                drawn.append(record.weight(policy, sampled, guard, 0.2, at))
            game.apply(action)
    assert len(truth) >= 30
    assert sum(w == 1.0 for w in truth) >= 0.9 * len(truth)
    assert sum(drawn) / len(drawn) < 0.8 * sum(truth) / len(truth)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r14_search_with_inference_plays_legal_moves(name: str) -> None:
    rules = PRESETS[name]
    bots = [
        SearchBot(rules, f"i{s}", samples=4, budget_s=None, infer=2)
        if s % 2 == 0
        else HeuristicBot(rules)
        for s in range(SEATS)
    ]
    result = play_out(new_game(rules, "inference/legal"), bots)  # apply() checks legality
    assert sorted(result.places) == list(range(SEATS)) and sum(result.scores) == 0
