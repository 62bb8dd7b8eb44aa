"""The lobby (大厅): the live tables, created here, loaded again after a restart."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .. import __version__
from ..bots.base import is_bot
from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..protocol.messages import TableConfig, TableInfo
from .accounts import SESSION_SECONDS
from .admission import Admission, demand
from .botpool import BotPool
from .clock import Clock
from .connection import Conn
from .refusals import AccountError
from .store import Store, TableRow, purge_guests
from .table.actor import TableActor
from .table.mailbox import Target
from .table.tablestate import typed_code

log = logging.getLogger("baohuang.server")

#: The letters of a room code (房号): digits and capitals that cannot be mistaken for each
#: other (no 0/O, no 1/I); 32 of them, so that a random byte picks one evenly.
CODE_LETTERS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: A room code's length: 32**6, about a billion codes, against the lookups' rate limit.
CODE_LENGTH = 6
#: Tables in one page of the lobby's list (``GET /api/tables?page=N``): the answer stays small
#: however many tables there are (600 junk tables had made it 694 KB, fetched by everyone).
LOBBY_PAGE = 40
#: A table id: four random bytes in hex (:meth:`Lobby.create`).
TABLE_ID_BYTES = 4


def room_code(text: str) -> str:
    """The room code ``text`` names (letter case, spaces and dashes aside); refused (422)
    when it is no room code at all."""
    wanted = typed_code(text)
    if len(wanted) != CODE_LENGTH or any(c not in CODE_LETTERS for c in wanted):
        raise AccountError(422, "bad_code", "error.room.bad_code", code=text[:20])
    return wanted


def is_table_id(text: str) -> bool:
    """Whether ``text`` has a table id's shape: lowercase hex, ``2 * TABLE_ID_BYTES`` long."""
    return len(text) == 2 * TABLE_ID_BYTES and all(c in "0123456789abcdef" for c in text)


#: The database failing (not a table): a table that meets one while it loads is not
#: quarantined, only loaded again later.
STORE_ERRORS = (SQLAlchemyError, OSError)
#: A table nobody is connected to and that plays no match leaves memory after this many idle
#: seconds (a waiting one is closed for good; finished games stay downloadable).
IDLE_SECONDS = 600.0


def seeded_tokens(seed: str) -> Callable[[int], str]:
    """TESTS ONLY (``serve --test-deals``): the hex that :func:`secrets.token_hex` would give,
    drawn from ``seed`` instead, so that a server's table ids, seeds and deals repeat run after
    run: a rare state met once becomes a named case. Anyone who knows ``seed`` can compute
    every deal, so a server for people never runs with it."""
    draw = random.Random(f"baohuang-test-deals/{seed}")
    return lambda size: draw.randbytes(size).hex()


