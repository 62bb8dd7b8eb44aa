"""Abuse limits (限流): what one connection, user or address may do, in moving windows kept by
the ``limits`` library in memory (keys expire, so memory stays bounded however many names or
addresses are tried).

An address is the peer's, or the client's named by ``X-Forwarded-For`` only when the peer is
one of the proxies ``baohuang serve --proxy`` names (uvicorn's proxy headers): a rotating
header from anyone else changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .refusals import AccountError

#: Messages a connection may send, and a user over all their connections: a person sends a
#: few a second; a program that plays the hint at once against four instant bots, waiting
#: for each answer, sent about 320 a second on two cores (and ran into a limit of 200 on a
#: faster machine), so the limit stays well above that; the events a flood could make are
#: limited by :data:`TABLE_COMMANDS`.
CONNECTION_MESSAGES = 1000
USER_MESSAGES = 2000
#: Commands that make a table event without moving a game on (ready, 托管, bots, seats), per
#: user: toggling them cannot flood a table.
TABLE_COMMANDS = parse("5/second")
TABLE_OPS = frozenset({"sit", "leave", "ready", "start", "auto", "add_bot", "remove_bot"})
#: WebSockets open at once from one address.
SOCKETS_PER_ADDRESS = 64
#: Per address: tables created, guests made, accounts registered.
TABLES = parse("30/hour")
GUESTS = parse("60/hour")
REGISTRATIONS = parse("10/hour")
#: Room-code lookups (GET /api/rooms/{code}) per address: a few friends typing a code, not
#: enough to guess one of about a billion.
ROOM_LOOKUPS = parse("20/minute")
#: Failed logins: per address and name, per address over all names (password spraying), and
#: per name over all addresses (many addresses guessing one account's password). A login
#: holds one of each before its password is hashed, so a burst cannot exceed them.
LOGIN_FAILURES = parse("5/minute")
SPRAY_FAILURES = parse("30/hour")
NAME_FAILURES = parse("60/hour")
#: argon2 hashes at once (each takes 64 MiB): more wait their turn, at most
#: ``HASHES_WAITING`` of them; past that a login or registration is told to come back.
HASHES_AT_ONCE = 2
HASHES_WAITING = 32


class PerSecond:
    """Counts by key within the current second of the clock, for what every frame must
    check (a moving window of the ``limits`` library keeps a timestamp per hit and starts an
    expiry thread): at most ``limit`` a second, forgotten when the second turns."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.second = 0
        self.counts: dict[str, int] = {}

    def allow(self, key: str) -> bool:
        """Count one more for ``key``; whether it was within the limit."""
        now = int(time.monotonic())
        if now != self.second:
            self.second, self.counts = now, {}
        count = self.counts[key] = self.counts.get(key, 0) + 1
        return count <= self.limit


class Limits:
    """The server's limits, one moving-window limiter over them all. Addresses in ``exempt``
    (a load generator's: ``serve --exempt``) are not held to the per-address limits."""

    def __init__(self, exempt: Iterable[str] = ()) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.exempt = frozenset(exempt)
        self.connection_messages = PerSecond(CONNECTION_MESSAGES)
        self.user_messages = PerSecond(USER_MESSAGES)
        #: Open WebSockets by address.
        self.sockets: dict[str, int] = {}
        #: Hits held by attempts in progress (:meth:`reserve`), by limit and key.
        self.held: dict[tuple[str, ...], int] = {}

    def allow(self, item: RateLimitItem, *key: str) -> bool:
        """Count one more against ``item`` for ``key``; whether it was within the limit."""
        return self.limiter.hit(item, *key)

    def message(self, connection: str, user: str) -> bool:
        """Count a message of ``connection`` (and its ``user``'s); whether both are within
        their limits."""
        return self.connection_messages.allow(connection) and self.user_messages.allow(user)

    def check(self, item: RateLimitItem, refusal: str, *key: str) -> None:
        """:meth:`allow`, or a 429 with message ``refusal`` (naming what was done too often);
        a key ending in an exempt address is not counted."""
        if key[-1] in self.exempt:
            return
        if not self.allow(item, *key):
            raise AccountError(429, "rate_limited", refusal, limit=str(item))

    def reserve(self, item: RateLimitItem, *key: str) -> bool:
        """Hold one of the hits ``key`` has left under ``item`` for an attempt in progress,
        counted by :meth:`release` once its outcome is known; ``False`` (nothing held) when
        the hits counted and held leave none. Checking before the work and counting after it
        would let a burst of attempts all pass the check."""
        held = (str(item), *key)
        remaining = self.limiter.get_window_stats(item, *key).remaining
        if remaining - self.held.get(held, 0) <= 0:
            return False
        self.held[held] = self.held.get(held, 0) + 1
        return True

    def release(self, item: RateLimitItem, *key: str, count: bool) -> None:
        """Give back a hit :meth:`reserve` held; ``count``: the attempt counts (it failed)."""
        held = (str(item), *key)
        left = self.held.get(held, 1) - 1
        if left:
            self.held[held] = left
        else:
            self.held.pop(held, None)
        if count:
            self.allow(item, *key)

    def blocked(self, item: RateLimitItem, *key: str) -> bool:
        """Whether ``key`` is at its limit now (counting nothing)."""
        return not self.limiter.test(item, *key)

    def open_socket(self, address: str) -> bool:
        """Count a WebSocket from ``address``; ``False`` (not counted) when at the limit."""
        if self.sockets.get(address, 0) >= SOCKETS_PER_ADDRESS and address not in self.exempt:
            return False
        self.sockets[address] = self.sockets.get(address, 0) + 1
        return True

    def close_socket(self, address: str) -> None:
        left = self.sockets.get(address, 1) - 1
        if left:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)
