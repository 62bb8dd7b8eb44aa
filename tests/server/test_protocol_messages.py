"""What a table sends is what the protocol documents (docs/protocol.md): every message of a
whole match validates against the protocol's models, the engine's view (R14) and its events by
kind included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from baohuang import Match, Rules
from baohuang.bots import RandomBot
from baohuang.engine.rules import PRESETS
from baohuang.engine.views import View, ViewData
from baohuang.protocol import messages
from baohuang.protocol.messages import SeatEvent, ServerMessage
from helpers.tables import Harness

SERVER: TypeAdapter[object] = TypeAdapter(ServerMessage)
EVENTS: TypeAdapter[list[SeatEvent]] = TypeAdapter(list[SeatEvent])
VIEW: TypeAdapter[ViewData] = TypeAdapter(messages.View)
VIEWERS = (None, 0, 1, 2, 3, 4)


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_views_and_events_of_every_preset_are_documented(name: str) -> None:
    """Two games (the second with tribute, R12) of random bots: each seat's events, and its
    views now and then, validate; a view's JSON is its schema's, and reads back as an equal
    View."""
    rules: Rules = PRESETS[name]
    match = Match(rules, games=2, seed=f"protocol/{name}")
    bots = [RandomBot(f"{name}/{seat}") for seat in range(5)]
    while True:
        game = match.game
        while (seat := game.current_seat) is not None:
            if len(game.actions) % 7 == 0:
                for viewer in VIEWERS:
                    check_view(game.view(viewer))
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        for viewer in VIEWERS:
            EVENTS.validate_python(game.events_for(viewer))
            check_view(game.view(viewer))
        if match.next_game() is None:
            break


def check_view(view: View) -> None:
    """``view``'s JSON validates against the documented schema, nothing dropped or changed,
    and reads back as ``view``."""
    data = view.to_json()
    assert VIEW.dump_python(VIEW.validate_python(data), mode="json") == data
    assert View.from_json(data) == view


def test_every_message_of_a_match_is_a_server_message(harness: Harness) -> None:
    """Welcome, snapshots (with their history), live and replayed events, acks: a person on
    托管 and four bots play two games, watched from the start, joined late and rejoined."""
    (person,) = harness.create(people=1, games=2, pause=0)
    watcher = harness.connect(None, None)
    assert harness.send(person, "auto", on=True)["t"] == "ack"
    play_until(harness, 60)
    late = harness.connect(None, None)  # a snapshot mid-game, with its history
    harness.drop(person)
    play_until(harness, 120)
    again = harness.reconnect(person)  # the events missed, replayed
    while harness.actor.state.status != "finished":
        harness.step()
    (snapshot,) = [m["d"] for m in late.messages if m["t"] == "snapshot"]
    assert snapshot["view"] is not None and snapshot["history"]
    assert [m["t"] for m in again.messages[1:]] == ["event"] * (len(again.messages) - 1) != []
    for client in (person, watcher, late, again):
        for message in client.messages:
            SERVER.validate_python(message)


def play_until(harness: Harness, moves: int) -> None:
    """Let the table play until its match has made ``moves`` engine actions."""
    while sum(1 for e in harness.actor.state.log if e.kind == "game") < moves:
        harness.step()


def test_a_commands_answer_rides_in_the_frame_of_its_last_event(harness: Harness) -> None:
    """A command that caused events is answered in its last event's frame, on the connection
    that sent it alone (``a``); a repeat of it, a refusal and a command without events are
    answered in frames of their own. Every frame is a server message."""
    (person,) = harness.create(people=1, pause=0)
    watcher = harness.connect(None, None)
    sent, seen = len(person.frames), len(watcher.frames)
    answer = harness.send(person, "auto", on=True, id="fold-1")
    assert answer == {"t": "ack", "v": harness.actor.state.seq, "d": {"id": "fold-1"}}
    mine = [json.loads(text) for text in person.frames[sent:]]
    theirs = [json.loads(text) for text in watcher.frames[seen:]]
    assert [m["t"] for m in mine] == ["event"] * len(mine) != []  # no frame of the ack's own
    assert mine[-1]["a"] == {"id": "fold-1"} and mine[-1]["v"] == answer["v"]
    assert all("a" not in m for m in [*mine[:-1], *theirs])
    assert [m["d"]["kind"] for m in theirs] == [m["d"]["kind"] for m in mine]
    sent = len(person.frames)
    harness.send(person, "auto", on=True, id="fold-1")  # a repeat: its first answer again
    harness.send(person, "sit", id="fold-2")  # refused: seated already
    harness.send(person, "hint", id="fold-3")  # answered, nothing caused
    again = [json.loads(text) for text in person.frames[sent:]]
    assert [(m["t"], m["d"]["id"]) for m in again if m["t"] != "event"] == [
        ("ack", "fold-1"),
        ("error", "fold-2"),
        ("ack", "fold-3"),
    ]
    for text in [*person.frames, *watcher.frames]:
        SERVER.validate_json(text)
