"""R13 and liveness: whatever people do and whenever they do it, a table moves on.

The real table actor in-process on a fake clock (tests/helpers/tables.py): a timer that runs out,
托管 switched on in one's own turn, a tab closed mid-turn, a reload, a restart.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baohuang.engine.game import Game
from baohuang.protocol.messages import TableConfig
from baohuang.server.table import liveness
from baohuang.server.table.mailbox import BotMove, GraceOver, TakeOver
from baohuang.server.table.scheduler import Due
from baohuang.server.table.tableevents import Sat
from baohuang.server.table.tablestate import TableState
from helpers.tables import Client, Harness


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def until_my_turn(kit: Harness, client: Client, limit: int = 400) -> None:
    """Let the bots play (wake-up by wake-up) until ``client`` is to act."""
    for _ in range(limit):
        if client.my_turn():
            return
        kit.step()
    raise AssertionError("the seat never came to act")


def auto_in_their_turns(kit: Harness, people: list[Client], others: list[Client]) -> None:
    """Each of ``people`` switches 托管 on in their own turn; ``others`` play the hint."""
    waiting = list(people)
    while waiting and kit.actor.state.in_game():
        ready = [p for p in waiting if p.my_turn()]
        acting = [p for p in others if p.my_turn()]
        if ready:
            assert kit.send(ready[0], "auto", on=True)["t"] == "ack"
            waiting.remove(ready[0])
        elif acting:
            kit.send(acting[0], "act", action=kit.send(acting[0], "hint")["d"]["hint"])
        else:
            kit.step()
    assert not waiting


def game_moves(kit: Harness) -> int:
    return sum(1 for e in kit.actor.state.log if e.kind == "game")


def play_out(kit: Harness, limit: float = 3000.0) -> None:
    """Advance time until the match is over; it must end."""
    waited = 0.0
    while kit.actor.state.status != "finished":
        assert waited < limit, f"stalled at event {kit.actor.state.seq}: {kit.kinds()[-5:]}"
        kit.advance(5.0)
        waited += 5.0
    assert kit.actor.stalls == 0


def test_r13_a_timer_that_runs_out_puts_the_seat_on_auto_and_the_bot_plays(
    harness: Harness,
) -> None:
    """Path A: the person does nothing; at the timer 托管 takes over and the game goes on."""
    (me,) = harness.create(timer=3, bot_delay=0.8)
    until_my_turn(harness, me)
    moves = game_moves(harness)
    harness.advance(2.9)
    assert game_moves(harness) == moves and not harness.actor.state.seats[0].auto  # type: ignore[union-attr]
    harness.advance(0.2)
    auto = harness.actor.state.log[-1]
    assert (auto.kind, auto.public["reason"]) == ("auto", "timeout")
    harness.advance(0.8)
    assert game_moves(harness) == moves + 1  # the table's bot acted for the seat
    play_out(harness)


def test_r13_auto_switched_on_in_ones_own_turn_plays_at_once(harness: Harness) -> None:
    """Path B: 托管 on during one's own turn with 30 s on the clock: the bot acts after its
    delay, not after the timer."""
    (me,) = harness.create(timer=30, bot_delay=0.8)
    until_my_turn(harness, me)
    moves = game_moves(harness)
    assert harness.send(me, "auto", on=True)["t"] == "ack"
    harness.advance(0.8)
    assert game_moves(harness) == moves + 1
    play_out(harness)


def test_r13_a_tab_closed_in_ones_own_turn_is_played_after_the_grace(harness: Harness) -> None:
    """Path C: the person closes the tab on their turn; after the grace 托管 plays for them."""
    (me,) = harness.create(timer=30, grace=5, bot_delay=0.8)
    until_my_turn(harness, me)
    moves = game_moves(harness)
    harness.drop(me)
    harness.advance(4.9)
    assert game_moves(harness) == moves
    harness.advance(0.1)
    assert harness.actor.state.log[-1].public == {"seat": 0, "on": True, "reason": "disconnect"}
    harness.advance(0.8)
    assert game_moves(harness) == moves + 1
    play_out(harness)
    # Not 进行中 in the lobby forever: finished, it leaves the lobby (and, R13, is unscored:
    # the only person was on 托管).
    assert harness.actor.state.status == "finished" and harness.lobby.listing() == []


def test_the_turn_clock_is_the_servers_after_a_reload_and_fair_after_auto_off(
    harness: Harness,
) -> None:
    (me,) = harness.create(timer=20, bot_delay=0.5)
    until_my_turn(harness, me)
    assert me.clock is not None and me.clock["seat"] == 0 and me.clock["timer"] == 20
    due = harness.actor.scheduler.pending("act")
    assert due is not None
    left = due.at - harness.clock.now()
    harness.advance(7)
    harness.drop(me)
    back = harness.reconnect(me)
    assert back.clock is not None and back.clock["remaining"] == pytest.approx(left - 7)
    harness.advance(left - 7)  # the server's deadline, not a fresh 20 s
    assert harness.actor.state.seats[0].auto  # type: ignore[union-attr]
    assert back.clock is None  # the bot acts: no countdown
    # Taking control back in one's own turn restarts a fair, full timer.
    turn = harness.actor.state.turn()
    harness.send(back, "auto", on=False)
    if harness.actor.state.turn() == turn and back.my_turn():
        assert back.clock is not None and back.clock["remaining"] == 20


def test_a_spectator_joining_mid_game_gets_the_games_events(harness: Harness) -> None:
    (me,) = harness.create(timer=0)
    until_my_turn(harness, me)
    watcher = harness.connect(None, None)
    history = watcher.history
    assert history[0]["kind"] == "start" and history[-1]["seq"] == harness.actor.state.seq
    assert [h["seq"] for h in history] == list(
        range(history[0]["seq"], harness.actor.state.seq + 1)
    )
    assert all("hand" not in str(h) for h in history)  # a spectator's copies (R14)


def test_r13_every_person_on_auto_at_the_end_leaves_the_game_unscored(
    harness: Harness,
) -> None:
    people = harness.create(people=2, timer=0, games=2, pause=1)
    auto_in_their_turns(harness, people, [])
    while "game_over" not in harness.kinds():
        harness.step()
    over = next(e.public for e in reversed(harness.actor.state.log) if e.kind == "game_over")
    assert over["unscored"] == "all_auto" and over["scores"] == [0] * 5
    assert over["players"][:2] == ["玩家1", "玩家2"] and not over["dissolved"]
    assert harness.actor.state.results == [[0] * 5]
    first = harness.kinds().index("game_over")
    harness.step()
    assert "start" in harness.kinds()[first:]  # classic: the match goes on


def test_r13_dissolve_on_auto_a_person_on_auto_ends_the_kk_match(harness: Harness) -> None:
    people = harness.create(people=2, preset="kk_simple", timer=0, games=3)
    auto_in_their_turns(harness, people[:1], people[1:])
    while "game_over" not in harness.kinds():
        if people[1].my_turn():
            harness.send(people[1], "act", action=harness.send(people[1], "hint")["d"]["hint"])
        else:
            harness.step()
    over = next(e.public for e in reversed(harness.actor.state.log) if e.kind == "game_over")
    assert over["dissolved"] and over["unscored"] is None
    assert harness.kinds()[-1] == "match_over" and harness.actor.state.status == "finished"
    assert over["scores"] == over["result"]["scores"]


def test_the_results_name_the_escaped_player(harness: Harness) -> None:
    (me,) = harness.create(timer=0, games=2)
    until_my_turn(harness, me)
    harness.send(me, "leave")
    over = next(e.public for e in reversed(harness.actor.state.log) if e.kind == "game_over")
    assert over["players"][0] == "玩家1" and over["result"]["escaped"] == 0
    assert over["scores"][0] == -30 and over["scoring"] is None and over["unscored"] is None
    play_out(harness)


def test_a_restart_gives_people_a_grace_then_plays_on(harness: Harness) -> None:
    (me,) = harness.create(timer=0, grace=2)
    until_my_turn(harness, me)
    seq = harness.actor.state.seq
    harness.restart()
    harness.advance(9.9)  # RESTART_GRACE: 10 s to come back after a restart
    assert harness.actor.state.seq == seq
    harness.advance(0.2)
    assert harness.actor.state.log[seq].public == {"seat": 0, "on": True, "reason": "disconnect"}
    play_out(harness)


def test_the_watchdog_recovers_a_lost_wake_up_and_says_so(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.create(timer=30, bot_delay=1)
    table = harness.actor
    due = table.scheduler.pending("act")
    assert due is not None
    # Lose the pending wake-up behind the scheduler's back (what a bug would do).
    table.scheduler._slots["act"][1].cancel()
    moves = game_moves(harness)
    harness.advance(2 * liveness.WATCHDOG_PERIOD + liveness.SLACK + due.at - harness.clock.now())
    assert table.stalls == 1 and f"table {table.state.id} stalled" in caplog.text
    harness.advance(2)  # the wake-up set again acts (托管 first, for a person out of time)
    assert game_moves(harness) > moves


def test_a_restart_replays_only_the_current_game(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.create(games=3, timer=1, pause=1, bot_delay=1)  # the timer: 托管 for the person
    while not (harness.actor.state.game_index == 2 and harness.kinds()[-1] == "game"):
        harness.step()
    current = len(harness.kinds()) - harness.kinds()[::-1].index("start")
    moves = harness.kinds()[current:].count("game")
    view = harness.actor.state.game.view(None)
    applied = []
    original = Game.apply
    monkeypatch.setattr(
        Game,
        "apply",
        lambda game, action, seat=None: applied.append(action) or original(game, action, seat),
    )
    harness.restart()
    assert len(applied) == moves  # the two earlier games were not played again
    assert harness.actor.state.game.view(None) == view and len(harness.actor.state.results) == 2
    monkeypatch.undo()
    play_out(harness)


def test_the_plan_is_a_function_of_the_table_state_alone() -> None:
    """liveness.plan reads a bare TableState (no actor, clock, loop or store): the one
    wake-up for the seat to act, the grace of a person away, by the times in the state."""
    config = TableConfig(bots=4, timer=20, bot_delay=1.5, pause=3)
    state = TableState("0123abcd", config, "table-seed")
    state.fold(Sat(0, "甲", user=1))
    for seat in range(1, 5):
        state.fold(Sat(seat, f"机器人{seat}", bot="heuristic"))
    state.begin(0, 0, "deal-seed")  # what folding a ``start`` event does
    state.turn_since = 100.0
    turn = state.turn()
    assert turn is not None and not state.game.sealed
    person = state.game.current_seat == 0
    act = Due(TakeOver(turn, "timeout"), 120.0) if person else Due(BotMove(turn), 101.5)
    assert liveness.plan(state) == {"act": act, "grace": None, "next": None}
    chair = state.seats[0]
    assert chair is not None
    chair.away_until = 105.0  # the person's tab closed: 托管 when the grace ends
    planned = liveness.plan(state)
    if person:
        assert planned["act"] == Due(TakeOver(turn, "disconnect"), 105.0)
    else:
        assert planned == {"act": act, "grace": Due(GraceOver(), 105.0), "next": None}
