"""A table's WebSocket, ``/ws/v1/tables/{id}`` (docs/protocol.md): the origin and the
address's sockets checked, the connection routed to its table (here, or a relay to its node),
every frame counted against the limits, parsed and handed to the table's mailbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnect

from ...protocol.messages import ClientCommand, ClientHello, ClientMessage, ClientPing
from .. import metrics
from ..accounts import COOKIE
from ..connection import Conn, Refused, message
from ..ratelimits import CONNECTION_MESSAGES, TABLE_COMMANDS, TABLE_OPS
from ..table.mailbox import Cmd, Gone, Hello, Target
from .deps import Services

router = APIRouter()
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
RATE_LIMITED = Refused(
    "rate_limited", "error.server.rate_limited", limit=f"{CONNECTION_MESSAGES} per 1 second"
).data(None)
NOT_HELLO = Refused("not_hello", "error.server.not_hello", hello='{"t": "hello"}').data(None)


@router.websocket("/ws/v1/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    node: Services = websocket.app.state.services
    origin = websocket.headers.get("origin")
    if origin is not None and not same_origin(origin, websocket, node.origins):
        await websocket.close(code=4403, reason="origin not allowed")  # another site's page
        return
    peer = websocket.client.host if websocket.client else "?"
    if not node.limits.open_socket(peer):
        await websocket.close(code=4429, reason="too many connections from this address")
        return
    try:
        await serve_socket(node, websocket, table_id, peer)
    finally:
        node.limits.close_socket(peer)


async def serve_socket(node: Services, websocket: WebSocket, table_id: str, peer: str) -> None:
    """The socket's life: its table found (or refused), its frames read until it goes."""
    await websocket.accept()
    user = await node.accounts.user_for(websocket.cookies.get(COOKIE))
    conn = Conn(user.id if user else None, user.name if user else None)
    table = await node.lobby.route(table_id, conn)  # the table here, or a relay to its node
    if table is None:
        note = node.lobby.closed.get(table_id)  # quarantined after an upgrade: say why
        refused = (
            Refused("not_found", "error.server.closed", note=note)
            if note
            else Refused("not_found", "error.not_found.table", name=table_id)
        )
        await websocket.send_text(message("error", 0, refused.data(None)))
        await websocket.close(code=4404)
        return
    sender = asyncio.create_task(pump(websocket, conn))
    metrics.SOCKETS.inc()
    greeted = False
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            greeted = frame(node, table, conn, peer, received.get("text"), greeted)
    except WebSocketDisconnect:
        pass
    finally:
        metrics.SOCKETS.dec()
        table.submit(Gone(conn))
        conn.close()
        await sender


def frame(
    node: Services, table: Target, conn: Conn, peer: str, text: str | None, greeted: bool
) -> bool:
    """One frame from the client: counted against the limits (well-formed or not), parsed,
    answered or handed to the table; whether the connection has said hello now."""
    within = node.limits.message(str(id(conn)), str(conn.user or peer))
    try:
        if text is None:
            raise ValueError("binary frames are not part of the protocol")
        msg = CLIENT_MESSAGE.validate_json(text)
    except (ValidationError, ValueError) as exc:
        conn.send(message("error", table.seq, bad_message(exc) if within else RATE_LIMITED))
        return greeted
    command = msg.d if isinstance(msg, ClientCommand) else None
    if command is not None and command.op in TABLE_OPS and within:
        within = node.limits.allow(TABLE_COMMANDS, "table", str(conn.user or peer))
    if not within:  # answered (a client waits for its id), not handled
        command_id = command.id if command is not None else None
        conn.send(message("error", table.seq, {**RATE_LIMITED, "id": command_id}))
    elif isinstance(msg, ClientPing):
        conn.send(message("pong", table.seq, {}))
    elif isinstance(msg, ClientHello):
        table.submit(Hello(conn, msg.d))
        return True
    elif not greeted:
        conn.send(message("error", table.seq, NOT_HELLO))
    elif isinstance(msg, ClientCommand):
        table.submit(Cmd(conn, msg.v, msg.d))
    return greeted


def same_origin(origin: str, websocket: WebSocket, allowed: Sequence[str]) -> bool:
    """A browser page may open a table's socket only from this server or ``allowed``."""
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host or origin.rstrip("/") in allowed


def bad_message(exc: Exception) -> dict[str, Any]:
    """A ``bad_message`` error naming what was wrong with a client message."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        what = f"{where}: {first['msg']}"
    else:
        what = str(exc)
    return Refused("bad_message", "error.server.bad_message", what=what).data(None)


async def pump(websocket: WebSocket, conn: Conn) -> None:
    """Send a connection's queued messages until it is closed."""
    with contextlib.suppress(Exception):
        while (text := await conn.next()) is not None:
            await websocket.send_text(text)
        await websocket.close()
