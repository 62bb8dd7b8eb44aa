"""Storage (存储): SQLAlchemy 2 async over SQLite (default) or PostgreSQL (asyncpg).

Each table's events are rows ``(table_id, seq)`` holding the public data, each seat's private
data and a server-only ``secret`` (the action applied, the command id, a seat token's hash);
the table's state is a fold over them (:mod:`baohuang.server.table.actor`). Writes go through one
writer task that commits whatever has queued up in one transaction (group commit), so a
table's event is on disk before anyone hears of it, at thousands of events a second. On
PostgreSQL a batch of event rows alone (most batches) is one statement on the writer's own
asyncpg connection (:data:`APPEND_FENCED`): a fifth to a third of a node's CPU had gone to the
ORM session's four round trips (bench/cluster.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from . import metrics
from .settings import DEFAULT_DATABASE

#: Plain URLs get the async driver.
_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON}


class UserRow(Base):
    __tablename__ = "users"
    #: A registered (member's) name is one account's, whatever its letter case or look-alike
    #: letters (:func:`~baohuang.server.names.name_key`).
    __table_args__ = (
        Index(
            "uq_users_member_key",
            "name_key",
            unique=True,
            sqlite_where=text("password_hash IS NOT NULL"),
            postgresql_where=text("password_hash IS NOT NULL"),
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    #: :func:`~baohuang.server.names.name_key` of ``name`` (``None`` only before migration
    #: 0006 filled it).
    name_key: Mapped[str | None] = mapped_column(String(120))
    #: argon2 hash; ``None`` for a guest.
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)


class LoginRow(Base):
    """A login session (its cookie's token), not an ORM ``Session``."""

    __tablename__ = "sessions"
    #: sha256 of the cookie's token: a stolen database opens no session.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(64))
    #: waiting, playing, finished, closed or quarantined (only waiting and playing ones load
    #: after a restart).
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[float] = mapped_column(Float)
    #: The engine version the table started under (``None``: before versions were kept).
    version: Mapped[str | None] = mapped_column(String(40))
    #: Why a table was quarantined (it could not be loaded), for its players.
    note: Mapped[str | None] = mapped_column(String(400))
    #: Raised each time a node takes the table over (many nodes): the fence of its writes.
    epoch: Mapped[int] = mapped_column(Integer, server_default="0")


class EventRow(Base):
    __tablename__ = "events"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    public: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Per seat (keys "0".."4"), the fields only that seat sees.
    private: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Never sent to anyone: what the server needs to fold the log again.
    secret: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


EVENTS = cast(Table, EventRow.__table__)


class GameRow(Base):
    __tablename__ = "games"
    #: ``{table}-{match}-{game}``, from 1.
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(40))
    finished: Mapped[float] = mapped_column(Float)
    #: The engine's game record (docs/record-format.md).
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


class ResultRow(Base):
    __tablename__ = "results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: emperor, guard, rebel or solo (the emperor playing alone).
    role: Mapped[str] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer)
    #: The seat's side won (R10; a draw is no win).
    won: Mapped[bool] = mapped_column(Boolean)


