"""The server's HTTP face, one router a room: :mod:`.accounts` (guests, members, sessions),
:mod:`.tables` (presets, rules, the lobby, 快速开始, 好友房), :mod:`.games` (records, replays,
复盘, history, 段位), :mod:`.socket` (a table's WebSocket), :mod:`.ops` (health, metrics, the
page's words, the page). What they share: :mod:`.deps`. ``create_app`` (``server/app.py``)
puts them together."""

from . import accounts, games, ops, socket, tables

#: Every room's router, as ``create_app`` includes them.
ROUTERS = tuple(room.router for room in (accounts, tables, games, socket, ops))
