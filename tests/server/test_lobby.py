"""The lobby in-process: tables are created, folded back from storage, and swept when idle."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from baohuang.protocol.messages import Hello as HelloData
from baohuang.protocol.messages import TableConfig
from baohuang.server import lobby as lobby_module
from baohuang.server.cluster.nodes import NodeLobby
from baohuang.server.lobby import Lobby
from baohuang.server.store import EventRow, Store, TableRow
from baohuang.server.table.mailbox import Hello
from helpers.tables import Client, Harness


def test_deserted_tables_are_swept_and_closed_and_live_ones_fold_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
        await store.start()
        lobby = Lobby(store)
        empty = await lobby.create(TableConfig(bots=4))
        kept = await lobby.create(TableConfig(bots=2, preset="weihai"))
        kept.state.watchers.add(object())  # type: ignore[arg-type]  # someone is watching
        monkeypatch.setattr(lobby_module, "IDLE_SECONDS", 0.0)
        await lobby.sweep()
        assert set(lobby.tables) == {kept.state.id}
        await lobby.close()
        # A new server process: only the live table comes back, folded from its events.
        again = Lobby(store)
        await again.recover()
        assert set(again.tables) == {kept.state.id}
        back = again.tables[kept.state.id]
        assert (
            back.state.info().seats == kept.state.info().seats
            and back.state.seq == kept.state.seq == 2
        )
        assert back.state.rules.name == "weihai" and empty.state.id not in again.tables
        await again.close()
        await store.close()

    asyncio.run(scenario())


def test_tables_that_cannot_be_loaded_are_quarantined_and_the_rest_load(tmp_path: Path) -> None:
    """An unknown option, and an action the engine now refuses: both tables are closed with a
    note for their players; the server still starts and loads the good table."""
    kit = Harness(tmp_path)
    kit.create(timer=1, bot_delay=1)
    while kit.kinds().count("game") < 3:
        kit.step()
    good = kit.actor.state.id

    def broken(session: Session) -> None:
        row = session.get(TableRow, good)
        assert row is not None
        events = list(session.scalars(select(EventRow).where(EventRow.table_id == good)))
        bad_option = {**row.config, "colour": "red"}
        for table_id, config in (("badopt", bad_option), ("badmove", row.config)):
            session.add(
                TableRow(
                    id=table_id,
                    config=config,
                    seed=row.seed,
                    status="playing",
                    created=row.created,
                    version="0.0.1",
                )
            )
            session.flush()
            for event in events:
                secret = dict(event.secret)
                if table_id == "badmove" and event.kind == "game":
                    secret["action"] = "play R R R R R R R R"  # no hand holds eight big jokers
                session.add(
                    EventRow(
                        table_id=table_id,
                        seq=event.seq,
                        kind=event.kind,
                        public=event.public,
                        private=event.private,
                        secret=secret,
                        at=event.at,
                    )
                )

    kit.run(kit.store.write(broken))
    kit.run(kit.lobby.close())
    lobby = Lobby(kit.store, kit.clock, kit.token)
    kit.run(lobby.recover())
    assert set(lobby.tables) == {good}
    assert set(lobby.closed) == {"badopt", "badmove"}
    assert "colour" in lobby.closed["badopt"] and "0.0.1" in lobby.closed["badmove"]

    async def statuses() -> dict[str, str]:
        async with kit.store.sessions() as session:
            return dict((await session.execute(select(TableRow.id, TableRow.status))).all())

    assert kit.run(statuses()) == {
        good: "playing",
        "badopt": "quarantined",
        "badmove": "quarantined",
    }
    again = Lobby(kit.store, kit.clock, kit.token)  # the notes survive another restart
    kit.run(again.recover())
    assert set(again.closed) == {"badopt", "badmove"} and set(again.tables) == {good}
    kit.run(lobby.close())
    kit.run(again.close())
    kit.close()


def test_a_socket_reaching_a_table_being_let_go_is_closed_at_once(tmp_path: Path) -> None:
    """A node letting a table go (another took it, or it failed) stops its actor: a hello
    that reaches it then closes its socket at once, so the client reconnects and finds the
    table where it runs now (14 of 14 such sockets had been left unanswered and open, their
    pages frozen); the sockets it had greeted are closed by the node's drop."""
    kit = Harness(tmp_path)
    try:
        kit.create(people=1)
        kit.run(kit.actor.stop())
        late = Client(3, "迟")
        kit.actor.submit(Hello(late.conn, HelloData(token=None, since=None, code=None)))
        assert late.conn.closed and late.conn.taken() == []  # closed, nothing said
    finally:
        kit.close()


