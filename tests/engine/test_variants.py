"""Every preset of R7 played through: packs and deals, the role phases of R9 and R11, the QQ
flow, scoring from whole games, and escape (R10.4).

Whole games run under :class:`helpers.referee.Referee`, which restates every rule on its own; here
bounded seed searches and steered random policies reach each branch of the role phases, which
are then asserted from the events and the legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from baohuang import (
    ACCEPT,
    DECLINE,
    PASS,
    Call,
    Escape,
    Game,
    IllegalActionError,
    Match,
    NotationError,
    Play,
    Rules,
    legal_plays,
    new_game,
    score,
)
from baohuang.engine.actions import GRAB, KICK, REBEL, SHOW, SOLO, TRANSFER
from baohuang.engine.scoring import tribute_side
from helpers.cards import B_STAR, R_STAR, SEATS, TWO
from helpers.deals import can_grab, full_pack, has_callable_triple
from helpers.drivers import find_game, play, random_game, reach
from helpers.policies import (
    FIRST_DEAL_DECLINER,
    Policy,
    is_dark_solo_call,
    leading_b_star,
    preferring,
    sparing,
    varied,
    wants,
)
from helpers.reading import dealt_hands, kinds, public_events
from helpers.referee import Referee
from helpers.rulesets import PRESET_NAMES, PRESETS, QQ_THREES
from helpers.scoring import expected_outcome, expected_scores

WEIHAI, KK_SIMPLE, KK_CLASSIC, QQ = (
    PRESETS[n] for n in ("weihai", "kk_simple", "kk_classic", "qq")
)
#: Presets other than `classic` (which test_game.py referees at length).
VARIANTS = PRESET_NAMES[1:]
GAMES_PER_BLOCK = 25


def results_match_score(game: Game) -> None:
    """The game's scores are R10's for its roles, places and flags, by score() and by the
    referee's own reading; a finished game is ranked and zero-sum."""
    result = game.result
    assert game.is_over and result is not None and result.emperor is not None
    assert sorted(result.places) == list(range(SEATS)) and sum(result.scores) == 0
    flags = {
        "open_solo": result.open_solo,
        "rebellion": result.rebellion,
        "open_guard": result.open_guard,
        "kicked": result.kicked,
    }
    args = (result.emperor, result.guard, result.places)
    assert list(result.scores) == expected_scores(game.rules, *args, **flags)
    assert list(result.scores) == score(
        game.rules, emperor=result.emperor, guard=result.guard, places=result.places, **flags
    )
    assert result.outcome == expected_outcome(result.scores[result.emperor])


# ---------------------------------------------------------------------- whole games


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "block"), [(name, block) for name in VARIANTS for block in range(2)]
)
def test_r7_refereed_random_games_of_every_preset(name: str, block: int) -> None:
    """Refereed after every action: every card accounted for, every event as the rules say."""
    rules = PRESETS[name]
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        game = random_game(seed, varied(seed), after=Referee(), rules=rules)
        results_match_score(game)
        assert game.legal_actions() == [] and kinds(game)[-1] == "game_over"


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r7_r10_many_random_games_end_ranked_and_zero_sum(name: str) -> None:
    """A thousand random games per preset: a valid ranking and zero-sum scores (R6, R10)."""
    rules = PRESETS[name]
    for seed in range(1000, 2000):
        results_match_score(random_game(seed, varied(seed), rules=rules))


def test_r6_8_qq_with_threes_refereed_games() -> None:
    """QQ with its 3s and 清3 (R6.8): 3s go out last, and beating the play that left only 3s
    clears them."""
    cleared = 0
    for seed in range(20):
        game = random_game(seed, varied(seed), after=Referee(), rules=QQ_THREES)
        results_match_score(game)
        cleared += len(public_events(game, "cleared"))
    assert cleared


def keeping_twos(game: Game, action: Any) -> bool:
    """For :func:`preferring`: any action but a play with 2s (filling or a set) short of the
    seat's last cards, so hands keep their 2s to the end."""
    seat = game.current_seat
    with_twos = isinstance(action, Play) and (action.twos or action.has_rank(TWO))
    return not (with_twos and seat is not None and action.size < len(game.hand(seat)))


def test_r6_8_twos_filling_the_threes_count_for_the_watched_play() -> None:
    """000: "3必须是最后出，在出3之前的一次出牌，必须没人要" with 2s as fillers (R5.2): ``3 3 2``
    goes out in one play, so the play that leaves 3s and 2s is the one that must go unbeaten."""
    assert Play.parse("332") in legal_plays("3s 3h 2s", None, QQ_THREES)

    def cleared_with_twos(game: Game) -> bool:
        for cleared in public_events(game, "cleared"):
            seat = cleared["seat"]
            final = [e for e in public_events(game, "play") if e["seat"] == seat][-1]
            if Play.parse(final["play"]).twos:
                return True
        return False

    game = find_game(cleared_with_twos, preferring(keeping_twos), rules=QQ_THREES)
    results_match_score(game)  # the referee watched the same play (helpers.referee: on_play)


