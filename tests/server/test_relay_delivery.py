"""Frames and farewells between nodes when Redis fails (DESIGN: many nodes): the owner keeps
what Redis did not take and publishes it again, a relay's ``gone`` is sent again until its
owner hears it, and a relay saying hello again replaces its old id without presence events.
In process, with a fake Redis link; tests/e2e/test_cluster.py restarts a real Redis."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from baohuang.protocol.messages import Hello as HelloData
from baohuang.protocol.messages import Ready, Sit
from baohuang.server.cluster import relay as relay_module
from baohuang.server.cluster import remote
from baohuang.server.cluster.relay import Relays
from baohuang.server.cluster.remote import Hosted, Outbox
from baohuang.server.connection import Conn
from baohuang.server.table.mailbox import Cmd, Gone, Hello, Message


class Link:
    """A fake :class:`.cluster.Cluster`'s messages: ``send`` fails with the queued
    ``failures`` (an exception, or a count of listeners: 0 is nobody heard it), then
    records what it was given (one listener)."""

    def __init__(self, *failures: BaseException | int) -> None:
        self.node = "n1"
        self.lease = 0.5
        self.failures = list(failures)
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.tries = 0

    async def send(self, node: str, payload: dict[str, Any]) -> int:
        self.tries += 1
        if self.failures:
            failure = self.failures.pop(0)
            if isinstance(failure, BaseException):
                raise failure
            return failure
        self.sent.append((node, payload))
        return 1


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote, "RESEND_SECONDS", 0.01)
    monkeypatch.setattr(relay_module, "RETRY_SECONDS", 0.01)


def frames_by_relay(link: Link) -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    for _, payload in link.sent:
        for cid, frames, _ in payload["relays"]:
            got.setdefault(cid, []).extend(frames)
    return got


async def settle(until: Any, seconds: float = 5) -> None:
    async with asyncio.timeout(seconds):
        while not until():
            await asyncio.sleep(0.005)


def test_frames_redis_did_not_take_are_published_again_in_order() -> None:
    """Redis refuses, then its client fails in a way of its own: the frames held meanwhile,
    and those queued since, all reach their relays in order; the pump is still running."""
    link = Link(RedisConnectionError("refused"), TypeError("'NoneType' object is not callable"))

    async def main() -> None:
        outbox = Outbox(link, "n2")  # type: ignore[arg-type]  # the fake link
        outbox.put("a", "a1")
        outbox.put("b", "b1")
        await settle(lambda: link.tries >= 1)
        outbox.put("a", "a2")
        await settle(lambda: len(link.sent) >= 1)
        outbox.put("b", "b2")
        outbox.put("a", None)
        await settle(lambda: frames_by_relay(link).get("b") == ["b1", "b2"])
        assert not outbox.pump.done()
        outbox.stop()

    asyncio.run(main())
    assert frames_by_relay(link) == {"a": ["a1", "a2"], "b": ["b1", "b2"]}
    assert [node for node, _ in link.sent] == ["n2"] * len(link.sent)
    closed = [cid for _, p in link.sent for cid, _, shut in p["relays"] if shut]
    assert closed == ["a"]


class Table:
    """A table as :class:`.Hosted` sees it: what it was submitted, in order."""

    def __init__(self) -> None:
        self.got: list[Message] = []

    def submit(self, item: Message) -> None:
        self.got.append(item)


def test_a_relay_saying_hello_again_replaces_its_old_id_after_the_new_one_came() -> None:
    link, table = Link(), Table()

    async def main() -> None:
        hosted = Hosted(link, lambda _: table)  # type: ignore[arg-type]  # the fakes
        first = {"k": "hello", "cid": "n2.1", "from": "n2", "table": "t", "d": {}}
        await hosted.handle(first)
        await hosted.handle(first | {"cid": "n2.2", "d": {"since": 7}, "was": "n2.1"})
        hosted.close()

    asyncio.run(main())
    kinds = [(type(item).__name__, getattr(item.conn, "cid", None)) for item in table.got]
    assert kinds == [("Hello", "n2.1"), ("Hello", "n2.2"), ("Gone", "n2.1")]
    assert isinstance(table.got[1], Hello) and table.got[1].hello.since == 7


def test_a_closed_relays_gone_is_sent_again_until_its_owner_hears_it() -> None:
    """Redis refuses once, then the owner is not listening (resubscribing after a restart):
    the ``gone`` goes out again until a listener takes it, and the socket is let go."""
    link = Link(RedisConnectionError("refused"), 0, 0)
    conn = Conn(None, "访客")

    async def main() -> None:
        async def resolve(_: str) -> str | None:
            return "n0"

        relays = Relays(link, resolve)  # type: ignore[arg-type]  # the fake link
        relay = relays.open("t", "n0", conn)
        relay.submit(Gone(conn))
        await settle(lambda: not relays.by_id)

    asyncio.run(main())
    assert [payload["k"] for _, payload in link.sent] == ["gone"]
    assert link.tries == 4
    assert conn.closed


def test_a_relay_says_the_room_code_again_to_a_new_owner() -> None:
    """A friends' table admits a stranger by its code (its hello's): when the table moves,
    the relay's own hello to the new owner carries the code too, or the socket is refused."""
    link = Link()
    conn = Conn(7, "朋友")
    hello = HelloData(token=None, since=None, code="ABC234")

    async def main() -> None:
        async def resolve(_: str) -> str | None:
            return "n2"

        relays = Relays(link, resolve)  # type: ignore[arg-type]  # the fake link
        relay = relays.open("t", "n0", conn)
        relay.submit(Hello(conn, hello))
        await settle(lambda: len(link.sent) == 1)
        relay.moved("n2")
        await settle(lambda: any(p["k"] == "hello" for n, p in link.sent if n == "n2"))
        relay.submit(Gone(conn))

    asyncio.run(main())
    hellos = [(node, payload["d"]) for node, payload in link.sent if payload["k"] == "hello"]
    assert [node for node, _ in hellos] == ["n0", "n2"]
    assert all(data["code"] == "ABC234" for _, data in hellos)


