"""Health (健康检查): ``GET /healthz`` (the process answers) and ``GET /readyz`` (it can serve)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import text

from .store import Store

#: Seconds the database has to answer the readiness query.
DATABASE_TIMEOUT = 2.0


def liveness() -> dict[str, Any]:
    """The process is up and its event loop answers."""
    return {"status": "ok"}


async def readiness(store: Store) -> tuple[bool, dict[str, Any]]:
    """Whether the server can serve: the database answers ``SELECT 1`` and the store's writer
    task is running; and a JSON body saying which part failed (the error's type only: a
    database's message may name hosts and users)."""
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT), store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:
        database = f"error: {type(exc).__name__}"
    writer_task = store._writer  # the group-committing writer (Store.start)
    writer = "ok" if writer_task is not None and not writer_task.done() else "stopped"
    ready = database == "ok" and writer == "ok"
    return ready, {
        "status": "ready" if ready else "not_ready",
        "database": database,
        "writer": writer,
    }
