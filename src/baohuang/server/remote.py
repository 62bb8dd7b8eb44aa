"""Sockets on other nodes (远程连接), as the tables this node runs see them.

A node relays a socket whose table another node runs (:mod:`.relay`): its ``hello``, commands
and close come here over Redis, and the table treats it as one more :class:`.Conn` — a
:class:`RemoteConn` — whose frames go back to that node in batches. Each seat's frames are
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

from ..protocol.messages import Command
from ..protocol.messages import Hello as HelloData
from .actor import TableActor
from .cluster import Cluster
from .connection import Conn
from .mailbox import Cmd, Gone, Hello

log = logging.getLogger("baohuang.server")
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)


class RemoteConn(Conn):
    """A socket relayed by node ``node`` (its relay ``cid``): what it is sent is published to
    that node, as many frames a message as have queued up."""

    def __init__(
        self, user: int | None, name: str | None, cluster: Cluster, node: str, cid: str
    ) -> None:
        super().__init__(user, name)
        self.cluster, self.node, self.cid = cluster, node, cid
        self.pump = asyncio.create_task(self._pump(), name=f"remote-{cid}")

    async def _pump(self) -> None:
        while True:
            batch = [await self.out.get()]
            while not self.out.empty():
                batch.append(self.out.get_nowait())
            frames = [text for text in batch if text is not None]
            try:
                if frames:
                    await self.cluster.send(self.node, {"to": self.cid, "frames": frames})
                if len(frames) < len(batch):  # closed by the table: the relay asks again
                    await self.cluster.send(self.node, {"to": self.cid, "close": True})
            except (RedisError, OSError) as exc:  # lost: the relay finds the gap and asks again
                log.warning("frames for relay %s lost: %s", self.cid, exc)
            if len(frames) < len(batch):
                return


class Hosted:
    """The relayed sockets of this node's tables, by relay id. ``owned(table_id)`` is the
    table this node runs, or ``None``."""

    def __init__(self, cluster: Cluster, owned: Callable[[str], TableActor | None]) -> None:
        self.cluster = cluster
        self.owned = owned
        self.conns: dict[str, tuple[RemoteConn, TableActor]] = {}

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
                    hello = HelloData(token=None, since=None)
                conn = RemoteConn(data.get("user"), data.get("name"), self.cluster, node, cid)
                self.conns[cid] = (conn, table)
                table.submit(Hello(conn, hello))
                return
        elif (entry := self.conns.get(cid)) is not None and entry[1] is table:
            command = COMMAND.validate_python(data["d"])  # checked by the relaying node
            table.submit(Cmd(entry[0], data["v"], command))
            return
        # Not (or no longer) run here: the relay finds the table's owner again.
        self.conns.pop(cid, None)
        await self.cluster.send(node, {"to": cid, "moved": True})

    def drop(self, table: TableActor) -> None:
        """``table`` left this node: forget its relayed sockets (their relays ask again)."""
        for cid, (conn, owner) in list(self.conns.items()):
            if owner is table:
                del self.conns[cid]
                conn.close()