class Lobby:
    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        token: Callable[[int], str] = secrets.token_hex,
        pool: BotPool | None = None,
        admission: Admission | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        #: Random hex of n bytes for new table ids and seeds (tests pass a seeded one).
        self.token = token
        #: Where the tables' bots think (``None``: in this process) and who may make costly
        #: ones (``None``: anyone).
        self.pool = pool
        self.admission = admission
        self.tables: dict[str, TableActor] = {}
        #: Quarantined tables: why each was closed (told to whoever comes back to it).
        self.closed: dict[str, str] = {}

    async def sweep(self) -> None:
        """Drop deserted tables that have been idle for :data:`IDLE_SECONDS`; fold again any
        table whose actor died, so that no match is left hanging."""
        for table_id, table in list(self.tables.items()):
            if table.task is not None and table.task.done():
                await self.get(table_id)
            elif table.state.deserted and table.clock.now() - table.touched > IDLE_SECONDS:
                del self.tables[table_id]
                await table.stop()
                if table.state.status == "waiting":
                    await self.store.write(closing(table_id, "closed"))

    async def recover(self) -> None:
        """Fold every unfinished table from its stored events and start it again. A table
        that cannot be loaded (an unknown option, an action the engine now refuses, a changed
        rule) is quarantined: closed with a note for its players, its finished games kept; it
        never stops the others from loading. A database that fails meanwhile quarantines
        nothing: the start fails."""
        for row in await self.store.table_rows(("quarantined",)):
            self.closed[row.id] = row.note or ""
        for row in await self.store.table_rows(("waiting", "playing")):
            try:
                await self._load(row.id, TableConfig(**row.config), row.seed)
            except STORE_ERRORS:
                raise  # the database failed, not the table: the start fails, nothing is closed
            except Exception as exc:  # whatever else it is, the other tables still load
                log.exception("table %s cannot be loaded; quarantined", row.id)
                note = quarantine_note(row.version, exc)
                self.tables.pop(row.id, None)
                self.closed[row.id] = note
                await self.store.write(closing(row.id, "quarantined", note))

    async def _load(
        self, table_id: str, config: TableConfig, seed: str, epoch: int | None = None
    ) -> TableActor:
        table = self._actor(table_id, config, seed)
        table.epoch = epoch
        table.state.load(await self.store.events(table_id))
        table.state.owner = table.state.creator
        self.tables[table_id] = table
        table.start()
        return table

    def _actor(self, table_id: str, config: TableConfig, seed: str) -> TableActor:
        return TableActor(
            table_id, config, seed, self.store, self.clock, self.token, pool=self.pool
        )

    async def create(
        self, config: TableConfig, creator: int | None = None, exempt: bool = False
    ) -> TableActor:
        """A new table; a friends' table (``config.private``) gets a room code, and ``creator``
        (a user id) may start it with bots. Costly bots are admitted within the creator's
        share (unless ``exempt``: a load generator's) and the node's budget (:mod:`.admission`)."""
        try:
            Rules.preset(config.preset, **config.options).validate()
        except RulesError as exc:
            raise AccountError(422, "bad_rules", exc.code, **exc.params) from None
        except TypeError as exc:
            raise AccountError(422, "bad_rules", "error.rules.bad", reason=str(exc)) from None
        if not is_bot(config.bot_level):  # learned without the rl extra
            raise AccountError(422, "bad_bot", "error.server.bot_missing", bot=config.bot_level)
        if self.admission is not None:
            self.admission.check(config, None if exempt else creator, self.demands())
        table_id = self.token(TABLE_ID_BYTES)
        seed = self.token(32)  # never published: the table's bots draw from it
        epoch = await self._own_new(table_id)
        row = TableRow(
            version=__version__,
            id=table_id,
            config=config.model_dump(),
            seed=seed,
            status="waiting",
            created=time.time(),
            epoch=epoch or 0,
        )

        def work(session: Session) -> None:
            session.add(row)

        table = self._actor(table_id, config, seed)
        table.epoch, table.state.owner = epoch, creator
        if config.private:  # the row and the room's event in one transaction
            await table.open_room(self._new_code(), creator, work)
        else:
            await self.store.write(work)
        self.tables[table_id] = table
        await table.seat_bots(range(SEATS - config.bots, SEATS))
        table.start()
        return table

    async def _own_new(self, table_id: str) -> int | None:
        """A new table's epoch (many nodes; ``None`` in one process)."""
        return None

    def _new_code(self) -> str:
        """A room code no live table has, drawn on its own (the table id tells nothing of it)."""
        taken = {table.state.code for table in self.tables.values()}
        while True:
            drawn = bytes.fromhex(self.token(CODE_LENGTH))
            code = "".join(CODE_LETTERS[byte % len(CODE_LETTERS)] for byte in drawn)
            if code not in taken:
                return code

    def demands(self) -> list[tuple[int | None, float]]:
        """Each open table's creator and the cores of bot thinking it may ask for."""
        return [
            (table.state.owner, demand(table.state.config))
            for table in self.tables.values()
            if table.state.status in ("waiting", "playing")
        ]

    def room(self, code: str) -> TableActor:
        """The live table whose room code is ``code`` (:func:`room_code`); refused when no
        live table has it."""
        wanted = room_code(code)
        for table in self.tables.values():
            if table.state.code == wanted:
                return table
        raise AccountError(404, "not_found", "error.room.not_found", code=wanted)

    async def get(self, table_id: str) -> TableActor | None:
        """A live table; one whose actor failed is folded again from the database."""
        table = self.tables.get(table_id)
        if table is not None and (table.broken or (table.task and table.task.done())):
            table = await self._load(table_id, table.state.config, table.state.seed)
        return table

    def listing(self) -> list[TableInfo]:
        """The tables :func:`listed` in the lobby."""
        infos = [table.state.info() for table in self.tables.values()]
        return [info for info in infos if listed(info.model_dump())]

    # ------------------------------------------------------------------ what the app asks

    async def route(self, table_id: str, conn: Conn) -> Target | None:
        """What the socket ``conn`` of table ``table_id`` talks to: its table, or ``None``."""
        return await self.get(table_id)

    async def public_tables(self) -> list[dict[str, Any]]:
        """The lobby's list (``GET /api/tables``)."""
        return [info.model_dump() for info in self.listing()]

    async def describe(self, table_id: str) -> dict[str, Any] | None:
        """A live table's public info."""
        table = await self.get(table_id)
        return table.state.info().model_dump() if table else None

    async def find_room(self, code: str) -> str:
        """The id of the friends' table with room code ``code`` (see :meth:`room`)."""
        return self.room(code).state.id

    def background(self) -> list[Coroutine[Any, Any, None]]:
        """What runs beside the server while it serves."""
        return [self.sweep_forever()]

    async def sweep_forever(self) -> None:
        for minute in itertools.count(1):
            await asyncio.sleep(60)
            try:
                await self.sweep()
                if minute % 60 == 0:  # hourly: guests whose sessions all expired, no game
                    await self.store.write(purge_guests(time.time() - SESSION_SECONDS))
            except Exception:  # the database failed: the next sweep tries again
                log.exception("sweeping the tables failed")

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()
        if self.pool is not None:
            await self.pool.close()


