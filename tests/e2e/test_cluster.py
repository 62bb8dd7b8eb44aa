"""Many nodes on Redis and PostgreSQL: three ``baohuang serve --redis`` processes on loopback,
each table's seats spread over them, with a node killed (``kill -9``), paused past its lease
(``SIGSTOP``) and Redis restarted mid-game. Every connection's event stream must be gapless
and the same as the table's log in PostgreSQL; every game must finish."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from baohuang.server.store import MIGRATION_LOCK
from helpers.cluster import Node, Redis, Seat
from helpers.servers import Postgres, run

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: Seconds a lease lasts in these tests (the default is 5).
LEASE = 2.0


class Cluster:
    def __init__(self, postgres: Postgres, tmp: Path, nodes: int) -> None:
        self.database = postgres.database(f"c{uuid.uuid4().hex[:12]}")
        self.redis = Redis(tmp / "redis.log").start()
        self.nodes = [
            Node(self.database, self.redis, f"n{i}", tmp / f"n{i}.log", LEASE) for i in range(nodes)
        ]
        for node in self.nodes:
            node.start()

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    def owner(self, table_id: str) -> Node:
        name = self.redis.get(f"bh:lease:{table_id}")
        return next(node for node in self.nodes if node.name == name)

    def log(self, table_id: str) -> list[tuple[int, str]]:
        """The table's events in PostgreSQL: (seq, kind)."""
        rows = self.query("SELECT seq, kind FROM events WHERE table_id = $1 ORDER BY seq", table_id)
        return [(int(row["seq"]), str(row["kind"])) for row in rows]

    def epoch(self, table_id: str) -> int:
        """The table's epoch in PostgreSQL: raised by every node that takes the table."""
        return int(self.query("SELECT epoch FROM tables WHERE id = $1", table_id)[0]["epoch"])

    def query(self, sql: str, *args: Any) -> list[Any]:
        async def fetch() -> list[Any]:
            conn = await asyncpg.connect(self.database.replace("+asyncpg", ""))
            try:
                return list(await conn.fetch(sql, *args))
            finally:
                await conn.close()

        return run(fetch())

    def play(
        self,
        work: Coroutine[Any, Any, None],
        tables: list[tuple[str, list[Seat]]],
        seconds: float = 150,
    ) -> None:
        """Run ``work`` (the games) for at most ``seconds``; past that, fail with where each
        seat and table stood and the tail of each node's log: a stalled table is never a bare
        timeout."""
        try:
            run(work, seconds)
        except TimeoutError:
            raise AssertionError(self.stalled(tables, seconds)) from None

    def stalled(self, tables: list[tuple[str, list[Seat]]], seconds: float) -> str:
        lines = [f"the games did not finish in {seconds:g} s"]
        for table_id, seats in tables:
            stored = self.log(table_id)
            owner = self.redis.get(f"bh:lease:{table_id}")
            lines.append(f"table {table_id}: owner {owner}, last stored event {stored[-1:]}")
            for seat in seats:
                view = seat.view or {}
                lines.append(
                    f"  seat {seat.seat} on {seat.server}: last event {seat.events[-1:]}, "
                    f"turn {view.get('turn')}, {len(view.get('legal') or [])} legal, "
                    f"pending {seat.pending}, moves {seat.moves}"
                )
        for node in self.nodes:
            tail = node.log.read_text(errors="replace").splitlines()[-25:]
            lines += [f"--- {node.name}'s log", *tail]
        return "\n".join(lines)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.redis.kill()


