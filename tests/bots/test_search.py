"""The ``search`` bot (PIMC) and its playouts: legal in every phase and position (R14: the view
is all it gets), its sampled deals consistent with the view, the rank-count R6 simulator, the
playout policy equal to the heuristic bot, and determinism."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import PASS, Game, Match, Play, Rules, new_game
from baohuang.bots import BOTS, Bot, RandomBot, play_out
from baohuang.bots.handsplit import CardCounter, pack_counts, rank_counts_of
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.playout import Policy, Position, R4Counter, game_position
from baohuang.bots.search import (
    STRONG,
    SearchBot,
    SearchSettings,
    candidates,
    guard_candidates,
    reveal_rank,
    root_position,
    sample_hands,
    search_reach,
    strong_settings,
)
from baohuang.engine.actions import Action
from baohuang.engine.cards import (
    BIG_JOKER,
    NUM_RANKS,
    SMALL_JOKER,
    Card,
    parse_cards,
)
from baohuang.engine.views import View

PRESETS = {name: Rules.preset(name) for name in ("classic", "weihai")}
#: Presets with other role phases (R11) and beating (R5.2 qq jokers, wild 2s, 清3).
MORE = {name: Rules.preset(name) for name in ("classic", "weihai", "kk_classic", "qq")}
SEATS = 5


def mixed_bots(rules: Rules, seed: int) -> list[Bot]:
    """Search bots (few samples, no time limit) at seats 0, 2, 4, heuristic bots between."""
    return [
        SearchBot(rules, f"{seed}-{s}", SearchSettings(samples=4, budget_s=None))
        if s % 2 == 0
        else HeuristicBot(rules)
        for s in range(SEATS)
    ]


def play_game(rules: Rules, seed: int | str, steps: int) -> Game:
    """A game ``steps`` heuristic moves into the play phase (or over, if shorter)."""
    game = new_game(rules, seed)
    bots = [HeuristicBot(rules) for _ in range(SEATS)]
    while (seat := game.current_seat) is not None and (game.phase != "play" or steps > 0):
        steps -= game.phase == "play"
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


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


@pytest.mark.parametrize("name", sorted(MORE))
def test_r14_search_never_chooses_an_illegal_action(name: str) -> None:
    """Random positions (random play reaches odd hands), every one searched."""
    rules = MORE[name]
    rng = random.Random(name)
    searched = 0
    for deal in range(4):
        game = new_game(rules, f"legal/{deal}")
        players = [RandomBot(f"{deal}/{s}") for s in range(SEATS)]
        while (seat := game.current_seat) is not None:
            view, legal = game.view(seat), game.legal_actions()
            if game.phase == "play" and len(legal) > 1 and rng.random() < 0.1:
                bot = SearchBot(
                    rules,
                    deal,
                    SearchSettings(
                        samples=2, budget_s=None, margin=0, endgame=999, lead_endgame=999
                    ),
                )
                assert bot.choose(view, legal) in legal
                searched += 1
            game.apply(players[seat].choose(view, legal))
    assert searched >= 10


def test_search_and_strong_are_registered() -> None:
    search = BOTS["search"](PRESETS["classic"], "1")
    strong = BOTS["strong"](PRESETS["classic"], "1")
    assert isinstance(search, SearchBot) and search.reader is None
    assert isinstance(strong, SearchBot) and strong.reader is not None
    # classic's strong searches the whole play, only when sure, redrawing repeated deals;
    # weihai's as its search, reading
    chosen = strong.settings
    assert (*strong.reach, chosen.sure, chosen.samples, chosen.redraw) == (215, 160, 2, 32, 3)
    weihai = BOTS["strong"](PRESETS["weihai"], "1")
    assert isinstance(weihai, SearchBot) and weihai.reader is not None
    assert (*weihai.reach, weihai.settings.sure) == (165, 120, 0)
    # keyed on the rules' options, not the preset's name: a classic pack with 6s removed
    # and weihai's scoring is searched as weihai's
    assert strong_settings(Rules.preset("classic", ranks_from="6")) == STRONG
    assert search_reach(replace(Rules.preset("kk_simple"), scoring="weihai")) == (165, 120)


@settings(max_examples=20)
@given(
    name=st.sampled_from(sorted(MORE)),
    deal=st.integers(0, 10**6),
    steps=st.integers(0, 200),
    seed=st.integers(0, 2**32),
)
def test_r7_sampled_hands_match_the_view(name: str, deal: int, steps: int, seed: int) -> None:
    rules = MORE[name]
    game = play_game(rules, deal, steps)
    if game.current_seat is None:
        return
    view = game.view(game.current_seat)
    me, mine = view.seat, rank_counts_of(view.hand or ())
    assert me is not None
    pack = pack_counts(rules)
    played = view.played
    rng = random.Random(seed)
    odds = HeuristicBot(rules)._guard_odds(view)
    seats, weights = zip(*guard_candidates(view, odds), strict=True)
    for _ in range(5):
        guard = rng.choices(seats, weights)[0]
        hands = sample_hands(view, rules, guard, rng)
        assert [sum(h) for h in hands] == list(view.counts)
        assert hands[me] == mine
        # R7: every card of the pack is in exactly one hand or played.
        assert [sum(h[r] for h in hands) + played[r] for r in range(len(pack))] == list(pack)
        rank = reveal_rank(view.called, rules)
        hidden = guard is not None and guard != me and not view.guard_revealed
        if hidden and rank is not None and any(h[rank] for s, h in enumerate(hands) if s != me):
            assert hands[guard][rank] >= 1  # R8.8, R9.4: it still holds the revealing card


def test_r8_8_guard_odds_exclude_emperor_self_and_seats_out() -> None:
    game = play_game(PRESETS["classic"], 5, 120)
    assert game.current_seat is not None
    view = game.view(game.current_seat)
    odds = HeuristicBot(PRESETS["classic"])._guard_odds(view)
    seats = [seat for seat, _ in guard_candidates(view, odds)]
    if view.guard is not None or view.solo is not None:
        assert len(seats) == 1
    else:
        assert view.seat not in seats and view.emperor not in seats
        assert all(s is not None and view.counts[s] for s in seats)


def test_r9_4_weihai_guard_is_revealed_by_b_star() -> None:
    assert reveal_rank(None, PRESETS["weihai"]) == SMALL_JOKER
    assert reveal_rank(Card.parse("9h"), PRESETS["weihai"]) == Card.parse("9h").rank


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_playout_policy_is_the_heuristic_bot(name: str) -> None:
    """On the true hands with the game's beliefs, the policy chooses what the heuristic bot
    chooses, at every play decision of whole games."""
    rules = PRESETS[name]
    policy = Policy(rules)
    compared = 0
    for deal in range(3):
        game = new_game(rules, f"policy/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        while (seat := game.current_seat) is not None:
            legal = game.legal_actions()
            action = bots[seat].choose(game.view(seat), legal)
            if game.phase == "play" and len(legal) > 1:
                suspect = bots[seat].memory.suspect
                assert suspect is not None
                predicted: Action = policy.act(game_position(game, suspect)) or PASS
                assert predicted == action
                compared += 1
            game.apply(action)
    assert compared > 100


@settings(max_examples=300)
@given(
    pool=st.lists(st.integers(0, 16), min_size=NUM_RANKS, max_size=NUM_RANKS),
    cap=st.integers(1, 43),
    rank=st.integers(-1, 12),
    count=st.integers(0, 8),
    small=st.integers(0, 4),
    big=st.integers(0, 2),
)
def test_r4_counter_agrees_with_the_card_counter(
    pool: list[int], cap: int, rank: int, count: int, small: int, big: int
) -> None:
    pool[SMALL_JOKER] = min(pool[SMALL_JOKER], 4)
    pool[BIG_JOKER] = min(pool[BIG_JOKER], 4)
    if count + small + big == 0 or (rank < 0) != (count == 0):
        return
    play = Play.of(rank, count, small, big)
    rules = PRESETS["classic"]
    fast, slow = R4Counter(pool, cap, rules), CardCounter(pool, cap, rules)
    assert fast.beatable(play) == slow.beatable(play)
    if count and not play.jokers:
        assert fast.beatable_set(rank, count) == slow.beatable_set(rank, count)
        assert fast.beatable_set(rank, count) == slow.beatable(play)


def random_positions(rules: Rules, seed: int, n: int = 30) -> Iterator[Position]:
    """``n`` fresh rounds: the pack's ranks dealt at random into five hands of random sizes."""
    rng = random.Random(seed)
    for _ in range(n):
        pool = [r for r, k in enumerate(pack_counts(rules)) for _ in range(k)]
        rng.shuffle(pool)
        cuts = sorted(rng.sample(range(1, len(pool)), SEATS - 1))
        hands = [[0] * len(pack_counts(rules)) for _ in range(SEATS)]
        for seat, (a, b) in enumerate(zip([0, *cuts], [*cuts, len(pool)], strict=True)):
            for r in pool[a:b]:
                hands[seat][r] += 1
        leader, emperor = rng.randrange(SEATS), rng.randrange(SEATS)
        guard = rng.choice([None, *(s for s in range(SEATS) if s != emperor)])
        yield Position(
            hands=hands,
            turn=leader,
            lead=None,
            last=leader,
            passes=0,
            places=[],
            emperor=emperor,
            guard=guard,
            known=rng.random() < 0.5,
        )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r6_simulator_ends_with_a_valid_ranking(name: str) -> None:
    rules = PRESETS[name]
    policy = Policy(rules)
    for position in random_positions(rules, 11):
        while not position.over:
            position.step(policy.act(position))
        assert sorted(position.places) == list(range(SEATS))
        assert position.sizes.count(0) >= SEATS - 1 and sum(position.pool) == sum(position.sizes)
        assert position.sizes[position.places[-1]] == sum(position.sizes)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r10_playout_stops_once_the_emperors_side_is_out(name: str) -> None:
    rules = PRESETS[name]
    policy = Policy(rules)
    for position in random_positions(rules, 12):
        places = policy.playout(position)
        assert sorted(places) == list(range(SEATS))
        side = [s for s in (position.emperor, position.guard) if s is not None]
        assert all(s in position.places for s in side)  # R10 needs the side's places alone


