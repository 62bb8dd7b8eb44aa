"""复盘 on the server: a person asks for one seat of a stored game to be weighed
(:mod:`baohuang.bots.analysis`); it runs in a process of its own (:mod:`.analyst`), at most
:data:`SLOTS` at a time per node and :data:`QUEUE` waiting, so the tables never wait on it. A
person has one analysis at a time; the page polls its progress (the seat's actions weighed so
far); the result is stored with the game (``analyses``) and served to whoever may see the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.orm import Session

from ..bots.analysis import turns_of
from .botpool import child
from .refusals import AccountError
from .store import AnalysisRow, GameRow, Store

log = logging.getLogger("baohuang.server")

#: Analyses running at a time on one node.
SLOTS = 1
#: Analyses waiting for a slot, at most.
QUEUE = 16
#: Deals a decision (:data:`baohuang.bots.analysis.DEALS`).
DEALS = 32


@dataclass
class Job:
    """An analysis asked for and not stored yet."""

    game_id: str
    seat: int
    user: int
    total: int
    done: int = 0
    state: str = "queued"  # then running; failed if it did not finish

    def status(self) -> dict[str, Any]:
        return {"status": self.state, "done": self.done, "total": self.total}


class Analyses:
    """The node's analyses: see the module docstring."""

    def __init__(self, store: Store, slots: int = SLOTS, deals: int = DEALS) -> None:
        self.store = store
        self.deals = deals
        self.jobs: dict[tuple[str, int], Job] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.processes: set[asyncio.subprocess.Process] = set()
        self._slots = slots
        self._free: asyncio.Semaphore | None = None

    async def status(self, game_id: str, seat: int) -> dict[str, Any]:
        """``{"status": "done", "result"}``, a job's progress, or ``{"status": "none"}``."""
        job = self.jobs.get((game_id, seat))  # before the read: a job ends once it is stored
        stored = await self._stored(game_id, seat)
        if stored is not None:
            return {"status": "done", "result": stored}
        return job.status() if job is not None else {"status": "none"}

    async def ask(self, row: GameRow, seat: int, user: int) -> dict[str, Any]:
        """Weigh ``seat`` of the stored game ``row`` for ``user`` (unless it is stored or under
        way); its status."""
        if seat not in range(5):
            raise AccountError(422, "bad_seat", "error.analysis.seat", seat=seat)
        known = await self.status(row.id, seat)
        if known["status"] in ("done", "queued", "running"):
            return known
        if any(job.user == user and job.state != "failed" for job in self.jobs.values()):
            raise AccountError(429, "analysis_busy", "error.analysis.busy")
        waiting = sum(job.state == "queued" for job in self.jobs.values())
        if waiting >= QUEUE:
            raise AccountError(503, "analysis_full", "error.analysis.full")
        job = Job(row.id, seat, user, turns_of(row.record, seat))
        self.jobs[(row.id, seat)] = job
        task = asyncio.create_task(self._run(job, row.record), name=f"analysis-{row.id}-{seat}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job.status()

    async def _run(self, job: Job, record: dict[str, Any]) -> None:
        if self._free is None:
            self._free = asyncio.Semaphore(self._slots)
        async with self._free:
            job.state = "running"
            try:
                result = await self._weigh(job, record)
                await self.store.write(_keep(job, self.deals, result))
                del self.jobs[(job.game_id, job.seat)]
            except Exception:  # the process died or the store failed: asked again, it reruns
                log.exception("analysis of game %s seat %d failed", job.game_id, job.seat)
                job.state = "failed"

    async def _weigh(self, job: Job, record: dict[str, Any]) -> dict[str, Any]:
        process = await child("baohuang.server.analyst")
        self.processes.add(process)
        try:
            assert process.stdin is not None and process.stdout is not None
            request = {"record": record, "seat": job.seat, "deals": self.deals}
            process.stdin.write(orjson.dumps(request) + b"\n")
            await process.stdin.drain()
            async for line in process.stdout:
                message = orjson.loads(line)
                if "result" in message:
                    return dict(message["result"])
                job.done = message["done"]
            raise RuntimeError(f"the analyst ended ({await process.wait()}) without a result")
        finally:
            self.processes.discard(process)
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()

    async def _stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        async with self.store.sessions() as session:
            row = await session.get(AnalysisRow, (game_id, seat))
            return None if row is None else dict(row.result)

    async def close(self) -> None:
        for process in list(self.processes):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _keep(job: Job, deals: int, result: dict[str, Any]) -> Any:
    def work(session: Session) -> None:
        session.merge(
            AnalysisRow(
                game_id=job.game_id,
                seat=job.seat,
                deals=deals,
                created=time.time(),
                result=result,
            )
        )

    return work
