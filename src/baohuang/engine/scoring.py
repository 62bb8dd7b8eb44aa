"""Scoring (R10) and tribute (进贡, R12) from a finished game's result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .cards import Card
from .rules import Rules

#: R10: points for 1st (头科), 2nd (二科), 3rd, 4th (二落), 5th (大落).
PLACE_POINTS = (4, 2, 0, -2, -4)

Outcome = Literal["emperor", "rebels", "draw", "escape"]


def _place_points(places: Sequence[int]) -> list[int]:
    if sorted(places) != [0, 1, 2, 3, 4]:
        raise ValueError(f"places must list the five seats 0-4 once each, got {list(places)}")
    points = [0] * 5
    for place, seat in enumerate(places):
        points[seat] = PLACE_POINTS[place]
    return points


def team_score(*, emperor: int, guard: int | None, places: Sequence[int]) -> int:
    """T: the place points of the emperor's side (R10)."""
    points = _place_points(places)
    return points[emperor] + (points[guard] if guard is not None else 0)


@dataclass(frozen=True, slots=True)
class Multipliers:
    """How R10 turns the places into points: T from the places, then what changed it.

    ``factors`` names each multiplier (``open_solo`` 明独, ``rebellion`` 造反, ``open_guard``
    明保 in weihai and QQ, ``kicked`` 踢) with its factor; ``open_solo_fixed`` (the open solo
    of weihai and KK/联众, R10.2's table) sets T to ±8 instead of multiplying it.
    """

    t: int
    final: int
    factors: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "final": self.final, "factors": [list(f) for f in self.factors]}


def multipliers(
    rules: Rules,
    *,
    emperor: int,
    guard: int | None,
    places: Sequence[int],
    open_solo: bool = False,
    rebellion: bool = False,
    open_guard: bool = False,
    kicked: bool = False,
) -> Multipliers:
    """T and its multipliers (R10.1, R10.2, R8.10); ``guard=None`` when the emperor plays
    alone. KK/联众 (R10.1 revised turn 3, 004: "造反成功后输赢的分数加倍（包括暗独保）") score
    solos as weihai's table: an open solo ±8 by 头科, a dark one 4T; ×2 after 造反 only."""
    if emperor not in range(5) or (guard is not None and guard not in range(5)):
        raise ValueError(f"seats are 0-4: emperor {emperor}, guard {guard}")
    if guard == emperor:
        raise ValueError("the guard cannot be the emperor; pass guard=None for a solo")
    t = team_score(emperor=emperor, guard=guard, places=places)
    final, factors = t, []
    if rules.scoring in ("weihai", "kk"):  # R10.2; R10.1's KK/联众 rule (revised turn 3)
        if guard is None and open_solo:  # 明独, 独保, 抢独: 004's table, 1st or lose
            final = 8 if places[0] == emperor else -8
            factors.append(("open_solo_fixed", 1))
        elif rebellion or (open_guard and rules.scoring == "weihai"):  # KK: no 明保 factor
            factors.append(("rebellion" if rebellion else "open_guard", 2))
        if kicked:  # R9.6, weihai only
            factors.append(("kicked", 2))
    else:  # R10.1 classic 明独 ×2, R8.10 QQ 明保 ×2
        factors += [
            (name, 2) for name, on in (("open_solo", open_solo), ("open_guard", open_guard)) if on
        ]
    for _, factor in factors:
        final *= factor
    return Multipliers(t, final, tuple(factors))


def score(
    rules: Rules, *, emperor: int, guard: int | None, places: Sequence[int], **flags: bool
) -> list[int]:
    """Points per seat (R10.1, R10.2); ``guard=None`` when the emperor plays alone; ``flags``
    are :func:`multipliers`' (``open_solo``, ``rebellion``, ``open_guard``, ``kicked``)."""
    t = multipliers(rules, emperor=emperor, guard=guard, places=places, **flags).final
    scores = [-t] * 5
    if guard is None:
        scores[emperor] = 4 * t
    else:
        scores[emperor] = 2 * t
        scores[guard] = t
    return scores


