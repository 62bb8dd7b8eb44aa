"""A table's own events as values (server/table/tableevents.py): each is stored as its kind
with public and secret fields, and read back the same; what a stranger receives (the public
fields) holds none of the secret ones."""

from __future__ import annotations

import pytest

from baohuang.server.table.tableevents import (
    AutoChanged,
    Connected,
    GameOver,
    Left,
    MatchOver,
    ReadyChanged,
    RoomOpened,
    Sat,
    Signalled,
    TableEvent,
    read,
)

EVENTS: list[TableEvent] = [
    Sat(2, "张三", user=7, token_hash="f00d", command="c1"),
    Sat(3, "机器人3", bot="strong"),
    Left(2),
    ReadyChanged(1, True),
    AutoChanged(4, True, "timeout"),
    AutoChanged(4, False, "request", command="c9"),
    Connected(0, False),
    Signalled(1, "nice", "打得漂亮！", "Nice play!"),
    RoomOpened(7, "123456"),
    GameOver({"game": 0, "result": {"scores": [1, -1, 0, 0, 0]}}),
    MatchOver([4, -4, 0, 0, 0]),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_an_event_reads_back_as_it_was_stored(event: TableEvent) -> None:
    public, secret = event.public(), event.secret()
    assert read(event.kind, public, secret) == event
    for value in ("f00d", "123456", "c1", "c9"):  # token hashes, room codes, command ids
        assert value not in str(public)


def test_the_command_behind_an_event_is_stored_as_its_id_and_seat() -> None:
    """As rows written before events were typed: a repeat of the command gets its answer."""
    sat = Sat(2, "张三", user=7, token_hash="f00d", command="c1")
    assert sat.public() == {"seat": 2, "name": "张三", "user": 7, "bot": None}
    assert sat.secret() == {"token_hash": "f00d", "id": "c1", "seat": 2}
    stored = {"seat": 4, "on": False, "reason": "request"}
    assert read("auto", stored, {"id": "c9", "seat": 4}) == AutoChanged(4, False, "request", "c9")