def test_r6_5_jiefeng_lead_passes_to_the_next_holder() -> None:
    ace = rank_counts_of(parse_cards(["As"]))
    threes = rank_counts_of(parse_cards(["3s", "3h"]))
    position = Position(
        hands=[ace, *(list(threes) for _ in range(4))],
        turn=0,
        lead=None,
        last=0,
        passes=0,
        places=[],
        emperor=0,
        guard=1,
    )
    position.step(Play.parse("A"))
    assert position.places == [0] and position.turn == 1
    for _ in range(4):
        position.step(None)
    assert position.lead is None and position.turn == 1


def test_r6_3_round_ends_when_every_other_holder_passed() -> None:
    hands = [
        rank_counts_of(parse_cards(["Ks", "3s"])),
        *(rank_counts_of(parse_cards(["3s", "3h"])) for _ in range(4)),
    ]
    position = Position(
        hands=hands, turn=0, lead=None, last=0, passes=0, places=[], emperor=0, guard=None
    )
    position.step(Play.parse("K"))
    for _ in range(3):
        position.step(None)
        assert position.lead is not None
    position.step(None)
    assert position.lead is None and position.turn == 0


def test_r8_8_the_guard_reveals_itself_with_its_last_called_rank() -> None:
    hands = [
        rank_counts_of(parse_cards(["9s", "9h", "4s"])),
        *(rank_counts_of(parse_cards(["3s", "3h"])) for _ in range(4)),
    ]
    position = Position(
        hands=hands,
        turn=0,
        lead=None,
        last=0,
        passes=0,
        places=[],
        emperor=1,
        guard=0,
        known=False,
        reveal=Card.parse("9s").rank,
        revealer=0,
    )
    odds = pytest.approx([2 / 3, 0.0, 1.0, 2 / 3, 2 / 3])
    assert position.partners(2) == odds  # R14: to seat 2, any of 0, 3, 4 may be the guard
    position.step(Play.parse("99"))
    assert position.known and position.partners(2) == [0.0, 0.0, 1.0, 1.0, 1.0]