@pytest.fixture
def cluster(postgres: Postgres, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(postgres, tmp_path, 3)
    yield made
    made.stop()


def guest(url: str, name: str) -> str:
    response = httpx.post(f"{url}/api/guest", json={"name": name}, timeout=10)
    response.raise_for_status()
    return f"bh_session={response.cookies['bh_session']}"


def open_table(cluster: Cluster, index: int, **config: Any) -> tuple[str, list[Seat]]:
    """A table created on node ``index``; seat s connects first to node ``index + s``."""
    urls = cluster.urls
    cookies = [guest(urls[(index + s) % len(urls)], f"节点{index}-{s}") for s in range(5)]
    settings = {"preset": "classic", "games": 1, "bots": 0, "timer": 0, "pause": 0} | config
    response = httpx.post(
        f"{urls[index % len(urls)]}/api/tables",
        json=settings,
        headers={"Cookie": cookies[0]},
        timeout=10,
    )
    response.raise_for_status()
    table_id = response.json()["id"]
    return table_id, [Seat(urls, index + s, table_id, cookies[s]) for s in range(5)]


async def seat_all(seats: list[Seat]) -> None:
    for seat in seats:  # one at a time: each takes the next free seat
        await seat.open()
        await seat.join()


async def play_all(seats: list[Seat], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    try:
        await asyncio.gather(*(seat.play(deadline) for seat in seats))
    finally:
        await asyncio.gather(*(seat.close() for seat in seats))


def check_streams(cluster: Cluster, table_id: str, seats: list[Seat]) -> None:
    """Each seat's events: from its first snapshot to ``match_over``, every event of the
    stored log once, in order, each view its own seat's."""
    stored = cluster.log(table_id)
    kinds = [kind for _, kind in stored]
    assert "match_over" in kinds
    stored = stored[: kinds.index("match_over") + 1]
    for seat in seats:
        assert seat.start is not None
        got = [(seq, kind) for seq, kind, _ in seat.events]
        assert got == stored[seat.start :], (
            seat.seat,
            got[:5],
            stored[seat.start : seat.start + 5],
        )
        assert {view for *_, view in seat.events} <= {seat.seat, None}


def test_seats_spread_over_three_nodes_play_whole_matches(cluster: Cluster) -> None:
    tables = [open_table(cluster, index) for index in range(3)]
    for _, seats in tables:
        run(seat_all(seats))
    owners = {cluster.owner(table_id).name for table_id, _ in tables}
    assert owners == {"n0", "n1", "n2"}  # each table on the node it was created on

    async def games() -> None:
        await asyncio.gather(*(play_all(s, 120) for _, s in tables))

    cluster.play(games(), tables)
    for table_id, seats in tables:  # three of each table's seats were relayed
        check_streams(cluster, table_id, seats)


def test_kill_9_of_the_owner_mid_game_loses_nothing(cluster: Cluster) -> None:
    table_id, seats = open_table(cluster, 0, games=2)
    run(seat_all(seats))
    owner = cluster.owner(table_id)

    async def kill_midway() -> None:
        while len(seats[1].events) < 40:
            await asyncio.sleep(0.05)
        owner.kill()

    async def game() -> None:
        await asyncio.gather(play_all(seats, 120), kill_midway())

    cluster.play(game(), [(table_id, seats)])
    survivor = cluster.owner(table_id)
    assert survivor is not owner
    assert survivor.metric("baohuang_takeovers_total") >= 1
    check_streams(cluster, table_id, seats)
    # The dead node's seats came back through another node; the others never noticed.
    moved = {seat.seat: seat.moves for seat in seats}
    assert sum(moved.values()) >= 1, moved


def test_a_paused_node_is_fenced_and_lets_its_tables_go(cluster: Cluster) -> None:
    table_id, seats = open_table(cluster, 0, games=2)
    run(seat_all(seats))
    owner = cluster.owner(table_id)

    async def pause_midway() -> None:
        while len(seats[1].events) < 30:
            await asyncio.sleep(0.05)
        owner.pause()
        await asyncio.sleep(LEASE * 2.5)  # its lease lapses; another node takes over
        owner.resume()

    async def game() -> None:
        await asyncio.gather(play_all(seats, 120), pause_midway())

    cluster.play(game(), [(table_id, seats)])
    taker = cluster.owner(table_id)
    assert taker is not owner
    # Back from its pause, the old owner found the table taken (its renewal refused, or its
    # write refused by the epoch) and stopped running it.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        stopped = owner.metric("baohuang_leases_lost_total") + owner.metric(
            "baohuang_fenced_writes_total"
        )
        if stopped >= 1:
            break
        time.sleep(0.2)
    assert stopped >= 1
    check_streams(cluster, table_id, seats)


def test_redis_restarted_mid_game_the_games_go_on(cluster: Cluster) -> None:
    tables = [open_table(cluster, index) for index in range(2)]
    for _, seats in tables:
        run(seat_all(seats))

    async def restart_midway() -> None:
        # Down for half a lease, then for longer than a lease: every key is lost each time.
        for events, down in ((30, LEASE / 2), (60, LEASE * 1.5)):
            while len(tables[0][1][1].events) < events:
                await asyncio.sleep(0.05)
            cluster.redis.kill()
            await asyncio.sleep(down)
            cluster.redis.start()

    async def games() -> None:
        await asyncio.gather(*(play_all(s, 120) for _, s in tables), restart_midway())

    epochs = [cluster.epoch(table_id) for table_id, _ in tables]
    cluster.play(games(), tables)
    for (table_id, seats), epoch in zip(tables, epochs, strict=True):
        check_streams(cluster, table_id, seats)
        # The owners took their leases again before anyone took their tables as free ones:
        # no table moved (a node taking it raises its epoch), no socket had to. (Who holds
        # the lease now says nothing: a finished table's owner lets it go.)
        assert cluster.epoch(table_id) == epoch
        assert [seat.moves for seat in seats] == [0] * 5


def test_a_node_paused_while_taking_a_table_over_cannot_take_it_back(cluster: Cluster) -> None:
    """The owner is paused; the node that takes its lease is paused in turn (perhaps before it
    raised the table's epoch), and a third takes over. Back from their pauses, neither fences
    the table's new owner (their tokens are older): every game finishes."""
    table_id, seats = open_table(cluster, 0, games=2)
    run(seat_all(seats))
    owner = cluster.owner(table_id)

    async def two_pauses() -> None:
        while len(seats[1].events) < 30:
            await asyncio.sleep(0.05)
        owner.pause()
        while (held := cluster.redis.get(f"bh:lease:{table_id}")) in (None, owner.name):
            await asyncio.sleep(0.01)
        taker = next(node for node in cluster.nodes if node.name == held)
        taker.pause()
        await asyncio.sleep(LEASE * 2)
        taker.resume()
        await asyncio.sleep(LEASE)
        owner.resume()

    async def game() -> None:
        await asyncio.gather(play_all(seats, 120), two_pauses())

    cluster.play(game(), [(table_id, seats)])
    check_streams(cluster, table_id, seats)


def test_lookups_of_unknown_tables_write_nothing(postgres: Postgres, tmp_path: Path) -> None:
    """Ids that name no table (well formed or not), asked for over HTTP and WebSocket without
    a login, leave no lease or epoch in Redis: each was a permanent key before (+29.6 MB of
    Redis in 20 s from one client); a real table still is found and leased."""
    one = Cluster(postgres, tmp_path, 1)
    try:
        url = one.urls[0]
        ids = [uuid.uuid4().hex[:8] for _ in range(60)] + ["x" * 40, "../etc", "ABCDEF12"]
        with httpx.Client(timeout=10) as http:
            for table_id in ids:
                assert http.get(f"{url}/api/tables/{table_id}").status_code == 404

        async def sockets() -> None:
            for table_id in ids[:20]:
                seat = Seat([url], 0, table_id, "")
                await seat.open()
                with contextlib.suppress(Exception):
                    await seat.join()
                await seat.close()

        run(sockets(), 60)
        assert one.redis.count("bh:lease:*") == one.redis.count("bh:epoch:*") == 0
        table_id, _ = open_table(one, 0)
        assert httpx.get(f"{url}/api/tables/{table_id}", timeout=10).status_code == 200
        assert one.redis.count("bh:lease:*") == 1
    finally:
        one.stop()


def test_nodes_starting_together_migrate_one_at_a_time(postgres: Postgres, tmp_path: Path) -> None:
    """Nodes started together on an empty database raced to create its tables (1–2 of 3
    failed to start): each now migrates under one PostgreSQL advisory lock. While another
    holds it a node waits, unready; once it is let go, three nodes started at once all
    start."""
    database = postgres.database(f"e{uuid.uuid4().hex[:12]}")
    redis = Redis(tmp_path / "redis.log").start()
    nodes = [Node(database, redis, f"n{i}", tmp_path / f"n{i}.log", LEASE) for i in range(3)]

    released: list[float] = []

    async def hold(seconds: float) -> None:
        conn = await asyncpg.connect(database.replace("+asyncpg", ""))
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            await asyncio.sleep(seconds)
        finally:
            released.append(time.monotonic())
            await conn.close()

    def start(node: Node) -> float:
        node.start()  # raises if its server exits
        return time.monotonic()

    try:
        with ThreadPoolExecutor(4) as pool:
            held = pool.submit(run, hold(15.0), 40)
            time.sleep(0.5)
            ready = list(pool.map(start, nodes))
            held.result()
        assert min(ready) > released[0]  # none was ready while the lock was held
        for node in nodes:
            assert httpx.get(f"{node.url}/api/presets", timeout=5).status_code == 200
    finally:
        for node in nodes:
            node.stop()
        redis.kill()


@pytest.fixture
def two_nodes(postgres: Postgres, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(postgres, tmp_path, 2)
    yield made
    made.stop()


def test_a_table_goes_to_the_node_its_sockets_reach(two_nodes: Cluster) -> None:
    """A table made on n0 whose person's socket reaches n1 (as a balancer hashing on the
    table id sends it): n0 hands the table to n1, whose relay then closes that socket; the
    person comes back to n1, served there without relaying, and the match plays to its end
    with a gapless stream."""
    n0, n1 = two_nodes.nodes
    cookie = guest(n1.url, "远方")
    settings = {"games": 1, "bots": 4, "timer": 0, "pause": 0, "bot_delay": 0}
    response = httpx.post(
        f"{n0.url}/api/tables", json=settings, headers={"Cookie": cookie}, timeout=10
    )
    response.raise_for_status()
    table_id = response.json()["id"]
    assert two_nodes.owner(table_id) is n0
    first = Seat([n1.url], 0, table_id, cookie)

    async def arrive() -> None:
        await first.open()
        await first.hello()
        await first.until("snapshot")

    async def closed_by_the_server() -> bool:
        try:
            await asyncio.wait_for(first.until("never"), 30)
        except ConnectionClosed:
            return True
        return False

    run(arrive())
    assert n1.metric("baohuang_relayed_sockets") == 1
    assert run(closed_by_the_server())  # its table came to n1: come back directly
    assert two_nodes.owner(table_id) is n1
    assert n0.metric("baohuang_handoffs_total") == 1
    seat = Seat([n1.url], 0, table_id, cookie)
    run(seat_all([seat]))
    two_nodes.play(play_all([seat], 120), [(table_id, [seat])])
    assert two_nodes.owner(table_id) is n1
    assert n1.metric("baohuang_relays_total") == 1
    assert n1.metric("baohuang_relayed_sockets") == 0
    check_streams(two_nodes, table_id, [seat])
