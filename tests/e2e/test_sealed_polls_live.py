"""R14 over real sockets: the sealed polls (明保, 造反) of a five-person table, answered with the
guard the slowest, then (a second server dealing the same cards) the fastest: every other
connection, and a spectator's, receives the same frames, and none while the answers come in.

``baohuang serve`` runs in a subprocess whose random table ids and deal seeds come from a
seeded generator, so that two servers deal the same game. Frames are synchronised by work,
not time: after each answer every connection sends a ``ping`` and reads up to its ``pong``,
which the server queues behind whatever it sent that connection before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers import servers
from helpers.polls import five_people, play_roles, synced
from helpers.servers import LiveServer, Player

#: ``serve`` with ``secrets.token_hex`` (table ids, deal seeds) drawn from a seeded generator.
SEEDED_SERVE = (
    "import random, secrets; _drawn = random.Random(2026); "
    "secrets.token_hex = lambda nbytes=32: _drawn.randbytes(nbytes).hex(); "
    "from baohuang.cli import app; app()"
)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(servers, "SERVE", SEEDED_SERVE)
    yield


def own(player: Player, mark: int) -> list[dict[str, Any]]:
    return [json.loads(text) for text in player.raw[mark:]]


def run(folder: Path, guard_first: bool) -> tuple[list[list[str]], int]:
    """One server, one table of five people and a spectator, its game to the end of the 造反
    poll; per connection the frames from the 明保 poll's opening on, less its own view, acks
    and pongs; the guard's seat."""
    folder.mkdir()
    live = LiveServer(f"sqlite:///{folder / 'server.db'}", folder / "server.log").start()
    https: list[httpx.Client] = []
    people: list[Player] = []
    try:
        https, _, people, spectator = five_people(live, preset="weihai")
        everyone = [*people, spectator]
        play_roles(people, spectator)
        guard = next(s for s, p in enumerate(people) if p.view and p.view["role"] == "guard")
        marks = [len(c.raw) for c in everyone]
        for poll in ("show", "rebel"):
            asked = people[0].view["asked"] if people[0].view else []
            assert people[0].view and people[0].view["poll"] == poll and guard in asked
            # Every seat asked has its dialog at once, and nobody is named to act.
            for seat, person in enumerate(people):
                assert person.view is not None
                assert person.view["turn"] == (seat if seat in asked else None)
            assert spectator.view is not None and spectator.view["turn"] is None
            others = [s for s in asked if s != guard]
            order = [guard, *others] if guard_first else [*others, guard]
            for n, seat in enumerate(order, 1):
                before = [len(c.raw) for c in everyone]
                action = "rebel" if poll == "rebel" and seat != guard else "pass"
                assert people[seat].command("act", action=action)["t"] == "ack"
                synced(everyone)
                if n == len(order):
                    break
                for other, client in enumerate(everyone):
                    kinds = [m["t"] for m in own(client, before[other])]
                    mine = ["view", "ack"] if other == seat else []
                    assert kinds == [*mine, "pong"], (other, kinds)
        frames = [
            [
                json.dumps(m, ensure_ascii=False, sort_keys=True)
                for m in own(client, mark)
                if m["t"] not in ("view", "ack", "pong")
            ]
            for client, mark in zip(everyone, marks, strict=True)
        ]
        return frames, guard
    finally:
        for person in people:
            person.close()
        for http in https:
            http.close()
        live.stop()


def test_r14_sealed_polls_over_sockets_look_the_same_whoever_answers_first(
    tmp_path: Path, seeded: None
) -> None:
    slow, guard = run(tmp_path / "slow", guard_first=False)
    fast, guard_again = run(tmp_path / "fast", guard_first=True)
    assert guard == guard_again  # the same deal
    for connection, (one, other) in enumerate(zip(slow, fast, strict=True)):
        assert one == other, f"connection {connection} could tell who answered first"
    told = [json.loads(frame)["d"] for frame in slow[5]]  # the spectator's
    declared = [e for d in told for e in d.get("events", []) if e["kind"] == "declare"]
    rebels = [e["answer"] == "rebel" for e in declared if e["poll"] == "rebel"]
    assert [e["poll"] for e in declared] == ["show"] * 4 + ["rebel"] * 4
    assert all(e["answer"] == "pass" for e in declared[:4])
    assert rebels == [e["seat"] != guard for e in declared[4:]]
