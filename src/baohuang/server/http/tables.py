"""Presets and the rules in words, the lobby, a new table, 快速开始, 好友房 by its code, one
table's info."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from ...bots.base import is_bot
from ...engine.rules import OPTIONS, PRESETS, Rules
from ...protocol.messages import SIGNALS, BotLevel, TableConfig, TableInfo
from ...text.catalog import MESSAGES
from .. import quickstart as quick
from ..lobby import lobby_page
from ..ratelimits import ROOM_LOOKUPS, TABLES
from ..rulespage import rules_words
from ..table.tablestate import admits
from .deps import ClientAddress, CurrentUser, NodeServices, Viewer, known_preset, not_found

router = APIRouter(prefix="/api")


class QuickAsk(BaseModel):
    """``POST /api/quick``: 快速开始, at ``preset`` or the one last played."""

    preset: str | None = Field(None, max_length=40)


@router.get("/presets")
async def presets() -> dict[str, Any]:
    return {
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "options": {name: type(getattr(Rules(), name)).__name__ for name in sorted(OPTIONS)},
        "bot_levels": [b for b in BotLevel.__args__ if is_bot(b)],  # type: ignore[attr-defined]
        "signals": {key: list(MESSAGES[f"signal.{key}"]) for key in SIGNALS},
    }


@router.get("/rules")
async def rules_in_words(
    preset: str = "classic",
    lang: Literal["zh", "en"] = "zh",
    option: Annotated[list[str] | None, Query(max_length=20)] = None,
) -> dict[str, Any]:
    """规则: a preset's rules in words, section by section (the page ``#/rules/P``);
    ``option=key=value`` (repeatable) as a table's options change them."""
    return rules_words(preset, lang, option or [])


@router.get("/tables")
async def tables(
    node: NodeServices, page: Annotated[int, Query(ge=1, le=10_000)] = 1
) -> dict[str, Any]:
    """A page of the lobby's list (:func:`~baohuang.server.lobby.lobby_page`)."""
    return lobby_page(await node.lobby.public_tables(), page)


@router.post("/tables")
async def create_table(
    config: TableConfig, node: NodeServices, user: CurrentUser, where: ClientAddress
) -> TableInfo:
    node.limits.check(TABLES, "error.rate.tables", "table", where)
    exempt = where in node.limits.exempt
    return (await node.lobby.create(config, user.id, exempt=exempt)).state.info()


@router.post("/quick")
async def quick_start(
    ask: QuickAsk, node: NodeServices, user: CurrentUser, where: ClientAddress
) -> dict[str, Any]:
    """快速开始: ``{"id", "preset", "joined"}`` — a public table where people wait at the
    preset (``joined``), nearest the user's 段位, or a new one with bots, started at once
    (:mod:`~baohuang.server.quickstart`)."""
    store, lobby = node.store, node.lobby
    preset = known_preset(ask.preset) if ask.preset else await quick.last_preset(store, user.id)
    found = await quick.waiting_table(store, await lobby.public_tables(), user.id, preset)
    if found is not None:
        return {"id": found, "preset": preset, "joined": True}
    node.limits.check(TABLES, "error.rate.tables", "table", where)
    made = await quick.new_table(lobby, preset, user.id, where in node.limits.exempt)
    return {"id": made, "preset": preset, "joined": False}


@router.get("/rooms/{code}")
async def room(code: str, node: NodeServices, where: ClientAddress) -> dict[str, Any]:
    """The friends' table (好友房) whose room code is ``code``: ``{"id"}``."""
    node.limits.check(ROOM_LOOKUPS, "error.rate.rooms", "room", where)
    return {"id": await node.lobby.find_room(code)}


@router.get("/tables/{table_id}")
async def table(
    table_id: str, node: NodeServices, viewer: Viewer, code: str | None = None
) -> dict[str, Any]:
    """A live table's info; a friends' table (好友房) only to its members and the holders
    of its room code (``?code=``), as if there were none to anyone else."""
    found = await node.lobby.describe(table_id)
    if found is None or not admits(found, viewer, code):
        raise not_found("error.not_found.table", table_id)
    return found
