"""The replay (回放) of a stored game: its steps with every hand open, and its results.

A step is the spectator view and the five hands after a recorded action. The engine applies
the steps that leave no choice by itself (the tribute, R12 进贡 and R6.8 清3, before the first
action; a void deal dealt again, R8.6), so they leave events but no action: the replay adds a
step at each of them (the hands as dealt before the tribute, each card paid, the cards handed
over) so that who paid what to whom is seen, told by the step's ``events``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate

from sqlalchemy import select

from ...engine.events import Event, EventKind, TributeEvent, TributePaidEvent
from ...engine.game import Game
from ...engine.record import check_record
from ...engine.rules import Rules
from ...engine.scoring import GameResult
from ...engine.state import P
from ...text.narrator import Narration
from ..store import EventRow, GameRow, Store
from .results import record_result

#: The events a step is kept at: R12 进贡 (and R6.8 清3 cards), and the void deal before one.
NOTED: tuple[EventKind, ...] = ("void", "tribute_due", "tribute_paid", "tribute")


class _Stepping(Game):
    """A game that keeps a step at each :data:`NOTED` event it makes, applied by itself or
    not."""

    __slots__ = ("noted",)

    def __init__(self, record: dict[str, Any]) -> None:
        self.noted: list[dict[str, Any]] = []
        before = record.get("previous")
        previous = GameResult.from_dict(before) if before else None
        rules = Rules.from_dict(record["rules"])
        super().__init__(rules, record.get("seed", ""), previous, record.get("deals"))

    def _emit(
        self, make: Callable[Concatenate[int, P], Event], *args: P.args, **kw: P.kwargs
    ) -> None:
        super()._emit(make, *args, **kw)
        event = self.events[-1]
        kind = event.kind
        if kind not in NOTED:
            return
        told = event.to_json(None)
        if isinstance(event, TributePaidEvent):  # R12: the card paid, open in a replay
            told = event.to_json(event.seat)
        elif isinstance(event, TributeEvent):  # each card handed over, by receiver
            told["cards"] = sorted(event.handed(), key=lambda move: move["to"])
        step = _step(self, None, [told])
        # The seat to act next: the next payer; nobody once the cards are handed over.
        due = self.tribute_due
        step["view"]["turn"] = due[0][0] if kind != "void" and due else None
        self.noted.append(step)

    def take_noted(self) -> list[dict[str, Any]]:
        noted, self.noted = self.noted, []
        if not any(step["events"][0]["kind"] != "void" for step in noted):
            return []  # a void deal with no tribute after it: the next step shows the deal
        return noted


def _step(
    game: Game, action: dict[str, Any] | None, events: list[dict[str, Any]]
) -> dict[str, Any]:
    narration = Narration()  # each step told on its own, as the page shows it
    return {
        "action": action,
        "events": events,
        "says": [narration.says_json(event) for event in events],
        "view": game.view(None).to_json(),
        "hands": [game.hand_text(seat) for seat in range(5)],
    }


def _steps(game: _Stepping, action: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The steps of one recorded action (``None``: the deal): the noted steps, the first of
    them the action's own (a tribute card paid by choice, a decline that voided the deal),
    and the state it leaves unless a tribute card is still to pay (the last noted step)."""
    noted = game.take_noted()
    now = _step(game, action, [])
    if not noted:
        return [now]
    if action is not None:
        noted[0]["action"] = action
    if now["view"]["phase"] == "tribute":  # a payer choosing between equal copies is asked
        noted[-1].update(view=now["view"], hands=now["hands"])
        return noted
    now["action"] = None
    return [*noted, now]


def replay_views(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game step by step with every hand open: the spectator view and the five
    hands before the first action (before the tribute, and each card of it) and after each;
    each step's ``action`` (or ``None``), the ``events`` it shows (R12 进贡, void deals) and
    what they say (``says``, as a table event's)."""
    check_record(record)
    game = _Stepping(record)
    steps = _steps(game, None)
    for entry in record["actions"]:
        game.apply(entry["action"], entry["seat"])
        steps += _steps(game, entry)
    return steps


async def replay_result(store: Store, row: GameRow) -> dict[str, Any] | None:
    """The game's results as the table's results window showed them (R10, R10.4, R13): its
    ``game_over`` event (:func:`.results.game_over_data`), else worked out from the record
    alone (:func:`.results.record_result`)."""
    async with store.sessions() as session:
        told = await session.execute(
            select(EventRow.public).where(
                EventRow.table_id == row.table_id, EventRow.kind == "game_over"
            )
        )
        for (public,) in told:
            if public.get("record") == row.id:
                return dict(public)
    return record_result(row.record, row.id)
