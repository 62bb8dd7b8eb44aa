"""Bots thinking in worker processes (``serve --bot-workers``): the same games as in the node,
a worker killed mid-turn, moves the pool cannot serve played by the heuristic, a saturated
pool that never holds up a person's table, and admission of costly bots."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baohuang.engine.game import Game, new_game
from baohuang.engine.rules import Rules
from baohuang.protocol.messages import TableConfig
from baohuang.server import metrics
from baohuang.server.admission import Admission, demand
from baohuang.server.botpool import COST, BotPool, WorkerDied, _Process, child
from baohuang.server.refusals import AccountError
from baohuang.text.catalog import MESSAGES
from helpers.tables import Client, Harness

#: The heuristic plays in the node unless told otherwise: these tests send it to the worker
#: (it is deterministic, so the same game must come out either way).
THINKING_HERE = frozenset({"random", "auto"})


def fallbacks(reason: str) -> float:
    return metrics.BOT_FALLBACKS.labels(reason)._value.get()  # type: ignore[attr-defined]


def restarts() -> float:
    return metrics.BOT_WORKER_RESTARTS._value.get()  # type: ignore[attr-defined]


@pytest.fixture
def pooled(tmp_path: Path) -> Iterator[Harness]:
    (tmp_path / "pool").mkdir()
    kit = Harness(tmp_path / "pool", seed=7, pool=BotPool(1, in_node=THINKING_HERE))
    yield kit
    kit.close()


@pytest.fixture
def local(tmp_path: Path) -> Iterator[Harness]:
    (tmp_path / "local").mkdir()
    kit = Harness(tmp_path / "local", seed=7)
    yield kit
    kit.close()


def play_then_auto(kit: Harness, turns: int, level: str = "heuristic") -> list[str]:
    """A table of one person and four heuristic bots: the person follows the hint for
    ``turns`` of its turns, then switches 托管 on; the game's actions once the match is over."""
    (me,) = kit.create(people=1, games=1, bot_level=level)
    if not turns:
        assert kit.send(me, "auto", on=True)["t"] == "ack"
    played = 0
    for _ in range(3000):
        if kit.actor.state.status == "finished":
            assert kit.actor.state.game is not None
            return [f"{seat} {action}" for seat, action in kit.actor.state.game.actions]
        if played < turns and me.my_turn():
            hint = kit.send(me, "hint")["d"]["hint"]
            assert kit.send(me, "act", action=hint)["t"] == "ack"
            played += 1
            if played == turns:
                assert kit.send(me, "auto", on=True)["t"] == "ack"
        else:
            kit.step()
    raise AssertionError("the match did not end")


def test_bots_in_a_worker_play_the_same_game_as_in_the_node(
    pooled: Harness, local: Harness
) -> None:
    """The heuristic is deterministic: its moves through the pool (views and legal actions as
    JSON, the choice as notation) are the node's, 托管 taken mid-game included (the worker's
    bot reads the person's turns first, as the node's does)."""
    assert play_then_auto(pooled, 6) == play_then_auto(local, 6)
    assert pooled.pool is not None and pooled.pool.pids()


