"""The server's HTTP API for clients (httpx, the ``[load]`` extra): guest login, tables,
presets.

A login is kept as a ``Cookie`` header value and sent with each request, so that one HTTP
client can act for many guests (the load tool's) at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

from .errors import ClientError


@contextlib.asynccontextmanager
async def server_client(url: str, timeout: float) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client for the server at ``url`` whose requests wait ``timeout`` s at most."""
    # The cookie jar takes nothing: each request carries its own guest's cookie.
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
    # Idle connections are dropped before the server's keep-alive (5 s) ends them: reusing
    # one the server is closing fails with a ReadError.
    limits = httpx.Limits(keepalive_expiry=2.0)
    async with httpx.AsyncClient(
        base_url=url, timeout=timeout, cookies=jar, trust_env=False, limits=limits
    ) as http:
        yield http


def checked(response: httpx.Response) -> None:
    """Raise the server's own words for a refused HTTP request."""
    if response.is_error:
        path, status = response.request.url.path, response.status_code
        raise ClientError("error.loadtest.http", path=path, status=status, body=response.text)


async def presets(http: httpx.AsyncClient) -> dict[str, Any]:
    """``GET /api/presets``: the rule presets, options, bot levels and signals; the first
    request to a server, so its failure says the server cannot be reached."""
    try:
        response = await http.get("/api/presets")
        response.raise_for_status()
    except httpx.HTTPError as exc:
        url = str(http.base_url).rstrip("/")
        raise ClientError("error.loadtest.unreachable", url=url, reason=str(exc)) from None
    found: dict[str, Any] = response.json()
    return found


async def guest(http: httpx.AsyncClient, name: str) -> str:
    """A new guest's session, as a ``Cookie`` header value."""
    response = await http.post("/api/guest", json={"name": name})
    checked(response)
    return "; ".join(f"{k}={v}" for k, v in response.cookies.items())


async def create_table(
    http: httpx.AsyncClient, cookie: str, config: dict[str, Any]
) -> dict[str, Any]:
    """Create a table with ``config`` (a ``TableConfig`` as JSON) as the user of ``cookie``;
    its ``TableInfo``."""
    response = await http.post("/api/tables", json=config, headers={"Cookie": cookie})
    checked(response)
    info: dict[str, Any] = response.json()
    return info
