"""The atomicity rule, tested exhaustively: a match with an escape is recorded, then the store
is cut after every single event boundary and a server started on each cut. Each must end in a
legal, live state: the game resumes and the match completes, every game stored once, no result
counted twice, and one ``game_over`` per game in the log."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from baohuang.server.store import EventRow, GameRow, ResultRow, TableRow
from helpers.tables import Harness, add_user

COLUMNS = {
    "tables": ("id", "config", "seed", "status", "created", "version", "note", "epoch"),
    "events": ("table_id", "seq", "kind", "public", "private", "secret", "at"),
    "games": ("id", "table_id", "index", "preset", "finished", "record"),
    "results": ("game_id", "user_id", "seat", "role", "points", "place", "won"),
}


def columns(row: Any, table: str) -> dict[str, Any]:
    return {name: getattr(row, name) for name in COLUMNS[table]}


def record_a_match_with_an_escape(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Two games: the person escapes at their first turn of game 1 (a bot takes the seat and
    plays game 2). Every stored row of the table, by table."""
    folder.mkdir()
    kit = Harness(folder)
    (me,) = kit.create(games=2, timer=0, bot_delay=1)
    while not me.my_turn():
        kit.step()
    assert kit.send(me, "leave")["t"] == "ack"
    while kit.actor.state.status != "finished":
        kit.step()
    assert {"leave", "sit", "match_over"} <= set(kit.kinds())

    async def rows() -> dict[str, list[dict[str, Any]]]:
        async with kit.store.sessions() as session:
            found = {}
            for name, model in (
                ("tables", TableRow),
                ("events", EventRow),
                ("games", GameRow),
                ("results", ResultRow),
            ):
                found[name] = [columns(r, name) for r in await session.scalars(select(model))]
            return found

    stored = kit.run(rows())
    kit.close()
    return stored


def cut(stored: dict[str, list[dict[str, Any]]], events: int) -> Any:
    """The store as a crash after event ``events`` would leave it: the rows written with those
    events (a game's rows go with its ``game_over``, the table's status with its event)."""
    kept = sorted(stored["events"], key=lambda e: e["seq"])[:events]
    kinds = [e["kind"] for e in kept]
    games = {e["public"]["record"] for e in kept if e["kind"] == "game_over"}
    status = "finished" if "match_over" in kinds else "playing" if "start" in kinds else "waiting"

    def work(session: Session) -> None:
        session.add(TableRow(**{**stored["tables"][0], "status": status}))
        session.flush()
        session.add_all(EventRow(**e) for e in kept)
        session.add_all(GameRow(**g) for g in stored["games"] if g["id"] in games)
        session.flush()
        session.add_all(ResultRow(**r) for r in stored["results"] if r["game_id"] in games)

    return work


@pytest.mark.slow
def test_atomicity_recovery_from_every_prefix_of_the_log(tmp_path: Path) -> None:
    """Between two moves of a game, the recovered game resumes (two more moves are made);
    around every other event (start, game over, match over, leave, sit, ready …), the
    recovered match is played to its end and checked."""
    stored = record_a_match_with_an_escape(tmp_path / "match")
    kinds = [e["kind"] for e in sorted(stored["events"], key=lambda e: e["seq"])]
    table_id = stored["tables"][0]["id"]
    for events in range(len(kinds) + 1):
        folder = tmp_path / f"cut{events}"
        folder.mkdir()
        kit = Harness(folder)
        kit.run(kit.store.write(add_user(1)))
        kit.run(kit.store.write(cut(stored, events)))
        kit.run(kit.lobby.recover())
        kit.table = kit.lobby.tables.get(table_id)
        if kit.table is None:  # the match had ended: nothing to run
            assert "match_over" in kinds[:events]
        elif set(kinds[max(0, events - 1) : events + 1]) == {"game"}:
            resumes(kit, events)
        else:
            kit.settle()
            for _ in range(2000):
                if kit.actor.state.status != "playing":
                    break
                kit.step()
            check(kit, events)
        kit.close()


def resumes(kit: Harness, events: int) -> None:
    """The game goes on from the cut: two more moves within a few wake-ups."""
    kit.settle()
    moves = kit.kinds().count("game")
    for _ in range(20):
        if kit.kinds().count("game") >= moves + 2 or kit.actor.state.status == "finished":
            break
        kit.step()
    assert kit.kinds().count("game") >= moves + 2 or kit.actor.state.status == "finished", events
    assert kit.kinds().count("game_over") <= 2


def check(kit: Harness, events: int) -> None:
    table = kit.actor
    kinds = kit.kinds()
    if table.state.status == "waiting":  # cut before the person sat or was ready: it waits for them
        ready = [c is not None and (c.ready or c.bot is not None) for c in table.state.seats]
        assert "start" not in kinds and not all(ready), f"cut {events}"
        return
    assert table.state.status == "finished", f"cut {events}: stuck at {kinds[-4:]}"
    assert table.stalls == 0
    starts = Counter(e.public["game"] for e in table.state.log if e.kind == "start")
    overs = Counter(e.public["game"] for e in table.state.log if e.kind == "game_over")
    assert starts == overs == Counter({0: 1, 1: 1}), f"cut {events}: {kinds}"
    assert kinds.count("match_over") == 1 and kinds[-1] in ("match_over", "leave", "sit")

    async def stored() -> tuple[list[str], list[str]]:
        async with kit.store.sessions() as session:
            games = list(await session.scalars(select(GameRow.id)))
            results = list(await session.scalars(select(ResultRow.game_id)))
            return games, results

    games, results = kit.run(stored())
    assert sorted(games) == sorted(set(games)) and len(games) == 2, f"cut {events}: {games}"
    assert len(results) == len(set(results)), f"cut {events}: a result counted twice"
    escaped = next(e.public for e in table.state.log if e.kind == "game_over")["result"]["escaped"]
    if escaped is not None:  # the escaper is out of the match: a bot played on for them
        assert table.state.seats[escaped] is None or table.state.seats[escaped].bot is not None  # type: ignore[union-attr]


def test_the_cut_copies_every_column() -> None:
    """A new column must be copied by :func:`cut` too."""
    for table, model in (
        ("tables", TableRow),
        ("events", EventRow),
        ("games", GameRow),
        ("results", ResultRow),
    ):
        names = {c.name for c in model.__table__.columns} - (
            {"id"} if table == "results" else set()
        )
        assert names == set(COLUMNS[table]), table