def test_a_worker_killed_mid_turn_is_replaced_and_the_turn_asked_again(
    pooled: Harness, local: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL to the worker the moment a bot's request reaches it (the 30th): the pool starts
    another, which rebuilds the bot from the game's history and answers the same turn; the
    game is the one played without a pool, nothing fell back to the node."""
    asked, killed = 0, 0
    ask = _Process.ask

    def ask_then_die(self: _Process, number: int, data: dict[str, Any], seconds: float) -> Any:
        nonlocal asked, killed
        future = ask(self, number, data, seconds)
        asked += 1
        if asked == 30:
            killed = self.process.pid
            os.kill(killed, signal.SIGKILL)
        return future

    monkeypatch.setattr(_Process, "ask", ask_then_die)
    before, died = restarts(), fallbacks("died")
    assert pooled.pool is not None
    moves = play_then_auto(pooled, 0)
    assert asked > 30 and restarts() == before + 1 and fallbacks("died") == died
    assert moves == play_then_auto(local, 0)


def test_a_worker_whose_pipe_closed_is_not_asked_again() -> None:
    """A worker that just died may not be reaped yet, but its pipe is closing: the pool takes
    it for dead (and starts another) rather than write a request into the closed pipe (which
    raised in the table's actor and failed the table)."""

    async def check() -> None:
        worker = _Process(await child("baohuang.server.botworker"))
        assert worker.alive and worker.process.stdin is not None
        worker.process.stdin.close()
        assert not worker.alive
        with pytest.raises(WorkerDied):
            worker.ask(1, {"forget": "t"}, 1.0)
        assert not worker.waiting and worker.queued == 0.0
        await worker.stop()

    asyncio.run(check())


def test_a_move_the_pool_cannot_serve_in_time_is_played_by_the_heuristic(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With no time to wait for a worker every bot move falls back to the heuristic in the
    node: logged, counted by reason, and the table plays its match out all the same."""
    kit = Harness(tmp_path, seed=3, pool=BotPool(1, wait=0.0))
    try:
        late = fallbacks("late") + fallbacks("busy")
        moves = play_then_auto(kit, 0, "search")
        assert fallbacks("late") + fallbacks("busy") - late >= len(moves) // 2
        assert "the heuristic plays this move" in caplog.text
    finally:
        kit.close()


def test_a_saturated_pool_never_holds_up_a_persons_table(local: Harness) -> None:
    """One worker asked for 40 ``strong`` moves at once, more than it can think in its wait:
    the pool takes what fits and answers the rest at once (the heuristic plays them),
    and meanwhile a person's table in the same process answers each command."""
    pool = BotPool(1, wait=1.0)
    rules = Rules.preset("classic")
    game = new_game(rules, "saturate")
    for _ in range(40):  # into the play phase: a decision worth a search
        assert game.current_seat is not None
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    assert seat is not None
    (me, _) = local.create(people=2, games=1)

    async def saturate() -> list[Any]:
        asks = [
            pool.choose(f"t{n}/{seat}/1", "strong", rules, f"s{n}", game, seat) for n in range(40)
        ]
        return await asyncio.gather(*asks)

    warm(local, pool, rules, game, seat)
    busy = fallbacks("busy") + fallbacks("late")
    task = local.loop.create_task(saturate())
    local.run(with_the_worker(pool))
    assert answered_while(local, me, task)
    answers = local.run(task)
    served = [a for a in answers if a is not None]
    fits = int(pool.wait / COST["strong"]) + 1
    assert 1 <= len(served) <= fits + 1
    assert fallbacks("busy") + fallbacks("late") - busy == 40 - len(served)
    local.run(pool.close())


def warm(kit: Harness, pool: BotPool, rules: Rules, game: Game, seat: int) -> None:
    """Until the pool's worker answers a move: the first ask starts it, and a busy machine may
    take longer to start it than the pool waits (the move then falls back to the heuristic)."""
    for _ in range(10):
        if kit.run(pool.choose("warm/0/1", "search", rules, "w", game, seat)) is not None:
            return
    raise AssertionError("the worker answered none of 10 moves in time")


async def with_the_worker(pool: BotPool) -> None:
    """Until the worker holds requests (it starts, then is sent what fits)."""
    for _ in range(10_000):
        worker = pool.workers[0]
        if worker is not None and worker.waiting:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("no request reached the worker")


def answered_while(kit: Harness, me: Client, task: asyncio.Task[Any]) -> bool:
    """Whether the person's hint and 准备 toggles are answered while ``task`` is running."""
    for _ in range(3):
        assert kit.send(me, "hint")["t"] in ("ack", "error")
    return not task.done()


# ------------------------------------------------------------------------------ admission


def test_a_table_of_strong_bots_asks_a_core_at_zero_delay_and_a_tenth_at_the_default() -> None:
    zero = demand(TableConfig(bot_level="strong", bot_delay=0))
    paced = demand(TableConfig(bot_level="strong"))
    assert 0.95 < zero <= 1.0 and 0.05 < paced < 0.15
    assert demand(TableConfig(bot_level="auto", bot_delay=0)) == 0.0


def test_costly_tables_beyond_ones_share_or_the_nodes_budget_are_refused_in_both_languages() -> (
    None
):
    admission = Admission(node=3.0, user=2.0)
    strong = TableConfig(bot_level="strong", bot_delay=0)
    mine = [(1, demand(strong)), (1, demand(strong))]
    admission.check(strong, 1, mine[:1])  # a second one fits the share
    with pytest.raises(AccountError) as refused:
        admission.check(strong, 1, mine)
    assert refused.value.status == 429 and refused.value.code == "bot_share"
    zh, en = MESSAGES["error.server.bot_share"]
    assert "机器人算力" in zh and "share" in en
    admission.check(TableConfig(bot_level="heuristic"), 1, mine)  # a cheap one always does
    admission.check(strong, 2, mine)  # another user's share is their own
    with pytest.raises(AccountError) as full:
        admission.check(strong, 2, [*mine, (3, 0.9)])
    assert full.value.status == 503 and full.value.code == "bot_budget"
    zh, en = MESSAGES["error.server.bot_budget"]
    assert "服务器" in zh and "capacity" in en
    with pytest.raises(AccountError):  # a load generator's tables: the node's budget only
        admission.check(strong, None, [*mine, (3, 0.9)])
    admission.check(strong, None, mine)
