"""The game state machine (R6, R8, R10) checked by an independent referee of the event log.

Whole seeded random games run under :class:`helpers.referee.Referee` after every action; bounded
seed searches find the rarer situations (接风, 暗独, 明独, void deals, reveals) to assert on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from baohuang import (
    ACCEPT,
    DECLINE,
    Action,
    Call,
    Card,
    Game,
    IllegalActionError,
    NotationError,
    OpenSolo,
    Rules,
    new_game,
    parse_cards,
)
from baohuang.engine.cards import CARDS, RANK_SYMBOLS
from helpers.cards import SEATS
from helpers.deals import has_callable_triple
from helpers.drivers import find_game, play, random_game, reach, replay_steps
from helpers.policies import FIRST_DEAL_DECLINER, is_dark_solo_call, preferring
from helpers.reading import dealt_hands, kinds, public_events, snapshot
from helpers.referee import Referee
from helpers.rulesets import CLASSIC
from helpers.scoring import expected_scores

GAMES_PER_BLOCK = 25


# ---------------------------------------------------------------------- whole games


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_r6_r8_r10_random_games_follow_the_rules(block: int) -> None:
    """Refereed after every action; each game ends ranked, zero-sum, with nothing left to do."""
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        game = random_game(seed, after=Referee())
        result = game.result
        assert game.is_over and result is not None and game.current_seat is None
        assert game.legal_actions() == []
        assert sorted(result.places) == list(range(SEATS))
        assert sum(result.scores) == 0 and game.scores == list(result.scores)
        assert kinds(game)[-1] == "game_over"


@pytest.mark.parametrize(
    "options",
    [
        {"roast": True},
        {"hold_sixes": True},
        {"ranks_from": "6"},
        {"roast": True, "ranks_from": "4"},
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()),
)
def test_r5_1_r6_7_r7_options_games_follow_the_rules(options: dict[str, object]) -> None:
    """The same referee, with 烤牌, 憋6 and smaller packs (R5.1, R6.7, R7 options)."""
    rules = Rules.preset("classic", **options)
    for seed in range(10):
        game = random_game(seed, after=Referee(), rules=rules)
        assert game.is_over and game.rules == rules


def test_r6_1_emperor_leads_the_first_round() -> None:
    for seed in range(30):
        game = random_game(seed)
        first_round = public_events(game, "round")[0]
        assert first_round == {"leader": game.emperor, "jiefeng": False}
        assert game.events[kinds(game).index("round") + 1].public["seat"] == game.emperor


# ---------------------------------------------------------------------- emperor and guard (R8)


def test_r8_3_r8_5_candidates_go_to_the_shang_jia_with_twos() -> None:
    game = find_game(lambda g: len(public_events(g, "decline")) >= 3 and "void" not in kinds(g))
    seats = [e["seat"] for e in public_events(game, "candidate")]
    c0 = seats[0]
    assert seats == [(c0 - i) % SEATS for i in range(len(seats))]
    hands = dealt_hands(game)
    declines = public_events(game, "decline")
    assert declines[0]["added"] is None  # c0's first turn adds nothing
    added = []
    for decline in declines[1:]:
        twos = {c for c in hands[decline["seat"]] if c.rank == 12}
        assert (decline["added"] is None) == (not twos)
        if twos:
            assert Card.parse(decline["added"]) in twos
            added.append(decline["added"])
    accept = public_events(game, "accept")[0]
    assert accept["seat"] == seats[-1] == game.emperor
    assert sorted(accept["pile"]) == sorted(["R", *added])
    assert accept["counts"][game.emperor] == hands[game.emperor].total() + 1 + len(added)


def test_r8_4_candidate_without_callable_triple_declines_automatically() -> None:
    game = find_game(
        lambda g: any(
            e.private.get(e.public["seat"], {}).get("auto") for e in g.events if e.kind == "decline"
        )
    )
    hands = dealt_hands(game)
    declines = [e for e in game.events if e.kind == "decline"]
    for event in declines:
        seat = event.public["seat"]
        assert event.private[seat]["auto"] == (not has_callable_triple(hands[seat]))
    asked = sum(1 for e in declines if not e.private[e.public["seat"]]["auto"])
    assert sum(1 for _, a in game.actions if a == DECLINE) == asked


def test_r8_6_c0_declining_twice_voids_the_deal() -> None:
    game = find_game(lambda g: "void" in kinds(g), FIRST_DEAL_DECLINER)
    log = kinds(game)
    void = log.index("void")
    first_deal = game.events[:void]
    seats = [e.public["seat"] for e in first_deal if e.kind == "candidate"]
    c0 = seats[0]
    assert seats == [(c0 - i) % SEATS for i in range(SEATS)] + [c0]
    assert [e.public["seat"] for e in first_deal if e.kind == "decline"] == seats
    assert log[void + 1] == "deal" and game.events[void + 1].public["deal"] == 1
    assert dealt_hands(game, 0) != dealt_hands(game, 1)
    assert game.view(None).deal == game.deal_no >= 1


def test_r8_7_call_makes_the_only_other_holder_the_guard() -> None:
    for seed in range(20):
        game = random_game(seed)
        calls = public_events(game, "call")
        if not calls:
            continue
        card = Card.parse(calls[0]["card"])
        emperor = calls[0]["seat"]
        hands = dealt_hands(game, game.deal_no)
        assert hands[emperor][card] >= 3 and card.rank < 12
        holders = [s for s in range(SEATS) if s != emperor and hands[s][card]]
        assert game.result is not None and game.result.guard == (holders[0] if holders else None)
        assert len(holders) <= 1


def test_r8_7_dark_solo_when_the_emperor_holds_all_four() -> None:
    game = find_game(
        lambda g: bool(public_events(g, "call")) and g.guard is None,
        preferring(is_dark_solo_call),
    )
    call = next(e for e in game.events if e.kind == "call")
    emperor = call.public["seat"]
    assert dealt_hands(game, game.deal_no)[emperor][Card.parse(call.public["card"])] == 4
    assert call.private == {emperor: {"solo": "dark"}}
    result = game.result
    assert result is not None and result.guard is None and not result.open_solo
    assert list(result.scores) == expected_scores(CLASSIC, emperor, None, result.places)
    assert result.scores[emperor] == -4 * result.scores[(emperor + 1) % SEATS]


def test_r8_7_open_solo_shows_four_copies_and_doubles_scores() -> None:
    game = find_game(
        lambda g: bool(public_events(g, "open_solo")),
        preferring(lambda g, a: isinstance(a, OpenSolo)),
    )
    solo = public_events(game, "open_solo")[0]
    assert solo["shown"] == [solo["card"]] * 4 and "call" not in kinds(game)
    result = game.result
    assert result is not None and result.open_solo and result.guard is None
    plain = expected_scores(CLASSIC, result.emperor, None, result.places)
    assert list(result.scores) == [2 * s for s in plain]


def test_r8_8_playing_the_called_card_reveals_the_guard() -> None:
    game = find_game(lambda g: "reveal" in kinds(g))
    called = public_events(game, "call")[0]["card"]
    reveal = kinds(game).index("reveal")
    revealing_play = game.events[reveal - 1]
    assert revealing_play.kind == "play" and called in revealing_play.public["cards"]
    assert game.events[reveal].public == {"seat": game.guard, "role": "guard"}
    assert revealing_play.public["seat"] == game.guard
    earlier = [e.public for e in game.events[: reveal - 1] if e.kind == "play"]
    assert not [p for p in earlier if p["seat"] != game.emperor and called in p["cards"]]
    assert kinds(game).count("reveal") == 1


# ---------------------------------------------------------------------- rounds (R6)


def test_r6_3_r6_5_round_ends_when_every_other_holder_passed() -> None:
    """Between a round's last play and the next round: one pass per other seat with cards."""
    for seed in range(10):
        game = random_game(seed)
        out = 0
        since_play: list[str] = []
        last_seat = -1
        for event in game.events:
            if event.kind == "round" and last_seat >= 0:
                jiefeng = event.public["jiefeng"]
                holders = SEATS - out
                assert since_play == ["pass"] * (holders - (0 if jiefeng else 1))
                assert jiefeng or event.public["leader"] == last_seat
            elif event.kind == "play":
                since_play, last_seat = [], event.public["seat"]
            elif event.kind == "out":
                out += 1
            elif event.kind == "pass":
                since_play.append("pass")


