"""Sockets on other nodes (远程连接), as the tables this node runs see them.

A node relays a socket whose table another node runs (:mod:`.relay`): its ``hello``, commands
and close come here over Redis, and the table treats it as one more :class:`.Conn` — a
:class:`RemoteConn` — whose frames go back to that node through its :class:`Outbox`, in one
message for every relay of that node whose frames queued up meanwhile. Each seat's frames are
built by the table exactly as for a local socket, so a relayed socket receives the same
messages (R14: only its own seat's view).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError
from redis.exceptions import RedisError

from ...protocol.messages import Command
from ...protocol.messages import Hello as HelloData
from ..connection import Conn
from ..table.actor import TableActor
from ..table.mailbox import Cmd, Gone, Hello
from .leases import Cluster

log = logging.getLogger("baohuang.server")
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)

#: Seconds between tries to publish frames Redis did not take.
RESEND_SECONDS = 0.2
#: Frames held for one node past which they are let go: Redis has been away so long that
#: its return (every relay asks again then) is what puts the relays right.
MAX_HELD = 20_000


class Outbox:
    """What this node's tables send the sockets relayed by one other node: published to it
    together, one message for as many frames (of as many relays) as have queued up, in order
    for each relay. A message Redis did not take is kept and published again with what came
    since (a relay drops what it already has): frames are never dropped here, or a relay
    left waiting for its seat's turn would wait for ever."""

    def __init__(self, cluster: Cluster, node: str) -> None:
        self.cluster, self.node = cluster, node
        self.queue: asyncio.Queue[tuple[str, str | None]] = asyncio.Queue()
        self.pump = asyncio.create_task(self._pump(), name=f"outbox-{node}")

    def put(self, cid: str, text: str | None) -> None:
        """A frame for relay ``cid``; ``None``: the table closed it (the relay asks again)."""
        self.queue.put_nowait((cid, text))

    async def _pump(self) -> None:
        held: list[tuple[str, str | None]] = []
        while True:
            if not held:
                held.append(await self.queue.get())
            while not self.queue.empty():
                held.append(self.queue.get_nowait())
            try:
                await self.cluster.send(self.node, {"relays": _by_relay(held)})
            except Exception as exc:  # Redis failed (or its client did): publish again
                log.warning(
                    "frames for node %s not sent (%d held): %s",
                    self.node,
                    len(held),
                    exc,
                    exc_info=not isinstance(exc, RedisError | OSError),
                )
                if len(held) > MAX_HELD:  # the relays find the gap, or Redis came back
                    held.clear()  # and they ask again
                await asyncio.sleep(RESEND_SECONDS)
            else:
                held.clear()

    def stop(self) -> None:
        self.pump.cancel()


def _by_relay(items: list[tuple[str, str | None]]) -> list[list[Any]]:
    """Queued frames as ``[relay id, frames, closed]`` per relay, each relay's in order."""
    batch: dict[str, tuple[list[str], bool]] = {}
    for cid, text in items:
        frames, _ = batch.setdefault(cid, ([], False))
        if text is None:
            batch[cid] = (frames, True)
        else:
            frames.append(text)
    return [[cid, frames, closed] for cid, (frames, closed) in batch.items()]


class RemoteConn(Conn):
    """A socket relayed by another node (its relay ``cid``): what it is sent goes to that
    node's :class:`Outbox`."""

    def __init__(self, user: int | None, name: str | None, outbox: Outbox, cid: str) -> None:
        super().__init__(user, name)
        self.outbox, self.cid = outbox, cid

    def send(self, text: str) -> None:
        if not self.closed:
            self.outbox.put(self.cid, text)

    def close(self, drop: bool = False) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put(self.cid, None)


class Hosted:
    """The relayed sockets of this node's tables, by relay id. ``owned(table_id)`` is the
    table this node runs, or ``None``."""

    def __init__(
        self,
        cluster: Cluster,
        owned: Callable[[str], TableActor | None],
        relayed: Callable[[TableActor], None] = lambda table: None,
    ) -> None:
        self.cluster = cluster
        self.owned = owned
        #: Told of each table that a relay said hello to (the lobby may hand it over).
        self.relayed = relayed
        self.conns: dict[str, tuple[RemoteConn, TableActor]] = {}
        self.outboxes: dict[str, Outbox] = {}

    async def handle(self, data: dict[str, Any]) -> None:
        """A relay's ``hello``, command or close (``data["k"]``)."""
        kind, cid, node = data["k"], data["cid"], data["from"]
        if kind == "gone":
            entry = self.conns.pop(cid, None)
            if entry is not None:
                entry[1].submit(Gone(entry[0]))
            return
        table = self.owned(data["table"])
        if kind == "hello":
            if table is not None:
                try:
                    hello = HelloData.model_validate(data["d"])
                except ValidationError:  # checked by the relaying node
                    hello = HelloData(token=None, since=None, code=None)
                outbox = self.outboxes.get(node)
                if outbox is None:
                    outbox = self.outboxes[node] = Outbox(self.cluster, node)
                conn = RemoteConn(data.get("user"), data.get("name"), outbox, cid)
                self.conns[cid] = (conn, table)
                table.submit(Hello(conn, hello))
                # The relay said hello again: its old id goes after the new one came, so the
                # seat stays connected throughout (no presence events for a resync).
                if (old := self.conns.pop(data.get("was") or "", None)) is not None:
                    old[1].submit(Gone(old[0]))
                self.relayed(table)
                return
        elif (entry := self.conns.get(cid)) is not None and entry[1] is table:
            command = COMMAND.validate_python(data["d"])  # checked by the relaying node
            table.submit(Cmd(entry[0], data["v"], command))
            return
        # Not (or no longer) run here: the relay finds the table's owner again.
        self.conns.pop(cid, None)
        await self.cluster.send(node, {"moved": cid})

    def nodes_of(self, table: TableActor) -> set[str]:
        """The nodes whose relays hold open sockets of ``table``."""
        return {
            conn.outbox.node
            for conn, owner in self.conns.values()
            if owner is table and not conn.closed
        }

    def drop(self, table: TableActor) -> None:
        """``table`` left this node: forget its relayed sockets (their relays ask again)."""
        for cid, (conn, owner) in list(self.conns.items()):
            if owner is table:
                del self.conns[cid]
                conn.close()

    def close(self) -> None:
        for outbox in self.outboxes.values():
            outbox.stop()
