"""The ``search`` bot (PIMC): legal in every phase (R14: the view is all it gets), its sampled
deals are consistent with the view, its rank-count R6 simulator, and its determinism."""

from __future__ import annotations

import random
from typing import Any

import pytest

from baohuang import Game, Match, Play, Rules, new_game
from baohuang.bots import BOTS, Bot, HeuristicBot, play_out
from baohuang.cards import RANK_SYMBOLS, SMALL_JOKER
from baohuang.handsplit import pack_counts, rank_counts_of
from baohuang.search import (
    SearchBot,
    Table,
    guard_options,
    playout,
    reveal_rank,
    sample_hands,
)

PRESETS = {name: Rules.preset(name) for name in ("classic", "weihai")}
SEATS = 5


def mixed_bots(rules: Rules, seed: int) -> list[Bot]:
    """Search bots (few samples, no time limit) at seats 0, 2, 4, heuristic bots between."""
    return [
        SearchBot(rules, f"{seed}-{s}", samples=3, budget_s=None)
        if s % 2 == 0
        else HeuristicBot(rules)
        for s in range(SEATS)
    ]


def play_game(rules: Rules, seed: int, steps: int) -> Game:
    """A game ``steps`` heuristic moves into the play phase."""
    game = new_game(rules, seed)
    bots = [HeuristicBot(rules) for _ in range(SEATS)]
    while game.phase != "play" or steps > 0:
        seat = game.current_seat
        assert seat is not None
        steps -= game.phase == "play"
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


def play_view(rules: Rules, seed: int, steps: int) -> dict[str, Any]:
    """The view of the seat to act after ``steps`` heuristic moves into the play phase."""
    game = play_game(rules, seed, steps)
    assert game.current_seat is not None
    return game.view(game.current_seat)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r14_search_bot_legal_in_every_phase(name: str) -> None:
    rules = PRESETS[name]
    match = Match(rules, games=2, seed=7)
    bots = mixed_bots(rules, 7)
    phases: set[str] = set()
    game: Game | None = match.game
    while game is not None:
        while (seat := game.current_seat) is not None:
            legal = game.legal_actions()
            action = bots[seat].choose(game.view(seat), legal)
            assert action in legal
            phases.add(game.phase)
            game.apply(action)
        game = match.next_game()
    assert {"candidate", "play"} <= phases and len(phases) >= 3  # call (R8.7) or poll (R9)


def test_search_is_registered() -> None:
    assert isinstance(BOTS["search"](PRESETS["classic"], "1"), SearchBot)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("steps", [0, 40, 120])
def test_r7_sampled_hands_match_the_view(name: str, steps: int) -> None:
    rules = PRESETS[name]
    view = play_view(rules, 3, steps)
    me, mine = view["seat"], rank_counts_of(view["hand"])
    pack = pack_counts(rules)
    played = [view["played"].get(symbol, 0) for symbol in RANK_SYMBOLS]
    rng = random.Random(0)
    for _ in range(20):
        guard = rng.choice(guard_options(view))
        hands = sample_hands(view, rules, guard, rng)
        assert [sum(h) for h in hands] == view["counts"]
        assert hands[me] == mine
        # R7: every card of the pack is in exactly one hand or played, no rank over its count.
        assert [sum(h[r] for h in hands) + played[r] for r in range(len(pack))] == list(pack)
        rank = reveal_rank(view, rules)
        if guard is not None and guard != me and rank is not None and view["guard"] is None:
            assert hands[guard][rank] >= 1


def test_r8_8_guard_options_exclude_emperor_self_and_seats_out() -> None:
    view = play_view(PRESETS["classic"], 5, 60)
    options = guard_options(view)
    if view["guard"] is not None or view["solo"] is not None:
        assert len(options) == 1
    else:
        assert view["seat"] not in options and view["emperor"] not in options
        assert all(view["counts"][s] for s in options if s is not None)


def test_r9_4_weihai_guard_is_revealed_by_b_star() -> None:
    view = {"called": None, "seat": 0}
    assert reveal_rank(view, PRESETS["weihai"]) == SMALL_JOKER


def random_table(rules: Rules, rng: random.Random) -> Table:
    """A fresh round: the pack's ranks dealt at random into five hands of random sizes."""
    pool = [r for r, n in enumerate(pack_counts(rules)) for _ in range(n)]
    rng.shuffle(pool)
    cuts = sorted(rng.sample(range(1, len(pool)), SEATS - 1))
    hands = [[0] * len(pack_counts(rules)) for _ in range(SEATS)]
    for seat, (a, b) in enumerate(zip([0, *cuts], [*cuts, len(pool)], strict=True)):
        for r in pool[a:b]:
            hands[seat][r] += 1
    leader = rng.randrange(SEATS)
    return Table(hands=hands, turn=leader, lead=None, last=leader, passes=0, places=[])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r6_simulator_ends_with_a_valid_ranking(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(11)
    for _ in range(30):
        table = random_table(rules, rng)
        emperor = rng.randrange(SEATS)
        side = [int(s == emperor or rng.random() < 0.25) for s in range(SEATS)]
        places = playout(table, rules, side)
        assert sorted(places) == list(range(SEATS))
        assert [sum(h) for h in table.hands].count(0) >= SEATS - 1
        assert sum(table.hands[places[-1]]) == sum(map(sum, table.hands))


def test_r6_5_jiefeng_lead_passes_to_the_next_holder() -> None:
    ace = rank_counts_of(["As"])
    threes = rank_counts_of(["3s", "3h"])
    table = Table(
        hands=[ace, *(list(threes) for _ in range(4))],
        turn=0,
        lead=None,
        last=0,
        passes=0,
        places=[],
    )
    table.step(Play.parse("A"))
    assert table.places == [0] and table.turn == 1
    for _ in range(4):
        table.step(None)
    assert table.lead is None and table.turn == 1


def test_r6_3_round_ends_when_every_other_holder_passed() -> None:
    hands = [rank_counts_of(["Ks", "3s"]), *(rank_counts_of(["3s", "3h"]) for _ in range(4))]
    table = Table(hands=hands, turn=0, lead=None, last=0, passes=0, places=[])
    table.step(Play.parse("K"))
    for _ in range(3):
        table.step(None)
        assert table.lead is not None
    table.step(None)
    assert table.lead is None and table.turn == 0


def test_search_bot_is_deterministic_for_a_seed() -> None:
    rules = PRESETS["classic"]
    game = play_game(rules, 9, 30)
    seat = game.current_seat
    assert seat is not None and len(game.legal_actions()) > 1
    choices = [
        SearchBot(rules, "s", samples=6, budget_s=None).choose(
            game.view(seat), game.legal_actions()
        )
        for _ in range(2)
    ]
    assert choices[0] == choices[1]
    results = [play_out(new_game(rules, 9), mixed_bots(rules, 1)) for _ in range(2)]
    assert results[0] == results[1]


def test_search_keeps_the_heuristic_choice_within_the_margin() -> None:
    rules = PRESETS["classic"]
    game = play_game(rules, 4, 20)
    seat = game.current_seat
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions()
    bot = SearchBot(rules, "m", samples=2, budget_s=None, margin=1e9)
    assert bot.choose(view, legal) == HeuristicBot(rules).choose(view, legal)
