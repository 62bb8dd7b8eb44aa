"""A table's event log (事件记录) as kept in memory: what each seat may see of every event.

Event kinds: ``sit`` ``leave`` ``ready`` ``auto`` ``connected`` ``signal`` (the table),
``start`` ``game`` ``game_over`` ``match_over`` (the match; a ``game`` event holds the engine
events of one action, and the action itself in its stored ``secret``). An event holding engine
events says, beside them, what each tells (``says``, :mod:`baohuang.text.narrator`), as each
seat sees the game: the page only puts those templates and fields in words.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ...engine.state import SEATS
from ...text.narrator import Narration

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
    #: What each engine event says, as each seat (``None``: a spectator) sees it
    #: (:meth:`TableLog.add` fills it in).
    says: dict[int | None, list[list[list[Any]]]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` sees it (``None``: a spectator), R14."""
        data = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        if self.says:
            data["says"] = self.says[seat]
        return data


class TableLog(list[Logged]):
    """Every event of a table, in order; event ``n`` (from 1) is ``self[n - 1]``."""

    def __init__(self) -> None:
        super().__init__()
        #: The number of the latest event that changed a game's state (0: none yet).
        self.last_game_seq = 0
        #: The narration of the games so far. It follows public fields alone, so every seat's
        #: is the spectator's: a seat's own copies are told from a copy of it (:meth:`add`).
        self.narration = Narration()

    @property
    def seq(self) -> int:
        return len(self)

    def add(self, logged: Logged) -> None:
        self.append(logged)
        if logged.kind in ENGINE_KINDS:
            self.last_game_seq = len(self)
            owns = {seat: logged.private.get(seat, {}).get("events") for seat in range(SEATS)}
            private = any(own is not None for own in owns.values())
            before = copy.copy(self.narration) if private else None  # for the seats' own
            said = [self.narration.says_json(event) for event in logged.public["events"]]
            logged.says[None] = said
            for seat, own in owns.items():
                if own is None or before is None:  # the spectator's copies: said alike
                    logged.says[seat] = said
                else:
                    narration = copy.copy(before)
                    logged.says[seat] = [narration.says_json(event) for event in own]

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """The current (or last) game's events from its ``start`` on, as ``seat`` sees them."""
        start = next((i for i in range(len(self) - 1, -1, -1) if self[i].kind == "start"), None)
        if start is None:
            return []
        return [{"seq": i + 1, **self[i].for_seat(seat)} for i in range(start, len(self))]