PACK_SIZES = {
    "classic": 216,
    "weihai": 165,
    "kk_simple": 168,
    "lianzhong_simple": 168,
    "kk_classic": 216,
    "lianzhong_classic": 216,
    "qq": 200,
}
#: R7: each seat's cards from the first seat dealt (R9.1: the dealer); R8.1: one R aside in
#: classic; R8.9: nothing aside in qq.
DEAL_SIZES = {
    "classic": [43, 43, 43, 43, 43],
    "weihai": [33, 33, 33, 33, 33],
    "kk_simple": [34, 34, 34, 33, 33],
    "lianzhong_simple": [34, 34, 34, 33, 33],
    "kk_classic": [44, 43, 43, 43, 43],
    "lianzhong_classic": [44, 43, 43, 43, 43],
    "qq": [40, 40, 40, 40, 40],
}
#: R9.1: R* and B* (weihai, simple); R11.1: R* alone (classic 叫保); R8: none.
MARKED_JOKERS = {
    "classic": (0, 0),
    "weihai": (1, 1),
    "kk_simple": (1, 1),
    "lianzhong_simple": (1, 1),
    "kk_classic": (1, 0),
    "lianzhong_classic": (1, 0),
    "qq": (0, 0),
}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r7_pack_and_deal_sizes(name: str) -> None:
    rules = PRESETS[name]
    assert sum(full_pack(rules).values()) == PACK_SIZES[name]
    for seed in range(3):
        deal = new_game(rules, seed=seed).events[0]
        counts, first = deal.public["counts"], deal.public["dealer"]
        assert [counts[(first + i) % SEATS] for i in range(SEATS)] == DEAL_SIZES[name]
        dealt = sum((Counter(deal.private[s]["hand"]) for s in range(SEATS)), Counter())
        assert dealt.total() + (name == "classic") == PACK_SIZES[name]
        assert (dealt["R*"], dealt["B*"]) == MARKED_JOKERS[name]


def test_r7_weihai_pack_has_no_3_4_5_and_three_sixes_fewer() -> None:
    ranks = Counter()
    for card, n in full_pack(WEIHAI).items():
        ranks[card.rank] += n
    assert [ranks[r] for r in range(3)] == [0, 0, 0]
    assert ranks[3] == 13 and all(ranks[r] == 16 for r in range(4, 13))
    assert ranks[13] == ranks[14] == 4  # B*, R* among them


# ---------------------------------------------------------------------- R9.2–R9.4

NO_OPEN_SOLO = wants(("solo", PASS))
#: R11.3: calls a triple (never four, never 明独保), then plays at random.
CALLER = preferring(lambda g, a: isinstance(a, Call) and not is_dark_solo_call(g, a))


def solo_poll_answers(game: Game) -> list[dict[str, Any]]:
    """The declarations of the R9.2 明独 poll."""
    return [e for e in public_events(game, "declare") if e["poll"] == "solo"]


def r_star_holder(game: Game) -> int:
    """The seat dealt R* in the game's last deal."""
    return next(s for s, hand in enumerate(dealt_hands(game, game.deal_no)) if hand[R_STAR])


def test_r9_2_weihai_open_solo_by_anyone_first_declarer_wins() -> None:
    """Asked from the R* holder in play order; the first 明独 ends the poll, no R* needed."""
    game = find_game(
        lambda g: len(solo_poll_answers(g)) >= 3 and g.emperor != r_star_holder(g),
        sparing(0.3),
        rules=WEIHAI,
    )
    holder = r_star_holder(game)
    poll = public_events(game, "poll")[0]
    assert poll == {"poll": "solo", "seats": [(holder + i) % SEATS for i in range(SEATS)]}
    answers = solo_poll_answers(game)
    assert [a["seat"] for a in answers] == poll["seats"][: len(answers)]
    assert [a["answer"] for a in answers] == ["pass"] * (len(answers) - 1) + ["solo"]
    soloist = answers[-1]["seat"]
    solo = {"seat": soloist, "card": None, "shown": [], "how": "declared"}
    assert public_events(game, "open_solo") == [solo]
    assert not {"candidate", "accept", "roles"} & set(kinds(game))  # R* makes nobody emperor
    result = game.result
    assert result is not None and (result.emperor, result.guard) == (soloist, None)
    assert result.open_solo


def test_r9_3_weihai_rstar_holder_without_b_star_must_ascend() -> None:
    game = find_game(
        lambda g: g.emperor == r_star_holder(g) and g.guard is not None,
        preferring(NO_OPEN_SOLO),
        rules=WEIHAI,
    )
    holder = r_star_holder(game)
    assert public_events(game, "candidate") == [{"seat": holder, "pile": ["R*"]}]
    assert not {"decline", "transfer", "void"} & set(kinds(game))
    assert public_events(game, "accept")[0]["seat"] == holder
    assert public_events(game, "roles") == [{"emperor": holder}]
    assert game.guard == next(s for s, h in enumerate(dealt_hands(game)) if h[B_STAR])


def dealt_both(game: Game) -> bool:
    """The R* holder was dealt B* too (R9.3's double holder)."""
    return bool(dealt_hands(game, game.deal_no)[r_star_holder(game)][B_STAR])


