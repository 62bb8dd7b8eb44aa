"""Action masks made without zeroing a fresh array at every observation.

Under ``twos_wild`` a mask is 82,185 bytes: zeroing a new one cost a ``qq`` step about 1 µs of
its 24 (``bench/env.md``). :class:`Masks` fills two buffers in turn instead, clearing only the
ids it set there before — but only when no array made from that buffer is still alive, which
the buffer's reference count tells; otherwise a fresh buffer replaces it. So a mask, once
handed out, never changes (``tests/env/test_env_masks.py`` holds every mask of whole games).
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import getrefcount

import numpy as np
import numpy.typing as npt


class Masks:
    """Masks over ``size`` action ids; :meth:`make` returns a new array each time."""

    __slots__ = ("_buffers", "_set", "_size", "_turn")

    def __init__(self, size: int) -> None:
        self._size = size
        #: The two buffers used in turn, then one never handed out: the reference count of a
        #: buffer no array holds, read the same way (so no interpreter's counting is assumed).
        self._buffers = [bytearray(size), bytearray(size), bytearray(0)]
        self._set: list[Sequence[int]] = [(), ()]
        self._turn = 0

    def make(self, ids: Sequence[int]) -> npt.NDArray[np.int8]:
        """An int8 array of ``size`` with 1 at each of ``ids`` and 0 elsewhere."""
        turn = self._turn = 1 - self._turn
        buffers = self._buffers
        buffer, unheld = buffers[turn], buffers[2]
        if getrefcount(buffer) == getrefcount(unheld):
            for action_id in self._set[turn]:
                buffer[action_id] = 0
        else:  # an array made from it is alive: leave it be
            buffer = buffers[turn] = bytearray(self._size)
        for action_id in ids:
            buffer[action_id] = 1
        self._set[turn] = ids
        return np.frombuffer(buffer, np.int8)
