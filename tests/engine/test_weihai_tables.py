"""R10.2: seed 004's 威海 scoring tables, row by row, through score() and through whole games.

The tables are written out as the seed gives them (not as R10's formula), so the engine's
formula and the referee's are both checked against the source.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from baohuang import ACCEPT, PASS, GameResult, Rules, score
from baohuang.engine.actions import KICK, REBEL, SHOW
from helpers.drivers import random_game
from helpers.policies import Policy, leading_b_star, preferring, sparing, wants

WEIHAI = Rules.preset("weihai")


def places_with(seat: int, place: int) -> list[int]:
    """A finishing order with ``seat`` in ``place`` (0 = 头科) and the others in seat order."""
    places = [s for s in range(5) if s != seat]
    places.insert(place, seat)
    return places


#: 独保或明独: 皇帝走头客得 32 分，其他四人各得 -8 分；其他任何一家先走掉，皇帝得 -32 分，其他四人
#: 各得 8 分。如果"踢"成功，则得分再加倍。
WEIHAI_OPEN_SOLO = [(32, -8), (-32, 8), (-32, 8), (-32, 8), (-32, 8)]
#: 皇帝和保是一个人 (暗独保): 皇帝走头客得 16 分，其他四人各得 -4 分 … 大落得 -16 分，其他四人各得
#: 4 分。如果造反成功，得分加倍。如果"踢"成功，则得分再加倍。
WEIHAI_DARK_SOLO = [(16, -4), (8, -2), (0, 0), (-8, 2), (-16, 4)]
#: 皇帝和保不是一个人: 头客 4 分，二客 2 分，三客 0 分，二落 -2 分，大落 -4 分.
WEIHAI_PLACE_POINTS = [4, 2, 0, -2, -4]


@pytest.mark.parametrize("kicked", [False, True], ids=["plain", "kicked"])
@pytest.mark.parametrize("place", range(5))
def test_r10_2_weihai_open_solo_table(place: int, kicked: bool) -> None:
    emperor, others = WEIHAI_OPEN_SOLO[place]
    factor = 2 if kicked else 1
    got = score(
        WEIHAI, emperor=2, guard=None, places=places_with(2, place), open_solo=True, kicked=kicked
    )
    assert got == [factor * (emperor if s == 2 else others) for s in range(5)]


#: (造反 succeeded, 踢, factor): each doubles once.
DARK_SOLO_FACTORS = [(False, False, 1), (True, False, 2), (False, True, 2), (True, True, 4)]


@pytest.mark.parametrize(("rebellion", "kicked", "factor"), DARK_SOLO_FACTORS)
@pytest.mark.parametrize("place", range(5))
def test_r10_2_weihai_dark_solo_table(
    place: int, rebellion: bool, kicked: bool, factor: int
) -> None:
    emperor, others = WEIHAI_DARK_SOLO[place]
    got = score(
        WEIHAI,
        emperor=4,
        guard=None,
        places=places_with(4, place),
        rebellion=rebellion,
        kicked=kicked,
    )
    assert got == [factor * (emperor if s == 4 else others) for s in range(5)]


#: (造反 succeeded, 明保, 踢, factor): "如果造反成功或明保，得分加倍" doubles once for either or
#: both [reading: "or"]; "如果踢成功，则得分再加倍" doubles again.
GUARD_FACTORS = [
    (rebellion, open_guard, kicked, (2 if rebellion or open_guard else 1) * (2 if kicked else 1))
    for rebellion in (False, True)
    for open_guard in (False, True)
    for kicked in (False, True)
]


@pytest.mark.parametrize(("rebellion", "open_guard", "kicked", "factor"), GUARD_FACTORS)
def test_r10_2_weihai_guard_table(
    rebellion: bool, open_guard: bool, kicked: bool, factor: int
) -> None:
    """皇帝得分 = 2 × (皇帝走客分 + 保走客分)；保得分 = 皇帝走客分 + 保走客分；其他人得分 = −(…)."""
    for places in permutations(range(5)):
        emperor, guard = 0, 1
        team = WEIHAI_PLACE_POINTS[places.index(0)] + WEIHAI_PLACE_POINTS[places.index(1)]
        flags = {"rebellion": rebellion, "open_guard": open_guard, "kicked": kicked}
        got = score(WEIHAI, emperor=emperor, guard=guard, places=places, **flags)
        assert got == [factor * t for t in (2 * team, team, -team, -team, -team)]


# ---------------------------------------------------------------- whole games


def table_scores(result: GameResult) -> list[int]:
    """A finished weihai game's scores read off seed 004's tables."""
    emperor, guard, places = result.emperor, result.guard, list(result.places)
    assert emperor is not None
    kick = 2 if result.kicked else 1
    if result.open_solo:
        mine, others = WEIHAI_OPEN_SOLO[places.index(emperor)]
    elif guard is None:
        mine, others = WEIHAI_DARK_SOLO[places.index(emperor)]
        kick *= 2 if result.rebellion else 1
    else:
        team = WEIHAI_PLACE_POINTS[places.index(emperor)] + WEIHAI_PLACE_POINTS[places.index(guard)]
        kick *= 2 if result.rebellion or result.open_guard else 1
        scores = [-team] * 5
        scores[emperor], scores[guard] = 2 * team, team
        return [kick * s for s in scores]
    return [kick * (mine if s == emperor else others) for s in range(5)]


def kind(result: GameResult) -> str:
    """Which table scores the game, and which doublings it had."""
    table = "open" if result.open_solo else "dark" if result.guard is None else "guard"
    doubled = [f for f in ("rebellion", "open_guard", "kicked") if getattr(result, f)]
    return "+".join([table, *doubled])


#: Steered policies that, between them, reach every table and every doubling.
POLICIES: list[Policy] = [
    sparing(0.5),
    preferring(wants(("solo", PASS), ("guard", SHOW), ("kick", KICK))),
    preferring(wants(("solo", PASS), ("guard", REBEL), ("kick", KICK))),
    leading_b_star(preferring(wants(("solo", PASS), ("candidate", ACCEPT), ("guard", REBEL)))),
    preferring(wants(("solo", PASS), ("candidate", ACCEPT), ("guard", PASS))),
]


def test_r10_2_whole_weihai_games_score_by_the_tables() -> None:
    kinds: set[str] = set()
    for seed in range(150):
        game = random_game(seed, POLICIES[seed % len(POLICIES)], rules=WEIHAI)
        assert game.result is not None
        assert list(game.result.scores) == table_scores(game.result)
        kinds.add(kind(game.result))
    assert {
        "open",
        "open+kicked",
        "dark",
        "dark+rebellion",
        "dark+rebellion+kicked",
        "guard",
        "guard+open_guard+kicked",
        "guard+rebellion+kicked",
    } <= kinds
