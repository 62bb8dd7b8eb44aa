"""快速开始 (#50): the preset last played, and the waiting table nearest one's 段位."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import insert
from sqlalchemy.orm import Session

from baohuang.server import quickstart
from baohuang.server.store import GameRow, RatingRow, ResultRow, Store, TableRow, UserRow

T = TypeVar("T")


def with_store(tmp_path: Path, body: Callable[[Store], Awaitable[T]]) -> T:
    async def main() -> T:
        store = Store(f"sqlite:///{tmp_path / 'q.db'}")
        await store.start()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(main())


def people(session: Session) -> None:
    session.execute(
        insert(UserRow), [{"id": i, "name": f"p{i}", "created": 0.0} for i in (1, 2, 3)]
    )


def rated(session: Session) -> None:
    """p2 strong (35) and p3 weaker (18) at weihai; p1 new (25)."""
    people(session)
    for user, mu in ((2, 35.0), (3, 18.0)):
        session.add(
            RatingRow(
                player=f"u:{user}",
                preset="weihai",
                user_id=user,
                mu=mu,
                sigma=2.0,
                games=30,
                wins=15,
                updated=0.0,
            )
        )


def table(id: str, preset: str = "weihai", status: str = "waiting", **seats: Any) -> dict[str, Any]:
    """A lobby row: ``seats`` as ``s0=user id`` (a person) or ``s0="bot"``; ``private=True``."""
    private = bool(seats.pop("private", False))
    row: list[dict[str, Any] | None] = [None] * 5
    for key, who in seats.items():
        row[int(key[1])] = {"user": None, "bot": "heuristic"} if who == "bot" else {"user": who}
    return {
        "id": id,
        "status": status,
        "config": {"preset": preset, "private": private},
        "seats": row,
    }


def test_the_preset_last_played_classic_for_a_newcomer(tmp_path: Path) -> None:
    async def body(store: Store) -> tuple[str, str]:
        def games(session: Session) -> None:
            people(session)
            session.add(TableRow(id="t", config={}, seed="s", status="finished", created=0.0))
            session.flush()
            for i, (preset, at) in enumerate((("qq", 2.0), ("weihai", 1.0))):
                game = GameRow(
                    id=f"g{i}", table_id="t", index=i, preset=preset, finished=at, record={}
                )
                session.add(game)
                session.flush()
                session.add(
                    ResultRow(game_id=game.id, user_id=1, seat=0, role="rebel", points=1, won=True)
                )

        await store.write(games)
        return await quickstart.last_preset(store, 1), await quickstart.last_preset(store, 2)

    assert with_store(tmp_path, body) == ("qq", "classic")


def test_people_waiting_nearest_ones_段位_and_only_where_one_may_sit(tmp_path: Path) -> None:
    tables = [
        table("strong", s0=2, s1="bot"),
        table("weak", s0=3),
        table("bots", s0="bot"),  # nobody waits there
        table("full", s0=2, s1="bot", s2="bot", s3="bot", s4="bot"),
        table("other", preset="classic", s0=3),
        table("friends", s0=3, private=True),
        table("busy", status="playing", s0=3),
    ]

    async def body(store: Store) -> list[str | None]:
        await store.write(rated)
        return [
            await quickstart.waiting_table(store, tables, 1, "weihai"),  # new: nearer 18 than 35
            await quickstart.waiting_table(store, tables[:1] + tables[2:], 1, "weihai"),
            await quickstart.waiting_table(store, tables, 3, "weihai"),  # not at one's own
            await quickstart.waiting_table(store, tables[2:4], 1, "weihai"),
        ]

    assert with_store(tmp_path, body) == ["weak", "strong", "strong", None]