def test_r6_5_jiefeng_lead_passes_to_the_next_seat_with_cards() -> None:
    game = find_game(lambda g: any(e["jiefeng"] for e in public_events(g, "round")))
    out: set[int] = set()
    checked = 0
    for i, event in enumerate(game.events):
        if event.kind == "out":
            out.add(event.public["seat"])
        if event.kind == "round" and event.public["jiefeng"]:
            last_play = next(e for e in reversed(game.events[:i]) if e.kind == "play")
            gone = last_play.public["seat"]
            assert last_play.public["left"] == 0 and gone in out
            after = [(gone + k) % SEATS for k in range(1, SEATS)]
            assert event.public["leader"] == next(s for s in after if s not in out)
            checked += 1
    assert checked


def test_r6_6_the_last_seat_holding_cards_is_da_luo() -> None:
    for seed in range(20):
        game = random_game(seed)
        result = game.result
        assert result is not None
        last = result.places[-1]
        assert game.hand(last) and all(not game.hand(s) for s in range(SEATS) if s != last)
        assert public_events(game, "out")[-1] == {"seat": last, "place": SEATS}
        assert result.emperor is not None
        assert list(result.scores) == expected_scores(
            CLASSIC, result.emperor, result.guard, result.places, open_solo=result.open_solo
        )


