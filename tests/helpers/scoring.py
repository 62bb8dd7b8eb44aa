"""Docs/rules.md's scoring restated: points (R10.1, R10.2), who won (R10.3) and who receives
tribute (R10.3's QQ rule, R8.10)."""

from __future__ import annotations

from collections.abc import Sequence

from baohuang import Rules
from baohuang.engine.scoring import GameResult
from helpers.cards import SEATS

PLACE_POINTS = (4, 2, 0, -2, -4)  # R10: 1st … 5th


def team_points(emperor: int, guard: int | None, places: Sequence[int]) -> int:
    """R10: T, the place points of the emperor's side."""
    points = {seat: PLACE_POINTS[place] for place, seat in enumerate(places)}
    return points[emperor] + (points[guard] if guard is not None else 0)


def expected_scores(
    rules: Rules,
    emperor: int,
    guard: int | None,
    places: Sequence[int],
    *,
    open_solo: bool = False,
    rebellion: bool = False,
    open_guard: bool = False,
    kicked: bool = False,
) -> list[int]:
    """R10.1 (emperor 2T, guard T, rebels −T; solo 4T, others −T) with R10.1/R10.2's factors."""
    t = team_points(emperor, guard, places)
    if open_solo and guard is None and rules.scoring in ("weihai", "kk"):
        # R10.2, and KK/联众 by R10.1 (revised turn 3): 明独/独保/抢独 ±32, ∓8 for each other
        t = 8 if places[0] == emperor else -8
    elif rules.scoring == "weihai":  # R10.2: 造反 or 明保 ×2 once
        t *= 2 if rebellion or (open_guard and guard is not None) else 1
    elif rules.scoring == "kk":  # R10.1 KK/联众: ×2 造反 only (dark solos too)
        t *= 2 if rebellion else 1
    else:  # R10.1: classic 明独 ×2; R8.10: QQ 明保 ×2
        t *= (2 if open_solo else 1) * (2 if open_guard else 1)
    t *= 2 if kicked else 1  # R9.6 踢
    scores = [-t] * SEATS
    scores[emperor] = 4 * t if guard is None else 2 * t
    if guard is not None:
        scores[guard] = t
    return scores


def expected_outcome(emperor_score: int) -> str:
    """R10.3 (revised turn 3): in every preset the emperor's side wins when its points are
    positive, the rebels when negative; zero is a draw."""
    return "emperor" if emperor_score > 0 else "rebels" if emperor_score < 0 else "draw"


def expected_tribute_side(rules: Rules, result: GameResult) -> str:
    """R12: the side that receives tribute: the winner, or in QQ its own rule (R10.3: emperor
    1st receives unless the guard is last; guard 1st receives with the emperor 2nd, 平贡 3rd,
    pays 4th or 5th; R8.10 after 明保: 1st and 2nd or pay; else by T)."""
    if rules.win_rule != "qq":
        return result.outcome
    emperor, guard, places = result.emperor, result.guard, list(result.places)
    assert emperor is not None
    if result.open_guard:
        return "emperor" if places[:2] == [emperor, guard] else "rebels"
    if places[0] == emperor:
        return "draw" if guard is not None and places[-1] == guard else "emperor"
    if guard is not None and places[0] == guard:
        return {1: "emperor", 2: "draw"}.get(places.index(emperor), "rebels")
    return expected_outcome(team_points(emperor, guard, places))
