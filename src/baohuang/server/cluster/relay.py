"""A relayed socket (转发): a table socket on a node that does not run the table.

The socket's ``hello`` and commands go over Redis to the node that runs the table (its owner,
:mod:`.remote`), which sends back the frames it would have sent a local socket. The relay
passes them on in order and keeps what it needs to move to another owner without the client
noticing: the last event's sequence number, the seat token and the commands not answered yet.
When the owner changes (it died, or lost its lease) or frames were lost (a gap, Redis
restarted), the relay says hello to the owner again with that sequence number, drops what
its client already has and sends the unanswered commands again (a seat's repeated command id
is answered, not applied twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.exceptions import RedisError

from .. import metrics
from ..connection import Conn, message
from ..table.mailbox import Cmd, Gone, Hello, Message
from .leases import Cluster

log = logging.getLogger("baohuang.server")

#: Seconds a relay waits before asking a table's owner again after being told it moved.
RETRY_SECONDS = 0.2
#: Seconds without an answer after which a relay asks again: its hello or a command may have
#: been published while the owner was not listening (Redis restarted, a node took over).
ANSWER_SECONDS = 2.0
#: Leases for which a closed socket's ``gone`` is published again until the owner hears it;
#: an owner deaf for longer has lost its tables, and their new owner never had the socket.
GONE_LEASES = 3

#: Finds a table's owner (taking the table if nobody runs it); ``None``: no such live table.
Resolve = Callable[[str], Awaitable[str | None]]

_ids = itertools.count(1)


class Relay:
    """See the module docstring. The socket loop calls :meth:`submit` as it would a table's;
    the node's listener calls :meth:`deliver` with what the owner sent."""

    def __init__(self, relays: Relays, table_id: str, owner: str, conn: Conn) -> None:
        self.relays = relays
        self.cluster = relays.cluster
        self.table_id = table_id
        self.owner = owner
        self.conn = conn
        self.cid = self._new_cid()
        relays.by_id[self.cid] = self
        #: The client's seat token (its hello's, or from a ``sit`` answer).
        self.token: str | None = None
        #: The room code of the client's hello (a friends' table's), said again to a new owner.
        self.code: str | None = None
        #: The last event's sequence number passed on; known once the client has a start.
        self.seq = 0
        self.synced = False
        #: The client greeted (its welcome came through); later welcomes are the relay's own.
        self.greeted = False
        #: The client said hello: from then on the relay may say it again for it.
        self.started = False
        #: Unanswered commands by id: (the sequence number they were made at, the command,
        #: when it was last sent).
        self.pending: dict[str, tuple[int, dict[str, Any], float]] = {}
        #: When the relay's hello went without a welcome back yet (monotonic seconds).
        self.hello_at: float | None = None
        self._jobs: asyncio.Queue[Callable[[], Awaitable[object]] | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._run(), name=f"relay-{self.cid}")
        metrics.RELAYED.inc()

    def _new_cid(self) -> str:
        return f"{self.cluster.node}.{next(_ids)}.{secrets.token_hex(4)}"

    # ------------------------------------------------------------------ from the socket

    def submit(self, item: Message) -> None:
        match item:
            case Hello(_, hello):
                self.started = True
                self.token, self.code = hello.token, hello.code
                if hello.since is not None:
                    self.seq, self.synced = hello.since, True
                self._jobs.put_nowait(lambda: self._send("hello", {"d": hello.model_dump()}))
            case Cmd(_, seen, command):
                data = command.model_dump(mode="json")
                self.pending[command.id] = (seen, data, time.monotonic())
                self._jobs.put_nowait(lambda: self._send("cmd", {"v": seen, "d": data}))
            case Gone():
                self._jobs.put_nowait(self._gone)
                self._jobs.put_nowait(None)

    async def _run(self) -> None:
        while (job := await self._jobs.get()) is not None:
            try:
                await job()
            except Exception as exc:  # asked again once Redis is back, or when unanswered
                unexpected = not isinstance(exc, RedisError | OSError)
                log.warning("relay %s: %s", self.cid, exc, exc_info=unexpected)
        self.relays.by_id.pop(self.cid, None)
        metrics.RELAYED.dec()
        self.conn.close()

    async def _gone(self) -> None:
        """Tell the owner that the socket closed, again until it hears it: a table that never
        did would keep the seat connected, without the grace and 托管 of a player who left."""
        deadline = time.monotonic() + GONE_LEASES * self.cluster.lease
        while True:
            try:
                if await self._send("gone", {}):
                    return
            except Exception as exc:
                log.warning("relay %s: gone not sent: %s", self.cid, exc)
            if time.monotonic() > deadline:
                return
            await asyncio.sleep(RETRY_SECONDS)

    async def _send(self, kind: str, fields: dict[str, Any]) -> int:
        """Publish to the owner; how many nodes heard it (0: the owner is not listening)."""
        if kind == "hello":
            self.hello_at = time.monotonic()
        conn = self.conn
        payload: dict[str, Any] = {
            "k": kind,
            "cid": self.cid,
            "from": self.cluster.node,
            "table": self.table_id,
        }
        payload |= {"user": conn.user, "name": conn.name, **fields}
        return await self.cluster.send(self.owner, payload)

    # ------------------------------------------------------------------ from the owner

    def deliver(self, frames: list[str], closed: bool) -> None:
        """Frames from the owner; ``closed``: the table closed this socket (it failed, or
        lost its lease), so ask again."""
        for text in frames:
            if not self._pass(text):
                self.again()
                return
        if closed:
            self.again(RETRY_SECONDS)

    def _pass(self, text: str) -> bool:
        """Pass one frame on (or drop what the client has); ``False`` on a gap."""
        msg = orjson.loads(text)
        kind, seq, data = msg["t"], msg["v"], msg["d"]
        if kind == "event":
            folded = msg.get("a")  # the answer to a command, in its last event's frame
            if folded is not None:
                self._answered("ack", folded)
            if self.synced and seq <= self.seq:
                if folded is not None:  # the client has the event, not the answer
                    self.conn.send(message("ack", seq, folded))
                return True  # the client has it
            if self.synced and seq != self.seq + 1:
                return False
            self.seq, self.synced = seq, True
        elif kind == "snapshot":
            self.seq, self.synced = seq, True
        elif kind == "welcome":
            self.hello_at = None
            if self.greeted:
                return True  # the relay's own hello to a new owner
            self.greeted = True
        elif kind in ("ack", "error"):
            self._answered(kind, data)
        self.conn.send(text)
        return True

    def _answered(self, kind: str, data: dict[str, Any]) -> None:
        """A command of the client's answered: no longer pending; a ``sit``'s seat token kept."""
        if data.get("id") is not None:
            self.pending.pop(data["id"], None)
            if kind == "ack" and data.get("token"):
                self.token = data["token"]

    @property
    def unanswered(self) -> bool:
        """The relay's hello or a command has had no answer for :data:`ANSWER_SECONDS`."""
        sent = [at for *_, at in self.pending.values()]
        if self.hello_at is not None:
            sent.append(self.hello_at)
        return bool(sent) and time.monotonic() - min(sent) > ANSWER_SECONDS

    def again(self, delay: float = 0.0) -> None:
        """Say hello to the table's owner (found again) with the last sequence number."""
        if self.started:
            self._jobs.put_nowait(lambda: self._reattach(delay))

    def moved(self, owner: str) -> None:
        """The table has a new owner (a claim was announced)."""
        if not self.started:
            self.owner = owner  # the client's hello goes there
        elif owner != self.owner or not self.synced:
            self._jobs.put_nowait(lambda: self._reattach(0.0, owner))
        else:
            self.again()

    async def _reattach(self, delay: float, owner: str | None = None) -> None:
        if delay:
            await asyncio.sleep(delay)
        found = owner or await self.relays.resolve(self.table_id)
        if found is None or found == self.cluster.node:
            # No longer live anywhere; or run here now (handed over, taken over): the client
            # comes back on a socket of its own, served without a relay.
            self.conn.close()
            return
        was = self.cid
        if found != self.owner:  # the old owner, if it still runs the table, lets it go
            with contextlib.suppress(RedisError, OSError):
                await self._send("gone", {})
        self.relays.by_id.pop(was, None)
        self.cid, self.owner = self._new_cid(), found
        self.relays.by_id[self.cid] = self
        hello = {
            "token": self.token,
            "since": self.seq if self.synced else None,
            "code": self.code,
        }
        # The same owner replaces the relay's old id with the new one when the hello lands,
        # however many of the relay's messages were lost on the way.
        await self._send("hello", {"d": hello, "was": was})
        for command_id, (seen, data, _) in list(self.pending.items()):
            self.pending[command_id] = (seen, data, time.monotonic())
            await self._send("cmd", {"v": seen, "d": data})


