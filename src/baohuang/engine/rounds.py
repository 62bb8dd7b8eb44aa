"""The rules of a round (R6.2–R6.6) on plain values, shared by the engine and the search bot's
playout simulator: ``sizes`` is each seat's card count, ``places`` the seats out so far in
finishing order, ``last`` the seat that made the round's last play and ``passes`` the passes
made since that play."""

from __future__ import annotations

from collections.abc import Sequence

from .state import SEATS


def next_holder(sizes: Sequence[int], seat: int) -> int:
    """R6.2: the next seat after ``seat`` in play order that still holds cards."""
    for i in range(1, SEATS + 1):
        nxt = (seat + i) % SEATS
        if sizes[nxt]:
            return nxt
    raise AssertionError("no seat holds cards")


def round_over(sizes: Sequence[int], last: int, passes: int, places: Sequence[int]) -> bool:
    """R6.3: the round ends when everyone else still holding cards has passed after ``last``'s
    play (``last`` too has passed, or is out)."""
    return passes >= SEATS - len(places) - (1 if sizes[last] else 0)


def next_leader(sizes: Sequence[int], last: int) -> int:
    """Who leads once the round ends: ``last`` (R6.3), or, when that play emptied its hand, the
    next seat holding cards after it (R6.5 接风)."""
    return last if sizes[last] else next_holder(sizes, last)


def going_out(places: Sequence[int], seat: int) -> tuple[int, ...]:
    """R6.4: ``seat`` emptied its hand and takes the next place; the seats placed now in order,
    with the one seat left holding cards last (大落) if ``seat`` was the last but one (R6.6)."""
    if len(places) < SEATS - 2:
        return (seat,)
    return seat, next(s for s in range(SEATS) if s != seat and s not in places)


def game_over(places: Sequence[int]) -> bool:
    """R6.6: the game ends when only one seat holds cards, which places every seat."""
    return len(places) == SEATS