@pytest.mark.parametrize("name", ["weihai", "kk_simple"])
def test_r9_3_double_holder_ascending_is_a_dark_solo(name: str) -> None:
    game = find_game(
        dealt_both, preferring(wants(("solo", PASS), ("candidate", ACCEPT))), 300, PRESETS[name]
    )
    holder = r_star_holder(game)
    assert public_events(game, "accept")[0]["seat"] == holder
    roles = next(e for e in game.events if e.kind == "roles")
    assert roles.public == {"emperor": holder} and roles.private == {holder: {"solo": "dark"}}
    result = game.result
    assert result is not None and result.guard is None and not result.open_solo


@pytest.mark.parametrize("name", ["weihai", "kk_simple"])
def test_r9_3_double_holder_solo_is_an_open_solo(name: str) -> None:
    """独保 / 明独保: open solo, announced; no 造反 poll (there is no guard to find)."""
    game = find_game(
        dealt_both, preferring(wants(("solo", PASS), ("candidate", SOLO))), 300, PRESETS[name]
    )
    holder = r_star_holder(game)
    solo = {"seat": holder, "card": None, "shown": [], "how": "declared"}
    assert public_events(game, "open_solo") == [solo] and "roles" not in kinds(game)
    polls = [p["poll"] for p in public_events(game, "poll")]
    assert polls == (["solo", "kick"] if name == "weihai" else [])
    result = game.result
    assert result is not None and result.open_solo and result.emperor == holder


def test_r9_3_weihai_transfer_makes_the_shang_jia_emperor_and_reveals_the_guard() -> None:
    """004: "如果皇帝牌，保牌在一家，皇帝可以选择 独保，转让，或登基". The 上家 may only accept (the
    referee checks its options); only B*'s holder may 转让, so it is the guard, revealed (R14)."""
    game = find_game(
        dealt_both, preferring(wants(("solo", PASS), ("candidate", TRANSFER))), 300, WEIHAI
    )
    holder = r_star_holder(game)
    shang_jia = (holder - 1) % SEATS
    at = kinds(game).index("transfer")
    transfer = game.events[at].public
    assert (transfer["seat"], transfer["to"], transfer["added"]) == (holder, shang_jia, None)
    assert game.events[at + 1].public == {"seat": holder, "role": "guard"}
    candidates = [e["seat"] for e in public_events(game, "candidate")]
    assert candidates == [holder, shang_jia]
    assert public_events(game, "accept")[0]["seat"] == shang_jia
    roles = next(e for e in game.events if e.kind == "roles")
    assert roles.public == {"emperor": shang_jia} and roles.private == {holder: {"guard": True}}
    assert (game.emperor, game.guard) == (shang_jia, holder)


@pytest.mark.parametrize("name", ["kk_simple", "lianzhong_simple"])
def test_r9_3_simple_double_holder_yields_like_anyone_keeping_b_star(name: str) -> None:
    """004 KK: "侍卫牌不可以让"; RULES R9.3: no separate 转让, a double holder's yield hands on R*
    alone and looks exactly like any first yield, so it tells nobody who the guard is (R14)."""
    rules = PRESETS[name]
    asked = reach(lambda g: g.phase == "candidate" and dealt_both(g), sparing(0), rules=rules)
    assert set(asked.legal_actions()) == {ACCEPT, SOLO, DECLINE}
    game = find_game(
        lambda g: dealt_both(g) and g.guard == r_star_holder(g),
        preferring(
            lambda g, a: a in (PASS, DECLINE if g.current_seat == r_star_holder(g) else ACCEPT)
        ),
        300,
        rules,
    )
    holder = r_star_holder(game)
    shang_jia = (holder - 1) % SEATS
    decline = next(e for e in game.events if e.kind == "decline")
    assert decline.public == {
        "seat": holder,
        "to": shang_jia,
        "added": None,
        "counts": decline.public["counts"],
    }
    assert decline.private == {holder: {"auto": False}}
    roles_phase = kinds(game)[: kinds(game).index("round")]
    assert "transfer" not in roles_phase and "reveal" not in roles_phase
    roles = next(e for e in game.events if e.kind == "roles")
    assert roles.public == {"emperor": shang_jia} and roles.private == {holder: {"guard": True}}


def test_r9_4_the_b_star_holder_is_the_guard() -> None:
    for seed in range(20):
        game = random_game(seed, sparing(0), rules=KK_SIMPLE)
        holder = next(s for s, h in enumerate(dealt_hands(game, game.deal_no)) if h[B_STAR])
        assert game.guard == (None if holder == game.emperor or game.open_solo else holder)


# ---------------------------------------------------------------------- R9.3 yielding (KK simple)


def yields(game: Game) -> list[tuple[dict[str, Any], Counter[Any]]]:
    """The yields (R9.3) of the game's first deal, each with the yielder's dealt hand."""
    hands = dealt_hands(game)
    first = kinds(game).index("void") if "void" in kinds(game) else len(game.events)
    return [(e.public, hands[e.public["seat"]]) for e in game.events[:first] if e.kind == "decline"]


