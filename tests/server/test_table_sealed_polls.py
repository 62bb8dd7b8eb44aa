"""R14 at a table: the sealed polls (明保, 造反) ask every seat at once, and nothing any other
connection receives depends on who answered when.

The real table actor in-process on a fake clock (tests/helpers/tables.py): the frames compared
are the exact texts the actor hands each connection's socket. Two runs deal the same cards
(the same harness seed) and differ only in who answers fast and who slowly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers.tables import Client, Harness

#: weihai deals where the guard is a person and the emperor is not asked: (seed, people).
#: Seed 0 with five people: emperor 1, guard 4; seed 8 with two people and three bots:
#: emperor 4 (a bot), guard 0, and person 1 a rebel.
DEALS = {5: 0, 2: 8}
#: Seconds after a poll opens at which its people answer, fastest first.
SLOTS = (1.0, 3.0, 7.0, 12.0)


def role_answer(view: dict[str, Any]) -> str:
    """Before the sealed polls: pass in 明独 (R9.2), 登基 as the R* holder (R9.3)."""
    legal = view["legal"]
    return next((a for a in ("pass", "accept") if a in legal), legal[0])


def table(folder: Path, people: int, **config: Any) -> tuple[Harness, list[Client], Client]:
    """A weihai table of ``people`` people (seats 0…) and bots, its first game at the 明保
    poll (R9.4), and a spectator who came before the deal."""
    folder.mkdir(exist_ok=True)
    kit = Harness(folder, seed=DEALS[people])
    settings = {"preset": "weihai", "timer": 30, "bot_delay": 0.8, **config}
    seated = kit.create(people, **settings)
    if kit.actor.state.status != "playing":  # the spectator is in before the deal either way
        raise AssertionError("the table did not start")
    spectator = kit.connect(99, "观众")
    for _ in range(400):
        if kit.actor.state.game.sealed:
            break
        acting = [c for c in seated if c.my_turn()]
        if acting:
            assert kit.send(acting[0], "act", action=role_answer(acting[0].view))["t"] == "ack"
        else:
            kit.step()
    game = kit.actor.state.game
    assert game.poll == "show" and game.guard is not None and game.guard < people
    return kit, seated, spectator


def frames_since(client: Client, mark: int) -> list[dict[str, Any]]:
    return client.messages[mark:]


def others_frames(client: Client, mark: int) -> list[str]:
    """What ``client`` received since ``mark`` that is not its own view or ack: every event
    and snapshot, as JSON text."""
    return [
        json.dumps(m, ensure_ascii=False, sort_keys=True)
        for m in frames_since(client, mark)
        if m["t"] not in ("view", "ack")
    ]


def answer_poll(
    kit: Harness, people: list[Client], schedule: list[tuple[int, float]], choose: dict[int, str]
) -> None:
    """Each seat of ``schedule`` answers the poll in progress ``at`` seconds after it opened
    (its ``choose`` answer, else ``pass``), in that order; the fake clock moves between."""
    poll = kit.actor.state.game.poll
    for seat, at in schedule:
        kit.advance(at - (kit.clock.now() - kit.actor.state.turn_since))
        assert kit.actor.state.game.poll == poll, "the poll closed before everyone answered"
        client = people[seat]
        assert client.my_turn() and client.view is not None
        action = choose.get(seat, "pass")
        assert action in client.view["legal"]
        assert kit.send(client, "act", action=action)["t"] == "ack"


def run(
    folder: Path, people: int, guard_first: bool, guard_answer: str
) -> tuple[list[list[str]], list[int], int]:
    """Both sealed polls of a game, its people answering at :data:`SLOTS` with the guard the
    fastest (``guard_first``) or the slowest (in 造反 the others rebel); per connection
    (seats, then the spectator) the frames it got that were not its own, from the 明保 poll's
    opening to the 造反 poll's close; the seats asked; the guard."""
    kit, seated, spectator = table(folder, people)
    try:
        game = kit.actor.state.game
        guard = game.guard
        assert guard is not None
        clients = [*seated, spectator]
        marks = [len(c.messages) for c in clients]
        for poll in ("show", "rebel"):
            assert game.sealed and game.poll == poll
            asked = list(game.to_act)
            mine = [s for s in asked if s < people]  # the people asked; the bots answer too
            others = [s for s in mine if s != guard]
            order = [guard, *others] if guard_first else [*others, guard]
            schedule = list(zip(order, SLOTS, strict=False))
            choose = {guard: guard_answer} if poll == "show" else dict.fromkeys(others, "rebel")
            before = [len(c.messages) for c in clients]
            answer_poll(kit, seated, schedule[:-1], choose)
            # R14: until the last answer nobody hears anything but their own view and ack.
            for seat, client in enumerate(clients):
                got = frames_since(client, before[seat])
                answered = seat in order[:-1]
                assert [m["t"] for m in got] == (["view", "ack"] if answered else [])
                if answered:
                    view = got[0]["d"]["view"]
                    assert view["turn"] is None and view["legal"] == []
                    assert view["answer"] == choose.get(seat, "pass")
            answer_poll(kit, seated, schedule[-1:], choose)
            assert game.poll != poll and kit.actor.state.log[-1].kind == "game"  # told together
        return [others_frames(c, m) for c, m in zip(clients, marks, strict=True)], asked, guard
    finally:
        kit.close()