def outcome(
    rules: Rules, *, emperor: int, guard: int | None, places: Sequence[int], **flags: bool
) -> Literal["emperor", "rebels", "draw"]:
    """Which side won, in every preset: the sign of the emperor side's points, T times its
    multipliers (R10, R10.3 revised turn 3; 000: "如果两组都是0分，则本局为平局，无输赢"). An
    open solo of weihai or KK/联众 wins exactly when the emperor is 头科 (R10.2's table).
    ``flags`` are :func:`multipliers`'."""
    final = multipliers(rules, emperor=emperor, guard=guard, places=places, **flags).final
    return "emperor" if final > 0 else "rebels" if final < 0 else "draw"


def tribute_side(rules: Rules, result: GameResult) -> Literal["emperor", "rebels", "draw"]:
    """The side that receives tribute after ``result`` (R12): the winner, or in ``qq`` the
    side QQ's rule names (R10.3, R8.10: "太监先走了皇上必须第2个走，才能收贡，第3，平贡，以后进贡"),
    ``"draw"`` for 平贡. Not for an escaped game (R10.4: no tribute)."""
    emperor, guard, places = result.emperor, result.guard, result.places
    assert emperor is not None and result.outcome != "escape", "an escaped game pays no tribute"
    if rules.win_rule != "qq":
        return result.outcome
    if rules.qq_open_guard and result.open_guard:  # R8.10: 1st and 2nd, or pay
        return "emperor" if (places[0], places[1]) == (emperor, guard) else "rebels"
    if places[0] == emperor:
        return "draw" if guard is not None and places[4] == guard else "emperor"
    if guard is not None and places[0] == guard:
        second = places.index(emperor)
        return "emperor" if second == 1 else "draw" if second == 2 else "rebels"
    return result.outcome  # otherwise by T: the sign of the points


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game leaves behind: roles, finishing order, scores, the winner.

    After an escape (逃跑, R10.4) ``outcome`` is ``"escape"``, ``places`` holds only the seats
    out before it, and ``emperor`` may be ``None`` when nobody was emperor yet.
    """

    emperor: int | None
    guard: int | None
    places: tuple[int, ...]
    scores: tuple[int, ...]
    outcome: Outcome
    open_solo: bool = False
    #: R9.5 造反 succeeded; R9.4 明保; R9.6 踢.
    rebellion: bool = False
    open_guard: bool = False
    kicked: bool = False
    #: R10.4: the seat that escaped.
    escaped: int | None = None
    #: R6.8 清3: (cleared seat, clearer seat) pairs; each cleared seat owes its clearer a card.
    cleared: tuple[tuple[int, int], ...] = ()

    @property
    def solo(self) -> bool:
        return self.guard is None

    def role(self, seat: int) -> str:
        """The role ``seat`` held: emperor, guard, rebel or solo (the emperor alone)."""
        if seat == self.emperor:
            return "solo" if self.guard is None else "emperor"
        return "guard" if seat == self.guard else "rebel"

    def won(self, seat: int) -> bool:
        """Whether ``seat``'s side won (R10; a draw is no win)."""
        return self.outcome == ("rebels" if self.role(seat) == "rebel" else "emperor")

    def multipliers(self, rules: Rules) -> Multipliers | None:
        """T and its multipliers (R10), or ``None`` after an escape (R10.4: no T)."""
        if self.emperor is None or self.outcome == "escape":
            return None
        return multipliers(
            rules,
            emperor=self.emperor,
            guard=self.guard,
            places=self.places,
            open_solo=self.open_solo,
            rebellion=self.rebellion,
            open_guard=self.open_guard,
            kicked=self.kicked,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "emperor": self.emperor,
            "guard": self.guard,
            "places": list(self.places),
            "scores": list(self.scores),
            "outcome": self.outcome,
            "open_solo": self.open_solo,
            "rebellion": self.rebellion,
            "open_guard": self.open_guard,
            "kicked": self.kicked,
            "escaped": self.escaped,
            "cleared": [list(pair) for pair in self.cleared],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameResult:
        def seat(value: Any) -> int | None:
            return None if value is None else int(value)

        try:
            result = GameResult(
                emperor=seat(data["emperor"]),
                guard=seat(data["guard"]),
                places=tuple(int(s) for s in data["places"]),
                scores=tuple(int(s) for s in data["scores"]),
                outcome=data["outcome"],
                open_solo=bool(data.get("open_solo", False)),
                rebellion=bool(data.get("rebellion", False)),
                open_guard=bool(data.get("open_guard", False)),
                kicked=bool(data.get("kicked", False)),
                escaped=seat(data.get("escaped")),
                cleared=tuple((int(a), int(b)) for a, b in data.get("cleared", [])),
            )
            if result.escaped is None:
                _place_points(result.places)
                if result.emperor is None:
                    raise ValueError("a finished game has an emperor")
            if result.outcome not in get_args(Outcome) or len(result.scores) != 5:
                raise ValueError("outcome or scores out of range")
            seats = {result.emperor, result.guard, result.escaped, *sum(result.cleared, ())}
            if seats - {None, *range(5)}:
                raise ValueError("seats are 0-4")
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad game result {data!r}: {exc}") from None
        return result


def escape_scores(seat: int) -> list[int]:
    """R10.4: −30 to the seat that escaped, the game unscored for the others."""
    return [-30 if s == seat else 0 for s in range(5)]


def qq_tribute(
    rules: Rules, result: GameResult
) -> tuple[Literal["emperor", "rebels", "draw"], int] | None:
    """What a QQ game's results say beside its winner (R10.3 revised turn 3): the side that
    receives tribute by QQ's rule (``draw``: 平贡) and the emperor side's points, whose sign
    names the winner; ``None`` outside QQ and after an escape."""
    if rules.win_rule != "qq" or result.outcome == "escape" or result.emperor is None:
        return None
    points = sum(p for s, p in enumerate(result.scores) if result.role(s) != "rebel")
    return tribute_side(rules, result), points


def tribute_payments(rules: Rules, result: GameResult) -> list[tuple[int, int]]:
    """R12: who pays how many cards, as (seat, count), payers in finishing order."""
    if result.outcome == "escape":
        return []
    side = tribute_side(rules, result)
    if side == "draw":
        return []
    per = 2 if result.open_solo else 1  # 明独 doubles every number
    emperor, guard = result.emperor, result.guard
    assert emperor is not None, "an escaped game pays no tribute"
    others = [s for s in result.places if s not in (emperor, guard)]
    if guard is None:
        if side == "emperor":
            return [(s, per) for s in others]
        return [(emperor, 4 * per)]
    if side == "emperor":
        return [(s, 1) for s in others]
    return [(emperor, 2), (guard, 1)]


def tribute_transfers(
    rules: Rules, result: GameResult, paid: Sequence[tuple[int, Card]]
) -> list[tuple[int, int, Card]]:
    """R12: hand out the paid cards, as (payer, receiver, card)."""
    by_power = sorted(paid, key=lambda pc: (-pc[1].rank, pc[1].id))
    emperor, guard = result.emperor, result.guard
    assert emperor is not None, "an escaped game pays no tribute"
    others = [s for s in result.places if s not in (emperor, guard)]
    side = tribute_side(rules, result)
    if guard is not None and side == "emperor":
        # The guard takes the middle card of the three, the emperor the other two.
        receivers = [emperor, guard, emperor]
    elif side == "emperor":
        receivers = [emperor] * len(by_power)
    else:
        # Better finishers take higher cards, an equal share each.
        share = len(by_power) // len(others)
        receivers = [s for s in others for _ in range(share)]
    return [(payer, to, card) for (payer, card), to in zip(by_power, receivers, strict=True)]
