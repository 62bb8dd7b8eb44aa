"""The engine's events are typed values (one frozen dataclass per kind, domain values in its
fields); notation appears only in their JSON, which is what the wire and records carry."""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest

from baohuang import Play
from baohuang.engine import events
from baohuang.engine.events import (
    CallEvent,
    DealEvent,
    DeclareEvent,
    Event,
    EventKind,
    GameOverEvent,
    OpenSoloEvent,
    PlayEvent,
    TributeEvent,
    TributePaidEvent,
)
from helpers.drivers import play_match
from helpers.rulesets import PRESET_NAMES, PRESETS


def event_classes() -> list[type[Event]]:
    return [
        value
        for value in vars(events).values()
        if isinstance(value, type) and issubclass(value, Event) and "kind" in vars(value)
    ]


def test_one_dataclass_per_event_kind() -> None:
    kinds = [cls.kind for cls in event_classes()]
    assert sorted(kinds) == sorted(get_args(EventKind))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r6_r7_r12_events_hold_domain_values_and_their_json_is_their_notation(name: str) -> None:
    _, games = play_match(f"events/{name}", games=2, rules=PRESETS[name])
    kinds = set()
    for game in games:
        for seq, event in enumerate(game.events):
            kinds.add(event.kind)
            assert event.seq == seq
            with pytest.raises(dataclasses.FrozenInstanceError):
                event.seq = seq + 1  # type: ignore[misc]
            spectator = event.to_json(None)
            assert spectator == {"seq": seq, "kind": event.kind, **event.public}
            if event.private:  # R14: its repr, as a log line would show it, keeps them out
                told = repr(event)
                hidden = ("hands", "guard", "forced", "auto", "transfers")
                assert not any(f"{name}=" in told for name in hidden)
                assert "card=" not in told or not isinstance(event, TributePaidEvent)
            for seat, fields in event.private.items():
                assert event.to_json(seat) == {**spectator, **fields}
            if isinstance(event, PlayEvent):  # R6.2: the play its cards make
                assert Play.from_cards(event.cards) is event.play
                assert spectator["play"] == event.play.text
                assert spectator["cards"] == [str(card) for card in event.cards]
            elif isinstance(event, DealEvent):  # R7: the hands as the record keeps them
                dealt = game.dealt[event.deal]["hands"]
                assert [[str(c) for c in hand] for hand in event.hands] == dealt
                assert event.private == {s: {"hand": hand} for s, hand in enumerate(dealt)}
            elif isinstance(event, TributeEvent):  # R12: each card told to payer and receiver
                for payer, to, card in event.transfers:
                    move = {"from": payer, "to": to, "card": str(card)}
                    assert move in event.private[payer]["cards"]
                    assert move in event.private[to]["cards"]
            elif isinstance(event, CallEvent):  # R8.7: the guard told, or the dark solo
                told = {event.seat: "solo"} if event.guard is None else {event.guard: "guard"}
                assert {s: next(iter(f)) for s, f in event.private.items() if s in told} == told
            elif isinstance(event, OpenSoloEvent):
                assert spectator["shown"] == ([str(event.card)] * 4 if event.card else [])
            elif isinstance(event, DeclareEvent):
                assert spectator["answer"] == str(event.answer)
            elif isinstance(event, GameOverEvent):
                assert event.result == game.result
    assert {"deal", "play", "pass", "out", "game_over"} <= kinds