class AnalysisRow(Base):
    """复盘: one seat's decisions in a stored game, weighed (:mod:`baohuang.bots.analysis`)."""

    __tablename__ = "analyses"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    deals: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class RatingRow(Base):
    """段位: one player's rating in one preset (:mod:`baohuang.server.ratings`)."""

    __tablename__ = "ratings"
    #: ``u:{user id}`` for a person, ``b:{level}`` for a bot level's rated name.
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(16))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: Rated games (a bot level's: rated seats, as one game may seat it more than once).
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingStepRow(Base):
    """A rating after one game: the history a chart draws."""

    __tablename__ = "rating_steps"
    __table_args__ = (Index("ix_rating_steps_player", "player", "preset"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


#: The tables written by Core statements (a few per game, not the ORM's unit of work).
GAMES = cast(Table, GameRow.__table__)
RESULTS = cast(Table, ResultRow.__table__)
RATINGS = cast(Table, RatingRow.__table__)
RATING_STEPS = cast(Table, RatingStepRow.__table__)


#: The Alembic migrations (``baohuang db upgrade``; the server runs them on start).
MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision of the schema that servers before migrations created.
FIRST_REVISION = "0001"


#: The PostgreSQL advisory lock that nodes starting together on one database take to
#: migrate it one at a time (the others then find nothing to do).
MIGRATION_LOCK = 0x62685F6D  # "bh_m"


def migrate(connection: Connection, revision: str = "head") -> None:
    """Upgrade the database on ``connection`` to ``revision``, in the caller's transaction
    and, on PostgreSQL, under :data:`MIGRATION_LOCK` (nodes started together raced to create
    the tables: 1–2 of 3 failed). A database made before migrations existed (tables, no
    ``alembic_version``) is the first revision."""
    if connection.dialect.name == "postgresql":  # as long as another node's migration takes
        connection.execute(text("SET LOCAL lock_timeout = 0"))
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    names = inspect(connection).get_table_names()
    if "events" in names and "alembic_version" not in names:
        command.stamp(config, FIRST_REVISION)
    command.upgrade(config, revision)


async def upgrade(url: str) -> str:
    """Migrate the database at ``url`` to the latest schema; the revision it is at now."""
    engine = create_async_engine(database_url(url))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(migrate)
            revision = await conn.scalar(text("SELECT version_num FROM alembic_version"))
    finally:
        await engine.dispose()
    return str(revision)


def database_url(url: str) -> str:
    """``url`` with the async driver filled in (``sqlite:///x.db`` → ``sqlite+aiosqlite``)."""
    parsed = make_url(url)
    driver = _DRIVERS.get(parsed.drivername)
    return parsed.set(drivername=driver).render_as_string(False) if driver else url


#: A piece of write work, run inside the writer's transaction with a synchronous ORM session.
Work = Callable[[Session], Any]


def purge_guests(before: float) -> Work:
    """Write work: forget the guests made before ``before`` (a time) who have no session
    left from then on and no stored result (a guest's scored games keep it, for the history
    and the leaderboard); how many went."""

    def work(session: Session) -> int:
        live = select(LoginRow.user_id).where(LoginRow.created >= before)
        stale = select(UserRow.id).where(
            UserRow.password_hash.is_(None),
            UserRow.created < before,
            UserRow.id.not_in(live),
            UserRow.id.not_in(select(ResultRow.user_id)),
        )
        session.execute(delete(LoginRow).where(LoginRow.user_id.in_(stale)))
        gone = session.execute(delete(UserRow).where(UserRow.id.in_(stale)))
        return int(gone.rowcount)  # type: ignore[attr-defined]

    return work


@dataclass(frozen=True, slots=True)
class Append:
    """Event rows (column values) to insert, all of a batch's in one statement, and other
    work for the same transaction. ``fence``: (table id, epoch) — written only while the
    table's epoch is still that one (many nodes: no write from a node that lost the table)."""

    rows: list[dict[str, Any]]
    work: Work | None = None
    fence: tuple[str, int] | None = None


class Fenced(RuntimeError):
    """A write of a node that no longer runs the table: another node raised its epoch."""


Write = Work | Append

#: PostgreSQL settings of every connection: a transaction left open (its process paused or
#: cut off mid-write) is ended by the server, and a statement waits for a lock only so long,
#: so that a table's row is never held for ever (many nodes: a node taking a table over
#: raises its epoch on that row).
POSTGRES_SETTINGS = {
    "idle_in_transaction_session_timeout": "3000",
    "lock_timeout": "10000",
}

#: PostgreSQL: a batch of event rows with its fences in one statement, so one round trip and
#: its own transaction (BEGIN, the fence, the insert and COMMIT were four): the fenced tables'
#: rows held with a shared lock (:func:`_check_fences`), the rows inserted only if every fence
#: held; it answers the (table, epoch) pairs that held.
APPEND_FENCED = """
WITH held AS (
    SELECT t.id, t.epoch FROM tables AS t
    JOIN unnest($1::varchar[], $2::int[]) AS f(id, epoch) ON t.id = f.id AND t.epoch = f.epoch
    FOR SHARE OF t
), added AS (
    INSERT INTO events (table_id, seq, kind, public, private, secret, at)
    SELECT * FROM unnest(
        $3::varchar[], $4::int[], $5::varchar[], $6::json[], $7::json[], $8::json[],
        $9::float8[]
    )
    WHERE (SELECT count(*) FROM held) = cardinality($1::varchar[])
)
SELECT id, epoch FROM held
"""


class Store:
    """The database, with a group-committing writer (see the module docstring)."""

    def __init__(self, url: str = DEFAULT_DATABASE) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        connect_args = (
            {"server_settings": POSTGRES_SETTINGS}
            if make_url(self.url).drivername == "postgresql+asyncpg"
            else {}
        )
        self.engine = create_async_engine(
            self.url,
            pool_pre_ping=not self.sqlite,
            json_serializer=_json,
            connect_args=connect_args,
        )
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # The writer's own connection, not pinged before every batch (a round trip each): a
        # batch that finds it dead is tried again item by item on a new one (_write_loop).
        self._writer_engine = (
            None
            if self.sqlite
            else create_async_engine(
                self.url, pool_size=1, json_serializer=_json, connect_args=connect_args
            )
        )
        self._writes = (
            async_sessionmaker(self._writer_engine, expire_on_commit=False)
            if self._writer_engine
            else self.sessions
        )
        # SQLite writes go to one thread with a plain sqlite3 connection: a whole batch in one
        # hop, where aiosqlite would hop to its thread and back for every statement.
        self._sync: sessionmaker[Session] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="store")
        self._sync_engine = None
        if self.sqlite:
            self._sync_engine = create_engine(
                make_url(self.url).set(drivername="sqlite"), json_serializer=_json
            )
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)
            self._sync = sessionmaker(self._sync_engine, expire_on_commit=False)
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[Any]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        #: PostgreSQL: the writer's asyncpg connection for batches of event rows alone
        #: (:data:`APPEND_FENCED`), opened on first use and again after a failure.
        self._raw: Any = None

    async def start(self) -> None:
        """Bring the database to the latest schema (:func:`migrate`), then start writing."""
        async with self.engine.begin() as conn:
            await conn.run_sync(migrate)
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        await self.engine.dispose()
        if self._writer_engine is not None:
            await self._writer_engine.dispose()
        if self._raw is not None:
            await self._raw.close()
        self._thread.shutdown()
        if self._sync_engine is not None:
            self._sync_engine.dispose()

    async def write(self, work: Write) -> Any:
        """Run ``work`` in a write transaction (shared with other queued writes); its result
        once committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((work, future))
        return await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            started = metrics.start()  # metrics: commit latency per batch
            try:
                results = await self._commit(batch)
            except Exception:
                # One bad write must not sink the others: retry them one by one.
                for item in batch:
                    try:
                        (result,) = await self._commit([item])
                        _settle(item[1], result)
                    except Exception as exc:
                        if not item[1].done():
                            item[1].set_exception(exc)
                continue
            metrics.committed(len(batch), started)
            for (_, future), result in zip(batch, results, strict=True):
                _settle(future, result)

    async def _commit(self, batch: list[tuple[Write, asyncio.Future[Any]]]) -> list[Any]:
        works = [work for work, _ in batch]
        if self._sync is not None:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, _in_transaction, self._sync, works)
        if all(isinstance(work, Append) and work.work is None for work in works):
            return await self._append(cast(list[Append], works))
        async with self._writes() as session, session.begin():
            return await session.run_sync(_run, works)

    async def _append(self, appends: list[Append]) -> list[None]:
        """PostgreSQL: a batch of event rows alone, without the ORM (:data:`APPEND_FENCED`)."""
        import asyncpg  # type: ignore[import-untyped]

        if self._raw is None or self._raw.is_closed():
            dsn = make_url(self.url).set(drivername="postgresql")
            self._raw = await asyncpg.connect(
                dsn.render_as_string(False), server_settings=POSTGRES_SETTINGS
            )
        fences = sorted({a.fence for a in appends if a.fence})
        rows = [row for append in appends for row in append.rows]
        try:
            held = await self._raw.fetch(
                APPEND_FENCED,
                [table for table, _ in fences],
                [epoch for _, epoch in fences],
                [row["table_id"] for row in rows],
                [row["seq"] for row in rows],
                [row["kind"] for row in rows],
                *([_json(row[key]) for row in rows] for key in ("public", "private", "secret")),
                [row["at"] for row in rows],
            )
        except (OSError, asyncpg.exceptions.InterfaceError):
            self._raw.terminate()  # a broken connection: a new one for the next batch
            raise
        _lost(set(fences), {(record["id"], record["epoch"]) for record in held})
        return [None] * len(appends)

    # ------------------------------------------------------------------ reads

    async def table_rows(self, statuses: tuple[str, ...]) -> list[TableRow]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created)
            )
            return list(rows)

    async def epoch(self, table_id: str) -> int | None:
        """The epoch of a table still in play (waiting or playing); ``None`` for one that is
        finished, closed or unknown."""
        async with self.sessions() as session:
            found = await session.execute(
                select(TableRow.epoch).where(
                    TableRow.id == table_id, TableRow.status.in_(("waiting", "playing"))
                )
            )
            row = found.first()
            return None if row is None else int(row[0] or 0)

    async def live_ids(self, status: str) -> list[str]:
        """The ids of the tables of ``status``."""
        async with self.sessions() as session:
            rows = await session.scalars(select(TableRow.id).where(TableRow.status == status))
            return list(rows)

    async def events(self, table_id: str) -> list[EventRow]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            )
            return list(rows)


def _in_transaction(sessions: sessionmaker[Session], works: list[Write]) -> list[Any]:
    with sessions() as session, session.begin():
        return _run(session, works)


def _run(session: Session, works: list[Write]) -> list[Any]:
    """The batch's fences checked at once, every work, then its event rows in one ``INSERT``;
    the works' results."""
    fences = {work.fence for work in works if isinstance(work, Append) and work.fence}
    if fences:
        _check_fences(session, fences)
    results = []
    for work in works:
        job = work.work if isinstance(work, Append) else work
        results.append(job(session) if job else None)
    rows = [row for work in works if isinstance(work, Append) for row in work.rows]
    if rows:
        session.execute(EVENTS.insert(), rows)  # Core's executemany: no ORM work per row
    return results


def _check_fences(session: Session, fences: set[tuple[str, int]]) -> None:
    """Hold each (table, epoch) row with a shared lock for this transaction (a takeover's
    raise waits for the commit; no row is rewritten), or raise :class:`Fenced` naming the
    tables whose epoch is over. One statement for the whole batch."""
    held = session.execute(
        select(TableRow.id, TableRow.epoch)
        .where(tuple_(TableRow.id, TableRow.epoch).in_(sorted(fences)))
        .with_for_update(read=True)
    ).all()
    _lost(fences, {(row[0], row[1]) for row in held})


def _lost(fences: set[tuple[str, int]], held: set[tuple[str, int]]) -> None:
    """Raise :class:`Fenced` naming the tables whose epoch is over, if any."""
    if lost := fences - held:
        raise Fenced(", ".join(f"epoch {e} of table {t} is over" for t, e in sorted(lost)))


def raise_epoch(table_id: str, token: int) -> Work:
    """Work that takes a live table over with fencing token ``token``: its epoch raised to
    it, only if lower (no stale token wins); ``(config, seed)``, or ``None`` when the table
    is not waiting or playing, or a later token took it."""

    def work(session: Session) -> tuple[dict[str, Any], str] | None:
        row = session.execute(
            update(TableRow)
            .where(
                TableRow.id == table_id,
                TableRow.status.in_(("waiting", "playing")),
                TableRow.epoch < token,
            )
            .values(epoch=token)
            .returning(TableRow.config, TableRow.seed)
        ).first()
        return None if row is None else (row[0], row[1])

    return work


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _settle(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():
        future.set_result(result)


def _sqlite_pragmas(conn: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; NORMAL sync is durable across a process kill."""
    cursor = conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def now() -> float:
    return time.time()
