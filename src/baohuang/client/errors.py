"""What the protocol clients raise."""

from __future__ import annotations

from ..engine.errors import BaohuangError


class ClientError(BaohuangError):
    """A client cannot go on: the server is unreachable or refused it, or a setting names an
    unknown preset or bot."""


class ProtocolViolation(Exception):
    """The server sent something that is not a protocol message, or broke its sequence."""


class ConnectionLost(ConnectionError):
    """A seat's connection closed during a match and no server took the seat back in time."""
