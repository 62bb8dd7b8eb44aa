"""The table actor as a state machine under real-life timing (hypothesis, fake clock).

People act (legally, illegally, on a stale view, repeating a command id), time advances by less
or more than the turn timer, the bots' delay and the reconnect grace, sockets drop and come
back with their last seq, 托管 goes on and off, people leave mid-game, spectators join, and
the server restarts from its store. After every step:

- liveness: if the game waits on a seat someone must act for (a bot, 托管, a running timer, a
  person away), a wake-up is pending, and advancing time to it moves the game on;
- every connection's events are gapless and equal to what a fresh reconnect would get;
- no message to a seat holds another seat's view or private events (R14);
- the watchdog never fired.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from baohuang.server.table.mailbox import BotMove, TakeOver
from helpers.tables import LIVE_ONLY, Client, Harness

#: Durations that matter: around the bots' delay, the timer and the grace.
STEPS = st.sampled_from([0.1, 0.5, 0.8, 1.0, 2.9, 3.0, 3.1, 5.0, 10.0, 31.0])


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="baohuang-machine-"))
        self.kit = Harness(self.folder)
        #: The latest connection of each person (by user), and spectators.
        self.people: dict[int, Client] = {}
        self.spectators: list[Client] = []
        self.left: set[int] = set()

    @initialize(
        people=st.integers(1, 3),
        timer=st.sampled_from([0, 3, 30]),
        grace=st.sampled_from([0.0, 2.0, 10.0]),
        bot_delay=st.sampled_from([0.0, 0.8]),
        pause=st.sampled_from([0.0, 3.0]),
        games=st.integers(1, 3),
        preset=st.sampled_from(["classic", "weihai", "kk_simple"]),
    )
    def setup(self, people: int, **config: Any) -> None:
        for client in self.kit.create(people=people, **config):
            assert client.user is not None
            self.people[client.user] = client

    def teardown(self) -> None:
        self.kit.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------------ people

    def _seated(self) -> list[Client]:
        return [c for u, c in self.people.items() if u not in self.left and c.seat is not None]

    def _online(self) -> list[Client]:
        return [c for c in self._seated() if c.online]

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """A person whose turn it is plays a legal action from their latest view."""
        turn = [c for c in self._online() if c.my_turn()]
        if turn:
            client = turn[0]
            assert client.view is not None
            action = data.draw(st.sampled_from(client.view["legal"]))
            answer = self.kit.send(client, "act", action=action)
            if self.kit.actor.state.seats[client.seat].auto:  # type: ignore[index, union-attr]
                assert answer["d"]["code"] == "not_allowed"
            else:
                assert answer["t"] == "ack", answer

    @rule(data=st.data(), kind=st.sampled_from(["illegal", "stale", "repeat", "turn"]))
    def misbehave(self, data: st.DataObject, kind: str) -> None:
        """Bad commands change nothing: an illegal play, a stale view, a repeated id."""
        online = self._online()
        if not online:
            return
        client = data.draw(st.sampled_from(online))
        seq = self.kit.actor.state.seq
        if kind == "repeat":
            first = next((m for m in client.messages if m["t"] == "ack"), None)
            if first is not None:  # answered again, not applied again
                again = self.kit.send(client, "signal", id=first["d"]["id"], signal="nice")
                assert again["t"] == "ack" and self.kit.actor.state.seq == seq
            return
        action = "play 3 3 3 3 3 3 3 3 3" if kind == "illegal" else "pass"
        seen = 0 if kind == "stale" else None
        answer = self.kit.send(client, "act", seen=seen, action=action)
        if answer["t"] == "error":
            assert self.kit.actor.state.seq == seq, answer

    @rule(data=st.data())
    def drop(self, data: st.DataObject) -> None:
        online = self._online()
        if online:
            self.kit.drop(data.draw(st.sampled_from(online)))

    @rule(data=st.data())
    def reconnect(self, data: st.DataObject) -> None:
        away = [c for c in self._seated() if not c.online]
        if away:
            client = data.draw(st.sampled_from(away))
            assert client.user is not None
            back = self.kit.reconnect(client)
            assert back.seat == client.seat
            self.people[client.user] = back

    @rule(data=st.data(), on=st.booleans())
    def toggle_auto(self, data: st.DataObject, on: bool) -> None:
        online = self._online()
        if online:
            answer = self.kit.send(data.draw(st.sampled_from(online)), "auto", on=on)
            assert answer["t"] == "ack" or answer["d"]["code"] == "not_allowed"

    @precondition(lambda self: len(self.left) < 1)
    @rule(data=st.data())
    def escape(self, data: st.DataObject) -> None:
        online = self._online()
        if online and self.kit.actor.state.in_game():
            client = data.draw(st.sampled_from(online))
            seat, user = client.seat, client.user
            assert self.kit.send(client, "leave")["t"] == "ack"
            assert seat is not None and user is not None
            self.left.add(user)
            del self.people[user]  # watching now; no longer checked as a seat
            chair = self.kit.actor.state.seats[seat]
            if self.kit.actor.state.status == "playing":
                assert chair is not None and chair.bot is not None  # a bot sat down

    @rule()
    def spectator_joins(self) -> None:
        watcher = self.kit.connect(None, None)
        self.spectators.append(watcher)
        if self.kit.actor.state.match is not None:
            assert watcher.history and watcher.history[0]["kind"] == "start"

    @rule()
    def restart(self) -> None:
        if self.kit.actor.state.status == "finished":
            return
        self.kit.restart()
        self.spectators.clear()

    # ------------------------------------------------------------------ time

    @rule(seconds=STEPS)
    def advance(self, seconds: float) -> None:
        self.kit.advance(seconds)

    @rule()
    def advance_to_the_acting_wake_up(self) -> None:
        """Time runs to the wake-up that acts for the seat to act: the game moves on (a
        person out of time or away goes on 托管 first, then the bot plays; in a sealed poll,
        its bots answer)."""
        table = self.kit.actor

        def waiting() -> tuple[object, ...]:  # a sealed poll moves on as its seats answer
            return table.state.turn(), table.state.game.to_act if table.state.in_game() else ()

        for _ in range(2):
            due = table.scheduler.pending("act")
            if due is None:
                return
            before = waiting()
            self.kit.advance(max(0.0, due.at - self.kit.clock.now()))
            if waiting() != before:
                return
            assert isinstance(due.wake, TakeOver), f"{due} did not act"
        raise AssertionError("two wake-ups passed and the game did not move")

    # ------------------------------------------------------------------ invariants

    @invariant()
    def a_seat_someone_must_act_for_has_its_wake_up(self) -> None:
        """Each seat the game waits on (in a sealed poll, each yet to answer) has a wake-up:
        the act slot for a bot, 托管 or a running timer; a person away goes on 托管 when the
        act slot (their turn) or the grace slot (a sealed poll, R14) comes."""
        table = self.kit.actor
        turn = table.state.turn()
        if turn is None:
            return
        now = self.kit.clock.now() - 1e-9
        for seat in table.state.game.to_act:
            chair = table.state.seats[seat]
            assert chair is not None, "a game waits on an empty seat"
            if chair.played_by_bot or table.state.config.timer:
                due = table.scheduler.pending("act")
                assert due is not None, f"seat {seat} must be acted for; nothing is pending"
                assert isinstance(due.wake, BotMove | TakeOver) and due.wake.turn == turn
            elif chair.away_until is not None:
                due = table.scheduler.pending("grace" if table.state.game.sealed else "act")
                assert due is not None, f"seat {seat} is away; nothing is pending"
                assert due.at <= chair.away_until + 1e-9
            else:
                continue  # a person here with no timer: the table waits for them
            if table.state.game.sealed and isinstance(due.wake, BotMove):
                continue  # 托管 on mid-poll answers at once: its wake-up may be past (R14)
            assert due.at >= now, f"{due} is already past"

    @invariant()
    def every_connection_saw_the_log_without_gaps(self) -> None:
        table = self.kit.actor
        clients = [*self.people.values(), *self.spectators]
        for client in clients:
            if not client.online:
                continue
            for seq, data in client.events:
                expected = table.state.log[seq - 1].for_seat(client.seat)
                got = {k: v for k, v in data.items() if k not in LIVE_ONLY}
                assert got == expected, f"event {seq} to seat {client.seat}"
            for msg in client.messages:
                view = msg["d"].get("view") if isinstance(msg["d"], dict) else None
                if view is not None:  # R14: only one's own view
                    assert view["seat"] == client.seat

    @invariant()
    def the_watchdog_never_fired(self) -> None:
        assert self.kit.actor.stalls == 0


TableMachine.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_table_actor_state_machine = pytest.mark.slow(TableMachine.TestCase)