@pytest.mark.parametrize("holds_a_two", [True, False], ids=["a-two", "no-two"])
def test_r9_3_kk_simple_later_yielders_add_a_two_or_their_top_card(holds_a_two: bool) -> None:
    """The first yielder hands on R* alone; each later one adds a 2, or its highest non-joker."""

    def wanted(game: Game) -> bool:
        later = yields(game)[1:]
        return any(any(c.rank == TWO for c in hand) == holds_a_two for _, hand in later)

    game = find_game(wanted, FIRST_DEAL_DECLINER, 300, KK_SIMPLE)
    (first, _), *later = yields(game)
    assert first["added"] is None
    pile = ["R*"]
    for decline, hand in later:
        twos = [c for c in hand if c.rank == TWO]
        suited = [c for c in hand if not c.is_joker]
        top = max(c.rank for c in suited)
        added = next(c for c in hand if str(c) == decline["added"])
        assert added.rank == (TWO if twos else top)
        pile.append(decline["added"])
    if len(later) + 1 < 2 * SEATS:  # the pile the next candidate sees (no redeal yet)
        candidates = public_events(game, "candidate")
        assert sorted(candidates[len(later) + 1]["pile"]) == sorted(pile)


def test_r9_3_kk_simple_two_laps_of_yields_deal_anew() -> None:
    """R9.3 (seed 004: 两轮之内仍然没有决定谁是皇帝时，系统重新发牌): two full laps with no
    emperor, ten yields, void the deal. So a guard handed R* by a yield may yield it on: only a
    seat *dealt* both marked jokers (004: 同时抓到) is the double holder."""
    game = reach(
        lambda g: (
            g.phase == "candidate"
            and g.current_seat is not None
            and B_STAR in g.hand(g.current_seat)
            and g.current_seat != r_star_holder(g)
        ),
        FIRST_DEAL_DECLINER,
        rules=KK_SIMPLE,
    )
    assert DECLINE in game.legal_actions()
    game = find_game(lambda g: "void" in kinds(g), FIRST_DEAL_DECLINER, 50, KK_SIMPLE)
    assert len(yields(game)) == 2 * SEATS
    assert public_events(game, "deal")[1]["dealer"] == 0


# ---------------------------------------------------------------------- R9.4–R9.6


def poll_answers(game: Game, poll: str) -> list[dict[str, Any]]:
    """The declarations of one poll: ``show`` 明保 (R9.4), ``rebel`` 造反 (R9.5), …"""
    return [e for e in public_events(game, "declare") if e["poll"] == poll]


def test_r9_4_show_reveals_the_guard() -> None:
    game = find_game(lambda g: g.open_guard, preferring(wants(("show", SHOW))), rules=KK_SIMPLE)
    show = next(e for e in game.events if e.kind == "declare" and e.public["answer"] == "show")
    assert show.public["seat"] == game.guard
    assert game.events[show.seq + 1].public == {"seat": game.guard, "role": "guard"}
    result = game.result
    assert result is not None and result.open_guard and not result.rebellion


def test_r9_5_rebellion_asked_from_the_xiajia_two_rebels_reveal_and_double() -> None:
    game = find_game(
        lambda g: g.guard is not None and g.rebellion and not g.open_guard,
        preferring(wants(("rebel", REBEL))),
        rules=KK_SIMPLE,
    )
    emperor, guard = game.emperor, game.guard
    assert emperor is not None and guard is not None
    asked = [(emperor + i) % SEATS for i in range(1, SEATS)]
    assert [a["seat"] for a in poll_answers(game, "rebel")] == asked  # all but the emperor
    rebels = [s for s in asked if s != guard]
    answers = {a["seat"]: a["answer"] for a in poll_answers(game, "rebel")}
    assert answers == {**dict.fromkeys(rebels, "rebel"), guard: "pass"}
    at = kinds(game).index("rebellion")
    assert game.events[at].public == {"success": True, "rebels": rebels}
    assert game.events[at + 1].public == {"seat": guard, "role": "guard"}
    result = game.result
    assert result is not None and result.rebellion
    plain = expected_scores(KK_SIMPLE, emperor, guard, result.places)
    assert list(result.scores) == [2 * s for s in plain]


#: Per preset, its polls after the roles and what the guard and a rebel are offered in each:
#: 明保 only to the guard (R9.4, R8.10), 造反 only to the rebels (R9.5); a called guard in
#: KK/联众 classic cannot 明保 (R11.5: 造反 as R9.5).
POLL_OPTIONS: dict[str, tuple[Policy, dict[str, tuple[set[Any], set[Any]]]]] = {
    "weihai": (
        preferring(NO_OPEN_SOLO),
        {"show": ({SHOW, PASS}, {PASS}), "rebel": ({PASS}, {REBEL, PASS})},
    ),
    "kk_simple": (
        sparing(0),
        {"show": ({SHOW, PASS}, {PASS}), "rebel": ({PASS}, {REBEL, PASS})},
    ),
    "kk_classic": (CALLER, {"rebel": ({PASS}, {REBEL, PASS})}),
    "qq": (sparing(0), {"show": ({SHOW, PASS}, {PASS})}),
}


@pytest.mark.parametrize("name", POLL_OPTIONS)
def test_r9_4_r9_5_only_the_guard_may_show_only_rebels_may_rebel(name: str) -> None:
    policy, polls = POLL_OPTIONS[name]
    rules = PRESETS[name]
    for poll, (guard_options, rebel_options) in polls.items():
        for is_guard, wanted in ((True, guard_options), (False, rebel_options)):
            game = reach(
                lambda g, poll=poll, is_guard=is_guard: (
                    g.poll == poll
                    and g.guard is not None
                    and (g.current_seat == g.guard) == is_guard
                ),
                policy,
                rules=rules,
            )
            assert set(game.legal_actions()) == wanted


