"""What each event says (叙述) comes with it: a table event holding engine events carries, for
each, the narration templates and fields the text layer chose as the receiving seat sees the
game (the page only puts them in words), live and in a snapshot after a restart (a replay's
steps: tests/server/test_replay_steps.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baohuang import Game, Match
from baohuang.bots import RandomBot
from baohuang.engine.rules import PRESETS
from baohuang.engine.state import SEATS
from baohuang.server.table.tablelog import ENGINE_KINDS, Logged, TableLog
from baohuang.text.narration import NARRATION
from baohuang.text.narrator import Narration
from helpers.tables import Client, Harness


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def told(events: list[dict[str, Any]]) -> list[list[list[Any]]]:
    """What the terminal's narration says of ``events``, told in order from a fresh one."""
    narration = Narration()
    return [narration.says_json(event) for event in events]


def engine_events(client: Client) -> list[dict[str, Any]]:
    return [data for _, data in client.events if data["kind"] in ENGINE_KINDS]


def test_every_engine_event_says_what_it_tells_as_its_seat_sees_it(harness: Harness) -> None:
    (me,) = harness.create(people=1, timer=1, pause=5)
    watcher = harness.connect(None, None)
    while not harness.actor.state.game.is_over:  # the timer puts me on 托管; the bots play on
        harness.step()
    for client in (me, watcher):
        received = engine_events(client)
        assert received and all(len(d["says"]) == len(d["events"]) for d in received)
        events = [event for d in received for event in d["events"]]
        assert [said for d in received for said in d["says"]] == told(events)
        keys = {key for d in received for said in d["says"] for key, _ in said}
        assert keys <= NARRATION.keys() and "event.play" in keys
    deal_says = {c.seat: engine_events(c)[0]["says"][0] for c in (me, watcher)}
    assert ["event.hand", None] in deal_says[me.seat]  # R14: one's own hand, to oneself
    assert all(key != "event.hand" for key, _ in deal_says[None])


def test_a_snapshot_after_a_restart_says_what_the_live_events_said(harness: Harness) -> None:
    (me,) = harness.create(people=1)
    for _ in range(8):  # a few of my turns (the bots play between them)
        for _ in range(200):
            if me.my_turn():
                break
            harness.step()
        hint = harness.send(me, "hint")["d"]["hint"]
        assert harness.send(me, "act", action=hint)["t"] == "ack"
    live = engine_events(me)
    harness.restart()
    again = harness.connect(me.user, me.name, me.token)
    (snapshot,) = [m["d"] for m in again.messages if m["t"] == "snapshot"]
    history = [d for d in snapshot["history"] if d["kind"] in ENGINE_KINDS]
    assert [d["says"] for d in history] == [d["says"] for d in live[: len(history)]]
    assert len(history) >= len(live)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_seat_is_told_as_a_narration_of_its_own_copies_would_tell_it(name: str) -> None:
    """The table narrates once for all and again only for the seats an action told something
    privately (the narration follows public fields alone): the same as each seat's own."""
    match = Match(PRESETS[name], games=2, seed=f"says/{name}")
    bots = [RandomBot(f"{name}/{seat}") for seat in range(SEATS)]
    log, copies = TableLog(), {seat: [] for seat in (None, *range(SEATS))}
    game: Game | None = match.game
    while game is not None:
        while (seat := game.current_seat) is not None:
            fresh = game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
            private = {
                s: {"events": [e.to_json(s) for e in fresh]}
                for s in range(SEATS)
                if any(s in e.private for e in fresh)
            }
            log.add(Logged("game", {"events": [e.to_json(None) for e in fresh]}, private))
            for viewer, events in copies.items():
                events += [e.to_json(viewer) for e in fresh]
        game = match.next_game()
    for viewer, events in copies.items():
        assert [said for logged in log for said in logged.says[viewer]] == told(events)