@pytest.mark.parametrize("people", [5, 2])
@pytest.mark.parametrize("guard_answer", ["pass", "show"])
def test_r14_sealed_polls_look_the_same_whoever_answers_first(
    tmp_path: Path, people: int, guard_answer: str
) -> None:
    """R14, R9.4, R9.5: people answering 明保 and 造反 at different speeds, the guard the
    slowest, then the fastest: every connection (each seat's, the spectator's) gets the same
    frames, in number and content, save its own answer's view and ack; and nothing at all
    while the others answer."""
    slow, asked, guard = run(tmp_path / "slow", people, False, guard_answer)
    fast, asked_again, guard_again = run(tmp_path / "fast", people, True, guard_answer)
    assert (asked, guard) == (asked_again, guard_again)
    for seat, (one, other) in enumerate(zip(slow, fast, strict=True)):
        assert one == other, f"connection {seat} could tell who answered first"
    closes = [json.loads(f) for f in slow[-1] if '"game"' in f]
    declared = [e for c in closes for e in c["d"].get("events", []) if e["kind"] == "declare"]
    assert [e["poll"] for e in declared] == ["show"] * 4 + ["rebel"] * 4
    shown = [e["seat"] for e in declared if e["answer"] == "show"]
    assert shown == ([guard] if guard_answer == "show" else [])


def test_r14_every_seat_asked_gets_its_dialog_at_once_and_no_ring(tmp_path: Path) -> None:
    """The event that opens a sealed poll gives every asked seat its options and names itself
    the seat to act in its own view only; the spectator's view and clock name no seat."""
    kit, seated, spectator = table(tmp_path, 5)
    try:
        game = kit.actor.state.game
        asked = game.to_act
        assert len(asked) == 4 and game.emperor not in asked
        for seat, client in enumerate(seated):
            view = client.view
            assert view is not None and view["asked"] == list(asked)
            if seat in asked:
                assert view["turn"] == seat and view["legal"]
                assert ("show" in view["legal"]) == (seat == game.guard)
            else:
                assert view["turn"] is None and view["legal"] == []
            assert client.clock == {"seat": None, "remaining": 30.0, "timer": 30}
        assert spectator.view is not None and spectator.view["turn"] is None
        assert spectator.clock == {"seat": None, "remaining": 30.0, "timer": 30}
    finally:
        kit.close()


