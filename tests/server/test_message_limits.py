"""The per-message limits (200 a second per connection, 400 per user): counted within each
second of the clock, forgotten when it turns."""

from __future__ import annotations

import pytest

from baohuang.server import ratelimits
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
