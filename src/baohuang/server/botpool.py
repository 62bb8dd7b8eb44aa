"""Where a table's bots think (机器人算力): in worker processes, or here for the cheap ones.

A search bot's thinking is CPU-bound Python: in a thread it still holds the GIL, so every
table and socket of the node waited behind it (10 tables of ``strong`` at zero delay took the
lobby's p99 from 39 to 690 ms). :class:`BotPool` runs ``serve --bot-workers N`` processes
(:mod:`.botworker`); a table's bot turn is one request (the seat's view and legal actions, as
JSON) and one reply. Each table thinks on one worker (its bots keep what they read between
turns there); a bot a worker does not hold (a new worker, a seat that changed hands, an
evicted one) is rebuilt from the game's history (:func:`~baohuang.bots.base.catch_up`).

A move the pool cannot serve in time is not waited for: when the table's worker has more
queued than :attr:`BotPool.wait` seconds of thinking (by :data:`COST`), when the reply is
late, when the worker dies twice in one turn or the bot fails, :meth:`BotPool.choose` answers
``None`` and the table plays the heuristic for that move (:class:`SeatBot`), logged and
counted (``baohuang_bot_fallbacks_total{reason}``). A worker that dies is replaced at the next
request and the turn is asked again once.

The cheap levels (:data:`IN_NODE`: ``heuristic`` thinks 0.03 ms a decision) play in the node:
a request to a worker would cost the node more than their thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import sys
import time
from typing import Any

import orjson

from ..bots.base import Bot, catch_up, is_bot, make_bot
from ..bots.heuristic import HeuristicBot
from ..bots.search import SearchBot
from ..engine.actions import Action, parse_action
from ..engine.game import Game
from ..engine.record import history
from ..engine.rules import Rules
from . import metrics

log = logging.getLogger("baohuang.server")

#: Seconds of one core a decision takes: the mean over whole games with the level at every
#: seat, in the preset where it is dearest (bench/bot_cost.md: ``strong`` 70 ms in classic,
#: ``search`` 15 ms in weihai, ``learned`` 0.4 ms in classic, its network's whole game); a level
#: not listed (``learned:PATH``) counts as ``strong``.
COST: dict[str, float] = {
    "random": 0.0,
    "auto": 0.0,
    "heuristic": 0.00003,
    "learned": 0.0004,
    "search": 0.015,
    "strong": 0.070,
}
#: Levels that play in the node: a decision costs them about what a request to a worker would
#: (its view's JSON both ways, ~0.3 ms of the node's time) or less.
IN_NODE = frozenset({"random", "auto", "heuristic", "learned"})
#: Seconds a move may wait for a worker (queue and thinking) before the heuristic plays it.
WAIT = 2.0
#: Seconds past :data:`WAIT` a started move may still take (a slow search finishing).
OVERRUN = 3.0


async def child(module: str) -> asyncio.subprocess.Process:
    """``python -m module`` with its standard input and output piped to this process."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )


def cost(level: str) -> float:
    """Seconds of one core a decision of ``level`` takes (:data:`COST`)."""
    return COST.get(level, COST["strong"])


class WorkerDied(Exception):
    """The worker process ended while a request was waiting for it."""


