"""One node of many (节点): the lobby of a server that shares its tables with other nodes.

Each table runs on one node at a time, the one holding its lease (:mod:`.cluster`); taking a
table raises its epoch in PostgreSQL, the fence of every write (:class:`.store.Append`). A
socket on a node that does not run its table is relayed to the node that does
(:mod:`.relay`, :mod:`.remote`). Every second or so a node renews its leases, drops the tables
another node holds now, publishes its tables to the lobby directory, and takes over the
tables in play whose lease lapsed (their node died): it folds them from their events and they
go on, timers and 托管 included.

A table whose sockets all reach one other node (a balancer hashing on the table id sends them
there: deploy/nginx.conf) is handed to that node (:meth:`NodeLobby._hand_over`): relays then
carry a table's sockets only while it moves, and a node spends on each command what one node
alone would.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import orjson
from redis.exceptions import RedisError

from ...protocol.messages import TableConfig
from .. import metrics
from ..admission import Admission
from ..botpool import BotPool
from ..connection import Conn
from ..lobby import (
    IDLE_SECONDS,
    STORE_ERRORS,
    Lobby,
    closing,
    is_table_id,
    listed,
    quarantine_note,
    room_code,
)
from ..refusals import AccountError
from ..store import Store, raise_epoch
from ..table.actor import TableActor
from ..table.mailbox import Target
from .leases import LEASE_SECONDS, Cluster
from .relay import Relays
from .remote import Hosted, RemoteConn

log = logging.getLogger("baohuang.server")

#: Seconds after a relay's hello before the owner looks whether to hand the table over.
HANDOFF_AFTER = 1.0


@dataclass(frozen=True, slots=True)
class Node:
    """How this node joins the others: Redis's URL, its name, the lease in seconds."""

    redis: str
    name: str
    lease: float = LEASE_SECONDS

    def lobby(
        self, store: Store, pool: BotPool | None = None, admission: Admission | None = None
    ) -> NodeLobby:
        cluster = Cluster(self.redis, self.name, self.lease)
        return NodeLobby(store, cluster, pool, admission)


