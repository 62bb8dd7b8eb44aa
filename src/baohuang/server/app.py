"""The web application (服务器): the HTTP API, the table WebSocket, the browser client.

``create_app(database)`` builds a FastAPI app from the node's services and the routers of
:mod:`.http`; ``baohuang serve`` runs it on uvicorn. HTTP errors are ``{"detail": {"code",
"key", "params", "message", "zh"}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from .accounts import Accounts
from .admission import NODE_CORES_PER_WORKER, USER_CORES, Admission
from .analyses import DEALS, Analyses
from .botpool import BotPool
from .cluster.nodes import Node
from .http import ROUTERS
from .http.deps import Services
from .http.ops import STATIC
from .lobby import Lobby, seeded_tokens
from .ratelimits import Limits
from .refusals import AccountError
from .settings import DEFAULT_DATABASE
from .store import Store

log = logging.getLogger("baohuang.server")
#: Every HTTP answer: no framing by other sites, no type sniffing, scripts and styles from here.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


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
    test_deals: str | None = None,
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
    decision in 复盘 (:mod:`.analyses`); ``test_deals``: TESTS ONLY, every id, seed and deal
    drawn from this seed (:func:`.lobby.seeded_tokens`), one node only."""
    store = Store(database)
    limits = Limits(exempt)
    accounts = Accounts(store, limits)
    analyses = Analyses(store, deals=analysis_deals)
    pool = BotPool(bot_workers) if bot_workers else None
    admission = None
    if bot_workers:
        budget = NODE_CORES_PER_WORKER * bot_workers if bot_budget is None else bot_budget
        admission = Admission(budget, USER_CORES if bot_share is None else bot_share)
    if test_deals is not None:
        if node is not None:
            raise ValueError("seeded test deals are for one node only")
        lobby = Lobby(store, token=seeded_tokens(test_deals), pool=pool, admission=admission)
    elif node is None:
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
    app.state.services = Services(
        store, lobby, accounts, limits, analyses, tuple(origins), metrics_token
    )

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail()}, status_code=exc.status)

    for router in ROUTERS:
        app.include_router(router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
