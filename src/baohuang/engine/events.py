"""Game events: the log every state change leaves, filtered per seat (R14).

Each event has a sequence number, a kind, public fields every seat and spectator sees, and
private fields that only named seats see. A seat's copy of an event is the public fields with
that seat's private fields merged in, so every seat gets every sequence number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """A copy of this event as ``seat`` may see it (``None``: a spectator, public only)."""
        out = {"seq": self.seq, "kind": self.kind, **_copy(self.public)}
        if seat is not None and seat in self.private:
            out.update(_copy(self.private[seat]))
        return out


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