@pytest.mark.parametrize("name", ["weihai", "kk_simple", "lianzhong_simple"])
def test_r9_4_the_guard_chooses_show_before_the_rebels_decide(name: str) -> None:
    """004: "皇帝确认后，有保牌的玩家需选择明保还是暗保。其余玩家可以选择造反或不造反": the 明保
    poll asks every seat but the emperor from its 下家, then the 造反 poll asks them again."""
    game = find_game(
        lambda g: g.guard is not None and not g.open_solo,
        preferring(wants(("solo", PASS), ("show", SHOW))),
        rules=PRESETS[name],
    )
    emperor, guard = game.emperor, game.guard
    assert emperor is not None and guard is not None
    asked = [(emperor + i) % SEATS for i in range(1, SEATS)]
    polls = [p for p in public_events(game, "poll") if p["poll"] in ("show", "rebel")]
    assert polls == [{"poll": "show", "seats": asked}, {"poll": "rebel", "seats": asked}]
    shows = {a["seat"]: a["answer"] for a in poll_answers(game, "show")}
    assert shows == {**dict.fromkeys(asked, "pass"), guard: "show"}
    starts = {e.public["poll"]: e.seq for e in game.events if e.kind == "poll"}
    reveal = next(e.seq for e in game.events if e.kind == "reveal")
    assert starts["show"] < reveal < starts["rebel"]  # the rebels know the guard is open


def rebels(game: Game) -> list[int]:
    """The seats that declared 造反 (R9.5)."""
    return [r for e in public_events(game, "rebellion") for r in e["rebels"]]


def test_r9_5_one_rebel_is_not_a_rebellion() -> None:
    game = find_game(
        lambda g: g.guard is not None and len(rebels(g)) == 1, sparing(0.3), rules=KK_SIMPLE
    )
    assert public_events(game, "rebellion")[0]["success"] is False
    result = game.result
    assert result is not None and not result.rebellion
    assert result.emperor is not None
    assert list(result.scores) == expected_scores(
        KK_SIMPLE, result.emperor, game.guard, result.places
    )


def test_r9_5_rebellion_reveals_a_dark_solo() -> None:
    game = find_game(
        lambda g: g.guard is None and g.rebellion and not g.open_solo,
        preferring(wants(("candidate", ACCEPT), ("rebel", REBEL))),
        rules=KK_SIMPLE,
    )
    at = kinds(game).index("rebellion")
    assert game.events[at + 1].public == {"seat": game.emperor, "role": "solo"}


KICK_CAUSES: dict[str, tuple[Policy, Callable[[Game], bool]]] = {
    # 明独 by anyone (R9.2): the four others may kick
    "open-solo": (preferring(wants(("solo", SOLO), ("kick", KICK))), lambda g: g.open_solo),
    # 明保 (R9.4): the rebels may kick
    "show": (
        preferring(wants(("solo", PASS), ("show", SHOW), ("kick", KICK))),
        lambda g: g.open_guard and not g.rebellion,
    ),
    # a successful 造反 (R9.5): the emperor's side may kick
    "rebellion": (
        preferring(wants(("solo", PASS), ("rebel", REBEL), ("kick", KICK))),
        lambda g: g.rebellion and not g.open_guard and g.guard is not None,
    ),
}


@pytest.mark.parametrize("cause", KICK_CAUSES)
def test_r9_6_weihai_kick_offered_to_the_opposing_side_and_doubles(cause: str) -> None:
    policy, wanted = KICK_CAUSES[cause]
    game = find_game(lambda g: wanted(g) and g.kicked, policy, rules=WEIHAI)
    emperor, guard = game.emperor, game.guard
    assert emperor is not None
    team = {emperor, guard} - {None}
    side = team if cause == "rebellion" else set(range(SEATS)) - team
    poll = next(p for p in public_events(game, "poll") if p["poll"] == "kick")
    assert poll["seats"] == [s for i in range(1, SEATS + 1) if (s := (emperor + i) % SEATS) in side]
    kick = [e for e in public_events(game, "declare") if e["poll"] == "kick"]
    assert kick[-1]["answer"] == "kick" and all(e["answer"] == "pass" for e in kick[:-1])
    assert public_events(game, "kick") == [{"seat": kick[-1]["seat"]}]
    result = game.result
    assert result is not None and result.kicked
    flags = {
        "open_solo": game.open_solo,
        "rebellion": game.rebellion,
        "open_guard": game.open_guard,
    }
    unkicked = expected_scores(WEIHAI, emperor, guard, result.places, **flags)
    assert list(result.scores) == [2 * s for s in unkicked]


def test_r9_6_no_kick_without_a_declaration() -> None:
    """No 明独, 明保 or successful 造反: nobody is asked to kick."""
    quiet = preferring(lambda g, a: g.phase != "play" and a in (PASS, ACCEPT))
    for seed in range(10):
        game = random_game(seed, quiet, rules=WEIHAI)
        assert [p["poll"] for p in public_events(game, "poll")] == ["solo", "show", "rebel"]
        assert game.result is not None and not game.result.kicked