class Relays:
    """This node's relayed sockets, by relay id. ``resolve`` finds a table's owner (taking
    the table if nobody runs it; ``None``: no such live table)."""

    def __init__(self, cluster: Cluster, resolve: Resolve) -> None:
        self.cluster = cluster
        self.resolve = resolve
        self.by_id: dict[str, Relay] = {}

    def open(self, table_id: str, owner: str, conn: Conn) -> Relay:
        metrics.RELAYS.inc()
        return Relay(self, table_id, owner, conn)

    async def deliver(self, data: dict[str, Any]) -> None:
        """What an owner sent the relays: ``relays`` [[relay id, frames, closed], …], or word
        that the table is not there (``moved``); unknown ids are relays since gone."""
        if "moved" in data:
            if (relay := self.by_id.get(data["moved"])) is not None:
                relay.again(RETRY_SECONDS)
            return
        for cid, frames, closed in data["relays"]:
            if (relay := self.by_id.get(cid)) is not None:
                relay.deliver(frames, closed)

    async def claimed(self, data: dict[str, Any]) -> None:
        """A node announced it runs ``data["table"]`` now."""
        for relay in list(self.by_id.values()):
            if relay.table_id == data["table"]:
                relay.moved(data["node"])

    async def lost(self, _data: dict[str, Any]) -> None:
        """Frames may have been lost (Redis came back): every relay asks again."""
        for relay in list(self.by_id.values()):
            relay.again()

    async def check(self) -> None:
        """Relays whose table changed owner without their hearing of it ask the new one, and
        those whose owner has not answered ask again."""
        relays = list(self.by_id.values())
        owners = await self.cluster.owners([relay.table_id for relay in relays])
        for relay, owner in zip(relays, owners, strict=True):
            if owner is not None and owner != relay.owner:
                relay.moved(owner)
            elif relay.unanswered:
                relay.again()
