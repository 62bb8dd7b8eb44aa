"""GET /api/text: the message catalog the page takes its words from (static/i18n.js)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from baohuang.server.app import create_app
from baohuang.text.catalog import MESSAGES


def get_text(tmp_path: Path, headers: dict[str, str] | None = None) -> httpx.Response:
    """``GET /api/text`` from an app in process (the route needs no database)."""
    app = create_app(f"sqlite:///{tmp_path / 'text.db'}")

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/api/text", headers=headers)

    return asyncio.run(fetch())


def test_text_serves_every_message_in_both_languages(tmp_path: Path) -> None:
    answer = get_text(tmp_path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    served = answer.json()
    assert served == {key: list(pair) for key, pair in MESSAGES.items()}
    assert served["role.emperor"] == ["皇帝", "emperor"]
    assert "event.play" in served and any(key.startswith("error.") for key in served)


def test_text_is_revalidated_by_its_etag(tmp_path: Path) -> None:
    first = get_text(tmp_path)
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache" and etag.startswith('"')
    again = get_text(tmp_path, {"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert get_text(tmp_path, {"If-None-Match": '"stale"'}).status_code == 200
