"""A table's scheduler (定时): every pending wake-up of one table, at most one per slot.

Only :func:`baohuang.server.table.liveness.arrange` sets or cancels a slot: it says which wake-up
each slot must hold for the table's state, and :meth:`Scheduler.want` makes it so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..clock import Clock, Handle
from .mailbox import Wake


@dataclass(frozen=True, slots=True)
class Due:
    """A wake-up the table's state calls for, and when."""

    wake: Wake
    at: float


class Scheduler:
    """Named slots of pending wake-ups; a due one is posted to the table's mailbox."""

    def __init__(self, clock: Clock, post: Callable[[Wake], None]) -> None:
        self.clock = clock
        self._post = post
        self._slots: dict[str, tuple[Due, Handle]] = {}

    def pending(self, slot: str) -> Due | None:
        held = self._slots.get(slot)
        return held[0] if held else None

    def want(self, slot: str, due: Due | None) -> None:
        """Make ``slot`` hold exactly ``due`` (nothing, for ``None``)."""
        held = self._slots.get(slot)
        if held is not None and held[0] == due:
            return
        if held is not None:
            held[1].cancel()
            del self._slots[slot]
        if due is not None:
            handle = self.clock.call_at(due.at, lambda: self._fire(slot, due))
            self._slots[slot] = (due, handle)

    def cancel_all(self) -> None:
        for _, handle in self._slots.values():
            handle.cancel()
        self._slots.clear()

    def _fire(self, slot: str, due: Due) -> None:
        held = self._slots.get(slot)
        if held is not None and held[0] == due:
            del self._slots[slot]
        self._post(due.wake)
