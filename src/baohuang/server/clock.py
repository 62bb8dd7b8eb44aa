"""The clock (时钟) a table runs on: real time in the server, fake time in the tests.

Everything a table does with time goes through one :class:`Clock`: reading it, and calling
back at a moment. :class:`FakeClock` moves only when a test advances it, so a test can let a
turn timer run out, or a reconnect grace lapse, without waiting.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol


class Handle(Protocol):
    """A pending callback that can be cancelled."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic seconds for deadlines, wall seconds for what people read, and callbacks."""

    def now(self) -> float: ...

    def wall(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle: ...


class SystemClock:
    """The running event loop's clock (``loop.time()``) and ``time.time()``."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def wall(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_at(when, callback)


@dataclass(order=True)
class _Pending:
    when: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only in :meth:`advance`; wall time is :attr:`epoch` plus it."""

    def __init__(self, start: float = 1000.0, epoch: float = 1_800_000_000.0) -> None:
        self._now = start
        self.epoch = epoch - start
        self._heap: list[_Pending] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self.epoch + self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        pending = _Pending(when, next(self._order), callback)
        heapq.heappush(self._heap, pending)
        return pending

    def next_at(self) -> float | None:
        """When the earliest pending callback is due."""
        while self._heap and self._heap[0].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0].when if self._heap else None

    async def advance(self, seconds: float, settle: Callable[[], Awaitable[None]]) -> None:
        """Move ``seconds`` on, running each callback due on the way at its own moment, and
        ``settle()`` after each (to let what it started finish before time moves again)."""
        target = self._now + seconds
        await settle()
        while (due := self.next_at()) is not None and due <= target:
            pending = heapq.heappop(self._heap)
            self._now = max(self._now, pending.when)
            pending.callback()
            await settle()
        self._now = target