@pytest.mark.parametrize(
    ("name", "role"), [("kk_simple", "guard"), ("weihai", "solo")], ids=["guard", "dark-solo"]
)
def test_r9_4_playing_b_star_reveals_the_guard_or_a_dark_solo(name: str, role: str) -> None:
    def wanted(game: Game) -> bool:
        reveal = next((e for e in game.events if e.kind == "reveal"), None)
        if reveal is None or reveal.public["role"] != role:
            return False
        before = game.events[reveal.seq - 1]
        return before.kind == "play" and "B*" in before.public["cards"]

    policy = leading_b_star(
        preferring(wants(("solo", PASS), ("candidate", ACCEPT), ("show", PASS), ("rebel", PASS)))
    )
    game = find_game(wanted, policy, rules=PRESETS[name])
    reveal = next(e for e in game.events if e.kind == "reveal")
    seat = game.events[reveal.seq - 1].public["seat"]
    assert reveal.public == {"seat": seat, "role": role}
    assert seat == (game.guard if role == "guard" else game.emperor)


# ---------------------------------------------------------------------- R11 (KK classic)


def test_r11_2_kk_classic_yields_hand_on_rstar_alone_and_automatically_without_a_triple() -> None:
    game = find_game(lambda g: len(yields(g)) >= 3, FIRST_DEAL_DECLINER, rules=KK_CLASSIC)
    hands = dealt_hands(game)
    for decline, _ in yields(game):
        assert decline["added"] is None and decline["to"] == (decline["seat"] - 1) % SEATS
    for event in (e for e in game.events if e.kind == "decline"):
        seat = event.public["seat"]
        assert event.private[seat]["auto"] == (not has_callable_triple(hands[seat]))


def holds_four(hand: Counter[Any]) -> bool:
    """Four copies of one suited card (R11.2, R11.4)."""
    return any(n >= 4 and not card.is_joker for card, n in hand.items())


def test_r11_2_after_a_lap_the_first_able_candidate_must_accept() -> None:
    """The referee checks that its only option is to accept; here, who it is: the first able
    candidate of the second lap that does not hold four identical cards."""
    game = find_game(
        lambda g: len(yields(g)) >= SEATS and g.deal_no == 0, FIRST_DEAL_DECLINER, rules=KK_CLASSIC
    )
    hands, c0 = dealt_hands(game), r_star_holder(game)
    lap = [(c0 - i) % SEATS for i in range(SEATS)]
    emperor = next(s for s in lap if has_callable_triple(hands[s]) and not holds_four(hands[s]))
    assert game.emperor == emperor
    seats = [e["seat"] for e in public_events(game, "candidate")]
    assert seats == [*lap, *lap[: lap.index(emperor) + 1]]


@pytest.mark.parametrize("name", ["kk_classic", "lianzhong_classic"])
def test_r11_2_after_a_lap_four_identical_cards_may_still_yield(name: str) -> None:
    """001, 004: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）". A second-lap
    candidate who must accept is still asked (a 登基 made for it would tell that it has no four
    identical cards)."""
    rules = PRESETS[name]
    for four in (True, False):
        game = reach(
            lambda g, four=four: (
                g.phase == "candidate"
                and len(public_events(g, "candidate")) > SEATS
                and g.current_seat is not None
                and has_callable_triple(Counter(g.hand(g.current_seat)))
                and holds_four(Counter(g.hand(g.current_seat))) == four
            ),
            FIRST_DEAL_DECLINER,
            300,
            rules,
        )
        assert game.legal_actions() == ([ACCEPT, DECLINE] if four else [ACCEPT])


CALL_KINDS: dict[str, tuple[Policy, Callable[[Game], bool]]] = {
    "triple": (CALLER, lambda g: g.guard is not None and not g.open_solo),
    "four": (
        preferring(lambda g, a: is_dark_solo_call(g, a) or a == PASS),
        lambda g: g.called is not None and g.guard is None and not g.open_solo,
    ),
    "solo": (preferring(lambda g, a: g.phase == "call" and a == SOLO), lambda g: g.open_solo),
}


@pytest.mark.parametrize("name", ["kk_classic", "lianzhong_classic"])
@pytest.mark.parametrize("kind", CALL_KINDS)
def test_r11_3_emperor_calls_a_triple_four_or_open_solo(kind: str, name: str) -> None:
    """R11.3; R11.5 (revised turn 3): 造反 follows 抢独 in KK经典 only (004: "KK造反功能：同简单
    玩法"; 001 brings 造反 in with "在简明玩法中…")."""
    policy, wanted = CALL_KINDS[kind]
    game = find_game(wanted, policy, rules=PRESETS[name])
    emperor = public_events(game, "accept")[0]["seat"]
    hands = dealt_hands(game, game.deal_no)
    polls = [p["poll"] for p in public_events(game, "poll")]
    if kind == "solo":  # 明独保: announced, no 抢独 and no 造反
        assert public_events(game, "open_solo") == [
            {"seat": emperor, "card": None, "shown": [], "how": "declared"}
        ]
        assert polls == [] and "call" not in kinds(game)
        return
    call = next(e for e in game.events if e.kind == "call")
    card = next(c for c in hands[emperor] if str(c) == call.public["card"])
    assert hands[emperor][card] == (3 if kind == "triple" else 4)
    if kind == "triple":
        assert game.guard is not None and call.private == {game.guard: {"guard": True}}
        assert hands[game.guard][card] == 1
    else:  # 暗独保
        assert call.private == {emperor: {"solo": "dark"}}
    assert polls == (["grab", "rebel"] if name == "kk_classic" else ["grab"])


