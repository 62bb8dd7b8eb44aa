"""The public history of a deal, read from the event log as a spectator sees it (R14).

A :class:`~baohuang.engine.views.View` is a snapshot; what was played by whom, and who declined
or declared what, is history. It is public (R14: every play with its seat, passes,
declarations), so every seat's observation shares one :class:`PublicHistory`, fed only the
public fields of each event (those of ``events_for(None)``, a spectator's copy) and never the
private ones.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from baohuang.engine.actions import REBEL as DECLARED_REBEL
from baohuang.engine.actions import PlayCards
from baohuang.engine.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO
from baohuang.engine.events import (
    DealEvent,
    DeclareEvent,
    DeclineEvent,
    Event,
    KickEvent,
    PassEvent,
    PlayEvent,
    TransferEvent,
)
from baohuang.engine.plays import Play
from baohuang.engine.state import SEATS
from baohuang.engine.trick import TrickEntry
from baohuang.engine.views import View

#: Per-seat facts after the cards played per rank in a :attr:`PublicHistory.rows` row.
FACTS = ("declines", "rebel", "kick")
DECLINES, REBEL, KICK = range(NUM_RANKS, NUM_RANKS + len(FACTS))
#: The length of a row.
ROW = NUM_RANKS + len(FACTS)
_ZEROS = [0.0] * ROW
_ROW = struct.Struct(f"{ROW}f")


def parts_of(play: Play) -> tuple[tuple[int, int], ...]:
    """The (rank index, number of cards) pairs of ``play``, filler 2s under ``2``."""
    pairs = ((play.rank, play.count), (TWO, play.twos), (SMALL_JOKER, play.small))
    return tuple((r, n) for r, n in (*pairs, (BIG_JOKER, play.big)) if n)


class PublicHistory:
    """What every seat has seen happen in the current deal (see the module docstring)."""

    __slots__ = ("_block", "_packed", "cursor", "rows")

    def __init__(self) -> None:
        #: One row per seat (absolute): cards played per rank index (15), then the
        #: :data:`FACTS`: piles handed on in the candidate chain (decline or 转让: R8.5, R9.3,
        #: R11.2), 造反 declared (R9.5), 踢 declared (R9.6).
        self.rows: list[list[float]] = [[0.0] * ROW for _ in range(SEATS)]
        #: The number of events read so far.
        self.cursor = 0
        #: Each row as float32 bytes, or ``None`` once it changed (see :meth:`packed_rows`).
        self._packed: list[bytes | None] = [None] * SEATS
        #: Every row in seat order as float32 bytes, or ``None`` once one changed.
        self._block: bytes | None = None

    def reset(self) -> None:
        """Forget everything (a new game of a match): the next :meth:`update` starts at 0."""
        self._clear()
        self.cursor = 0

    def _clear(self) -> None:
        for row in self.rows:
            row[:] = _ZEROS
        self._packed = [None] * SEATS
        self._block = None

    def _changed(self, seat: int) -> None:
        """``seat``'s row changed: pack it again when it is next asked for."""
        self._packed[seat] = None
        self._block = None

    def packed_rows(self, first: int) -> bytes:
        """The rows of every seat in play order from ``first`` on, as float32 bytes (the
        observation's block): a rotation of the rows packed once per change."""
        block = self._block
        if block is None:
            packed, rows = self._packed, []
            for s, row in enumerate(packed):
                if row is None:
                    row = packed[s] = _ROW.pack(*self.rows[s])
                rows.append(row)
            block = self._block = b"".join(rows)
        cut = first * _ROW.size
        return block[cut:] + block[:cut]

    def update(self, events: Sequence[Event]) -> None:
        """Read the events after :attr:`cursor`, their public fields only."""
        rows = self.rows
        for event in events[self.cursor :]:
            if isinstance(event, PassEvent):
                continue
            if isinstance(event, PlayEvent):
                seat = event.seat
                row = rows[seat]
                for rank, n in parts_of(event.play):
                    row[rank] += n
            elif isinstance(event, DealEvent):  # a new (or void, R8.6) deal: history starts again
                self._clear()
                continue
            elif isinstance(event, DeclineEvent | TransferEvent):
                seat = event.seat
                rows[seat][DECLINES] += 1
            elif isinstance(event, DeclareEvent) and event.answer == DECLARED_REBEL:
                seat = event.seat
                rows[seat][REBEL] = 1.0
            elif isinstance(event, KickEvent):
                seat = event.seat
                rows[seat][KICK] = 1.0
            else:
                continue
            self._changed(seat)
        self.cursor = len(events)


class ViewHistory(PublicHistory):
    """The public history as one seat follows it from its own views, for a bot (which is
    shown views, not the event log). Another seat's plays are read from the round's trick at
    this seat's turns, and none is missed: a round comes back to every seat still holding
    cards before it ends (R6.2, R6.3), so after this seat's last turn in a round only passes
    follow. Its own plays are what 记牌器 counts beyond the others'. Declines, 造反 and 踢 are
    not seen this way: those columns stay 0."""

    __slots__ = ("_deal", "_seq", "_trick")

    def __init__(self) -> None:
        super().__init__()
        self._deal, self._seq = -1, -1
        self._trick: tuple[TrickEntry, ...] = ()

    def see(self, view: View) -> None:
        """Read the plays ``view`` shows that were not seen yet."""
        me = view.seat
        assert me is not None, "a history is followed by a seat"
        if view.deal != self._deal or view.seq < self._seq:  # another deal, or game
            self._clear()
            self._trick = ()
        self._deal, self._seq = view.deal, view.seq
        trick, old = view.trick, self._trick
        new = trick[len(old) :] if trick[: len(old)] == old else trick
        for entry in new:
            action = entry.action
            if type(action) is PlayCards and entry.seat != me:
                row = self.rows[entry.seat]
                for card in action.cards:
                    row[card.rank] += 1
                self._changed(entry.seat)
        self._trick = trick
        own = [0.0] * NUM_RANKS
        for rank, n in enumerate(view.played):
            if n:
                others = sum(row[rank] for s, row in enumerate(self.rows) if s != me)
                own[rank] = max(0.0, n - others)
        if own != self.rows[me][:NUM_RANKS]:
            self.rows[me][:NUM_RANKS] = own
            self._changed(me)
