"""Stored games: a record, its replay, 复盘 of a seat, a person's history, and 段位 (the
leaderboard and one's own). A friends' table's games are its players' only, as if there were
none to anyone else."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import ladder
from ..store import GameRow, ResultRow, Store, TableRow, UserRow
from ..table.replays import replay_result, replay_views
from .deps import CurrentUser, NodeServices, Viewer, known_preset, not_found

router = APIRouter(prefix="/api")


class AnalysisAsk(BaseModel):
    """``POST /api/games/{id}/analysis``: the seat to weigh."""

    seat: int


@router.get("/games/{game_id}/record")
async def record(game_id: str, node: NodeServices, viewer: Viewer) -> Response:
    row = await stored_game(node.store, game_id, viewer)
    return JSONResponse(
        row.record,
        headers={"Content-Disposition": f'attachment; filename="baohuang-{game_id}.json"'},
    )


@router.get("/games/{game_id}/replay")
async def replay_steps(game_id: str, node: NodeServices, viewer: Viewer) -> dict[str, Any]:
    row = await stored_game(node.store, game_id, viewer)
    steps = replay_views(row.record)  # R12 进贡 steps; the result (R10, R13) at the end
    return {"record": row.record, "steps": steps, "result": await replay_result(node.store, row)}


@router.post("/games/{game_id}/analysis")
async def analyse(game_id: str, ask: AnalysisAsk, node: NodeServices, user: CurrentUser) -> Any:
    """复盘: weigh one seat's decisions in a stored game (one analysis a person at a time);
    its status, as ``GET`` answers."""
    row = await stored_game(node.store, game_id, user.id)
    return await node.analyses.ask(row, ask.seat, user.id)


@router.get("/games/{game_id}/analysis")
async def analysis(
    game_id: str, seat: Annotated[int, Query(ge=0, le=4)], node: NodeServices, viewer: Viewer
) -> dict[str, Any]:
    """A seat's analysis: ``{"status": "done", "result"}``, or its progress (``queued``,
    ``running`` with ``done`` of ``total`` actions weighed, ``failed``), or ``none``."""
    await stored_game(node.store, game_id, viewer)
    return await node.analyses.status(game_id, seat)


@router.get("/me/games")
async def my_games(node: NodeServices, user: CurrentUser) -> dict[str, Any]:
    return {"games": await history(node.store, user.id, viewer=user.id)}


@router.get("/users/{user_id}/games")
async def user_games(user_id: int, node: NodeServices, viewer: Viewer) -> dict[str, Any]:
    """A user's games; those of friends' tables only to the players of each."""
    async with node.store.sessions() as db:  # ids beyond a database integer are nobody
        user = await db.get(UserRow, user_id) if 0 < user_id < 2**63 else None
    if user is None:
        raise not_found("error.not_found.user", user_id)
    return {"games": await history(node.store, user_id, viewer=viewer)}


@router.get("/leaderboard")
async def leaderboard(node: NodeServices, preset: str = "classic") -> dict[str, Any]:
    """排行榜: the 段位 ladder of ``preset``, people and bot levels together."""
    return {"preset": known_preset(preset), "rows": await ladder.leaderboard(node.store, preset)}


@router.get("/me/ratings")
async def my_ratings(
    node: NodeServices, user: CurrentUser, preset: str = "classic"
) -> dict[str, Any]:
    """The user's 段位 in ``preset``, after each rated game (the 战绩 chart)."""
    return await ladder.history(node.store, user.id, known_preset(preset))


async def stored_game(store: Store, game_id: str, viewer: int | None) -> GameRow:
    """A stored game, to anyone; a friends' table's only to its players (``viewer``), as if
    there were none to anyone else."""
    async with store.sessions() as session:
        row = await session.get(GameRow, game_id)
        table = await session.get(TableRow, row.table_id) if row is not None else None
        private = table is not None and bool(table.config.get("private"))
        if row is not None and private and viewer not in await _players(session, row):
            row = None
    if row is None:
        raise not_found("error.not_found.game", game_id)
    return row


async def _players(session: AsyncSession, row: GameRow) -> set[int | None]:
    """The users who played a stored game: its record's (``match.users``), else its result
    rows' (games stored before records named them)."""
    users = (row.record.get("match") or {}).get("users")
    if users is not None:
        return {user for user in users if user is not None}
    found = await session.scalars(select(ResultRow.user_id).where(ResultRow.game_id == row.id))
    return set(found)


async def history(store: Store, user_id: int, viewer: int | None) -> list[dict[str, Any]]:
    """``user_id``'s last 200 games as ``viewer`` (a user, or nobody) may see them: those of
    friends' tables only where ``viewer`` played too."""
    query = (
        select(ResultRow, GameRow)
        .join(GameRow, GameRow.id == ResultRow.game_id)
        .where(ResultRow.user_id == user_id)
    )
    if viewer != user_id:
        shared = select(ResultRow.game_id).where(ResultRow.user_id == viewer)
        private = TableRow.config["private"].as_boolean()
        query = query.join(TableRow, TableRow.id == GameRow.table_id).where(
            or_(private.is_(None), private.is_(False), GameRow.id.in_(shared))
        )
    async with store.sessions() as session:
        rows = await session.execute(query.order_by(GameRow.finished.desc()).limit(200))
        return [
            {
                "id": game.id,
                "table": game.table_id,
                "index": game.index,
                "finished": game.finished,
                "seat": result.seat,
                "role": result.role,
                "points": result.points,
                "place": result.place,
                "won": result.won,
                "preset": game.preset,
            }
            for result, game in rows
        ]
