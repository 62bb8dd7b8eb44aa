"""The per-message limits (200 a second per connection, 400 per user): counted within each
second of the clock, forgotten when it turns; and the bytes queued for a connection and a user
that does not read."""

from __future__ import annotations

import pytest

from baohuang.server import ratelimits
from baohuang.server.connection import MAX_QUEUED_BYTES, MAX_USER_BYTES, Conn
from baohuang.server.ratelimits import CONNECTION_MESSAGES, USER_MESSAGES, Limits


def test_a_connection_and_a_user_get_their_messages_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.2]
    monkeypatch.setattr(ratelimits.time, "monotonic", lambda: now[0])
    limits = Limits()
    assert all(limits.message("c1", "u1") for _ in range(CONNECTION_MESSAGES))
    assert not limits.message("c1", "u1")  # the connection's limit
    # The same user on another connection: the user's messages run out at USER_MESSAGES
    # (the refused one above counted for the connection only).
    allowed = sum(limits.message("c2", "u1") for _ in range(USER_MESSAGES))
    assert allowed == USER_MESSAGES - CONNECTION_MESSAGES
    assert limits.message("c3", "u2")  # someone else is not held up
    now[0] = 1001.0  # the next second
    assert limits.message("c1", "u1")


def test_a_connection_that_does_not_read_is_closed_by_bytes_and_gives_them_back() -> None:
    """Bytes, not messages, bound a connection's queue (MAX_QUEUED_BYTES) and all of one
    user's queues together (MAX_USER_BYTES): the connection that would pass either is closed
    and what it held dropped; a close after a last message still sends it."""
    big = "x" * (MAX_QUEUED_BYTES // 3)
    lazy = Conn(7, "懒")
    for _ in range(3):
        lazy.send(big)
    assert not lazy.closed and lazy.queued == 3 * len(big)
    lazy.send(big)  # past the connection's bytes
    assert lazy.closed and lazy.queued == 0 and 7 not in Conn.queued_by_user
    many = [Conn(8, "多") for _ in range(MAX_USER_BYTES // MAX_QUEUED_BYTES + 2)]
    for conn in many:
        for _ in range(3):
            conn.send(big)
    closed = [conn.closed for conn in many]
    assert closed.count(True) == 2 and not any(closed[:-2])  # the user's bytes ran out
    assert Conn.queued_by_user[8] <= MAX_USER_BYTES
    for conn in many:
        conn.close(drop=True)
    assert 8 not in Conn.queued_by_user
    last = Conn(9, "末")
    last.send('{"t":"error"}')
    last.close()  # not dropped: the error goes out before the close
    assert last.taken() == ['{"t":"error"}']
