"""The web application (服务器): the HTTP API, the table WebSocket, the browser client.

``create_app(database)`` builds a FastAPI app; ``baohuang serve`` runs it on uvicorn.
HTTP errors are ``{"detail": {"code", "key", "params", "message", "zh"}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Cookie, FastAPI, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.websockets import WebSocketDisconnect

from ..bots.base import is_bot
from ..engine.rules import OPTIONS, PRESETS, Rules
from ..protocol.messages import (
    SIGNALS,
    BotLevel,
    ClientCommand,
    ClientHello,
    ClientMessage,
    ClientPing,
    TableConfig,
    TableInfo,
)
from ..text.catalog import MESSAGES
from . import health, ladder, metrics
from . import quickstart as quick
from .accounts import COOKIE, SESSION_SECONDS, Accounts
from .admission import NODE_CORES_PER_WORKER, USER_CORES, Admission
from .analyses import DEALS, Analyses
from .botpool import BotPool
from .connection import Conn, Refused, message
from .lobby import Lobby, lobby_page
from .mailbox import Cmd, Gone, Hello
from .nodes import Node
from .ratelimits import (
    CONNECTION_MESSAGES,
    ROOM_LOOKUPS,
    TABLE_COMMANDS,
    TABLE_OPS,
    TABLES,
    Limits,
)
from .refusals import AccountError
from .replays import replay_result, replay_views
from .rulespage import rules_words
from .settings import DEFAULT_DATABASE
from .store import GameRow, ResultRow, Store, TableRow, UserRow
from .tablestate import admits

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("baohuang.server")
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


#: The login cookie (its session token), as a route parameter.
LoginCookie = Annotated[str | None, Cookie(alias=COOKIE)]


class Credentials(BaseModel):
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class AnalysisAsk(BaseModel):
    """``POST /api/games/{id}/analysis``: the seat to weigh."""

    seat: int


class Nickname(BaseModel):
    name: str = Field(max_length=100)


class QuickAsk(BaseModel):
    """``POST /api/quick``: 快速开始, at ``preset`` or the one last played."""

    preset: str | None = Field(None, max_length=40)


def create_app(
    database: str = DEFAULT_DATABASE,
    origins: Sequence[str] = (),
    node: Node | None = None,
    exempt: Sequence[str] = (),
    metrics_token: str | None = None,
    api_docs: bool = False,
    bot_workers: int = 0,
    bot_share: float | None = None,
    bot_budget: float | None = None,
    analysis_deals: int = DEALS,
) -> FastAPI:
    """The server over ``database`` (an SQLAlchemy URL; plain sqlite/postgresql get async
    drivers). A table's WebSocket accepts pages of its own origin and of ``origins``.
    ``node``: one of many nodes sharing ``database`` through Redis (:mod:`.cluster`);
    ``exempt``: addresses free of the per-address limits (a load generator's);
    ``metrics_token``: ``/metrics`` answers only ``Authorization: Bearer <token>``;
    ``api_docs``: serve the OpenAPI pages (``/docs``, ``/openapi.json``);
    ``bot_workers``: processes the bots think in (0: in this process, no admission);
    ``bot_share``, ``bot_budget``: cores of bot thinking a user's tables, and the node's, may
    ask for (:mod:`.admission`; the budget defaults to 8 a worker); ``analysis_deals``: deals a
    decision in 复盘 (:mod:`.analyses`)."""
    store = Store(database)
    limits = Limits(exempt)
    accounts = Accounts(store, limits)
    analyses = Analyses(store, deals=analysis_deals)
    pool = BotPool(bot_workers) if bot_workers else None
    admission = None
    if bot_workers:
        budget = NODE_CORES_PER_WORKER * bot_workers if bot_budget is None else bot_budget
        admission = Admission(budget, USER_CORES if bot_share is None else bot_share)
    if node is None:
        lobby = Lobby(store, pool=pool, admission=admission)
    else:
        lobby = node.lobby(store, pool, admission)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.start()
        await lobby.recover()
        gc.freeze()  # what start-up made lives on: keep it out of every collection
        tasks = [asyncio.create_task(job) for job in lobby.background()]
        loaded = len(lobby.tables)
        log.info("server ready: %d tables loaded", loaded, extra={"tables": loaded})
        yield
        for task in tasks:
            task.cancel()
        await analyses.close()
        await lobby.close()
        await store.close()

    app = FastAPI(
        title="保皇 Baohuang",
        version="1",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if api_docs else None,
    )
    app.state.store, app.state.lobby, app.state.accounts = store, lobby, accounts

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail()}, status_code=exc.status)

    async def user_of(token: str | None) -> UserRow:
        user = await accounts.user_for(token)
        if user is None:
            raise AccountError(401, "login_required", "error.account.login_required")
        return user

    def opened(request: Request, response: Response, user: UserRow, token: str) -> dict[str, Any]:
        response.set_cookie(
            COOKIE,
            token,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="lax",
            path="/",
            secure=request.url.scheme == "https",  # behind a TLS proxy: see --proxy
        )
        return public_user(user)

    # ------------------------------------------------------------------ accounts

    @app.post("/api/guest")
    async def guest(body: Nickname, request: Request, response: Response) -> dict[str, Any]:
        made = await accounts.guest(body.name, address(request))
        return opened(request, response, *made)

    @app.post("/api/register")
    async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        made = await accounts.register(body.name, body.password, address(request))
        return opened(request, response, *made)

    @app.post("/api/login")
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        made = await accounts.login(body.name, body.password, address(request))
        return opened(request, response, *made)

    @app.post("/api/logout")
    async def logout(response: Response, session: LoginCookie = None) -> dict[str, Any]:
        await accounts.logout(session)
        response.delete_cookie(COOKIE, path="/")
        return {}

    @app.get("/api/me")
    async def me(session: LoginCookie = None) -> dict[str, Any]:
        return public_user(await user_of(session))

    # ------------------------------------------------------------------ tables

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "options": {name: type(getattr(Rules(), name)).__name__ for name in sorted(OPTIONS)},
            "bot_levels": [b for b in BotLevel.__args__ if is_bot(b)],  # type: ignore[attr-defined]
            "signals": {key: list(MESSAGES[f"signal.{key}"]) for key in SIGNALS},
        }

    @app.get("/api/rules")
    async def rules_in_words(
        preset: str = "classic",
        lang: Literal["zh", "en"] = "zh",
        option: Annotated[list[str] | None, Query(max_length=20)] = None,
    ) -> dict[str, Any]:
        """规则: a preset's rules in words, section by section (the page ``#/rules/P``);
        ``option=key=value`` (repeatable) as a table's options change them."""
        return rules_words(preset, lang, option or [])

    @app.get("/api/tables")
    async def tables(page: Annotated[int, Query(ge=1, le=10_000)] = 1) -> dict[str, Any]:
        """A page of the lobby's list (:func:`~baohuang.server.lobby.lobby_page`)."""
        return lobby_page(await lobby.public_tables(), page)

    @app.post("/api/tables")
    async def create_table(
        config: TableConfig, request: Request, session: LoginCookie = None
    ) -> TableInfo:
        user = await user_of(session)
        limits.check(TABLES, "error.rate.tables", "table", address(request))
        where = address(request)
        return (await lobby.create(config, user.id, exempt=where in limits.exempt)).info()

    @app.post("/api/quick")
    async def quick_start(
        ask: QuickAsk, request: Request, session: LoginCookie = None
    ) -> dict[str, Any]:
        """快速开始: ``{"id", "preset", "joined"}`` — a public table where people wait at the
        preset (``joined``), nearest the user's 段位, or a new one with bots, started at once
        (:mod:`~baohuang.server.quickstart`)."""
        user = await user_of(session)
        preset = _preset(ask.preset) if ask.preset else await quick.last_preset(store, user.id)
        tables = await lobby.public_tables()
        found = await quick.waiting_table(store, tables, user.id, preset)
        if found is not None:
            return {"id": found, "preset": preset, "joined": True}
        where = address(request)
        limits.check(TABLES, "error.rate.tables", "table", where)
        made = await quick.new_table(lobby, preset, user.id, where in limits.exempt)
        return {"id": made, "preset": preset, "joined": False}

    @app.get("/api/rooms/{code}")
    async def room(code: str, request: Request) -> dict[str, Any]:
        """The friends' table (好友房) whose room code is ``code``: ``{"id"}``."""
        limits.check(ROOM_LOOKUPS, "error.rate.rooms", "room", address(request))
        return {"id": await lobby.find_room(code)}

    async def viewer(session: str | None) -> int | None:
        """The user id of a request's session cookie, if any."""
        user = await accounts.user_for(session)
        return None if user is None else user.id

    @app.get("/api/tables/{table_id}")
    async def table(
        table_id: str, code: str | None = None, session: LoginCookie = None
    ) -> dict[str, Any]:
        """A live table's info; a friends' table (好友房) only to its members and the holders
        of its room code (``?code=``), as if there were none to anyone else."""
        found = await lobby.describe(table_id)
        if found is None or not admits(found, await viewer(session), code):
            raise _not_found("error.not_found.table", table_id)
        return found

    # ------------------------------------------------------------------ games, history

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, session: LoginCookie = None) -> Response:
        row = await _game(store, game_id, await viewer(session))
        return JSONResponse(
            row.record,
            headers={"Content-Disposition": f'attachment; filename="baohuang-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_steps(game_id: str, session: LoginCookie = None) -> dict[str, Any]:
        row = await _game(store, game_id, await viewer(session))
        steps = replay_views(row.record)  # R12 进贡 steps; the result (R10, R13) at the end
        return {"record": row.record, "steps": steps, "result": await replay_result(store, row)}

    @app.post("/api/games/{game_id}/analysis")
    async def analyse(game_id: str, ask: AnalysisAsk, session: LoginCookie = None) -> Any:
        """复盘: weigh one seat's decisions in a stored game (one analysis a person at a
        time); its status, as ``GET`` answers."""
        user = await user_of(session)
        row = await _game(store, game_id, user.id)
        return await analyses.ask(row, ask.seat, user.id)

    @app.get("/api/games/{game_id}/analysis")
    async def analysis(
        game_id: str, seat: Annotated[int, Query(ge=0, le=4)], session: LoginCookie = None
    ) -> dict[str, Any]:
        """A seat's analysis: ``{"status": "done", "result"}``, or its progress (``queued``,
        ``running`` with ``done`` of ``total`` actions weighed, ``failed``), or ``none``."""
        await _game(store, game_id, await viewer(session))
        return await analyses.status(game_id, seat)

    @app.get("/api/me/games")
    async def my_games(session: LoginCookie = None) -> dict[str, Any]:
        me = (await user_of(session)).id
        return {"games": await history(store, me, viewer=me)}

    @app.get("/api/users/{user_id}/games")
    async def user_games(user_id: int, session: LoginCookie = None) -> dict[str, Any]:
        """A user's games; those of friends' tables only to the players of each."""
        async with store.sessions() as db:  # ids beyond a database integer are nobody
            user = await db.get(UserRow, user_id) if 0 < user_id < 2**63 else None
        if user is None:
            raise _not_found("error.not_found.user", user_id)
        return {"games": await history(store, user_id, viewer=await viewer(session))}

    @app.get("/api/leaderboard")
    async def leaderboard(preset: str = "classic") -> dict[str, Any]:
        """排行榜: the 段位 ladder of ``preset``, people and bot levels together."""
        return {"preset": _preset(preset), "rows": await ladder.leaderboard(store, preset)}

    @app.get("/api/me/ratings")
    async def my_ratings(preset: str = "classic", session: LoginCookie = None) -> dict[str, Any]:
        """The user's 段位 in ``preset``, after each rated game (the 战绩 chart)."""
        me = (await user_of(session)).id
        return await ladder.history(store, me, _preset(preset))

    # ------------------------------------------------------------------ the table socket

    @app.websocket("/ws/v1/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not same_origin(origin, websocket, origins):
            await websocket.close(code=4403, reason="origin not allowed")  # another site's page
            return
        peer = websocket.client.host if websocket.client else "?"
        if not limits.open_socket(peer):
            await websocket.close(code=4429, reason="too many connections from this address")
            return
        try:
            await serve_socket(websocket, table_id, peer)
        finally:
            limits.close_socket(peer)

    async def serve_socket(websocket: WebSocket, table_id: str, peer: str) -> None:
        await websocket.accept()
        user = await accounts.user_for(websocket.cookies.get(COOKIE))
        conn = Conn(user.id if user else None, user.name if user else None)
        table = await lobby.route(table_id, conn)  # the table here, or a relay to its node
        if table is None:
            note = lobby.closed.get(table_id)  # quarantined after an upgrade: say why
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
                # Every frame counts against the limits, well-formed or not.
                within = limits.message(str(id(conn)), str(conn.user or peer))
                text = received.get("text")
                try:
                    if text is None:
                        raise ValueError("binary frames are not part of the protocol")
                    msg = CLIENT_MESSAGE.validate_json(text)
                except (ValidationError, ValueError) as exc:
                    refusal = bad_message(exc) if within else RATE_LIMITED
                    conn.send(message("error", table.seq, refusal))
                    continue
                command = msg.d if isinstance(msg, ClientCommand) else None
                if command is not None and command.op in TABLE_OPS and within:
                    within = limits.allow(TABLE_COMMANDS, "table", str(conn.user or peer))
                if not within:  # answered (a client waits for its id), not handled
                    command_id = command.id if command is not None else None
                    conn.send(message("error", table.seq, {**RATE_LIMITED, "id": command_id}))
                    continue
                if isinstance(msg, ClientPing):
                    conn.send(message("pong", table.seq, {}))
                elif isinstance(msg, ClientHello):
                    greeted = True
                    table.submit(Hello(conn, msg.d))
                elif not greeted:
                    conn.send(message("error", table.seq, NOT_HELLO))
                elif isinstance(msg, ClientCommand):
                    table.submit(Cmd(conn, msg.v, msg.d))
        except WebSocketDisconnect:
            pass
        finally:
            metrics.SOCKETS.dec()
            table.submit(Gone(conn))
            conn.close()
            await sender

    # ------------------------------------------------------------------ operations (docs/deploy.md)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, Any]:
        return health.liveness()

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        ready, body = await health.readiness(store)
        return JSONResponse(body, status_code=200 if ready else 503)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics(request: Request) -> Response:
        given = request.headers.get("authorization", "")
        if metrics_token and not secrets.compare_digest(given, f"Bearer {metrics_token}"):
            return Response("metrics need their token\n", status_code=401)
        statuses = (table.status for table in lobby.tables.values())
        return Response(metrics.exposition(statuses), media_type=metrics.CONTENT_TYPE)

    # ------------------------------------------------------------------ the browser client

    @app.get("/api/text")
    async def text(request: Request) -> Response:
        """The message catalog, ``{id: [中文, English]}``: the page's words (static/i18n.js).
        Revalidated by its ETag, so a browser downloads it again only when a wording changed."""
        if request.headers.get("if-none-match") == TEXT_HEADERS["ETag"]:
            return Response(status_code=304, headers=TEXT_HEADERS)
        return Response(TEXT, media_type="application/json", headers=TEXT_HEADERS)

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = STATIC / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse("<!doctype html><title>保皇 Baohuang</title><h1>保皇 Baohuang</h1>")

    return app


#: GET /api/text's body and headers: computed once, the catalog does not change while running.
TEXT = json.dumps(MESSAGES, ensure_ascii=False, separators=(",", ":")).encode()
TEXT_HEADERS = {
    "ETag": f'"{hashlib.sha256(TEXT).hexdigest()[:32]}"',
    "Cache-Control": "no-cache",
}
RATE_LIMITED = Refused(
    "rate_limited", "error.server.rate_limited", limit=f"{CONNECTION_MESSAGES} per 1 second"
).data(None)
#: Every HTTP answer: no framing by other sites, no type sniffing, scripts and styles from here.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def address(request: Request) -> str:
    """The client's address (a trusted proxy's ``X-Forwarded-For`` already applied)."""
    return request.client.host if request.client else "?"


def same_origin(origin: str, websocket: WebSocket, allowed: Sequence[str]) -> bool:
    """A browser page may open a table's socket only from this server or ``allowed``."""
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host or origin.rstrip("/") in allowed


NOT_HELLO = Refused("not_hello", "error.server.not_hello", hello='{"t": "hello"}').data(None)


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


def public_user(user: UserRow) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.password_hash is None}


def _not_found(key: str, name: str | int) -> AccountError:
    return AccountError(404, "not_found", key, name=name)


async def _game(store: Store, game_id: str, viewer: int | None) -> GameRow:
    """A stored game, to anyone; a friends' table's only to its players (``viewer``), as if
    there were none to anyone else."""
    async with store.sessions() as session:
        row = await session.get(GameRow, game_id)
        table = await session.get(TableRow, row.table_id) if row is not None else None
        private = table is not None and bool(table.config.get("private"))
        if row is not None and private and viewer not in await _players(session, row):
            row = None
    if row is None:
        raise _not_found("error.not_found.game", game_id)
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


def _preset(name: str) -> str:
    """``name`` if it is a preset, or the error naming the presets there are."""
    if name not in PRESETS:
        presets = ", ".join(PRESETS)
        raise AccountError(400, "bad_preset", "error.rules.preset", preset=name, presets=presets)
    return name
