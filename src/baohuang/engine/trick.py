"""The round in progress (R6.2) as views show it: each turn taken, and the play to beat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from .actions import PASS, Pass, PlayCards
from .cards import Card, card_texts, parse_cards
from .plays import Play


class TrickEntryData(TypedDict):
    """One turn of the round in progress."""

    seat: int
    """The seat that acted."""
    action: str
    """The cards played (card notation, space-separated) or ``pass``."""


class LeadData(TypedDict):
    """The play to beat in the round in progress (R6.2)."""

    seat: int
    """The seat that made it."""
    play: str
    """The play in rank notation (``99B``)."""
    cards: list[str]
    """The cards played, in card notation."""


@dataclass(frozen=True, slots=True)
class TrickEntry:
    """One turn of the round in progress (:data:`TrickEntryData`): a play or a pass."""

    seat: int
    action: PlayCards | Pass

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": str(self.action)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TrickEntry:
        text = data["action"]
        action = PASS if text == "pass" else PlayCards(tuple(parse_cards(text)))
        return TrickEntry(data["seat"], action)


@dataclass(frozen=True, slots=True)
class Lead:
    """The play to beat (:data:`LeadData`): who made it, the play and its cards."""

    seat: int
    play: Play
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": self.play.text, "cards": card_texts(self.cards)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Lead:
        return Lead(data["seat"], Play.parse(data["play"]), tuple(parse_cards(data["cards"])))