class FlakyEvents:
    """A store's ``events`` that fails ``times`` times as a database does (a connection that
    broke), then reads as the store does."""

    def __init__(self, store: Store, times: int) -> None:
        self.read, self.times = store.events, times

    async def __call__(self, table_id: str) -> list[EventRow]:
        if self.times:
            self.times -= 1
            raise OperationalError("SELECT …", {}, ConnectionError("connection reset"))
        return await self.read(table_id)


def status_of(kit: Harness, table_id: str) -> str:
    async def read() -> str:
        async with kit.store.sessions() as session:
            row = await session.get(TableRow, table_id)
            assert row is not None
            return row.status

    return kit.run(read())


def a_table_in_play(kit: Harness) -> str:
    kit.create(timer=1, bot_delay=1)
    while kit.kinds().count("game") < 3:
        kit.step()
    kit.run(kit.lobby.close())
    return kit.actor.state.id


def test_a_database_failing_as_tables_load_quarantines_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quarantine is for a table whose events no longer fold, not for a database that failed
    while they were read: one node's start fails and tries again; the table plays on."""
    kit = Harness(tmp_path)
    table_id = a_table_in_play(kit)
    monkeypatch.setattr(kit.store, "events", FlakyEvents(kit.store, 1))
    lobby = Lobby(kit.store, kit.clock, kit.token)
    with pytest.raises(OperationalError):
        kit.run(lobby.recover())
    assert status_of(kit, table_id) == "playing" and not lobby.closed
    again = Lobby(kit.store, kit.clock, kit.token)
    kit.run(again.recover())
    assert set(again.tables) == {table_id}
    kit.run(again.close())
    kit.close()


class Leases:
    """A cluster's leases as one node sees them, with nobody else about."""

    node, lease = "n1", 5.0

    def __init__(self) -> None:
        self.released: list[str] = []
        self.renewed: set[str] = set()
        self.token = 0

    async def take(self, table_id: str, floor: int) -> int:
        self.token = max(self.token, floor) + 1
        return self.token

    async def release(self, table_id: str) -> None:
        self.released.append(table_id)

    async def renew(self, table_ids: Iterable[str]) -> set[str]:
        self.renewed.update(table_ids)
        return set()

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        return [None] * len(table_ids)

    async def list_tables(self, infos: object, rooms: object) -> None:
        pass

    async def announce(self, table_id: str) -> None:
        pass


def test_a_node_that_cannot_read_a_table_lets_it_go_for_the_next_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node taking a table over whose database fails as it reads the events lets the lease
    go, quarantining nothing (a transient failure had closed a table in play for good, its
    seats bounced between nodes); the next ask takes it."""
    kit = Harness(tmp_path)
    table_id = a_table_in_play(kit)
    monkeypatch.setattr(kit.store, "events", FlakyEvents(kit.store, 1))
    leases = Leases()
    node = NodeLobby(kit.store, leases)  # type: ignore[arg-type]
    assert kit.run(node.claim(table_id)) is None
    assert leases.released == [table_id] and not node.closed
    assert status_of(kit, table_id) == "playing"
    table = kit.run(node.claim(table_id))
    assert table is not None and table.epoch == leases.token == 2
    kit.run(table.stop())
    kit.close()


def test_a_lookup_of_an_unknown_id_leaves_no_lease_even_mid_heartbeat(tmp_path: Path) -> None:
    """The heartbeat renews the leases of the claims under way that hold one, not of those
    still reading the database: renewing takes a lapsed lease, and an unknown id looked up
    under load had been given one (a Redis key, for a lease's time)."""
    kit = Harness(tmp_path)
    leases = Leases()
    node = NodeLobby(kit.store, leases)  # type: ignore[arg-type]
    reading = asyncio.Event()
    read = kit.store.epoch

    async def slow_epoch(table_id: str) -> int | None:
        await reading.wait()
        return await read(table_id)

    kit.store.epoch = slow_epoch  # type: ignore[method-assign]

    async def scenario() -> None:
        claim = asyncio.create_task(node.claim("0badc0de"))
        await asyncio.sleep(0)  # the claim is reading the database
        await node.heartbeat()
        reading.set()
        assert await claim is None

    kit.run(scenario())
    assert "0badc0de" not in leases.renewed and leases.token == 0
    kit.close()
