"""Slow and large clients (慢速连接, 超大请求): a request must arrive whole, and small, soon after
it begins.

uvicorn times a connection out only between requests (keep-alive), and keeps a request's body
in memory as it arrives: a client that sends half a request and waits holds a socket, a
descriptor and memory for as long as it likes, and six 100 MB bodies took 2.35 GB.
:class:`TimedRequests` closes a connection whose request line and headers have not all arrived
within :data:`REQUEST_TIMEOUT` seconds of its first byte (or of the connection itself), or
whose body has not arrived within as long again of the headers; and answers 413 and closes
one whose body is, or says it will be, larger than :data:`MAX_BODY` (the API's bodies are a
few hundred bytes of JSON), before keeping any of it. A node reachable without nginx
(compose.yaml publishes its port) protects itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a request's line and headers may take to arrive (``baohuang serve --request-timeout``),
#: and its body after them.
REQUEST_TIMEOUT = 10.0
#: Bytes a request's body may hold.
MAX_BODY = 64 * 1024
_TOO_LARGE = f"请求太大 request body too large: at most {MAX_BODY} bytes\n".encode()
TOO_LARGE = (
    b"HTTP/1.1 413 Content Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TOO_LARGE), _TOO_LARGE)
)


class TimedRequests(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers and body, and a
    cap on its body."""

    request_timeout = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        #: Bytes of the current request's body so far.
        self._body = 0

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
        self._body = 0
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        if self.parser.should_upgrade():
            return  # a WebSocket: no body, its own limits
        declared = dict(self.headers).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            self._refuse()
        else:
            self._arm()  # the body's deadline

    def on_body(self, body: bytes) -> None:
        self._body += len(body)
        if self._body > MAX_BODY:  # chunked, or more than it said
            self._refuse()
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _refuse(self) -> None:
        """413 and close, keeping none of the body."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(TOO_LARGE)
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def timed_requests(seconds: float) -> type[TimedRequests]:
    """The protocol class with ``seconds`` for a request's headers."""
    return type("TimedRequests", (TimedRequests,), {"request_timeout": seconds})
