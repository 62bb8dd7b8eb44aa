"""What a hostile player might try at a table, in-process (tests/helpers/tables.py): someone else's
seat token, a command id repeated late in a game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.tables import Harness


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def test_a_seat_token_works_only_for_the_player_it_was_issued_to(harness: Harness) -> None:
    (me,) = harness.create(timer=0)
    thief = harness.connect(2, "小偷", token=me.token)
    error = next(m for m in thief.messages if m["t"] == "error")
    assert error["d"]["code"] == "bad_token" and "another player" in error["d"]["message"]
    assert thief.seat is None  # watching, not acting for seat 0
    assert harness.send(thief, "auto", on=True)["d"]["code"] == "not_seated"
    back = harness.connect(1, "玩家1", token=me.token)  # the owner still can
    assert back.seat == 0


def test_a_repeated_command_is_answered_not_applied_all_game_long(harness: Harness) -> None:
    (me,) = harness.create(timer=0, bot_delay=1)
    first = harness.send(me, "signal", id="keep", signal="nice")
    assert first["t"] == "ack"
    for n in range(300):  # more than the 256 answers once remembered
        harness.send(me, "hint", id=f"h{n}")
    seq = harness.actor.state.seq
    again = harness.send(me, "signal", id="keep", signal="thanks")
    assert again == first and harness.actor.state.seq == seq
