"""The lobby (大厅): the live tables, created here, loaded again after a restart."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

from sqlalchemy import update
from sqlalchemy.orm import Session

from ..errors import RulesError
from ..rules import Rules
from .accounts import AccountError
from .actor import TableActor
from .clock import Clock
from .protocol import SEATS, TableConfig, TableInfo
from .store import Store, TableRow

#: A table nobody is connected to and that plays no match leaves memory after this many idle
#: seconds (a waiting one is closed for good; finished games stay downloadable).
IDLE_SECONDS = 600.0


class Lobby:
    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        token: Callable[[int], str] = secrets.token_hex,
    ) -> None:
        self.store = store
        self.clock = clock
        #: Random hex of n bytes for new table ids and seeds (tests pass a seeded one).
        self.token = token
        self.tables: dict[str, TableActor] = {}

    async def sweep(self) -> None:
        """Drop deserted tables that have been idle for :data:`IDLE_SECONDS`; fold again any
        table whose actor died, so that no match is left hanging."""
        for table_id, table in list(self.tables.items()):
            if table.task is not None and table.task.done():
                await self.get(table_id)
            elif table.deserted and table.clock.now() - table.touched > IDLE_SECONDS:
                del self.tables[table_id]
                await table.stop()
                if table.status == "waiting":
                    await self.store.write(_close(table_id))

    async def recover(self) -> None:
        """Fold every unfinished table from its stored events and start it again."""
        for row in await self.store.table_rows(("waiting", "playing")):
            await self._load(row.id, TableConfig(**row.config), row.seed)

    async def _load(self, table_id: str, config: TableConfig, seed: str) -> TableActor:
        table = TableActor(table_id, config, seed, self.store, self.clock, self.token)
        table.load(await self.store.events(table_id))
        self.tables[table_id] = table
        table.start()
        return table

    async def create(self, config: TableConfig) -> TableActor:
        try:
            Rules.preset(config.preset, **config.options).validate()
        except (RulesError, TypeError) as exc:
            zh = exc.text("zh") if isinstance(exc, RulesError) else str(exc)
            raise AccountError(422, "bad_rules", str(exc), zh) from None
        table_id = self.token(4)
        seed = self.token(32)  # never published: the table's bots draw from it
        row = TableRow(
            id=table_id,
            config=config.model_dump(),
            seed=seed,
            status="waiting",
            created=time.time(),
        )

        def work(session: Session) -> None:
            session.add(row)

        await self.store.write(work)
        table = TableActor(table_id, config, seed, self.store, self.clock, self.token)
        self.tables[table_id] = table
        await table.seat_bots(range(SEATS - config.bots, SEATS))
        table.start()
        return table

    async def get(self, table_id: str) -> TableActor | None:
        """A live table; one whose actor failed is folded again from the database."""
        table = self.tables.get(table_id)
        if table is not None and (table.broken or (table.task and table.task.done())):
            table = await self._load(table_id, table.config, table.seed)
        return table

    def listing(self) -> list[TableInfo]:
        """Tables waiting or playing, and finished ones somebody still sits at."""
        return [
            table.info()
            for table in self.tables.values()
            if table.status != "finished"
            or any(seat and seat.user is not None for seat in table.seats)
        ]

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(60)
            await self.sweep()

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()


def _close(table_id: str) -> Callable[[Session], None]:
    def work(session: Session) -> None:
        session.execute(update(TableRow).where(TableRow.id == table_id).values(status="closed"))

    return work
