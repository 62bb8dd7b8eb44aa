"""A table's event log (事件记录) as kept in memory: what each seat may see of every event.

Event kinds: ``sit`` ``leave`` ``ready`` ``auto`` ``connected`` ``signal`` (the table),
``start`` ``game`` ``game_over`` ``match_over`` (the match; a ``game`` event holds the engine
events of one action, and the action itself in its stored ``secret``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Events that change the table header: they carry the whole TableInfo.
TABLE_KINDS = frozenset(
    {"sit", "leave", "ready", "auto", "connected", "start", "game_over", "match_over"}
)
#: Events holding engine events (the game's state changed): they carry the seat's view.
ENGINE_KINDS = frozenset({"start", "game"})


@dataclass(frozen=True, slots=True)
class Logged:
    """One stored event, as the table keeps it for resyncs."""

    kind: str
    public: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` sees it (``None``: a spectator), R14."""
        data = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        return data


class TableLog(list[Logged]):
    """Every event of a table, in order; event ``n`` (from 1) is ``self[n - 1]``."""

    def __init__(self) -> None:
        super().__init__()
        #: The number of the latest event that changed a game's state (0: none yet).
        self.last_game_seq = 0

    @property
    def seq(self) -> int:
        return len(self)

    def add(self, logged: Logged) -> None:
        self.append(logged)
        if logged.kind in ENGINE_KINDS:
            self.last_game_seq = len(self)

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """The current (or last) game's events from its ``start`` on, as ``seat`` sees them."""
        start = next((i for i in range(len(self) - 1, -1, -1) if self[i].kind == "start"), None)
        if start is None:
            return []
        return [{"seq": i + 1, **self[i].for_seat(seat)} for i in range(start, len(self))]