class _Process:
    """One worker process and the requests it was sent."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: dict[int, tuple[asyncio.Future[dict[str, Any]], float]] = {}
        self.queued = 0.0  # seconds of thinking sent and not answered (by COST)
        self.tables: set[str] = set()
        self.reader = asyncio.create_task(self._read(), name=f"botworker-{process.pid}")

    @property
    def alive(self) -> bool:
        """Running, as far as this process can tell: a worker that just died may not have
        been reaped yet, but its pipe is closing."""
        stdin = self.process.stdin
        running = self.process.returncode is None and not self.reader.done()
        return running and stdin is not None and not stdin.is_closing()

    def send(self, data: dict[str, Any]) -> None:
        """Write a request; :class:`WorkerDied` when the worker's pipe is closed."""
        if not self.alive:
            raise WorkerDied()
        assert self.process.stdin is not None
        self.process.stdin.write(orjson.dumps(data) + b"\n")

    def ask(self, number: int, data: dict[str, Any], seconds: float) -> asyncio.Future[Any]:
        self.send(data)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[number] = (future, seconds)
        self.queued += seconds
        return future

    async def _read(self) -> None:
        assert self.process.stdout is not None
        try:
            async for line in self.process.stdout:
                reply = orjson.loads(line)
                future, seconds = self.waiting.pop(reply["id"], (None, 0.0))
                self.queued = max(0.0, self.queued - seconds)
                if future is not None and not future.done():
                    future.set_result(reply)
        finally:
            for future, _ in self.waiting.values():
                if not future.done():
                    future.set_exception(WorkerDied())
            self.waiting.clear()

    async def stop(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class BotPool:
    """``workers`` bot worker processes, started when first needed; see the module
    docstring."""

    def __init__(self, workers: int, wait: float = WAIT, in_node: frozenset[str] = IN_NODE) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.size = workers
        self.wait = wait
        #: The levels that play in the node instead (tests send the heuristic here too).
        self.in_node = in_node
        self.workers: list[_Process | None] = [None] * workers
        self.homes: dict[str, int] = {}
        self._numbers = itertools.count(1)
        self._starting: dict[int, asyncio.Task[_Process]] = {}

    async def choose(
        self,
        key: str,
        level: str,
        rules: Rules,
        seed: str,
        game: Game,
        seat: int,
    ) -> Action | None:
        """The action the bot ``key`` (``table/seat/n``) of ``level`` chooses for ``seat``,
        a seat that may act in ``game``; ``None`` when the pool cannot serve it in time (the
        bot is then forgotten: it did not see this turn)."""
        table = key.split("/", 1)[0]
        request = {
            "key": key,
            "level": level,
            "rules": rules.to_dict(),
            "seed": seed,
            "view": game.view(seat).to_json(),
            "legal": list(game.legal_texts(seat)),
            "until": time.monotonic() + self.wait,
        }
        reason = "busy"
        for _ in range(2):  # a worker that dies mid-turn is replaced and asked once more
            worker = await self._home(table)
            if worker.queued > self.wait:
                break
            try:
                reply = await self._ask(worker, request, cost(level))
                if reply.get("unknown"):
                    reply = await self._ask(worker, {**request, "history": history(game)}, 0.0)
            except WorkerDied:
                reason = "died"
                continue
            except TimeoutError:
                reason = "late"
                break
            if "action" in reply:
                return parse_action(reply["action"])
            reason = "late" if reply.get("late") else "error"
            if reason == "error":
                log.error("bot %s (%s) failed: %s", key, level, reply.get("error"))
            break
        metrics.BOT_FALLBACKS.labels(reason).inc()
        log.warning("bot %s (%s): the heuristic plays this move (%s)", key, level, reason)
        self.drop(key)
        return None

    async def _ask(self, worker: _Process, request: dict[str, Any], seconds: float) -> Any:
        number = next(self._numbers)
        future = worker.ask(number, {**request, "id": number}, seconds)
        bound = request["until"] - time.monotonic() + OVERRUN
        try:
            return await asyncio.wait_for(future, max(bound, 0.0))
        finally:
            if not future.done():  # given up on: its answer, when it comes, is dropped
                worker.waiting.pop(number, None)

    def drop(self, key: str) -> None:
        """Forget the bot ``key`` (its seat changed hands, or it missed a turn)."""
        home = self.homes.get(key.split("/", 1)[0])
        worker = self.workers[home] if home is not None else None
        if worker is not None and worker.alive:
            worker.send({"drop": key})

    def forget(self, table: str) -> None:
        """The table ``table`` is gone from this node: its bots too."""
        home = self.homes.pop(table, None)
        worker = self.workers[home] if home is not None else None
        if worker is not None:
            worker.tables.discard(table)
            if worker.alive:
                worker.send({"forget": table})

    async def _home(self, table: str) -> _Process:
        """The worker ``table`` thinks on (the least loaded, the first time), started or
        replaced when it is not running."""
        index = self.homes.get(table)
        if index is None:
            index = min(range(self.size), key=self._load)
            self.homes[table] = index
        worker = self.workers[index]
        if worker is None or not worker.alive:
            worker = await self._start(index)
        worker.tables.add(table)
        return worker

    def _load(self, index: int) -> tuple[int, float]:
        worker = self.workers[index]
        return (0, 0.0) if worker is None else (len(worker.tables), worker.queued)

    async def _start(self, index: int) -> _Process:
        task = self._starting.get(index)
        if task is None:
            task = asyncio.create_task(self._spawn(index))
            self._starting[index] = task
            task.add_done_callback(lambda _: self._starting.pop(index, None))
        return await asyncio.shield(task)

    async def _spawn(self, index: int) -> _Process:
        old = self.workers[index]
        if old is not None:
            await old.stop()
            metrics.BOT_WORKER_RESTARTS.inc()
            log.warning("bot worker %d (pid %d) ended; starting another", index, old.process.pid)
        process = await child("baohuang.server.botworker")
        worker = self.workers[index] = _Process(process)
        if old is not None:
            worker.tables = old.tables
        return worker

    def pids(self) -> list[int]:
        """The running workers' process ids."""
        return [w.process.pid for w in self.workers if w is not None and w.alive]

    async def close(self) -> None:
        for worker in self.workers:
            if worker is not None:
                await worker.stop()
        self.workers = [None] * self.size


class SeatBot:
    """The bot that plays one seat of a table (its own, or 托管): in the pool when there is
    one and the level is worth it, else in the node; the heuristic for a move the pool cannot
    serve. Made when the seat's controller changes, it first reads the game so far."""

    def __init__(self, key: str, level: str, rules: Rules, seed: str, pool: BotPool | None) -> None:
        if not is_bot(level):  # a stored table's level this server lacks (no rl extra)
            log.warning("bot %s: no %s bot here, the heuristic plays", key, level)
            level = "heuristic"
        self.key, self.level, self.rules, self.seed = key, level, rules, seed
        self.pool = pool if pool is not None and level not in pool.in_node else None
        self.local: Bot | None = None
        self._fallback: HeuristicBot | None = None

    async def choose(self, game: Game, seat: int) -> Action:
        """This seat's move in ``game`` (a seat that may act: the seat to act, or one yet to
        answer a sealed poll, R14)."""
        if self.pool is not None:
            action = await self.pool.choose(self.key, self.level, self.rules, self.seed, game, seat)
            if action is not None:
                return action
            return self._heuristic(game, seat)
        if self.local is None:
            self.local = make_bot(self.level, self.rules, self.seed)
            catch_up(self.local, history(game), seat)
        view, legal = game.view(seat), game.legal_actions(seat)
        if isinstance(self.local, SearchBot):  # no pool: its playouts at least leave the loop
            return await asyncio.to_thread(self.local.choose, view, legal)
        return self.local.choose(view, legal)

    def _heuristic(self, game: Game, seat: int) -> Action:
        """The heuristic's move (kept up to date from the history when first needed)."""
        if self._fallback is None:
            self._fallback = HeuristicBot(self.rules)
            catch_up(self._fallback, history(game), seat)
        return self._fallback.choose(game.view(seat), game.legal_actions(seat))

    def close(self) -> None:
        """The seat changed hands: the pool's copy goes."""
        if self.pool is not None:
            self.pool.drop(self.key)


def workers_for(cores: int | None = None) -> int:
    """The default ``--bot-workers``: one per core of this machine."""
    return max(1, cores if cores is not None else os.cpu_count() or 1)
