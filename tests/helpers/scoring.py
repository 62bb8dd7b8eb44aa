"""Docs/rules.md's scoring restated: points (R10.1, R10.2) and who won (R8.10, R10.3)."""

from __future__ import annotations

from collections.abc import Sequence

from baohuang import Rules
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
    if rules.scoring == "weihai":  # R10.2
        if open_solo:  # 明独/独保: ±32 for the emperor, ∓8 for each other
            t = 8 if places[0] == emperor else -8
        elif rebellion or (open_guard and guard is not None):
            t *= 2
        t *= 2 if kicked else 1
    elif rules.scoring == "kk":  # R10.1: ×2 造反, ×2 open solo
        t *= (2 if rebellion else 1) * (2 if open_solo else 1)
    else:  # R10.1: classic 明独 ×2; R8.10: QQ 明保 ×2
        t *= (2 if open_solo else 1) * (2 if open_guard else 1)
    scores = [-t] * SEATS
    scores[emperor] = 4 * t if guard is None else 2 * t
    if guard is not None:
        scores[guard] = t
    return scores


def expected_outcome(
    rules: Rules,
    emperor: int,
    guard: int | None,
    places: Sequence[int],
    emperor_score: int,
    open_guard: bool = False,
) -> str:
    """R8.10's QQ 明保 (emperor 1st and guard 2nd, else the rebels), R10.3's QQ win rule;
    otherwise the emperor's side wins when its points are positive."""
    if rules.qq_open_guard and open_guard:
        return "emperor" if list(places[:2]) == [emperor, guard] else "rebels"
    if rules.win_rule == "qq":
        if places[0] == emperor:
            return "draw" if guard is not None and places[-1] == guard else "emperor"
        if guard is not None and places[0] == guard:
            return {1: "emperor", 2: "draw"}.get(places.index(emperor), "rebels")
        emperor_score = team_points(emperor, guard, places)
    return "emperor" if emperor_score > 0 else "rebels" if emperor_score < 0 else "draw"