def searched_position(rules: Rules) -> tuple[View, list[Action]]:
    """The first endgame decision with a choice in a heuristic game."""
    for deal in range(20):
        game = new_game(rules, f"endgame/{deal}")
        bots = [HeuristicBot(rules) for _ in range(SEATS)]
        while (seat := game.current_seat) is not None:
            view, legal = game.view(seat), game.legal_actions()
            if game.phase == "play" and len(legal) > 2 and sum(view.counts) <= 40:
                return view, legal
            game.apply(bots[seat].choose(view, legal))
    raise AssertionError("no endgame position found")


def test_search_bot_is_deterministic_for_a_seed() -> None:
    rules = PRESETS["classic"]
    view, legal = searched_position(rules)
    choices = [
        SearchBot(rules, "s", SearchSettings(samples=8, budget_s=None, margin=0)).choose(
            view, legal
        )
        for _ in range(2)
    ]
    assert choices[0] == choices[1]
    results = [play_out(new_game(rules, 9), mixed_bots(rules, 1)) for _ in range(2)]
    assert results[0] == results[1]


def test_search_keeps_the_heuristic_choice_within_the_margin_or_outside_the_endgame() -> None:
    rules = PRESETS["classic"]
    view, legal = searched_position(rules)
    heuristic = HeuristicBot(rules).choose(view, legal)
    sure = SearchBot(rules, "m", SearchSettings(samples=4, budget_s=None, margin=1e9))
    assert sure.choose(view, legal) == heuristic
    early = SearchBot(
        rules, "m", SearchSettings(samples=4, budget_s=None, margin=-1e9, endgame=0, lead_endgame=0)
    )
    assert not early.worth(view) and early.choose(view, legal) == heuristic


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_search_starts_where_its_preset_pays_weihai_at_the_first_follow(name: str) -> None:
    """Weihai searches every follow and the leads once 45 cards are out (SEARCH_FROM); classic only
    its endgame, unless the thresholds are given."""
    rules = PRESETS[name]
    game = play_game(rules, 5, 0)
    bots = [HeuristicBot(rules) for _ in range(SEATS)]
    seat = game.current_seat
    assert seat is not None and game.phase == "play"
    game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))  # the first lead
    view = game.view(game.current_seat)
    assert view.lead is not None and sum(view.counts) > 150  # following, nearly every card held
    assert SearchBot(rules).worth(view) == (name == "weihai")
    assert SearchBot(rules, settings=SearchSettings(endgame=999)).worth(view)
    assert not SearchBot(rules, settings=SearchSettings(endgame=0)).worth(view)