def listed(info: dict[str, Any]) -> bool:
    """A table is in the lobby while it waits or plays and is public: a friends' table never
    is, and a finished one leaves (its players may still start 再来一场 there)."""
    return not info["config"].get("private") and info["status"] != "finished"


def lobby_page(tables: list[dict[str, Any]], page: int) -> dict[str, Any]:
    """Page ``page`` (from 1, clamped) of the lobby's list: tables waiting for players first,
    those with the fewest empty seats ahead (a game about to start), then tables in play,
    then finished ones; ``{"tables", "page", "pages", "total"}``."""

    def order(info: dict[str, Any]) -> tuple[int, int, str]:
        empty = sum(seat is None for seat in info["seats"])
        status = {"waiting": 0, "playing": 1}.get(info["status"], 2)
        return (status, empty if status == 0 else 0, info["id"])

    pages = max(1, -(-len(tables) // LOBBY_PAGE))
    page = min(max(page, 1), pages)
    ordered = sorted(tables, key=order)
    start = (page - 1) * LOBBY_PAGE
    shown = ordered[start : start + LOBBY_PAGE]
    return {"tables": shown, "page": page, "pages": pages, "total": len(tables)}


def closing(table_id: str, status: str, note: str | None = None) -> Callable[[Session], None]:
    def work(session: Session) -> None:
        values = {"status": status, "note": note}
        session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    return work


def quarantine_note(version: str | None, exc: BaseException) -> str:
    """What the players of a table that cannot be loaded are told."""
    started = f"started under version {version or 'before 0.1.0'}, now {__version__}"
    why = f"{type(exc).__name__}: {exc}"[:200]
    return (
        f"This table was closed by a server upgrade ({started}): {why}. Its finished games "
        "are kept in the history. / 服务器升级后这张牌桌无法继续，已关闭；已完成的对局仍在战绩中。"
    )
