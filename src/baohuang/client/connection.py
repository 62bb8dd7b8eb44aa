"""The table socket (牌桌连接): one WebSocket on ``/ws/v1/tables/{id}`` speaking the protocol.

Every message received is checked for the envelope (``{"t", "v", "d"}`` with a server type and
an object for ``d``) and for the sequence rule: an event's ``v`` is the previous one plus one, a
snapshot's sets it (a welcome's is news). An event whose ``v`` is not above the last one seen is
a repeat (a node that relays a socket may send one after a move): :meth:`TableClient.duplicate`
is told, and :meth:`~TableClient.recv` skips it. A client may be given several servers (the
nodes of one cluster): a reconnect moves to the next. Messages are plain JSON: the pydantic
models of :mod:`baohuang.protocol.messages` describe them but are not run on every message (too
slow for the load tool).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

from ..protocol.messages import unfold
from .errors import ProtocolViolation

#: Seconds a connection may wait for its next message before that counts as a timeout.
IDLE_TIMEOUT = 30.0
#: Seconds to wait for the server's side of a closing handshake.
CLOSE_TIMEOUT = 1.0
#: The envelope types a server sends.
SERVER_MESSAGES = frozenset({"welcome", "event", "snapshot", "view", "ack", "error", "pong"})

#: Given every message received, once checked.
Listener = Callable[[dict[str, Any]], None]


def table_url(server: str, table_id: str) -> str:
    """The socket of table ``table_id`` on the server at ``server`` (``http(s)://host:port``)."""
    return "ws" + server.rstrip("/").removeprefix("http") + f"/ws/v1/tables/{table_id}"


class TableClient:
    """A connection to one table: open, ``hello``, commands and their answers, close, and a
    reconnect that asks for what was missed.

    :meth:`gap` (a break in the sequence), :meth:`duplicate` (an event seen before) and
    :meth:`refused` (an ``error``) are hooks for subclasses; ``listen`` is given every message
    received but repeats. ``servers``: the servers a :meth:`reconnect` goes through in turn,
    from ``server`` on (default: ``server`` alone; ``server`` is put first if not among them).
    """

    #: Command ids, unique in this process: the server answers a seat's repeated id with its
    #: first answer instead of applying the command again.
    ids = itertools.count(1)

    def __init__(
        self,
        server: str,
        table_id: str,
        cookie: str = "",
        timeout: float | None = IDLE_TIMEOUT,
        listen: Listener | None = None,
        servers: Sequence[str] = (),
    ) -> None:
        self.server = server
        #: The servers to use in turn (the nodes of a cluster), and which of them is in use.
        self.urls = list(servers) if server in servers else [server, *servers]
        self.url_index = self.urls.index(server)
        self.table_id = table_id
        #: The login session as a ``Cookie`` header value ("": a spectator without an account).
        self.cookie = cookie
        #: Seconds :meth:`recv` waits for a message; ``None``: as long as the socket lives.
        self.timeout = timeout
        self.listen = listen
        self.ws: ClientConnection | None = None
        #: The table's latest event sequence number this connection has seen.
        self.seq = 0
        #: The seat this connection acts for (from the welcome, the snapshot, the ``sit`` ack).
        self.seat: int | None = None
        #: The seat token from ``sit``: a reconnect's ``hello`` claims the seat with it.
        self.token: str | None = None
        #: Whether the message :meth:`take` checked last was an event already seen (skipped).
        self.repeat = False
        #: Messages a frame stood for beyond its first (an event's folded ack), to take next.
        self.unfolded: deque[dict[str, Any]] = deque()

    @property
    def socket(self) -> ClientConnection:
        if self.ws is None:
            raise ConnectionError("the table socket is not open")
        return self.ws

    async def open(self) -> None:
        """Open the socket (again, after a drop), as the user of the login cookie."""
        self.ws = await connect(
            table_url(self.server, self.table_id),
            additional_headers={"Cookie": self.cookie} if self.cookie else None,
            proxy=None,
            open_timeout=self.timeout or IDLE_TIMEOUT,
            close_timeout=CLOSE_TIMEOUT,
        )

    async def hello(self, token: str | None = None, since: int | None = None) -> None:
        """Send ``hello``: ``token`` claims a seat, ``since`` asks for the events after it."""
        await self.send_message("hello", {"token": token, "since": since})

    def next_server(self) -> str:
        """Move to the next of :attr:`urls` (if there are several); the server now in use."""
        if len(self.urls) > 1:
            self.url_index = (self.url_index + 1) % len(self.urls)
            self.server = self.urls[self.url_index]
        return self.server

    async def reconnect(self) -> None:
        """A new socket for this seat on the next server: ``hello`` with its token and the last
        event seen."""
        self.next_server()
        await self.open()
        await self.hello(self.token, self.seq)

    async def send_message(self, kind: str, data: dict[str, Any], seq: int | None = None) -> None:
        """Send the envelope ``{"t": kind, "v": seq, "d": data}``."""
        await self.socket.send(orjson.dumps({"t": kind, "v": seq, "d": data}).decode())

    async def send(self, op: str, **fields: Any) -> str:
        """Send the command ``op`` made at the latest sequence number seen; its id."""
        command_id = f"c{next(self.ids)}"
        await self.send_command({"id": command_id, "op": op, **fields}, self.seq)
        return command_id

    async def send_command(self, data: dict[str, Any], seq: int) -> None:
        """Send the command ``data`` (with its id) as made at sequence number ``seq``."""
        await self.send_message("cmd", data, seq)

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message but repeats, checked by :meth:`take`; a silence of ``timeout`` s
        (default: the client's) raises :class:`TimeoutError`."""
        limit = self.timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(limit):
                while True:
                    unfolded = self.unfolded.popleft() if self.unfolded else None
                    msg = self.take(unfolded or await self.socket.recv())
                    if not self.repeat:
                        return msg
        except TimeoutError:
            raise TimeoutError(f"no message for {limit:g} s") from None

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """Every message but repeats, checked by :meth:`take`, until the server closes the
        socket (however long the silences)."""
        async for text in self.socket:
            msg = self.take(text)
            while True:
                if not self.repeat:
                    yield msg
                if not self.unfolded:
                    break
                msg = self.take(self.unfolded.popleft())

    def take(self, text: str | bytes | dict[str, Any]) -> dict[str, Any]:
        """A received message (or one a frame stood for: :attr:`unfolded`), parsed, its
        envelope and sequence number checked; an ``error`` goes to :meth:`refused`, then to
        ``listen`` like the rest. An event already seen goes to :meth:`duplicate` only, and
        sets :attr:`repeat`; an event's folded ack is queued in :attr:`unfolded`."""
        try:
            msg: dict[str, Any] = text if isinstance(text, dict) else orjson.loads(text)
            msg, *rest = unfold(msg)
            kind, seq, data = msg["t"], msg["v"], msg["d"]
            if kind not in SERVER_MESSAGES or not isinstance(data, dict):
                raise ValueError(kind)
            if kind == "event" and (not isinstance(seq, int) or isinstance(seq, bool)):
                raise ValueError(seq)
        except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
            shown = text if isinstance(text, dict) else text[:200]
            raise ProtocolViolation(f"not a server message: {shown!r}") from None
        self.unfolded.extend(rest)
        self.repeat = kind == "event" and seq <= self.seq
        if self.repeat:
            self.duplicate(seq)
            return msg
        if kind == "event":
            if seq != self.seq + 1:
                self.gap(seq)
            self.seq = seq
        elif kind == "snapshot":
            self.seq, self.seat = seq, data["seat"]
        elif kind == "welcome":
            self.seat = data["seat"]
        elif kind == "ack" and data.get("token"):
            self.seat, self.token = data["seat"], data["token"]
        elif kind == "error":
            self.refused(data)
        if self.listen is not None:
            self.listen(msg)
        return msg

    def gap(self, seq: int) -> None:
        """Event ``seq`` arrived after :attr:`seq`, not right after it: raise."""
        raise ProtocolViolation(f"sequence gap: had {self.seq}, got {seq}")

    def duplicate(self, seq: int) -> None:
        """Event ``seq`` arrived again (not above :attr:`seq`): by default a break in the
        sequence, :meth:`gap`; a client that moves between nodes counts and skips it."""
        self.gap(seq)

    def refused(self, data: dict[str, Any]) -> None:
        """An ``error`` from the server (a hook: the message is returned all the same)."""

    async def answer(self, command_id: str) -> dict[str, Any]:
        """Read until the ``ack`` or ``error`` answering ``command_id``; that message."""
        while True:
            msg = await self.recv()
            if msg["t"] in ("ack", "error") and msg["d"].get("id") == command_id:
                return msg

    async def until(self, kind: str, event: str | None = None) -> dict[str, Any]:
        """Read until a message of type ``kind`` (for ``event``, of kind ``event`` if given)."""
        while True:
            msg = await self.recv()
            if msg["t"] == kind and (event is None or msg["d"]["kind"] == event):
                return msg

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