def test_search_overrules_only_on_a_lead_beyond_the_margin_and_sure_standard_errors() -> None:
    """Leads 3, 3, 3, −1 over the heuristic's choice: mean 2, standard error 1."""
    rules = PRESETS["classic"]
    option, base = [3, 3, 3, -1], [0, 0, 0, 0]
    assert SearchBot(rules, settings=SearchSettings(margin=0.5))._ahead(option, base)
    assert not SearchBot(rules, settings=SearchSettings(margin=2.0))._ahead(option, base)
    assert SearchBot(rules, settings=SearchSettings(margin=0.5, sure=1.5))._ahead(option, base)
    assert not SearchBot(rules, settings=SearchSettings(margin=0.5, sure=2.5))._ahead(option, base)


def test_a_deal_drawn_again_reuses_its_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The playouts are deterministic: eight reads of one deal play each option out once, and
    the option taken is the best of those single playouts."""
    rules = PRESETS["classic"]
    view, legal = searched_position(rules)
    hands = sample_hands(view, rules, None, random.Random(3))
    bot = SearchBot(rules, "c", SearchSettings(samples=8, budget_s=None, margin=-1e9, prune=8))
    base = HeuristicBot(rules).choose(view, legal)
    options = candidates(base, legal, rank_counts_of(view.hand or ()), bot.settings.limit)
    assert len(options) > 1
    values = []
    for option in options:
        position = root_position(view, rules, [list(h) for h in hands], None, [1.0] * SEATS)
        position.step(option if isinstance(option, Play) else None)
        values.append(bot._value(view, bot.policy.playout(position), None))
    calls: list[int] = []
    playout = Policy.playout

    def counted(self: Policy, position: Position) -> list[int]:
        calls.append(1)
        return playout(self, position)

    def same_deal(self: SearchBot, view: View) -> Iterator[tuple[int | None, list[list[int]]]]:
        while True:
            yield None, [list(h) for h in hands]

    monkeypatch.setattr(SearchBot, "_deals", same_deal)
    monkeypatch.setattr(Policy, "playout", counted)
    assert bot.choose(view, legal) == options[values.index(max(values))]
    assert len(calls) == len(options)


@pytest.mark.parametrize(("redraw", "played"), [(0, 2), (1, 3)])
def test_redraw_plays_another_deal_in_place_of_one_played_already(
    monkeypatch: pytest.MonkeyPatch, redraw: int, played: int
) -> None:
    """Deals come twice each (A A B B C C ...): a search on three deals plays two of them, A
    and B; with ``redraw=1`` the deal after a repeated one is drawn in its place: A, B, C."""
    rules = PRESETS["classic"]
    game = play_game(rules, 5, 10)  # early in the play: the deals differ
    assert game.current_seat is not None
    view, legal = game.view(game.current_seat), game.legal_actions()
    assert len(legal) > 1
    rng = random.Random(5)
    deals = [sample_hands(view, rules, None, rng) for _ in range(4)]
    seen: set[tuple[int, ...]] = set()
    position = SearchBot._position

    def recorded(self: SearchBot, view: View, hands: list[list[int]], *rest: object) -> Position:
        seen.add(tuple(c for hand in hands for c in hand))
        return position(self, view, hands, *rest)  # type: ignore[arg-type]

    def twice(self: SearchBot, view: View) -> Iterator[tuple[int | None, list[list[int]]]]:
        for hands in deals:
            yield None, [list(h) for h in hands]
            yield None, [list(h) for h in hands]

    monkeypatch.setattr(SearchBot, "_deals", twice)
    monkeypatch.setattr(SearchBot, "_position", recorded)
    chosen = SearchSettings(samples=3, budget_s=None, prune=4, redraw=redraw, endgame=999)
    bot = SearchBot(rules, "r", replace(chosen, lead_endgame=999))
    bot.choose(view, legal)
    assert len(seen) == played
