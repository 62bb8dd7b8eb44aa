"""快速开始: one click to a sensible game.

The preset is the one the person last played (classic for a newcomer) unless they name one.
When people are waiting at a public table of that preset with a free seat, the person joins
the one whose waiting people's mean 段位 is nearest their own; otherwise a new table starts at
once with bots: a match of :data:`GAMES` games (so that tribute happens, R12), a
:data:`TIMER` s turn timer, the best bots the node admits (:data:`LEVELS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ..protocol.messages import TableConfig
from . import ratings
from .lobby import Lobby
from .refusals import AccountError
from .store import GameRow, ResultRow, Store

GAMES = 3
TIMER = 20
#: The bot levels a quick table is filled with, best first: the next when admission
#: (:mod:`.admission`) refuses one.
LEVELS = ("strong", "heuristic")


def _config(preset: str, level: str) -> TableConfig:
    config = {"preset": preset, "games": GAMES, "timer": TIMER, "bot_level": level, "bots": 4}
    return TableConfig.model_validate(config)


async def new_table(lobby: Lobby, preset: str, user_id: int, exempt: bool) -> str:
    """A new table of ``preset`` with four bots, of the best level admission allows."""
    for level in LEVELS[:-1]:
        try:
            return (await lobby.create(_config(preset, level), user_id, exempt)).state.id
        except AccountError as exc:  # costly bots refused: a cheaper level
            if exc.code not in ("bot_share", "bot_budget"):
                raise
    return (await lobby.create(_config(preset, LEVELS[-1]), user_id, exempt)).state.id


async def last_preset(store: Store, user_id: int) -> str:
    """The preset of the person's last scored game, or ``classic``."""
    async with store.sessions() as session:
        found = await session.scalar(
            select(GameRow.preset)
            .join(ResultRow, ResultRow.game_id == GameRow.id)
            .where(ResultRow.user_id == user_id)
            .order_by(GameRow.finished.desc())
            .limit(1)
        )
    return found or "classic"


async def waiting_table(
    store: Store, tables: Sequence[dict[str, Any]], user_id: int, preset: str
) -> str | None:
    """The id of the lobby table (``tables``: :class:`TableInfo` dicts) where people wait at
    ``preset`` with a free seat, nearest the person's 段位; ``None`` if there is none."""
    waiting = [
        info
        for info in tables
        if info["status"] == "waiting"
        and info["config"]["preset"] == preset
        and not info["config"]["private"]
        and None in info["seats"]
        and all(seat is None or seat["user"] != user_id for seat in info["seats"])
        and any(seat is not None and seat["user"] is not None for seat in info["seats"])
    ]
    if not waiting:
        return None
    people = {
        info["id"]: [f"u:{s['user']}" for s in info["seats"] if s and s["user"] is not None]
        for info in waiting
    }
    keys = sorted({key for keys in people.values() for key in keys} | {f"u:{user_id}"})
    known = await ratings.skills(store, keys, preset)
    mu = {key: known.get(key, ratings.Skill()).mu for key in keys}

    def distance(info: dict[str, Any]) -> float:
        theirs = people[info["id"]]
        return abs(sum(mu[key] for key in theirs) / len(theirs) - mu[f"u:{user_id}"])

    return str(min(waiting, key=distance)["id"])
