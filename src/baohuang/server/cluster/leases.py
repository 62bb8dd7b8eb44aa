"""Many nodes (集群): what server nodes share through Redis (``serve --redis``).

PostgreSQL stays the truth (each table's event log); Redis holds what the nodes share:

- **ownership**: ``bh:lease:{table}`` holds the name of the node that runs the table and lapses
  ``lease`` seconds after its last renewal. Taking a free lease draws a fencing token from
  ``bh:epoch:{table}`` (atomically, never below the epoch PostgreSQL has: Redis may have lost
  its counter); the node then raises the table's epoch in PostgreSQL to its token, only if the
  epoch is lower. Every write carries that epoch (:class:`.store.Append`'s ``fence``), so a
  node that lost the table (paused, cut off, or paused between taking the lease and raising
  the epoch) can write nothing more: at most one node holds each epoch;
- **the lobby directory**: ``bh:tables`` (id → the table's public info) and ``bh:rooms``
  (room code → id), written by each table's owner;
- **messages between nodes**, over pub/sub: each node listens on ``bh:node:{name}`` (commands
  forwarded to the tables it runs, frames for the sockets it relays, :mod:`.relay`), and every
  node on ``bh:claims`` (a table has a new owner).

Pub/sub rather than streams: every frame carries its sequence number and PostgreSQL keeps
every event, so a relay that misses frames (Redis restarted, a node died) says hello to the
owner again with the last sequence number it passed on and is sent exactly what it missed; a
stream would keep a second durable copy of every frame in Redis's memory for nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

log = logging.getLogger("baohuang.server")

#: Seconds a lease lasts without renewal: a dead node's tables move after at most this.
LEASE_SECONDS = 5.0
#: The public directory of every node's tables, and the friends' tables' room codes.
DIRECTORY = "bh:tables"
ROOMS = "bh:rooms"
#: The channel on which every node hears of a table's new owner.
CLAIMS = "bh:claims"

#: Take a free lease and draw the next fencing token (above ARGV[3], PostgreSQL's epoch);
#: nil when another node holds the lease.
TAKE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local token = redis.call('INCR', KEYS[2])
  local floor = tonumber(ARGV[3])
  if token <= floor then
    token = floor + 1
    redis.call('SET', KEYS[2], token)
  end
  return token
end
return false
"""
#: Renew a lease held by this node, or take it again if it lapsed (or Redis lost it in a
#: restart); refuse if another node holds it.
RENEW = """
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
#: Give a lease up, only if this node holds it.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

#: Handles one message a node was sent.
Handler = Callable[[dict[str, Any]], Awaitable[None]]


def lease_key(table_id: str) -> str:
    return f"bh:lease:{table_id}"


def epoch_key(table_id: str) -> str:
    return f"bh:epoch:{table_id}"


def node_channel(node: str) -> str:
    return f"bh:node:{node}"


class Cluster:
    """This node's link to the others (see the module docstring)."""

    def __init__(self, url: str, node: str, lease: float = LEASE_SECONDS) -> None:
        # One retry at once, on a new connection (a pooled one may be from before Redis
        # restarted), and no backoff: redis-py's default sleeps up to 14 s between retries,
        # which would hold a renewal past its lease; the heartbeat tries again every third
        # of a lease, and relays ask again, on their own.
        retry = Retry(NoBackoff(), 1)
        self.redis: Redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=lease,
            socket_connect_timeout=lease,
            retry=retry,
        )
        #: The subscriptions' own connection: it waits for messages as long as there are none
        #: (a lost Redis closes it; keepalive finds a silent one gone).
        self._subscriber: Redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=lease,
            socket_keepalive=True,
            retry=retry,
        )
        self.node = node
        self.lease = lease
        self._take = self.redis.register_script(TAKE)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._listener: asyncio.Task[None] | None = None
        #: Set while this node is subscribed to its channels.
        self.subscribed = asyncio.Event()

    @property
    def ttl_ms(self) -> int:
        return int(self.lease * 1000)

    # ------------------------------------------------------------------ leases

    async def take(self, table_id: str, floor: int) -> int | None:
        """Take the lease of ``table_id`` if nobody holds it: a fencing token above
        ``floor`` (the table's epoch in PostgreSQL), or ``None``."""
        token = await self._take(
            keys=[lease_key(table_id), epoch_key(table_id)], args=[self.node, self.ttl_ms, floor]
        )
        return None if token is None else int(token)

    async def owner(self, table_id: str) -> str | None:
        """The node that holds ``table_id``'s lease, if any."""
        owner: str | None = await self.redis.get(lease_key(table_id))
        return owner

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        owners: list[str | None] = await self.redis.mget([lease_key(t) for t in table_ids])
        return owners

    async def renew(self, table_ids: Iterable[str]) -> set[str]:
        """Renew this node's leases of ``table_ids``; those another node holds now."""
        ids = list(table_ids)
        if not ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in ids:
                await self._renew(
                    keys=[lease_key(table_id)], args=[self.node, self.ttl_ms], client=pipe
                )
            held = await pipe.execute()
        return {table_id for table_id, ok in zip(ids, held, strict=True) if not ok}

    async def release(self, table_id: str) -> None:
        await self._release(keys=[lease_key(table_id)], args=[self.node])

    # ------------------------------------------------------------------ the directory

    async def list_tables(self, infos: dict[str, bytes], rooms: dict[str, str]) -> None:
        """Write ``infos`` (id → public info as JSON) and ``rooms`` (code → id)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            if infos:
                pipe.hset(DIRECTORY, mapping=infos)
            if rooms:
                pipe.hset(ROOMS, mapping=rooms)
            await pipe.execute()

    async def unlist(self, table_id: str, code: str | None) -> None:
        await self.redis.hdel(DIRECTORY, table_id)  # type: ignore[misc]  # redis-py's union
        if code is not None:
            await self.redis.hdel(ROOMS, code)  # type: ignore[misc]

    async def directory(self) -> list[dict[str, Any]]:
        """Every listed table's public info."""
        rows: dict[str, str] = await self.redis.hgetall(DIRECTORY)  # type: ignore[misc]
        return [orjson.loads(text) for text in rows.values()]

    async def listed(self, table_id: str) -> dict[str, Any] | None:
        text: str | None = await self.redis.hget(DIRECTORY, table_id)  # type: ignore[misc]
        return orjson.loads(text) if text else None

    async def room(self, code: str) -> str | None:
        """The id of the table whose room code is ``code``."""
        table_id: str | None = await self.redis.hget(ROOMS, code)  # type: ignore[misc]
        return table_id

    # ------------------------------------------------------------------ messages

    async def send(self, node: str, payload: dict[str, Any]) -> int:
        """Publish ``payload`` on ``node``'s channel; how many heard it (0: not listening)."""
        heard: int = await self.redis.publish(node_channel(node), orjson.dumps(payload))
        return heard

    async def announce(self, table_id: str) -> None:
        """Tell every node that this node runs ``table_id`` now."""
        await self.redis.publish(CLAIMS, orjson.dumps({"table": table_id, "node": self.node}))

    def listen(self, on_node: Handler, on_claim: Handler, on_resubscribed: Handler) -> None:
        """Hand each message on this node's channel to ``on_node`` and each claim to
        ``on_claim``; after a lost connection, subscribe again and call ``on_resubscribed``
        (frames sent meanwhile were lost)."""
        self._listener = asyncio.create_task(
            self._listen(on_node, on_claim, on_resubscribed), name="cluster-listener"
        )

    async def _listen(self, on_node: Handler, on_claim: Handler, on_resubscribed: Handler) -> None:
        own, heard = node_channel(self.node), False
        while True:
            pubsub = self._subscriber.pubsub()
            try:
                await pubsub.subscribe(own, CLAIMS)
                async for message in pubsub.listen():
                    if message["type"] == "subscribe" and message["channel"] == own:
                        # redis-py subscribes again by itself after a lost connection: what
                        # was sent meanwhile is lost, so the relays ask again.
                        if heard:
                            log.warning("node %s: Redis is back; relays ask again", self.node)
                            await on_resubscribed({})
                        heard = True
                        self.subscribed.set()
                    if message["type"] != "message":
                        continue
                    data = orjson.loads(message["data"])
                    handler = on_claim if message["channel"] == CLAIMS else on_node
                    try:
                        await handler(data)
                    except Exception:
                        log.exception("node %s: a cluster message failed", self.node)
            except Exception as exc:  # the listener never stops: a deaf node stalls its relays
                self.subscribed.clear()
                unexpected = not isinstance(exc, RedisError | OSError)
                log.warning(
                    "node %s: Redis connection lost (%s); retrying",
                    self.node,
                    exc,
                    exc_info=unexpected,
                )
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        await self.redis.aclose()
        await self._subscriber.aclose()
