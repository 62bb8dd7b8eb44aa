"""An in-process table for tests: the real actor, lobby and store (SQLite in a temporary
folder) on a fake clock, with clients that read what the actor sends their connections.

Time moves only in :meth:`Harness.advance`; every message is handled before the call returns,
so a test can say "the timer runs out" and then look at what happened.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from baohuang.protocol.messages import Command, TableConfig, unfold
from baohuang.protocol.messages import Hello as HelloData
from baohuang.server.botpool import BotPool
from baohuang.server.clock import FakeClock
from baohuang.server.connection import Conn
from baohuang.server.lobby import Lobby
from baohuang.server.store import Store, UserRow, Work
from baohuang.server.table.actor import TableActor
from baohuang.server.table.mailbox import Cmd, Gone, Hello

T = TypeVar("T")
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)
#: Fields of a live event that a replay does not repeat.
LIVE_ONLY = ("view", "prompt", "table", "clock")


class Client:
    """One connection's side: what it received, checked for gaps as it goes."""

    ids = itertools.count(1)

    def __init__(self, user: int | None, name: str | None) -> None:
        self.user, self.name = user, name
        self.conn = Conn(user, name)
        self.seat: int | None = None
        self.token: str | None = None
        #: The room code its hello gave (a friends' table's).
        self.code: str | None = None
        self.seq = 0
        #: Every event received since the last snapshot: (seq, data).
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.view: dict[str, Any] | None = None
        self.clock: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        #: Every frame received, as sent (:attr:`messages` reads a folded ack as its own).
        self.frames: list[str] = []

    @property
    def online(self) -> bool:
        return not self.conn.closed

    def read(self) -> list[dict[str, Any]]:
        """Take what the actor queued for this connection; events must have no gap."""
        got = []
        texts = self.conn.taken()
        self.frames += texts
        for msg in (m for text in texts for m in unfold(json.loads(text))):
            got.append(msg)
            data = msg["d"]
            if msg["t"] == "event":
                assert msg["v"] == self.seq + 1, f"gap: had {self.seq}, got {msg['v']}"
                self.seq = msg["v"]
                self.events.append((msg["v"], data))
                self.view = data.get("view", self.view)
                if "clock" in data:
                    self.clock = data["clock"]
            elif msg["t"] == "snapshot":
                self.seq, self.view, self.events = msg["v"], data["view"], []
                self.clock, self.history = data["clock"], data["history"]
            elif msg["t"] == "view":  # R14: its own answer to a sealed poll kept
                assert msg["v"] == self.seq, f"a view at {msg['v']}, events at {self.seq}"
                self.view, self.clock = data["view"], data["clock"]
            elif msg["t"] == "welcome":
                self.seat, self.clock = data["seat"], data["clock"]
            elif msg["t"] == "ack" and data.get("token"):
                self.token, self.seat = data["token"], data["seat"]
        self.messages += got
        return got

    def my_turn(self) -> bool:
        view = self.view
        return bool(view and self.seat is not None and view["turn"] == self.seat and view["legal"])


def add_user(user: int) -> Work:
    def work(session: Session) -> None:
        if session.get(UserRow, user) is None:
            session.add(UserRow(id=user, name=f"玩家{user}", password_hash=None, created=0.0))

    return work


class Harness:
    """A lobby on a fake clock over a fresh SQLite store; one table at a time."""

    def __init__(self, folder: Path, seed: int = 0, pool: BotPool | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        #: Where the bots think (``None``: in this process).
        self.pool = pool
        self.random = random.Random(seed)
        self.clock = FakeClock()
        self.store = Store(f"sqlite:///{folder / 'tables.db'}")
        self.run(self.store.start())
        self.lobby = Lobby(self.store, self.clock, self.token, pool)
        self.table: TableActor | None = None
        self.clients: list[Client] = []

    def token(self, size: int) -> str:
        """Table ids and seeds from a seeded generator: the same test deals the same cards."""
        return self.random.randbytes(size).hex()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    @property
    def actor(self) -> TableActor:
        assert self.table is not None
        return self.table

    def create(self, people: int = 1, **config: Any) -> list[Client]:
        """A table with ``people`` guests seated (seats 0…) and ready, bots in the rest."""
        settings = {"bots": 5 - people, "timer": 0, "pause": 0, "bot_delay": 0, **config}
        self.table = self.run(self.lobby.create(TableConfig(**settings)))
        self.settle()
        seated = []
        for user in range(1, people + 1):
            self.run(self.store.write(add_user(user)))
            client = self.connect(user, f"玩家{user}")
            assert self.send(client, "sit")["t"] == "ack"
            seated.append(client)
        for client in seated:
            assert self.send(client, "ready")["t"] == "ack"
        return seated

    def connect(
        self,
        user: int | None,
        name: str | None,
        token: str | None = None,
        since: int | None = None,
        code: str | None = None,
    ) -> Client:
        """A connection of ``user``'s that says hello (``code``: a friends' table's room code)."""
        client = Client(user, name)
        client.code = code
        if since is not None:
            client.seq = since
        self.clients.append(client)
        hello = HelloData(token=token, since=since, code=code)
        self.actor.submit(Hello(client.conn, hello))
        self.settle()
        return client

    def reconnect(self, client: Client) -> Client:
        """The same person on a new connection, asking for what it missed."""
        again = self.connect(client.user, client.name, client.token, client.seq, client.code)
        again.token = client.token
        if not any(m["t"] == "snapshot" for m in again.messages):
            again.events = [*client.events, *again.events]
        return again

    def drop(self, client: Client) -> None:
        self.actor.submit(Gone(client.conn))
        self.settle()

    def send(self, client: Client, op: str, seen: int | None = None, **fields: Any) -> Any:
        """Send a command; the ack or error answering it."""
        command_id = fields.pop("id", None) or f"c{next(Client.ids)}"
        command = COMMAND.validate_python({"id": command_id, "op": op, **fields})
        self.actor.submit(Cmd(client.conn, client.seq if seen is None else seen, command))
        self.settle()
        return next(
            m
            for m in reversed(client.messages)
            if m["t"] in ("ack", "error") and m["d"].get("id") == command_id
        )

    def settle(self) -> None:
        self.run(self._settled())
        assert not self.actor.broken, "the table's actor failed (see the log)"
        for client in self.clients:
            client.read()

    async def _settled(self) -> None:
        await self.actor.settled()

    def advance(self, seconds: float) -> None:
        self.run(self.clock.advance(seconds, self._settled))
        self.settle()

    def step(self) -> None:
        """Advance to the next pending wake-up (or by a second when none is pending)."""
        due = self.clock.next_at()
        self.advance(1.0 if due is None else max(0.0, due - self.clock.now()))

    def restart(self) -> None:
        """A new server process on the same store: every connection is gone."""
        self.run(self.lobby.close())
        for client in self.clients:
            client.conn.close()
        if self.pool is not None:  # the old lobby closed it: a new server, new workers
            self.pool = BotPool(self.pool.size, self.pool.wait, self.pool.in_node)
        self.lobby = Lobby(self.store, self.clock, self.token, self.pool)
        self.run(self.lobby.recover())
        self.table = self.lobby.tables.get(self.actor.state.id)
        if self.table is not None:
            self.settle()

    def close(self) -> None:
        self.run(self.lobby.close())
        self.run(self.store.close())
        self.loop.close()

    def kinds(self) -> list[str]:
        return [e.kind for e in self.actor.state.log]
