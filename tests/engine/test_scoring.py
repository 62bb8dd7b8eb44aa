"""R10 scoring, the game's outcome, and R12 tribute (进贡)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product

import pytest

from baohuang import Card, GameResult, Rules, score
from baohuang.engine.scoring import (
    PLACE_POINTS,
    Outcome,
    outcome,
    team_score,
    tribute_payments,
    tribute_side,
    tribute_transfers,
)
from helpers.rulesets import CLASSIC

#: R10.3's win rule, of the `qq` preset.
QQ_WIN = Rules.preset("qq")
KK_PRESETS = [
    Rules.preset(name)
    for name in ("kk_simple", "lianzhong_simple", "kk_classic", "lianzhong_classic")
]


def role_choices() -> Iterator[tuple[tuple[int, ...], int, int | None]]:
    """Every finishing order with every emperor and every guard (or none: solo)."""
    for places in permutations(range(5)):
        for emperor in range(5):
            for guard in [None, *(s for s in range(5) if s != emperor)]:
                yield places, emperor, guard


def result(
    places: tuple[int, ...], emperor: int, guard: int | None, open_solo: bool = False
) -> GameResult:
    """The classic GameResult of a game that ended in ``places``."""
    scores = score(CLASSIC, emperor=emperor, guard=guard, places=places, open_solo=open_solo)
    won = outcome(CLASSIC, emperor=emperor, guard=guard, places=places)
    return GameResult(emperor, guard, places, tuple(scores), won, open_solo)


# ---------------------------------------------------------------- R10 points


def test_r10_seed_example_emperor_first_guard_fourth() -> None:
    """R10: emperor 1st, guard 4th: T = 4 - 2 = 2; emperor 2T, guard T, rebels -T."""
    places = (0, 2, 3, 1, 4)  # seat 0 first, seat 1 fourth
    assert team_score(emperor=0, guard=1, places=places) == 2
    assert score(CLASSIC, emperor=0, guard=1, places=places) == [4, 2, -2, -2, -2]
    assert outcome(CLASSIC, emperor=0, guard=1, places=places) == "emperor"


def test_r10_place_points() -> None:
    assert PLACE_POINTS == (4, 2, 0, -2, -4)


@pytest.mark.parametrize(("place", "t"), list(enumerate(PLACE_POINTS)))
def test_r10_1_solo_scores_4t(place: int, t: int) -> None:
    """Solo: emperor 4T, each other -T; 明独 doubles."""
    places = [1, 2, 3, 4]
    places.insert(place, 0)
    expected = [4 * t, -t, -t, -t, -t]
    assert score(CLASSIC, emperor=0, guard=None, places=places) == expected
    doubled = score(CLASSIC, emperor=0, guard=None, places=places, open_solo=True)
    assert doubled == [2 * x for x in expected]


def test_r10_1_every_place_combination() -> None:
    """All 120 orders x every emperor and guard: the R10.1 formula, zero-sum, sign = outcome."""
    for places, emperor, guard in role_choices():
        points = {seat: PLACE_POINTS[places.index(seat)] for seat in range(5)}
        t = points[emperor] + (points[guard] if guard is not None else 0)
        got = score(CLASSIC, emperor=emperor, guard=guard, places=places)
        assert sum(got) == 0
        for seat in range(5):
            if seat == emperor:
                assert got[seat] == (2 * t if guard is not None else 4 * t)
            elif seat == guard:
                assert got[seat] == t
            else:
                assert got[seat] == -t
        if guard is None:
            assert score(CLASSIC, emperor=emperor, guard=None, places=places, open_solo=True) == [
                2 * x for x in got
            ]
        won = outcome(CLASSIC, emperor=emperor, guard=guard, places=places)
        assert won == ("emperor" if t > 0 else "rebels" if t < 0 else "draw")


@pytest.mark.parametrize(
    "places",
    [[0, 1, 2, 3], [0, 1, 2, 3, 4, 0], [0, 0, 1, 2, 3], [1, 2, 3, 4, 5], [-1, 0, 1, 2, 3], []],
)
def test_r10_bad_places_raise(places: list[int]) -> None:
    with pytest.raises(ValueError, match="places"):
        score(CLASSIC, emperor=0, guard=1, places=places)


@pytest.mark.parametrize(
    ("emperor", "guard"), [(0, 0), (5, 1), (-1, 1), (0, 5), (0, -1), (7, None)]
)
def test_r10_bad_seats_raise(emperor: int, guard: int | None) -> None:
    """A seat outside 0-4 (or a guard equal to the emperor) is a ValueError, never a silent
    negative index or an IndexError."""
    with pytest.raises(ValueError):
        score(CLASSIC, emperor=emperor, guard=guard, places=[0, 1, 2, 3, 4])


# ---------------------------------------------------------------- R10.1 kk / lianzhong


@pytest.mark.parametrize("rules", KK_PRESETS, ids=lambda r: r.name)
def test_r10_1_kk_scores_an_open_solo_as_004s_table(rules: Rules) -> None:
    """R10.1 (revised turn 3) gives KK/联众 004's solo rows, 独保或明独: "皇帝走头客得 32 分，
    其他四人各得 -8 分；其他任何一家先走掉，皇帝得 -32 分，其他四人各得 8 分": 1st or lose,
    whatever the other places (and no 造反 poll follows an open solo)."""
    for places in permutations(range(5)):
        for emperor in range(5):
            got = score(rules, emperor=emperor, guard=None, places=places, open_solo=True)
            first = places[0] == emperor
            assert got[emperor] == (32 if first else -32)
            assert all(got[s] == (-8 if first else 8) for s in range(5) if s != emperor)
            won = outcome(rules, emperor=emperor, guard=None, places=places, open_solo=True)
            assert won == ("emperor" if first else "rebels")


@pytest.mark.parametrize("rules", KK_PRESETS, ids=lambda r: r.name)
def test_r10_1_kk_doubles_after_rebellion_only(rules: Rules) -> None:
    """With a guard 2T/T/−T and a dark solo 4p (16, 8, 0, −8, −16), ×2 after a successful 造反
    (004: "造反成功后输赢的分数加倍（包括暗独保）"); 明保 is no multiplier in KK."""
    for places, emperor, guard in role_choices():
        plain = score(CLASSIC, emperor=emperor, guard=guard, places=places)
        for rebellion, open_guard in product((False, True), repeat=2):
            got = score(
                rules,
                emperor=emperor,
                guard=guard,
                places=places,
                rebellion=rebellion,
                open_guard=open_guard and guard is not None,
            )
            assert got == [(2 if rebellion else 1) * p for p in plain]
    dark = [score(rules, emperor=0, guard=None, places=_first(0, at))[0] for at in range(5)]
    assert dark == [16, 8, 0, -8, -16]


def _first(seat: int, at: int) -> tuple[int, ...]:
    """Places with ``seat`` at place ``at`` (0: 头科), the others in seat order."""
    others = [s for s in range(5) if s != seat]
    return (*others[:at], seat, *others[at:])


# ---------------------------------------------------------------- R10.3 who won, QQ tribute


@pytest.mark.parametrize("preset", ["classic", "qq", "weihai", "kk_simple", "kk_classic"])
def test_r10_3_the_winner_is_the_sign_of_the_points_in_every_preset(preset: str) -> None:
    """000: "每局结束后按组计分，如果两组都是0分，则本局为平局，无输赢": the side with positive
    points won, zero is a draw, whatever the preset (QQ's 收贡 rule decides tribute only)."""
    rules = Rules.preset(preset)
    for places, emperor, guard in role_choices():
        for open_guard in (False, True) if guard is not None and rules.guard_may_show else (False,):
            flags = {"open_guard": open_guard}
            points = score(rules, emperor=emperor, guard=guard, places=places, **flags)[emperor]
            won = outcome(rules, emperor=emperor, guard=guard, places=places, **flags)
            assert won == ("emperor" if points > 0 else "rebels" if points < 0 else "draw")


def qq_result(places: tuple[int, ...], guard: int | None, open_guard: bool = False) -> GameResult:
    """The QQ GameResult of a game with the emperor at seat 0 that ended in ``places``."""
    flags = {"open_guard": open_guard}
    scores = score(QQ_WIN, emperor=0, guard=guard, places=places, **flags)
    won = outcome(QQ_WIN, emperor=0, guard=guard, places=places, **flags)
    return GameResult(0, guard, places, tuple(scores), won, open_guard=open_guard)


@pytest.mark.parametrize(
    ("places", "guard", "receives", "won"),
    [
        ((0, 1, 2, 3, 4), 1, "emperor", "emperor"),  # emperor 1st
        ((0, 2, 3, 4, 1), 1, "draw", "draw"),  # emperor 1st, guard last: 平贡, T = 0
        ((0, 2, 3, 4, 1), None, "emperor", "emperor"),  # solo emperor 1st
        ((1, 0, 2, 3, 4), 1, "emperor", "emperor"),  # guard 1st, emperor 2nd
        ((1, 2, 0, 3, 4), 1, "draw", "emperor"),  # guard 1st, emperor 3rd: 平贡, T = +4
        ((1, 2, 3, 0, 4), 1, "rebels", "emperor"),  # guard 1st, emperor 4th: 进贡, T = +2
        ((1, 2, 3, 4, 0), 1, "rebels", "draw"),  # T = 4 - 4
        ((2, 0, 3, 1, 4), 1, "draw", "draw"),  # otherwise by T: 2 - 2 = 0
        ((2, 3, 0, 1, 4), 1, "rebels", "rebels"),  # T = 0 - 2
        ((2, 3, 4, 1, 0), None, "rebels", "rebels"),
    ],
)
def test_r10_3_qq_tribute_rule_decides_tribute_only(
    places: tuple[int, ...], guard: int | None, receives: str, won: Outcome
) -> None:
    """000 (QQ): "如果皇帝先出光所有牌了，太监必须不能最后一个走才能收贡，否则平贡，太监先走了皇上
    必须第2个走，才能收贡，第3，平贡，以后进贡": 收贡/平贡/进贡 name who pays tribute; the winner is
    the sign of the points (revised turn 3), so a side may win and still pay."""
    game = qq_result(places, guard)
    assert tribute_side(QQ_WIN, game) == receives
    assert game.outcome == won
    payers = {seat for seat, _ in tribute_payments(QQ_WIN, game)}
    side = {0} | ({guard} if guard is not None else set())
    assert payers == {"emperor": set(range(5)) - side, "rebels": side, "draw": set()}[receives]


@pytest.mark.parametrize(
    ("places", "receives", "won"),
    [
        ((0, 1, 2, 3, 4), "emperor", "emperor"),  # emperor 1st, guard 2nd
        ((1, 0, 2, 3, 4), "rebels", "emperor"),  # guard 1st, emperor 2nd: pays, wins +24
        ((0, 2, 1, 3, 4), "rebels", "emperor"),  # emperor 1st, guard 3rd
        ((0, 2, 3, 4, 1), "rebels", "draw"),  # T = 0
    ],
)
def test_r8_10_qq_show_receives_only_with_emperor_first_and_guard_second(
    places: tuple[int, ...], receives: str, won: Outcome
) -> None:
    """000: "明保…皇上必须第一个走太监第2": after 明保 tribute by the 1st-and-2nd rule; the points
    R10.1's doubled [reading], and their sign the winner (revised turn 3)."""
    game = qq_result(places, 1, open_guard=True)
    assert tribute_side(QQ_WIN, game) == receives
    assert game.outcome == won
    plain = score(QQ_WIN, emperor=0, guard=1, places=places)
    assert list(game.scores) == [2 * points for points in plain]


def test_r12_tribute_follows_the_winner_outside_qq() -> None:
    for places, emperor, guard in role_choices():
        game = result(places, emperor, guard)
        assert tribute_side(CLASSIC, game) == game.outcome


# ---------------------------------------------------------------- R12 tribute


def transfers(game: GameResult, paid: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """tribute_transfers on cards written as text: sorted (payer, receiver, card) triples."""
    cards = [(seat, Card.parse(text)) for seat, text in paid]
    return sorted(
        (payer, to, str(card)) for payer, to, card in tribute_transfers(CLASSIC, game, cards)
    )


def test_r12_draw_pays_nothing() -> None:
    draw = result((0, 2, 3, 4, 1), emperor=0, guard=1)  # T = 4 - 4
    assert draw.outcome == "draw"
    assert tribute_payments(CLASSIC, draw) == []
    assert tribute_transfers(CLASSIC, draw, []) == []


def test_r12_emperor_side_won_with_guard() -> None:
    """Each rebel pays 1; the guard takes the middle-power card, the emperor the other two."""
    won = result((0, 2, 1, 3, 4), emperor=0, guard=1)
    assert won.outcome == "emperor"
    assert tribute_payments(CLASSIC, won) == [(2, 1), (3, 1), (4, 1)]
    assert transfers(won, [(2, "9h"), (3, "R"), (4, "Ks")]) == [
        (2, 0, "9h"),
        (3, 0, "R"),
        (4, 1, "Ks"),
    ]


def test_r12_rebels_won_with_guard() -> None:
    """The emperor pays 2, the guard 1; rebels take one each, the best-placed the highest."""
    lost = result((3, 2, 0, 4, 1), emperor=0, guard=1)
    assert lost.outcome == "rebels"
    assert tribute_payments(CLASSIC, lost) == [(0, 2), (1, 1)]
    assert transfers(lost, [(0, "2s"), (0, "R"), (1, "Ah")]) == [
        (0, 2, "2s"),
        (0, 3, "R"),
        (1, 4, "Ah"),
    ]


@pytest.mark.parametrize(("open_solo", "per"), [(False, 1), (True, 2)])
def test_r12_solo_won(open_solo: bool, per: int) -> None:
    """Each of the four others pays 1 (明独: 2) to the emperor."""
    won = result((2, 0, 4, 1, 3), emperor=2, guard=None, open_solo=open_solo)
    assert won.outcome == "emperor"
    assert tribute_payments(CLASSIC, won) == [(0, per), (4, per), (1, per), (3, per)]
    paid = [(seat, "3s") for seat in (0, 4, 1, 3) for _ in range(per)]
    assert transfers(won, paid) == sorted((seat, 2, "3s") for seat, _ in paid)


def test_r12_solo_lost() -> None:
    """The emperor pays 4, one to each other player, better finishers taking higher cards."""
    lost = result((4, 1, 3, 2, 0), emperor=2, guard=None)
    assert lost.outcome == "rebels"
    assert tribute_payments(CLASSIC, lost) == [(2, 4)]
    assert transfers(lost, [(2, "Ks"), (2, "R"), (2, "2h"), (2, "B")]) == [
        (2, 0, "Ks"),
        (2, 1, "B"),
        (2, 3, "2h"),
        (2, 4, "R"),
    ]


def test_r12_open_solo_lost_doubles() -> None:
    """明独 lost: the emperor pays 8, two to each other; the best finisher gets the two highest."""
    lost = result((4, 1, 3, 2, 0), emperor=2, guard=None, open_solo=True)
    assert lost.outcome == "rebels"
    assert tribute_payments(CLASSIC, lost) == [(2, 8)]
    paid = [(2, text) for text in ["3s", "R", "Ks", "B", "2h", "Ah", "R", "9c"]]
    got = transfers(lost, paid)
    received = {seat: sorted(card for _, to, card in got if to == seat) for seat in (4, 1, 3, 0)}
    assert received == {4: ["R", "R"], 1: ["2h", "B"], 3: ["Ah", "Ks"], 0: ["3s", "9c"]}


def test_r12_game_result_dict_round_trip() -> None:
    for places, emperor, guard in [((0, 1, 2, 3, 4), 0, 1), ((4, 3, 2, 1, 0), 2, None)]:
        game = result(places, emperor, guard, open_solo=guard is None)
        assert GameResult.from_dict(game.to_dict()) == game
        assert game.solo == (guard is None)
    with pytest.raises(ValueError, match="bad game result"):
        GameResult.from_dict({"emperor": 0})


@pytest.mark.parametrize(
    ("preset", "flags", "factors", "product"),
    [
        ("classic", {}, [], 1),
        ("classic", {"open_solo": True}, [["open_solo", 2]], 2),
        ("kk_simple", {"rebellion": True, "open_guard": True}, [["rebellion", 2]], 2),
        ("kk_classic", {"open_guard": True}, [], 1),
        ("weihai", {"rebellion": True, "kicked": True}, [["rebellion", 2], ["kicked", 2]], 4),
        ("weihai", {"open_guard": True}, [["open_guard", 2]], 2),
        ("qq", {"open_guard": True}, [["open_guard", 2]], 2),
    ],
)
def test_r10_multipliers_explain_the_points(
    preset: str, flags: dict[str, bool], factors: list[list[object]], product: int
) -> None:
    """What the results window shows: T from the places (the emperor 头科 and the guard third:
    T = 4 + 0), then each multiplier; the emperor's points are R10's from the final T."""
    rules = Rules.preset(preset)
    places = (0, 2, 1, 3, 4)
    guard = None if flags.get("open_solo") else 1
    scores = score(rules, emperor=0, guard=guard, places=places, **flags)
    result = GameResult(0, guard, places, tuple(scores), "emperor", **flags)
    explained = result.multipliers(rules)
    assert explained is not None
    assert explained.to_dict() == {"t": 4, "final": 4 * product, "factors": factors}
    assert scores[0] == (4 if guard is None else 2) * explained.final


@pytest.mark.parametrize("preset", ["weihai", "kk_simple", "lianzhong_classic"])
def test_r10_2_open_solo_sets_t_to_8_and_an_escape_has_no_t(preset: str) -> None:
    rules = Rules.preset(preset)
    result = GameResult(0, None, (1, 0, 2, 3, 4), (-32, 8, 8, 8, 8), "rebels", open_solo=True)
    explained = result.multipliers(rules)
    assert explained is not None and explained.final == -8
    assert explained.factors == (("open_solo_fixed", 1),)
    escaped = GameResult(None, None, (), (-30, 0, 0, 0, 0), "escape", escaped=0)
    assert escaped.multipliers(rules) is None
