"""复盘 on the server: a seat of a stored game weighed in a process of its own, its progress
polled, the result stored with the game and the same as the analysis run here; one analysis a
person at a time; a friends' table's games only to its players."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from baohuang.bots.analysis import analyse
from baohuang.bots.base import play_out
from baohuang.bots.heuristic import HeuristicBot
from baohuang.engine.game import new_game
from baohuang.engine.record import to_record
from baohuang.engine.rules import Rules
from baohuang.server.analyses import Analyses, Job
from baohuang.server.app import create_app
from baohuang.server.store import GameRow, Store, TableRow

CLASSIC = Rules.preset("classic")
DEALS = 2


def stored_game(game_id: str, private: bool = False) -> tuple[Any, dict[str, Any]]:
    game = new_game(CLASSIC, game_id)
    play_out(game, [HeuristicBot(CLASSIC) for _ in range(5)])
    record = to_record(game)

    def work(session: Session) -> None:
        session.add(
            TableRow(
                id=f"t{game_id}",
                config={"private": private},
                seed="s",
                status="finished",
                created=0.0,
            )
        )
        session.flush()
        session.add(
            GameRow(
                id=game_id,
                table_id=f"t{game_id}",
                index=0,
                preset="classic",
                finished=time.time(),
                record=record,
            )
        )

    return work, record


Test = Callable[[httpx.AsyncClient, httpx.AsyncClient, Store], Awaitable[None]]


def run(tmp_path: Path, test: Test) -> None:
    async def main() -> None:
        app = create_app(f"sqlite:///{tmp_path / 'a.db'}", analysis_deals=DEALS)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with (
                httpx.AsyncClient(transport=transport, base_url="http://test") as me,
                httpx.AsyncClient(transport=transport, base_url="http://test") as other,
            ):
                await me.post("/api/guest", json={"name": "复盘者"})
                await other.post("/api/guest", json={"name": "旁观者"})
                await test(me, other, app.state.services.store)

    asyncio.run(main())


async def finished(client: httpx.AsyncClient, game_id: str, seat: int) -> dict[str, Any]:
    """Poll until the analysis is stored (each answer checked on the way)."""
    for _ in range(3000):
        answer = (await client.get(f"/api/games/{game_id}/analysis?seat={seat}")).json()
        if answer["status"] == "done":
            return dict(answer["result"])
        assert answer["status"] in ("queued", "running"), answer
        assert 0 <= answer["done"] <= answer["total"]
        await asyncio.sleep(0.02)
    raise AssertionError("the analysis did not finish")


@pytest.mark.slow  # two seats weighed by the strong search: 7 s
def test_a_seat_is_weighed_in_its_own_process_and_kept_with_the_game(tmp_path: Path) -> None:
    async def test(me: httpx.AsyncClient, other: httpx.AsyncClient, store: Store) -> None:
        work, record = stored_game("g1")
        await store.write(work)
        assert (await me.get("/api/games/g1/analysis?seat=1")).json() == {"status": "none"}
        asked = await me.post("/api/games/g1/analysis", json={"seat": 1})
        assert asked.status_code == 200 and asked.json()["status"] in ("queued", "running")
        busy = await me.post("/api/games/g1/analysis", json={"seat": 2})
        assert busy.status_code == 429
        detail = busy.json()["detail"]
        assert detail["code"] == "analysis_busy" and "复盘" in detail["zh"]
        result = await finished(me, "g1", 1)
        assert result == analyse(record, 1, DEALS).to_json()  # the same weighing, here
        seen = await other.get("/api/games/g1/analysis?seat=1")  # kept with the game
        assert seen.json() == {"status": "done", "result": result}
        again = await me.post("/api/games/g1/analysis", json={"seat": 1})
        assert again.json()["status"] == "done"  # not weighed twice
        assert (await me.post("/api/games/g1/analysis", json={"seat": 2})).status_code == 200
        bad = await me.post("/api/games/g1/analysis", json={"seat": 7})
        assert bad.status_code == 422 and bad.json()["detail"]["code"] == "bad_seat"
        await finished(me, "g1", 2)

    run(tmp_path, test)


def test_a_friends_tables_analyses_are_its_players_only(tmp_path: Path) -> None:
    async def test(me: httpx.AsyncClient, other: httpx.AsyncClient, store: Store) -> None:
        work, _ = stored_game("g2", private=True)
        await store.write(work)
        assert (await other.get("/api/games/g2/analysis?seat=0")).status_code == 404
        assert (await other.post("/api/games/g2/analysis", json={"seat": 0})).status_code == 404
        nobody = httpx.AsyncClient(transport=other._transport, base_url="http://test")
        assert (await nobody.post("/api/games/g2/analysis", json={"seat": 0})).status_code == 401

    run(tmp_path, test)


def test_a_job_ending_during_a_status_read_is_never_reported_as_none(tmp_path: Path) -> None:
    """The job is looked up before the store: one that is stored and dropped while the store
    is read still answers with its progress (the page would otherwise stop polling)."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'race.db'}")
        await store.start()
        try:
            analyses = Analyses(store)
            analyses.jobs[("g", 1)] = Job("g", 1, user=1, total=9, done=9, state="running")
            read = analyses._stored

            async def overtaken(game_id: str, seat: int) -> dict[str, Any] | None:
                found = await read(game_id, seat)  # not stored yet when read …
                del analyses.jobs[(game_id, seat)]  # … and stored, its job dropped, meanwhile
                return found

            analyses._stored = overtaken  # type: ignore[method-assign]
            assert await analyses.status("g", 1) == {"status": "running", "done": 9, "total": 9}
        finally:
            await store.close()

    asyncio.run(main())
