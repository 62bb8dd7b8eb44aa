"""Fencing tokens (many nodes): a lease taken in Redis draws a token above every epoch the table
had, the epoch in the database is raised to it only if lower, and a write is refused unless
the table's epoch is still the writer's. So a node paused anywhere — after its last write,
after taking a lease, before raising the epoch — can never write once another node holds a
later token, and Redis losing its keys cannot hand out an old token again."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from baohuang.server.cluster.leases import Cluster
from baohuang.server.store import Append, Fenced, Store, TableRow, Work, raise_epoch
from helpers.cluster import Redis
from helpers.servers import Postgres


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path / "redis.log").start()
    yield server
    server.kill()


def playing(table_id: str, epoch: int) -> Work:
    """Write work: a table in play at ``epoch``."""

    def work(session: Session) -> None:
        row = TableRow(id=table_id, config={}, seed="s", status="playing", created=0.0, epoch=epoch)
        session.add(row)

    return work


def event(table_id: str, seq: int) -> list[dict[str, object]]:
    """An event row of ``table_id``, alone in its batch."""
    row = {"table_id": table_id, "seq": seq, "kind": "sit", "public": {}, "private": {}}
    return [row | {"secret": {}, "at": 0.0}]


def test_a_lease_draws_a_token_above_every_earlier_one(redis: Redis) -> None:
    async def check() -> None:
        one, two = Cluster(redis.url, "n1", 2.0), Cluster(redis.url, "n2", 2.0)
        try:
            first = await one.take("t1", 0)
            assert first == 1
            assert await two.take("t1", 0) is None  # held: no token
            assert await two.renew(["t1"]) == {"t1"}  # nor may another node renew it
            await one.release("t1")
            second = await two.take("t1", 0)
            assert second is not None and second > first
            # Redis restarted without its keys: the counter starts again, but never below
            # the epoch the database has.
            await one.redis.flushall()
            third = await one.take("t1", second)
            assert third is not None and third > second
        finally:
            await one.close()
            await two.close()

    asyncio.run(check())


def test_a_stale_token_neither_takes_the_table_nor_writes(database: str) -> None:
    async def check() -> None:
        store = Store(database)
        await store.start()

        try:
            await store.write(playing("t1", 1))
            await store.write(Append(event("t1", 1), fence=("t1", 1)))
            # Node B takes the table over with token 3; node A, paused since it drew token 2,
            # comes back: its takeover and any write of the first owner are refused.
            assert await store.write(raise_epoch("t1", 3)) == ({}, "s")
            assert await store.write(raise_epoch("t1", 2)) is None
            assert await store.write(raise_epoch("t1", 3)) is None  # one node per token
            with pytest.raises(Fenced):
                await store.write(Append(event("t1", 2), fence=("t1", 1)))
            with pytest.raises(Fenced):
                await store.write(Append(event("t1", 2), fence=("t1", 2)))
            await store.write(Append(event("t1", 2), fence=("t1", 3)))
            assert [row.seq for row in await store.events("t1")] == [1, 2]
            assert await store.epoch("t1") == 3
        finally:
            await store.close()

    asyncio.run(check())


def test_a_batch_stores_each_tables_rows_unless_its_own_fence_is_over(database: str) -> None:
    """Writes queued together share a transaction (one statement on PostgreSQL); a lost fence
    or a row already stored refuses that write alone, the others' rows stored whole."""

    async def check() -> None:
        store = Store(database)
        await store.start()

        def tables(session: Session) -> None:
            for name, epoch in (("a", 1), ("b", 1), ("c", 2)):
                row = TableRow(
                    id=name, config={}, seed="s", status="playing", created=0.0, epoch=epoch
                )
                session.add(row)

        def event(table: str, seq: int) -> dict[str, object]:
            private = {"0": {"hand": ["♠A", "大王"]}, "3": {"note": "明独"}}
            public = {"seat": seq % 5, "says": "接风", "cards": [1, 2.5, None, True]}
            return {
                "table_id": table,
                "seq": seq,
                "kind": "act",
                "public": public,
                "private": private,
                "secret": {"token": "x" * 3},
                "at": 1.5 * seq,
            }

        try:
            await store.write(tables)
            await store.write(Append([event("b", 1)], fence=("b", 1)))
            results = await asyncio.gather(
                store.write(Append([event("a", 1), event("a", 2)], fence=("a", 1))),
                store.write(Append([event("b", 1)], fence=("b", 1))),  # stored already
                store.write(Append([event("c", 1)], fence=("c", 1))),  # epoch 1 is over
                store.write(Append([event("c", 1)], fence=("c", 2))),
                store.write(Append([event("b", 2)])),  # one node: no fence
                return_exceptions=True,
            )
            assert results[0] is None and results[3] is None and results[4] is None
            assert not isinstance(results[1], Fenced) and isinstance(results[1], Exception)
            assert isinstance(results[2], Fenced) and "epoch 1 of table c" in str(results[2])
            for table, seqs in (("a", [1, 2]), ("b", [1, 2]), ("c", [1])):
                stored = await store.events(table)
                assert [row.seq for row in stored] == seqs
                for row in stored:
                    want = event(table, row.seq)
                    got = {"public": row.public, "private": row.private, "secret": row.secret}
                    assert got == {key: want[key] for key in got}
                    assert (row.kind, row.at) == ("act", want["at"])
        finally:
            await store.close()

    asyncio.run(check())


@pytest.mark.postgres
def test_the_writer_reconnects_after_postgresql_restarts(postgres: Postgres) -> None:
    """Every connection cut (PostgreSQL restarted at once): the next writes are stored, on a
    new connection, and the ones before are still there."""

    async def check() -> None:
        store = Store(postgres.database(f"r{uuid.uuid4().hex[:12]}"))
        await store.start()

        try:
            await store.write(playing("t", 0))
            await store.write(Append(event("t", 1), fence=("t", 0)))
            postgres.restart()
            outcomes = [
                await store.write(Append(event("t", seq), fence=("t", 0))) for seq in (2, 3)
            ]
            assert outcomes == [None, None]
            assert [row.seq for row in await store.events("t")] == [1, 2, 3]
        finally:
            await store.close()

    asyncio.run(check())
