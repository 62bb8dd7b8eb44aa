"""Slow clients (慢速连接): a request must arrive whole soon after it begins.

uvicorn times a connection out only between requests (keep-alive); a client that sends half a
request and waits holds a socket, a descriptor and memory for as long as it likes, and a
thousand such clients exhaust the server. :class:`TimedRequests` closes a connection whose
request line and headers have not all arrived within :data:`REQUEST_TIMEOUT` seconds of its
first byte (or of the connection itself).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a request's line and headers may take to arrive (``baohuang serve --request-timeout``).
REQUEST_TIMEOUT = 10.0


class TimedRequests(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers."""

    request_timeout = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def timed_requests(seconds: float) -> type[TimedRequests]:
    """The protocol class with ``seconds`` for a request's headers."""
    return type("TimedRequests", (TimedRequests,), {"request_timeout": seconds})