def grabbed(game: Game) -> bool:
    return any(e["how"] == "grabbed" for e in public_events(game, "open_solo"))


def test_r11_4_grab_asked_by_shang_jia_only_able_seats_first_wins() -> None:
    game = find_game(
        grabbed, preferring(lambda g, a: isinstance(a, Call) or a == GRAB), 600, KK_CLASSIC
    )
    caller = public_events(game, "call")[0]["seat"]
    hands = dealt_hands(game, game.deal_no)
    poll = next(p for p in public_events(game, "poll") if p["poll"] == "grab")
    assert poll["seats"] == [(caller - i) % SEATS for i in range(1, SEATS)]
    able = [s for s in poll["seats"] if can_grab(hands[s])]
    answers = [e for e in public_events(game, "declare") if e["poll"] == "grab"]
    assert [a["seat"] for a in answers] == poll["seats"][: poll["seats"].index(able[0]) + 1]
    assert [a["answer"] for a in answers][-1] == "grab"
    assert public_events(game, "open_solo") == [
        {"seat": able[0], "card": None, "shown": [], "how": "grabbed"}
    ]
    assert "rebel" not in [p["poll"] for p in public_events(game, "poll")]
    result = game.result
    assert result is not None and (result.emperor, result.guard) == (able[0], None)
    points = expected_scores(KK_CLASSIC, able[0], None, result.places, open_solo=True)
    assert result.open_solo and list(result.scores) == points  # the old emperor is a rebel


def test_r11_4_grab_needs_three_jokers_and_four_identical_cards() -> None:
    """Every seat but the emperor is asked; those without the hand may only pass."""
    asked = {True: 0, False: 0}
    for seed in range(40):
        game = new_game(KK_CLASSIC, seed=seed)
        rng = random.Random(seed)
        while game.poll != "rebel" and game.phase != "play":
            seat = game.current_seat
            if game.poll == "grab" and seat is not None:
                able = can_grab(Counter(game.hand(seat)))
                assert set(game.legal_actions()) == ({GRAB, PASS} if able else {PASS})
                asked[able] += 1
            game.apply(CALLER(game, rng))
    assert all(asked.values())


# ---------------------------------------------------------------------- QQ (R7, R8.9, R8.10, R10.3)


def test_r8_9_qq_deals_everything_from_the_starter_its_first_candidate() -> None:
    """000: "当皇上之前，谁先抓的，或上一轮是皇上，就要从他开是放底牌": nothing set aside, 40 cards
    each, the seat dealt first is the first candidate, and its pile starts empty."""
    for seed in range(10):
        game = new_game(QQ, seed=seed)
        deal = game.events[0].public
        assert deal["counts"] == [40] * SEATS
        first = next(e.public for e in game.events if e.kind == "candidate")
        assert first == {"seat": deal["dealer"], "pile": []}


def test_r8_9_qq_decliners_add_cards_the_acceptor_takes_the_pile() -> None:
    """000: "皇上必须放最大的，其余人放2就可以…没有2给小王，没小王给大王…皇上的给法相反，
    没大王给小，没小给2，没2不给": the starter adds its biggest card (R, else B, else a 2), each
    later decliner a 2 (else B, else R); whoever accepts takes them all."""
    three_declines = preferring(
        lambda g, a: a == (DECLINE if len(public_events(g, "decline")) < 3 else ACCEPT)
    )
    game = find_game(lambda g: g.deal_no == 0 and g.emperor is not None, three_declines, rules=QQ)
    (starter, starter_hand), *later = yields(game)
    biggest = next(k for k in ("R", "B", "2") if any(str(c)[0] == k for c in starter_hand))
    assert str(starter["added"])[0] == biggest
    for decline, hand in later:
        first = next(k for k in ("2", "B", "R") if any(str(c)[0] == k for c in hand))
        assert str(decline["added"])[0] == first
    accept = public_events(game, "accept")[0]
    added = [e["added"] for e in public_events(game, "decline") if e["added"]]
    assert sorted(accept["pile"]) == sorted(added)
    assert accept["counts"][accept["seat"]] == 40 + len(added)


def test_r8_9_qq_the_previous_emperor_starts_the_next_game() -> None:
    """000: "或上一轮是皇上": in later games of a match the previous emperor is dealt first and is
    the first candidate."""
    for seed in range(5):
        match = Match(QQ, games=2, seed=seed)
        play(match.game, random.Random(seed))
        emperor = match.game.emperor
        second = match.next_game()
        assert second is not None and emperor is not None
        assert public_events(second, "deal")[0]["dealer"] == emperor
        play(second, random.Random(seed), until=lambda g: g.phase != "tribute")  # R12 first
        assert public_events(second, "candidate")[0]["seat"] == emperor