# ---------------------------------------------------------------------- errors


def non_beating_play(game: Game) -> str | None:
    """A play of the seat to act, as large as the plain lead, that does not beat it (R4)."""
    lead = game.view(None).lead
    if lead is None or game.current_seat is None:
        return None
    cards = parse_cards(lead.cards)
    if any(c.is_joker for c in cards):
        return None
    held = Counter(c.rank for c in game.hand(game.current_seat) if not c.is_joker)
    low = [r for r, n in held.items() if n >= len(cards) and r <= cards[0].rank]
    return RANK_SYMBOLS[min(low)] * len(cards) if low else None


def unheld_card(game: Game) -> str:
    """A suited card the seat to act does not hold."""
    hand = game.hand(game.current_seat or 0)
    return str(next(c for c in CARDS[:52] if c not in hand))


def in_play_leading(game: Game) -> bool:
    """A round has just started: the leader is to play (R6.2)."""
    return game.phase == "play" and game.view(None).lead is None


SITUATIONS: dict[str, Callable[[], Game]] = {
    "candidate": lambda: reach(lambda g: g.phase == "candidate"),
    "call": lambda: reach(lambda g: g.phase == "call", preferring(lambda g, a: a == ACCEPT)),
    "leading": lambda: reach(in_play_leading),
    "following": lambda: reach(lambda g: non_beating_play(g) is not None),
    "over": lambda: reach(lambda g: g.is_over),
}

ERRORS: list[tuple[str, Callable[[Game], Action | str], type[ValueError], str]] = [
    ("leading", lambda g: "pass", IllegalActionError, "cannot pass"),
    ("following", lambda g: str(non_beating_play(g)), IllegalActionError, "does not beat"),
    ("leading", unheld_card, IllegalActionError, "you hold 0"),
    ("leading", lambda g: "3" * 16, IllegalActionError, "you do not hold the cards"),
    ("leading", lambda g: "9h 8h", NotationError, "mix ranks"),
    ("leading", lambda g: "98", NotationError, "mixes ranks"),
    ("leading", lambda g: "accept", IllegalActionError, "not a play or pass"),
    ("leading", lambda g: Call(CARDS[0]), IllegalActionError, "not a play or pass"),
    ("candidate", lambda g: "pass", IllegalActionError, "candidate phase"),
    ("candidate", lambda g: "99", IllegalActionError, "candidate phase"),
    ("call", lambda g: "accept", IllegalActionError, "call phase"),
    ("call", lambda g: f"call {unheld_card(g)}", IllegalActionError, "call phase"),
    ("candidate", lambda g: "9x", NotationError, "bad card"),
    ("leading", lambda g: "", NotationError, "empty action"),
    ("leading", lambda g: "call", NotationError, "takes one card"),
    ("leading", lambda g: "RRRRR", NotationError, "more cards of a kind"),
    ("over", lambda g: "pass", IllegalActionError, "game is over"),
]


