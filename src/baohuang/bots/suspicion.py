"""Who is on whose side, as one seat sees it (R14): the heuristic's guard suspicion.

Until the guard is revealed (R8.8, R9.4, R9.5) a seat weighs every other seat that may be the
guard: a non-emperor seat that passes on the emperor's play looks more like the guard, one that
overtakes it less; a seat that went out unrevealed was not it. The heuristic bot
(:mod:`baohuang.bots.heuristic`) and its playout policy (:mod:`baohuang.bots.playout`) share
these numbers and :func:`partners`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.state import SEATS

#: The suspicion factors: a non-emperor seat answering the emperor's play by a pass, by a play.
PASS_ON_EMPEROR = 1.25
OVERTAKE_EMPEROR = 0.35


def guard_odds(
    me: int, emperor: int, suspect: Sequence[float], sizes: Sequence[int]
) -> list[float]:
    """Per seat, the chance of being the unrevealed guard as ``me`` sees it: the suspicion
    weights of the seats other than ``me`` and the emperor still holding cards."""
    weights = [0.0 if s in (me, emperor) or not sizes[s] else suspect[s] for s in range(SEATS)]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def partners(
    me: int,
    emperor: int,
    guard: int | None,
    *,
    known: bool,
    suspect: Sequence[float],
    sizes: Sequence[int],
) -> list[float]:
    """Per seat, the chance of being on ``me``'s side as ``me`` sees it.

    ``known``: ``me`` knows the sides, ``guard`` being the guard (``None``: the emperor plays
    alone); else ``guard`` is ignored and the unrevealed guard weighed by :func:`guard_odds`."""
    if known:
        team = (emperor, guard)
        return [float((s in team) == (me in team)) for s in range(SEATS)]
    odds = guard_odds(me, emperor, suspect, sizes)
    if me == emperor:
        return [1.0 if s == me else odds[s] for s in range(SEATS)]
    return [1.0 if s == me else 0.0 if s == emperor else 1.0 - odds[s] for s in range(SEATS)]


def watch_round(
    suspect: list[float],
    emperor: int | None,
    before: Sequence[tuple[int, bool]],
    fresh: Iterable[tuple[int, bool]],
) -> None:
    """Update ``suspect`` for the round's ``fresh`` entries, (seat, passed), that follow the
    entries ``before`` them: a non-emperor seat answering the emperor's play."""
    winner = next((s for s, passed in reversed(before) if not passed), None)
    for seat, passed in fresh:
        if seat != emperor and winner == emperor:
            suspect[seat] *= PASS_ON_EMPEROR if passed else OVERTAKE_EMPEROR
        if not passed:
            winner = seat
