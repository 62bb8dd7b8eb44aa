"""Operations (docs/deploy.md) and the browser client: ``/healthz``, ``/readyz``,
``/metrics``, the page's words (``/api/text``) and the page itself (``/``)."""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from ...text.catalog import MESSAGES
from .. import health, metrics
from .deps import NodeServices

router = APIRouter()
STATIC = Path(__file__).parents[1] / "static"
#: GET /api/text's body and headers: computed once, the catalog does not change while running.
TEXT = json.dumps(MESSAGES, ensure_ascii=False, separators=(",", ":")).encode()
TEXT_HEADERS = {
    "ETag": f'"{hashlib.sha256(TEXT).hexdigest()[:32]}"',
    "Cache-Control": "no-cache",
}


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, Any]:
    return health.liveness()


@router.get("/readyz", include_in_schema=False)
async def readyz(node: NodeServices) -> JSONResponse:
    ready, body = await health.readiness(node.store)
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request, node: NodeServices) -> Response:
    given = request.headers.get("authorization", "")
    token = node.metrics_token
    if token and not secrets.compare_digest(given, f"Bearer {token}"):
        return Response("metrics need their token\n", status_code=401)
    statuses = (table.state.status for table in node.lobby.tables.values())
    return Response(metrics.exposition(statuses), media_type=metrics.CONTENT_TYPE)


@router.get("/api/text")
async def text(request: Request) -> Response:
    """The message catalog, ``{id: [中文, English]}``: the page's words (static/i18n.js).
    Revalidated by its ETag, so a browser downloads it again only when a wording changed."""
    if request.headers.get("if-none-match") == TEXT_HEADERS["ETag"]:
        return Response(status_code=304, headers=TEXT_HEADERS)
    return Response(TEXT, media_type="application/json", headers=TEXT_HEADERS)


@router.get("/", include_in_schema=False)
async def index() -> Response:
    page = STATIC / "index.html"
    if page.is_file():
        return FileResponse(page)
    return HTMLResponse("<!doctype html><title>保皇 Baohuang</title><h1>保皇 Baohuang</h1>")