def test_a_relay_reads_an_answer_folded_into_an_event() -> None:
    """A command's ack rides in its last event's frame: the relay takes the command as
    answered and keeps a ``sit``'s seat token; an event the client has already (the owner
    said it again after a move) still brings the client its answer, on its own."""
    link = Link()
    conn = Conn(7, "玩家")
    sit = Sit(id="c1", op="sit", seat=2)
    ready = Ready(id="c2", op="ready", on=True)

    async def main() -> None:
        async def resolve(_: str) -> str | None:
            return "n0"

        relays = Relays(link, resolve)  # type: ignore[arg-type]  # the fake link
        relay = relays.open("t", "n0", conn)
        relay.submit(Hello(conn, HelloData(token=None, since=4)))
        relay.submit(Cmd(conn, 4, sit))
        relay.submit(Cmd(conn, 4, ready))
        await settle(lambda: len(link.sent) == 3)
        folded = {"id": "c1", "seat": 2, "token": "secret"}
        event = {"t": "event", "v": 5, "d": {"kind": "sit"}, "a": folded}
        relay.deliver([json.dumps(event)], closed=False)
        assert relay.pending.keys() == {"c2"} and relay.token == "secret"
        again = {"t": "event", "v": 5, "d": {"kind": "ready"}, "a": {"id": "c2"}}
        relay.deliver([json.dumps(again)], closed=False)
        assert not relay.pending
        relay.submit(Gone(conn))

    asyncio.run(main())
    got = [json.loads(text) for text in conn.taken()]
    assert [m["t"] for m in got] == ["event", "ack"]
    assert got[0]["a"]["token"] == "secret" and got[1] == {"t": "ack", "v": 5, "d": {"id": "c2"}}