def test_r14_r13_people_who_never_answer_pass_when_the_polls_timer_ends(tmp_path: Path) -> None:
    """Liveness: a person who never answers a sealed poll answers ``pass`` (R13's default) when
    its one timer ends, for every seat yet to answer at once, and is not put on 托管 (who was
    still thinking must not show, R14); the game goes on to its end."""
    kit, seated, spectator = table(tmp_path, 5, timer=10)
    try:
        game = kit.actor.state.game
        first = game.to_act[0]
        answer_poll(kit, seated, [(first, 2.0)], {})
        events = len(kit.actor.state.log)
        kit.advance(7.9)  # 9.9 s into the poll
        assert game.poll == "show" and len(kit.actor.state.log) == events
        kit.advance(0.1)
        assert game.poll == "rebel"  # the 明保 poll closed with four passes
        closed = kit.actor.state.log[events:]
        assert closed and [e.kind for e in closed] == ["game"]
        told = kit.actor.state.log[events].public["events"]
        assert [e["answer"] for e in told if e["kind"] == "declare"] == ["pass"] * 4
        assert not any(chair and chair.auto for chair in kit.actor.state.seats)
        assert spectator.clock == {"seat": None, "remaining": 10.0, "timer": 10}
        for _ in range(3000):  # then 托管 as ever for people away at their turn (R13)
            if kit.actor.state.status == "finished":
                break
            kit.step()
        assert kit.actor.state.status == "finished" and kit.actor.stalls == 0
    finally:
        kit.close()


def test_r14_refusals_in_a_sealed_poll_name_nobody(tmp_path: Path) -> None:
    """A seat the poll does not ask, and a seat that has answered, are refused without being
    told who is still to answer; a hint is for a seat yet to answer only."""
    kit, seated, _ = table(tmp_path, 5)
    try:
        game = kit.actor.state.game
        emperor, first = game.emperor, game.to_act[0]
        assert emperor is not None
        refused = kit.send(seated[emperor], "act", action="pass")["d"]
        assert (refused["code"], refused["key"], refused["params"]) == (
            "not_your_turn",
            "error.server.poll_not_asked",
            {},
        )
        assert kit.send(seated[first], "hint")["t"] == "ack"
        assert kit.send(seated[first], "act", action="pass")["t"] == "ack"
        again = kit.send(seated[first], "act", action="pass")["d"]
        assert (again["key"], again["params"]) == ("error.server.poll_answered", {})
        assert kit.send(seated[first], "hint")["d"]["key"] == "error.server.not_turn"
    finally:
        kit.close()


def test_r14_auto_on_in_a_sealed_poll_answers_for_the_seat_at_once(tmp_path: Path) -> None:
    """托管 switched on mid-poll: the table's bot answers for the seat (held with the rest)
    without moving the poll's one timer."""
    kit, seated, spectator = table(tmp_path, 5)
    try:
        game = kit.actor.state.game
        seat = game.to_act[1]
        kit.advance(4.0)
        assert kit.send(seated[seat], "auto", on=True)["t"] == "ack"
        kit.advance(0.0)
        assert seat not in game.to_act and game.poll == "show"
        assert seated[seat].view is not None and seated[seat].view["answer"] is not None
        assert spectator.clock == {"seat": None, "remaining": 26.0, "timer": 30}
    finally:
        kit.close()


def test_r14_a_restart_mid_poll_asks_again_and_a_closed_poll_replays(tmp_path: Path) -> None:
    """Kept answers are not stored before the poll closes (an event would tell who answered):
    after a restart the seats that had answered are asked again; once the poll closes, its
    answers are stored with the last one and a later restart replays them exactly."""
    kit, seated, _ = table(tmp_path, 5)
    try:
        game = kit.actor.state.game
        asked = list(game.to_act)
        answer_poll(kit, seated, [(asked[1], 1.0), (asked[2], 2.0)], {})
        kit.restart()
        game = kit.actor.state.game
        assert game.poll == "show" and list(game.to_act) == asked and not kit.actor.state.sealed
        back = [kit.reconnect(c) for c in seated]
        answer_poll(kit, back, [(s, 3.0 + i) for i, s in enumerate(reversed(asked))], {})
        assert game.poll == "rebel"
        before = [e.to_json(None) for e in game.events]
        actions = list(game.actions)
        secret = kit.run(kit.store.events(kit.actor.state.id))[-1].secret
        assert [seat for seat, _ in secret["sealed"]] == list(reversed(asked))[:-1]
        kit.restart()
        again = kit.actor.state.game
        assert [e.to_json(None) for e in again.events] == before and again.actions == actions
    finally:
        kit.close()
