"""A connection (连接) as a table sees it, the protocol's envelope, and refusals."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, ClassVar

import orjson

from ..engine.errors import Param
from ..protocol.messages import ErrorCode
from .refusals import Refusal

#: Commands remembered per seat for answering repeats: more than a whole game's (a seat makes
#: a few hundred commands in a game; the message limits bound how fast ids can be spent).
MAX_ANSWERS = 2000
#: Outgoing messages queued for one connection before it is dropped as too slow.
MAX_BACKLOG = 2000
#: Bytes of outgoing messages queued for one connection, and for all of one user's, before
#: the connection that would pass them is closed as not reading: a table's whole log is far
#: less; 32 sockets that never read had held 856 MB.
MAX_QUEUED_BYTES = 2 * 2**20
MAX_USER_BYTES = 8 * 2**20


def message(t: str, v: int, d: Any) -> str:
    """A protocol envelope as JSON text."""
    return orjson.dumps({"t": t, "v": v, "d": d}).decode()


class Answers(OrderedDict[str, str]):
    """The answers to a seat's (or a spectator's) latest commands, by id."""

    def keep(self, command_id: str, reply: str) -> None:
        self[command_id] = reply
        while len(self) > MAX_ANSWERS:
            self.popitem(last=False)


class Refused(Refusal):
    """A command refused with a protocol error code (``ErrorCode``) and a catalog message;
    nothing changed: ``Refused("not_your_turn", "error.server.turn_of", seat=2)``."""

    def __init__(self, code: ErrorCode, key: str, /, **params: Param) -> None:
        super().__init__(code, key, **params)

    def data(self, command_id: str | None) -> dict[str, Any]:
        """The ``error`` message's data (``ErrorData``)."""
        return {"id": command_id, **self.detail()}


class Conn:
    """One WebSocket connection's outgoing side: a queue drained by its own sender task
    (:meth:`next`), bounded in messages and in bytes, per connection and per user."""

    #: Bytes queued over all connections, by user (``None``: the anonymous ones together).
    queued_by_user: ClassVar[dict[int | None, int]] = {}

    def __init__(self, user: int | None, name: str | None) -> None:
        self.user = user
        self.name = name
        self.seat: int | None = None
        self.greeted = False
        self.out: asyncio.Queue[str | None] = asyncio.Queue()
        #: Bytes queued in ``out``.
        self.queued = 0
        #: The sequence number at which a snapshot answering a stale command was sent last
        #: (a burst of stale commands gets one).
        self.resynced: int | None = None
        #: Answers to a spectator's commands (a seat's live on the seat).
        self.answers = Answers()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        size = len(text)
        mine = Conn.queued_by_user.get(self.user, 0)
        if (
            self.out.qsize() >= MAX_BACKLOG
            or self.queued + size > MAX_QUEUED_BYTES
            or (self.user is not None and mine + size > MAX_USER_BYTES)
        ):
            self.close(drop=True)  # not reading, or too slow: it reconnects and resyncs
            return
        self.queued += size
        Conn.queued_by_user[self.user] = mine + size
        self.out.put_nowait(text)

    async def next(self) -> str | None:
        """The next message to send (``None``: the connection is closed)."""
        text = await self.out.get()
        if text is not None:
            self._forget(len(text))
        return text

    def taken(self) -> list[str]:
        """Every message queued now, taken without waiting (up to the close, if closed)."""
        texts = []
        while not self.out.empty():
            text = self.out.get_nowait()
            if text is None:
                break
            self._forget(len(text))
            texts.append(text)
        return texts

    def close(self, drop: bool = False) -> None:
        """Close once what is queued is sent; ``drop``: drop it at once instead (a socket
        that does not read, or is gone), giving its memory back."""
        if not self.closed:
            self.closed = True
            if drop:
                self.taken()
            self.out.put_nowait(None)

    def _forget(self, size: int) -> None:
        self.queued -= size
        left = Conn.queued_by_user.get(self.user, 0) - size
        if left > 0:
            Conn.queued_by_user[self.user] = left
        else:
            Conn.queued_by_user.pop(self.user, None)
