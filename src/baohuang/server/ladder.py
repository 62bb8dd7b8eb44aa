"""The ladder as pages read it: the leaderboard of a preset (排行榜) and a player's 段位
history (战绩), from :mod:`baohuang.server.ratings`' rows."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select

from .ratings import Skill
from .store import GameRow, RatingRow, RatingStepRow, ResultRow, Store, UserRow

#: :attr:`Skill.rating` before rounding, as the database orders it (``μ − 3σ``, at least 0).
_CONSERVATIVE = RatingRow.mu - 3 * RatingRow.sigma
SHOWN = case((_CONSERVATIVE > 0, _CONSERVATIVE), else_=0.0)


async def leaderboard(store: Store, preset: str, limit: int = 100) -> list[dict[str, Any]]:
    """People and bot levels rated in ``preset``, by the conservative estimate: rating,
    ``mu``, ``sigma``, games, wins, win rate, 称号 (``level``); for people also their points
    and games and wins by role in the preset."""
    async with store.sessions() as session:
        rated = await session.execute(
            select(RatingRow, UserRow.name)
            .outerjoin(UserRow, UserRow.id == RatingRow.user_id)
            .where(RatingRow.preset == preset)
            .order_by(SHOWN.desc(), RatingRow.mu.desc(), RatingRow.games)
            .limit(limit)
        )
        board: list[dict[str, Any]] = []
        for row, name in rated:
            skill = Skill(row.mu, row.sigma)
            board.append(
                {
                    "user": row.user_id,
                    "bot": row.bot,
                    "name": name if row.bot is None else row.bot,
                    "rating": skill.rating,
                    "mu": round(row.mu, 3),
                    "sigma": round(row.sigma, 3),
                    "level": skill.level,
                    "games": row.games,
                    "wins": row.wins,
                    "win_rate": row.wins / row.games if row.games else 0.0,
                    "points": None,
                    "roles": {},
                }
            )
        board.sort(key=lambda e: (-e["rating"], -e["mu"], e["games"]))  # by the rounded rating
        people = {e["user"]: e for e in board if e["user"] is not None}
        roles = await session.execute(
            select(
                ResultRow.user_id,
                ResultRow.role,
                func.count(),
                func.sum(ResultRow.points),
                func.sum(case((ResultRow.won, 1), else_=0)),
            )
            .join(GameRow, GameRow.id == ResultRow.game_id)
            .where(GameRow.preset == preset, ResultRow.user_id.in_(people))
            .group_by(ResultRow.user_id, ResultRow.role)
        )
        for user, role, games, points, wins in roles:
            entry = people[user]
            entry["points"] = (entry["points"] or 0) + int(points)
            entry["roles"][role] = {"games": int(games), "wins": int(wins)}
    return board


async def history(store: Store, user_id: int, preset: str) -> dict[str, Any]:
    """``user_id``'s rating in ``preset`` now and after each of its rated games (oldest first),
    and the presets the user is rated in."""
    player = f"u:{user_id}"
    async with store.sessions() as session:
        rows = await session.scalars(select(RatingRow).where(RatingRow.player == player))
        current = {row.preset: Skill(row.mu, row.sigma) for row in rows}
        steps = await session.scalars(
            select(RatingStepRow)
            .where(RatingStepRow.player == player, RatingStepRow.preset == preset)
            .order_by(RatingStepRow.id)
        )
        points = [
            {"game": step.game_id, "at": step.at, "rating": Skill(step.mu, step.sigma).rating}
            for step in steps
        ]
    skill = current.get(preset, Skill())
    return {
        "preset": preset,
        "rating": skill.rating,
        "level": skill.level,
        "mu": round(skill.mu, 3),
        "sigma": round(skill.sigma, 3),
        "games": len(points),
        "steps": points,
        "presets": sorted(current),
    }
