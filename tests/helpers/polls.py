"""Five people at one table over real sockets, for the sealed polls' tests (R14): seated,
ready, and played by the test up to a poll; frames synchronised by work, not time."""

from __future__ import annotations

from typing import Any

import httpx

from helpers.servers import LiveServer, Player, create_table, guest


def role_answer(view: dict[str, Any]) -> str:
    """Before the sealed polls: pass in 明独 (R9.2), 登基 as the R* holder (R9.3)."""
    legal = view["legal"]
    return next((a for a in ("pass", "accept") if a in legal), legal[0])


def synced(clients: list[Player]) -> None:
    """Every frame the server queued for these connections so far has arrived: each sends a
    ``ping`` and reads up to its ``pong``, which the server queues behind them."""
    for client in clients:
        client.send("ping", {}, client.seq)
        client.until(lambda m: m["t"] == "pong")


def five_people(
    server: LiveServer, **config: Any
) -> tuple[list[httpx.Client], str, list[Player], Player]:
    """Five guests seated at a new table (no bots, no timer unless said) in seats 0-4 and a
    sixth watching, all connected before the deal; their HTTP clients, the table, the
    people's connections and the spectator's. Ready: the game is dealt."""
    https = [guest(server, f"玩家{seat}") for seat in range(6)]
    table = create_table(https[0], **{"bots": 0, "timer": 0, **config})["id"]
    people = []
    for seat in range(5):
        person = Player(server, table, https[seat])
        person.hello()
        person.recv()  # the snapshot
        assert person.command("sit", seat=seat)["t"] == "ack"
        people.append(person)
    spectator = Player(server, table, https[5])
    spectator.hello()
    spectator.recv()
    for person in people:
        assert person.command("ready")["t"] == "ack"
    synced([*people, spectator])
    return https, table, people, spectator


def play_roles(
    people: list[Player], spectator: Player, before_candidate: bool = False
) -> Player | None:
    """Play the role phase by :func:`role_answer` until the sealed 明保 poll (R9.4) opens, or
    (``before_candidate``) until a candidate is to answer: that seat, which has not."""
    for _ in range(100):
        view = people[0].view
        if view is not None and view["asked"]:
            return None
        (acting,) = [p for p in people if p.my_turn()]
        assert acting.view is not None
        if before_candidate and acting.view["phase"] == "candidate":
            return acting
        assert acting.command("act", action=role_answer(acting.view))["t"] == "ack"
        synced([*people, spectator])
    raise AssertionError("no sealed poll in 100 actions")