def test_r8_10_qq_show_asked_after_the_call_doubles_and_needs_first_and_second() -> None:
    """000: "明保…就是把一样的那几张牌亮开。皇上必须第一个走太监第2": after the call every seat but
    the emperor is asked; the guard may show; its side then wins only with the emperor 1st and
    the guard 2nd, and the points are doubled."""
    game = find_game(lambda g: g.open_guard, preferring(wants(("show", SHOW))), rules=QQ)
    emperor, guard = game.emperor, game.guard
    assert emperor is not None and guard is not None
    asked = [(emperor + i) % SEATS for i in range(1, SEATS)]
    assert public_events(game, "poll") == [{"poll": "show", "seats": asked}]
    at = kinds(game).index("call")
    assert kinds(game)[at + 1] == "poll"
    result = game.result
    assert result is not None and result.open_guard
    plain = expected_scores(QQ, emperor, guard, result.places)
    assert list(result.scores) == [2 * points for points in plain]
    receives = list(result.places[:2]) == [emperor, guard]
    assert tribute_side(QQ, result) == ("emperor" if receives else "rebels")
    assert result.outcome == expected_outcome(result.scores[emperor])  # R10.3: by the points


QQ_CASES: dict[str, tuple[Callable[[list[int], int, int], bool], str]] = {
    "emperor-first": (lambda p, e, g: p[0] == e and p[-1] != g, "emperor"),
    "emperor-first-guard-last": (lambda p, e, g: p[0] == e and p[-1] == g, "draw"),
    "guard-first-emperor-second": (lambda p, e, g: p[0] == g and p[1] == e, "emperor"),
    "guard-first-emperor-third": (lambda p, e, g: p[0] == g and p[2] == e, "draw"),
    "guard-first-emperor-last": (lambda p, e, g: p[0] == g and p[-1] == e, "rebels"),
}


@pytest.mark.parametrize("case", QQ_CASES)
def test_r10_3_qq_tribute_rule_in_whole_games(case: str) -> None:
    """QQ's rule names who receives tribute (收贡, 平贡: nobody, 进贡); the winner is by points."""
    wanted, receives = QQ_CASES[case]

    def found(game: Game) -> bool:
        r = game.result
        if r is None or r.emperor is None or r.guard is None or r.open_guard:
            return False
        return wanted(list(r.places), r.emperor, r.guard)

    game = find_game(found, limit=600, rules=QQ)
    result = game.result
    assert result is not None and result.emperor is not None
    assert tribute_side(QQ, result) == receives
    assert result.outcome == expected_outcome(result.scores[result.emperor])


# ---------------------------------------------------------------------- R10.4 escape

ESCAPE_MOMENTS: dict[str, Callable[[Game], bool]] = {
    "role-phase": lambda g: g.phase in ("candidate", "poll", "call"),
    "mid-play": lambda g: g.phase == "play" and len(g.events) > 80,
}


@pytest.mark.parametrize("moment", ESCAPE_MOMENTS)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r10_4_escape_ends_the_game_minus_30_for_the_escaper(name: str, moment: str) -> None:
    game = reach(ESCAPE_MOMENTS[moment], sparing(0.3), rules=PRESETS[name])
    referee = Referee()
    again = new_game(game.rules, seed=game.seed)
    referee(again)
    for _, action in game.actions:
        again.apply(action)
        referee(again)
    seat = ((game.current_seat or 0) + 2) % SEATS  # not the seat to act: any time, any seat
    places = [e["seat"] for e in public_events(again, "out")]
    again.apply(f"escape {seat}")
    referee(again)
    result = again.result
    assert again.is_over and result is not None and again.legal_actions() == []
    assert result.outcome == "escape" and result.escaped == seat
    assert list(result.scores) == [-30 if s == seat else 0 for s in range(SEATS)]
    assert list(result.places) == places
    assert kinds(again)[-2:] == ["escape", "game_over"]
    assert public_events(again, "escape") == [{"seat": seat}]
    with pytest.raises(IllegalActionError, match="game is over"):
        again.apply(Escape((seat + 1) % SEATS))


def test_r10_4_escape_names_a_seat() -> None:
    game = new_game(KK_SIMPLE, seed=0)
    with pytest.raises(NotationError, match="seat 0-4"):
        game.apply("escape 7")
    with pytest.raises(IllegalActionError, match="no seat 7"):
        game.apply(Escape(7))
    game.apply("逃跑 2")
    assert game.result is not None and game.result.escaped == 2


@pytest.mark.parametrize("rules", [PRESETS["classic"], WEIHAI, QQ_THREES], ids=lambda r: r.name)
def test_r10_4_no_tribute_after_an_escape(rules: Rules) -> None:
    """The escaped game is unscored for the others: the next game pays nothing for it, not even
    a 清3 card (R6.8) owed from before the escape; R9.1: its emperor, if any, deals."""
    owed = 0
    for seed in range(4):
        match = Match(rules, games=2, seed=seed)
        game = play(
            match.game,
            random.Random(seed),
            until=lambda g: (
                bool(public_events(g, "cleared")) or (not rules.hold_threes and len(g.events) > 150)
            ),
        )
        if game.is_over:
            continue
        owed += len(public_events(game, "cleared"))
        game.apply(Escape(seed % SEATS))
        second = match.next_game()
        assert second is not None and second.previous == game.result
        assert not any(e.kind.startswith("tribute") for e in second.events)
        if rules.selection != "called":
            dealer = public_events(second, "deal")[0]["dealer"]
            assert dealer == (game.emperor if game.emperor is not None else 0)
        Referee()(second)
    assert owed or not rules.hold_threes