@pytest.mark.parametrize(
    ("situation", "make", "error", "message"),
    ERRORS,
    ids=[f"{s}-{m.replace(' ', '_')}" for s, _, _, m in ERRORS],
)
def test_errors_name_the_problem_and_leave_the_state_unchanged(
    situation: str, make: Callable[[Game], Action | str], error: type[ValueError], message: str
) -> None:
    game = SITUATIONS[situation]()
    action = make(game)
    before = snapshot(game)
    assert not game.is_legal(action)
    with pytest.raises(error, match=message):
        game.check(action)
    with pytest.raises(error, match=message):
        game.apply(action)
    assert snapshot(game) == before
    if not game.is_over:  # and the game goes on as if nothing happened
        game.apply(game.legal_actions()[-1])


@pytest.mark.parametrize("preset", ["classic", "weihai", "kk_classic"])
def test_apply_returns_the_events_it_added_and_is_legal_agrees(preset: str) -> None:
    """Every seat that may act (each of a sealed poll's, R14): its legal actions are legal,
    ``check`` gives the action applied (a rank-only play as its cards), nothing else the
    seat holds is, and ``apply`` returns exactly the events it appended."""
    rules = Rules.preset(preset)
    for seed in range(4):
        game, rng = new_game(rules, seed=seed), random.Random(seed)
        while not game.is_over:
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            assert all(game.is_legal(action, seat) for action in legal)
            for wrong in ("3" * 16, "9x", "escape 7"):
                assert not game.is_legal(wrong, seat)
            action = rng.choice(legal)
            checked = game.check(action, seat)
            before = len(game.events)
            added = game.apply(action, seat)
            assert list(added) == game.events[before:]
            assert (seat, checked) in game.actions  # a closed poll's in the poll's order


# ---------------------------------------------------------------------- clone and determinism


def test_clone_is_independent_and_plays_the_same() -> None:
    game = reach(lambda g: g.phase == "play" and len(g.events) > 60)
    before = snapshot(game)
    copy = game.clone()
    play(copy, random.Random(1))
    assert copy.is_over and snapshot(game) == before
    again = game.clone()
    play(again, random.Random(1))
    play(game, random.Random(1))
    assert game.events == copy.events == again.events
    assert game.result == copy.result == again.result


def test_clone_in_the_role_phase_does_not_share_hands_or_pile() -> None:
    game = reach(lambda g: g.phase == "candidate")
    before = snapshot(game)
    copy = game.clone()
    play(copy, random.Random(3), FIRST_DEAL_DECLINER)
    assert snapshot(game) == before


def test_legal_actions_list_is_the_callers_own() -> None:
    """A caller filtering its list of options (a bot, say) must not change the game's."""
    game = reach(lambda g: g.phase == "candidate")
    before = snapshot(game)
    game.legal_actions().clear()
    assert snapshot(game) == before and game.legal_actions() == [ACCEPT, DECLINE]


def test_events_for_returns_copies_of_the_log() -> None:
    """Editing a returned event (as a client might) must not rewrite the game's log (R14)."""
    game = reach(lambda g: g.phase == "candidate")
    before = snapshot(game)
    game.events_for(0)[0]["hand"].clear()
    assert snapshot(game) == before and len(game.events_for(0)[0]["hand"]) == 43


@pytest.mark.parametrize("seed", [0, 1, "x", "match/3"])
def test_same_seed_and_actions_give_the_same_event_log(seed: int | str) -> None:
    game = random_game(seed)
    *_, again = replay_steps(game)
    assert again.events == game.events and again.result == game.result
    texts = new_game(CLASSIC, seed=seed)
    for _, action in game.actions:
        texts.apply(str(action))
    assert texts.events == game.events


def test_different_seeds_deal_differently() -> None:
    deals = [dealt_hands(new_game(CLASSIC, seed=s)) for s in [*range(20), "a", "b"]]
    assert all(a != b for i, a in enumerate(deals) for b in deals[i + 1 :])
