"""Slow and large clients (慢速连接, 超大请求): a request must arrive whole, and small, soon after
it begins.

uvicorn times a connection out only between requests (keep-alive), and keeps a request's body
in memory as it arrives: a client that sends half a request and waits holds a socket, a
descriptor and memory for as long as it likes, and six 100 MB bodies took 2.35 GB.
:class:`TimedRequests` closes a connection whose request line and headers have not all arrived
within :data:`REQUEST_TIMEOUT` seconds of its first byte (or of the connection itself), or
whose body has not arrived within as long again of the headers; and answers 413 and closes
one whose body is, or says it will be, larger than :data:`MAX_BODY` (the API's bodies are a
few hundred bytes of JSON), before keeping any of it.

Descriptors are the other thing slow clients take: 1,100 slow posts from 28 addresses had
held all 1,024 of a node's, and every visitor failed while they lasted. An address holds at
most :data:`CONNECTIONS_PER_ADDRESS` connections (a trusted proxy or an exempt address any
number), ``serve`` raises its descriptor limit as far as the system lets it, and when the
node's connections reach :attr:`Connections.capacity` a new one makes the oldest connection
still waiting for its request go (the slowest client), so the one a visitor opens is served.
A node reachable without nginx (compose.yaml publishes its port) protects itself.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from collections.abc import Iterable
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
#: HTTP connections one address may hold open at once (WebSockets are counted apart:
#: :data:`~baohuang.server.ratelimits.SOCKETS_PER_ADDRESS`). A browser holds a few; a 网吧
#: behind one address, a few each.
CONNECTIONS_PER_ADDRESS = 128
#: Descriptors kept for the node's own files, database and Redis connections and bot workers.
RESERVED_DESCRIPTORS = 128


def raise_descriptor_limit() -> int:
    """The process's descriptor limit raised to the hard limit (Debian's soft limit is 1,024,
    its hard one far more); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft


class Connections:
    """The node's HTTP connections by address, and those waiting for their request, oldest
    first: the first to go when the node runs short of descriptors."""

    def __init__(self, capacity: int, unlimited: Iterable[str] = ()) -> None:
        #: Connections (HTTP and WebSocket) the node holds before an old waiting one goes.
        self.capacity = capacity
        #: Addresses held to no per-address count (trusted proxies, exempt addresses; ``*``:
        #: every address, as ``--proxy '*'`` trusts every one).
        self.unlimited = frozenset(unlimited)
        self.by_address: Counter[str] = Counter()
        self.waiting: dict[TimedRequests, None] = {}

    def admit(self, address: str) -> bool:
        """Whether ``address`` may open one more connection (counted when it may)."""
        if address not in self.unlimited and "*" not in self.unlimited:
            if self.by_address[address] >= CONNECTIONS_PER_ADDRESS:
                return False
            self.by_address[address] += 1
        return True

    def release(self, address: str) -> None:
        if address in self.by_address:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]

    def make_room(self, open_now: int, newcomer: TimedRequests) -> bool:
        """At capacity, close the oldest connection waiting for its request; whether there
        is room for ``newcomer`` now."""
        if open_now <= self.capacity:
            return True
        oldest = next((c for c in self.waiting if c is not newcomer), None)
        if oldest is None:
            return False
        oldest.close()
        return True


class TimedRequests(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers and body, and a
    cap on its body."""

    request_timeout = REQUEST_TIMEOUT
    #: The node's connections (one object shared by every connection: :func:`timed_requests`).
    guard = Connections(1 << 20)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        #: Bytes of the current request's body so far.
        self._body = 0
        #: The address this connection is counted under, while it is.
        self._address: str | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self.close)
        self.guard.waiting[self] = None

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.guard.waiting.pop(self, None)

    def close(self) -> None:
        """Close the connection (too slow, or its descriptor wanted)."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if not self.guard.admit(address):
            transport.abort()
            return
        self._address = address
        self._arm()
        if not self.guard.make_room(len(self.connections), self):
            self.close()

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

    def _let_go(self) -> None:
        """Stop counting this connection."""
        self._disarm()
        if self._address is not None:
            self.guard.release(self._address)
            self._address = None

    def handle_websocket_upgrade(self) -> None:
        self._let_go()  # a WebSocket now: counted by the table sockets' own limits
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._let_go()
        super().connection_lost(exc)


def timed_requests(seconds: float, unlimited: Iterable[str] = ()) -> type[TimedRequests]:
    """The protocol class with ``seconds`` for a request's headers and body, and one
    :class:`Connections` for a node whose descriptor limit is raised as far as it goes
    (``unlimited``: addresses held to no per-address count)."""
    guard = Connections(max(64, raise_descriptor_limit() - RESERVED_DESCRIPTORS), unlimited)
    return type("TimedRequests", (TimedRequests,), {"request_timeout": seconds, "guard": guard})
