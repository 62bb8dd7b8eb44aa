"""A connection (连接) as a table sees it, the protocol's envelope, and refusals."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import orjson

from .refusals import Refusal

#: Commands remembered per seat for answering repeats: more than a whole game's (a seat makes
#: a few hundred commands in a game; the message limits bound how fast ids can be spent).
MAX_ANSWERS = 2000
#: Outgoing messages queued for one connection before it is dropped as too slow.
MAX_BACKLOG = 2000


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
    """A command refused with a protocol error code and a catalog message; nothing changed:
    ``Refused("not_your_turn", "error.server.turn_of", seat=2)``."""

    def data(self, command_id: str | None) -> dict[str, Any]:
        """The ``error`` message's data (``ErrorData``)."""
        return {"id": command_id, **self.detail()}


class Conn:
    """One WebSocket connection's outgoing side: a queue drained by its own sender task."""

    def __init__(self, user: int | None, name: str | None) -> None:
        self.user = user
        self.name = name
        self.seat: int | None = None
        self.greeted = False
        self.out: asyncio.Queue[str | None] = asyncio.Queue()
        #: Answers to a spectator's commands (a seat's live on the seat).
        self.answers = Answers()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.out.qsize() >= MAX_BACKLOG:
            self.close()  # too slow to keep up: it reconnects and resyncs
            return
        self.out.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.out.put_nowait(None)
