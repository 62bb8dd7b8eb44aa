"""Reading a game from outside: its events, the hands dealt, and everything observable."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from baohuang import Card, Game, parse_cards
from helpers.cards import SEATS

Pub = dict[str, Any]
Snapshot = tuple[tuple[str, ...], int, int]


def public_events(game: Game, kind: str) -> list[Pub]:
    """The public fields of every event of ``kind``."""
    return [e.public for e in game.events if e.kind == kind]


def kinds(game: Game) -> list[str]:
    """The kinds of the game's events, in order."""
    return [e.kind for e in game.events]


def dealt_hands(game: Game, deal: int = 0) -> list[Counter[Card]]:
    """Each seat's hand as dealt in deal number ``deal`` (from the private deal event)."""
    event = [e for e in game.events if e.kind == "deal"][deal]
    return [Counter(parse_cards(event.private[s]["hand"])) for s in range(SEATS)]


def snapshot(game: Game) -> Snapshot:
    """Everything observable: every seat's and a spectator's view, and the log lengths."""
    seats = (None, *range(SEATS))
    views = tuple(json.dumps(game.view(seat).to_json(), sort_keys=True) for seat in seats)
    return views, len(game.events), len(game.actions)
