"""Schema migrations (Alembic), on SQLite and a real PostgreSQL: a database of the first schema,
with a table, its events and a finished game in it, upgrades to the latest schema and keeps
them; a database made before migrations existed is recognised as the first schema."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from baohuang.cli import app
from baohuang.server.store import (
    MIGRATIONS,
    Base,
    EventRow,
    GameRow,
    LoginRow,
    ResultRow,
    Store,
    TableRow,
    UserRow,
    migrate,
    purge_guests,
)

#: The newest revision (the migrations are numbered in order).
HEAD = max(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9]*.py"))


def first_schema_with_data(connection: Connection, stamped: bool) -> None:
    """The database as a 0.1.0 server left it: the first schema, a table with its events and
    a finished game."""
    migrate(connection, "0001")
    if not stamped:  # made by create_all, before migrations existed
        connection.execute(text("DROP TABLE alembic_version"))
    connection.execute(insert(UserRow.__table__), [{"name": "张三", "created": 1.0}])
    member = {"password_hash": "x", "created": 1.0}  # one name registered twice (a race)
    connection.execute(
        insert(UserRow.__table__), [{"name": "Li", **member}, {"name": "li", **member}]
    )
    table = {"id": "t1", "config": {"preset": "classic"}, "seed": "s", "status": "playing"}
    connection.execute(insert(TableRow.__table__), [{**table, "created": 1.0}])
    event = {"table_id": "t1", "kind": "sit", "private": {}, "secret": {}, "at": 1.0}
    connection.execute(
        insert(EventRow.__table__), [{**event, "seq": 1, "public": {"seat": 0, "name": "张三"}}]
    )
    game = {"id": "t1-1-1", "table_id": "t1", "index": 0, "preset": "classic", "finished": 2.0}
    connection.execute(insert(GameRow.__table__), [{**game, "record": {"format": "x"}}])


@pytest.mark.filterwarnings("ignore:.*expression-based index")  # SQLite cannot compare them
@pytest.mark.parametrize("stamped", [True, False], ids=["first-revision", "before-alembic"])
def test_the_first_schema_upgrades_to_the_latest_and_keeps_its_rows(
    database: str, stamped: bool
) -> None:
    async def scenario() -> None:
        store = Store(database)
        async with store.engine.begin() as conn:
            await conn.run_sync(first_schema_with_data, stamped)
        await store.start()  # the server upgrades on start
        async with store.engine.connect() as conn:
            differences = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
            revision = await conn.scalar(text("SELECT version_num FROM alembic_version"))
        assert differences == [], differences
        assert revision == HEAD
        async with store.sessions() as session:
            table = await session.get(TableRow, "t1")
            assert table is not None and table.status == "playing" and table.version is None
            assert await session.scalar(select(GameRow.record)) == {"format": "x"}
            assert await session.scalar(select(EventRow.public)) == {"seat": 0, "name": "张三"}
            names = list(await session.scalars(select(UserRow.name).order_by(UserRow.id)))
            assert names == ["张三", "Li", "li#3"]  # the later duplicate renamed, kept
        member = UserRow(name="LI", name_key="li", password_hash="y", created=3.0)
        with pytest.raises(IntegrityError):  # a member's name is one account's
            async with store.sessions() as session, session.begin():
                session.add(member)
        await store.close()
        again = Store(database)  # a second start finds nothing to do
        await again.start()
        await again.close()

    asyncio.run(scenario())


def test_db_upgrade_command(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"

    async def first() -> None:
        store = Store(url)
        async with store.engine.begin() as conn:
            await conn.run_sync(first_schema_with_data, True)
        await store.close()

    asyncio.run(first())
    result = CliRunner().invoke(app, ["db", "upgrade", "--database", url])
    assert result.exit_code == 0, result.output
    assert HEAD in result.output


def qq_game_scored_by_the_old_win_rule(connection: Connection) -> None:
    """A database at revision 0004 holding a finished QQ 明保 game as the server stored it
    before R10.3's revision: the rebels "won" by QQ's tribute rule while the emperor's side
    scored +8 and +4 (the game of tests/records/rules-v2-qq.json), and a classic game."""
    migrate(connection, "0004")
    names = [{"name": f"p{i}", "created": 1.0} for i in range(5)]
    connection.execute(insert(UserRow.__table__), names)
    table = {"id": "t1", "config": {"preset": "qq"}, "seed": "s", "status": "finished"}
    connection.execute(insert(TableRow.__table__), [{**table, "created": 1.0}])
    game = {"table_id": "t1", "index": 0, "finished": 2.0, "record": {}}
    connection.execute(
        insert(GameRow.__table__),
        [{**game, "id": "t1-1-1", "preset": "qq"}, {**game, "id": "t1-1-2", "preset": "classic"}],
    )
    rows = [  # (game, seat, role, points, won as stored)
        ("t1-1-1", 0, "guard", 4, False),
        ("t1-1-1", 1, "rebel", -4, True),
        ("t1-1-1", 3, "emperor", 8, False),
        ("t1-1-2", 0, "rebel", 0, False),  # a draw
        ("t1-1-2", 1, "emperor", -4, False),
        ("t1-1-2", 2, "rebel", 2, True),
    ]
    connection.execute(
        insert(ResultRow.__table__),
        [
            {"game_id": g, "user_id": seat + 1, "seat": seat, "role": role, "points": points,
             "place": None, "won": won}
            for g, seat, role, points, won in rows
        ],
    )  # fmt: skip


def test_r10_3_stored_results_are_won_by_their_points(database: str) -> None:
    """Migration 0005: a stored QQ row says ``won`` exactly when its side's points are positive
    (R10.3 revised turn 3), so the leaderboard's win rates count old games right; rows that
    were right already (classic, a draw) stay as they were."""

    async def scenario() -> None:
        store = Store(database)
        async with store.engine.begin() as conn:
            await conn.run_sync(qq_game_scored_by_the_old_win_rule)
        await store.start()
        async with store.sessions() as session:
            rows = (
                await session.execute(
                    select(ResultRow.game_id, ResultRow.seat, ResultRow.won).order_by(ResultRow.id)
                )
            ).all()
        await store.close()
        assert [tuple(row) for row in rows] == [
            ("t1-1-1", 0, True),
            ("t1-1-1", 1, False),
            ("t1-1-1", 3, True),
            ("t1-1-2", 0, False),
            ("t1-1-2", 1, False),
            ("t1-1-2", 2, True),
        ]

    asyncio.run(scenario())


def members_alike(connection: Connection) -> None:
    """A database at revision 0005 where SQLite's ASCII-only ``lower()`` and look-alike letters
    let members share a name: Élodie twice, Alice in Latin and with a Cyrillic А; a guest
    named like a member."""
    migrate(connection, "0005")
    ascii_lower = connection.dialect.name == "sqlite"  # PostgreSQL's lower() refused this one
    rows = [
        {"name": "Élodie", "password_hash": "x"},
        {"name": "élodie" if ascii_lower else "Ëlodie", "password_hash": "x"},
        {"name": "Alice", "password_hash": "x"},
        {"name": "\u0410lice", "password_hash": "x"},  # Cyrillic А
        {"name": "ALICE", "password_hash": None},  # a guest
    ]
    connection.execute(insert(UserRow.__table__), [{**row, "created": 1.0} for row in rows])


def test_members_who_share_a_name_key_are_told_apart(database: str) -> None:
    """Migration 0006: every user gets its name key; of members alike, the later ones get
    their id appended (they keep their games), and the key is unique among members."""

    async def scenario() -> None:
        store = Store(database)
        async with store.engine.begin() as conn:
            await conn.run_sync(members_alike)
        await store.start()
        async with store.sessions() as session:
            rows = (await session.execute(select(UserRow.name, UserRow.name_key))).all()
        await store.close()
        second = "élodie" if database.startswith("sqlite") else "Ëlodie"
        assert sorted(rows) == sorted(
            [
                ("Élodie", "élodie"),
                (f"{second}#2", "élodie#2") if second == "élodie" else (second, "ëlodie"),
                ("Alice", "alice"),
                ("\u0410lice#4", "alice#4"),
                ("ALICE", "alice"),
            ]
        )

    asyncio.run(scenario())


def test_old_guests_without_games_or_sessions_are_forgotten(database: str) -> None:
    """The sweep's purge_guests: a guest made before the cut with no session since and no
    stored result goes (its old sessions too); members, recent guests, guests with a live
    session and guests with a scored game stay."""

    async def scenario() -> None:
        store = Store(database)
        await store.start()
        users = [  # (name, member, created)
            ("old", False, 1.0),
            ("old-with-session", False, 1.0),
            ("old-with-game", False, 1.0),
            ("old-member", True, 1.0),
            ("new", False, 500.0),
        ]

        def fill(session: Session) -> None:
            for name, member, created in users:
                session.add(
                    UserRow(name=name, password_hash="x" if member else None, created=created)
                )
            session.flush()
            ids = {u.name: u.id for u in session.scalars(select(UserRow))}
            session.add(LoginRow(token_hash="a" * 64, user_id=ids["old"], created=2.0))
            session.add(
                LoginRow(token_hash="b" * 64, user_id=ids["old-with-session"], created=300.0)
            )
            row = {"config": {}, "seed": "s", "status": "finished", "created": 1.0}
            session.add(TableRow(id="t1", **row))
            session.flush()  # the game refers to the table
            game = {"table_id": "t1", "index": 0, "preset": "classic", "finished": 2.0}
            session.add(GameRow(id="t1-1-1", record={}, **game))
            session.flush()
            result = {"seat": 0, "role": "rebel", "points": 2, "place": 1, "won": True}
            session.add(ResultRow(game_id="t1-1-1", user_id=ids["old-with-game"], **result))

        await store.write(fill)
        assert await store.write(purge_guests(before=100.0)) == 1
        async with store.sessions() as session:
            left = sorted(await session.scalars(select(UserRow.name)))
            logins = list(await session.scalars(select(LoginRow.token_hash)))
        await store.close()
        assert left == ["new", "old-member", "old-with-game", "old-with-session"]
        assert logins == ["b" * 64]

    asyncio.run(scenario())