class NodeLobby(Lobby):
    """The lobby of one node of many (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        cluster: Cluster,
        pool: BotPool | None = None,
        admission: Admission | None = None,
    ) -> None:
        super().__init__(store, pool=pool, admission=admission)
        self.cluster = cluster
        self.hosted = Hosted(cluster, self.owned, self._relayed)
        self.relays = Relays(cluster, self.resolve)
        #: Tables being taken over, by id (a claim never holds the heartbeat up).
        self.claiming: dict[str, asyncio.Task[TableActor | None]] = {}
        #: The claims that hold their table's lease: the heartbeat renews it while they load
        #: (not before: renewing takes a lapsed lease, and an unknown id gets none).
        self._leased: set[str] = set()
        #: What was last written to the directory, by table.
        self._listed: dict[str, bytes] = {}
        #: No taking tables that look free before this (monotonic seconds; _hold_claims).
        self._adopt_after = 0.0
        #: Tables handed to another node, and until when this one does not adopt them.
        self._handed: dict[str, float] = {}
        #: Handoff checks under way.
        self._handoffs: set[asyncio.Task[None]] = set()

    @property
    def node(self) -> str:
        return self.cluster.node

    async def recover(self) -> None:
        """Join the others: listen, and keep the quarantine notes; tables in play come with
        the first heartbeat (whichever node takes them first runs them)."""
        for row in await self.store.table_rows(("quarantined",)):
            self.closed[row.id] = row.note or ""
        self.cluster.listen(self._message, self.relays.claimed, self._redis_back)
        await asyncio.wait_for(self.cluster.subscribed.wait(), self.cluster.lease)

    def _hold_claims(self) -> None:
        """Redis failed or came back (perhaps without its keys): for one lease, take no
        table that looks free, so that their owners renew (take again) their leases first."""
        self._adopt_after = time.monotonic() + self.cluster.lease

    async def _redis_back(self, data: dict[str, Any]) -> None:
        self._hold_claims()
        await self.relays.lost(data)

    async def _message(self, data: dict[str, Any]) -> None:
        if "relays" in data or "moved" in data:
            await self.relays.deliver(data)
        else:
            await self.hosted.handle(data)

    def owned(self, table_id: str) -> TableActor | None:
        table = self.tables.get(table_id)
        return None if table is None or table.broken else table

    async def _own_new(self, table_id: str) -> int | None:
        token = await self.cluster.take(table_id, 0)  # a new random id: nobody holds it
        if token is None:
            raise RuntimeError(f"table id {table_id} is taken")
        metrics.TAKEOVERS.inc()
        return token

    # ------------------------------------------------------------------ taking tables

    async def claim(self, table_id: str) -> TableActor | None:
        """Run ``table_id`` here if no node does and it is live; the table, or ``None``. A
        claim already under way here is waited for, not made twice."""
        if (table := self.owned(table_id)) is not None:
            return table
        return await asyncio.shield(self._claiming(table_id))

    def _claiming(self, table_id: str) -> asyncio.Task[TableActor | None]:
        """The claim of ``table_id`` under way, started if there is none."""
        task = self.claiming.get(table_id)
        if task is None:
            task = asyncio.create_task(self._claim(table_id), name=f"claim-{table_id}")
            self.claiming[table_id] = task
            task.add_done_callback(lambda _: self._claimed(table_id, task))
        return task

    def _claimed(self, table_id: str, task: asyncio.Task[TableActor | None]) -> None:
        self.claiming.pop(table_id, None)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("node %s: claiming table %s failed: %s", self.node, table_id, exc)

    async def _claim(self, table_id: str) -> TableActor | None:
        floor = await self.store.epoch(table_id)
        if floor is None:  # unknown or over: nothing is written for it, in Redis or here
            return None
        epoch = await self.cluster.take(table_id, floor)
        if epoch is None:
            return None
        self._leased.add(table_id)
        try:
            return await self._take(table_id, epoch)
        finally:
            self._leased.discard(table_id)

    async def _take(self, table_id: str, epoch: int) -> TableActor | None:
        """Run ``table_id`` here under the lease just taken with fencing token ``epoch``."""
        try:
            taken = await self.store.write(raise_epoch(table_id, epoch))
        except Exception:  # the database failed (or its lock timed out): let it go
            log.exception("node %s could not take table %s", self.node, table_id)
            await self.cluster.release(table_id)
            return None
        if taken is None:  # finished, closed or unknown, or a later token took it
            await self.cluster.release(table_id)
            return None
        config, seed = taken
        try:
            table = await self._load(table_id, TableConfig(**config), seed, epoch)
        except STORE_ERRORS:  # the database failed, not the table: the next ask takes it
            log.exception("node %s could not read table %s", self.node, table_id)
            self.tables.pop(table_id, None)
            await self.cluster.release(table_id)
            return None
        except Exception as exc:  # as in recover: the others still load
            log.exception("table %s cannot be loaded; quarantined", table_id)
            self.tables.pop(table_id, None)
            self.closed[table_id] = note = quarantine_note(None, exc)
            await self.store.write(closing(table_id, "quarantined", note))
            await self.cluster.release(table_id)
            return None
        if await self.cluster.renew([table_id]):  # the load outlasted the lease: fenced
            log.warning("node %s: table %s was taken while it loaded", self.node, table_id)
            await self._drop(table_id, release=False)
            return None
        metrics.TAKEOVERS.inc()
        log.info("node %s runs table %s (epoch %d)", self.node, table_id, epoch)
        await self.cluster.announce(table_id)
        return table

    async def resolve(self, table_id: str) -> str | None:
        """The node that runs ``table_id`` (this one, if nobody did); ``None``: not live."""
        if self.owned(table_id) is not None:
            return self.node
        while (owner := await self.cluster.owner(table_id)) is None and (
            time.monotonic() < self._adopt_after
        ):
            await asyncio.sleep(0.1)  # the owner may be about to take its lease again
        if owner is not None:
            return owner
        if await self.claim(table_id) is not None:
            return self.node
        return await self.cluster.owner(table_id)

    async def get(self, table_id: str) -> TableActor | None:
        """The table if this node runs it; one that failed (or was fenced) is let go, and
        whichever node asks for it next takes it from the database."""
        table = self.tables.get(table_id)
        if table is not None and _failed(table):
            await self._drop(table_id, release=True)
            return None
        return table

    async def _drop(self, table_id: str, release: bool, unlist: bool = False) -> None:
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        await table.stop()
        self.hosted.drop(table)
        for conn in table._all_conns():
            conn.close()  # local sockets reconnect (and are relayed to the new node)
        self._listed.pop(table_id, None)
        if release:
            await self.cluster.release(table_id)
        if unlist:
            await self.cluster.unlist(table_id, table.state.code)

    # ------------------------------------------------------------------ sockets come home

    def _relayed(self, table: TableActor) -> None:
        """A relay said hello to ``table``: look again in :data:`HANDOFF_AFTER` s (the
        table's own sockets have said hello by then) whether to hand it over."""
        asyncio.get_running_loop().call_later(HANDOFF_AFTER, self._look_again, table)

    def _look_again(self, table: TableActor) -> None:
        task = asyncio.create_task(self._hand_over(table), name=f"handoff-{table.state.id}")
        self._handoffs.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(self._handoffs.discard)

    async def _hand_over(self, table: TableActor) -> None:
        """Let ``table`` go to the one node whose relays hold all its sockets (a balancer
        that hashes on the table id sends them all there): that node takes it from the
        database when its relays ask again, and closes their sockets, which come back to it
        directly. A table with a socket of its own here, or sockets from several nodes,
        stays."""
        if self.owned(table.state.id) is not table or table.state.id in self.claiming:
            return
        nodes = self.hosted.nodes_of(table)
        local = [c for c in table._all_conns() if not isinstance(c, RemoteConn) and not c.closed]
        if local or len(nodes) != 1:
            return
        (to,) = nodes
        metrics.HANDOFFS.inc()
        log.info(
            "node %s hands table %s to %s, where its sockets are", self.node, table.state.id, to
        )
        self._handed[table.state.id] = time.monotonic() + self.cluster.lease * 2
        await self._drop(table.state.id, release=True)

    def _holding_back(self, table_id: str) -> bool:
        """Whether this node handed ``table_id`` over a moment ago (and so does not adopt it
        while its new node takes it)."""
        until = self._handed.get(table_id)
        if until is not None and until < time.monotonic():
            del self._handed[table_id]
            return False
        return until is not None

    # ------------------------------------------------------------------ what the app asks

    async def route(self, table_id: str, conn: Conn) -> Target | None:
        if not is_table_id(table_id):  # no lookup, no lease for a malformed id
            return None
        table = await self.get(table_id)
        if table is not None:
            return table
        owner = await self.resolve(table_id)
        if owner is None:
            return None
        if owner == self.node and (table := self.owned(table_id)) is not None:
            return table
        return self.relays.open(table_id, owner, conn)

    async def public_tables(self) -> list[dict[str, Any]]:
        return [info for info in await self.cluster.directory() if listed(info)]

    async def describe(self, table_id: str) -> dict[str, Any] | None:
        if not is_table_id(table_id):
            return None
        if (table := self.owned(table_id)) is not None:
            return table.state.info().model_dump()
        listed = await self.cluster.listed(table_id)
        if listed is not None:
            return listed
        owner = await self.resolve(table_id)
        table = self.owned(table_id) if owner == self.node else None
        return table.state.info().model_dump() if table else None

    async def find_room(self, code: str) -> str:
        wanted = room_code(code)
        table_id = await self.cluster.room(wanted)
        if table_id is None:
            raise AccountError(404, "not_found", "error.room.not_found", code=wanted)
        return table_id

    # ------------------------------------------------------------------ the heartbeat

    def background(self) -> list[Coroutine[Any, Any, None]]:
        return [*super().background(), self.heartbeat_forever()]

    async def heartbeat_forever(self) -> None:
        every = min(1.0, self.cluster.lease / 3)
        while True:
            await asyncio.sleep(every * random.uniform(0.8, 1.0))
            try:
                await self.heartbeat()
            except Exception as exc:  # the heartbeat never stops: the next one tries again
                unexpected = not isinstance(exc, RedisError | OSError)
                log.warning("node %s: heartbeat failed: %s", self.node, exc, exc_info=unexpected)
                self._hold_claims()

    async def heartbeat(self) -> None:
        """Renew the leases (let go of the tables another node holds now), list the tables,
        set relays right, take over the tables in play that nobody runs."""
        await self._let_failed_go()
        lost = await self.cluster.renew([*self.tables, *self._leased])
        for table_id in lost & set(self.tables):
            metrics.LEASES_LOST.inc()
            log.warning("node %s: table %s is run by another node now", self.node, table_id)
            await self._drop(table_id, release=False)
        await self._list()
        await self.relays.check()
        if time.monotonic() >= self._adopt_after:
            await self._adopt()

    async def _list(self) -> None:
        infos, rooms = {}, {}
        for table_id, table in list(self.tables.items()):
            info = orjson.dumps(table.state.info().model_dump())
            if self._listed.get(table_id) != info:
                infos[table_id] = self._listed[table_id] = info
                if table.state.code is not None:
                    rooms[table.state.code] = table_id
        await self.cluster.list_tables(infos, rooms)

    async def _adopt(self) -> None:
        """Take the tables in play whose node stopped renewing their lease."""
        ids = await self.store.live_ids("playing")
        owners = await self.cluster.owners(ids)
        orphans = [
            t
            for t, owner in zip(ids, owners, strict=True)
            if owner is None and not self._holding_back(t)
        ]
        random.shuffle(orphans)  # nodes taking over at the same moment share them
        for table_id in orphans:
            self._claiming(table_id)  # not waited for: the heartbeat goes on while they load

    async def _let_failed_go(self) -> None:
        """Tables whose actor failed or was fenced: their lease goes too, for the node that
        asks for them next (or the heartbeat's adoption) to take them from the database."""
        for table_id, table in list(self.tables.items()):
            if _failed(table):
                await self._drop(table_id, release=True)

    async def sweep(self) -> None:
        """Let idle deserted tables go (their lease and listing too); tables whose actor
        died are let go for the next node that asks to take them."""
        await self._let_failed_go()
        for table_id, table in list(self.tables.items()):
            if table.state.deserted and table.clock.now() - table.touched > IDLE_SECONDS:
                await self._drop(table_id, release=True, unlist=True)
                if table.state.status == "waiting":
                    await self.store.write(closing(table_id, "closed"))

    async def close(self) -> None:
        for task in list(self.claiming.values()):
            task.cancel()
        for table_id in list(self.tables):
            await self._drop(table_id, release=True)
        self.hosted.close()
        await self.cluster.close()


def _failed(table: TableActor) -> bool:
    """The table's actor failed, was fenced, or ended."""
    return table.broken or (table.task is not None and table.task.done())
