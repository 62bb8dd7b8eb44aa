"""Test helpers for many nodes: Debian's ``redis-server`` on a free port, server nodes over
one PostgreSQL database, and bot seats that move to another node when theirs dies."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from baohuang.bots.base import make_bot
from baohuang.client.botseat import choose
from baohuang.client.connection import TableClient
from baohuang.engine.rules import Rules
from helpers.servers import LiveServer, free_port


class Redis:
    """``redis-server`` on a free loopback port, without persistence (a restart loses every
    key, as a real Redis failure may); installed by scripts/test.sh."""

    def __init__(self, log: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: scripts/test.sh installs it")
        self.binary = binary
        self.log = log
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([*args, "--appendonly", "no"], stdout=out, stderr=out)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def count(self, pattern: str) -> int:
        """How many keys match ``pattern`` (one KEYS, by hand)."""
        with socket.create_connection(("127.0.0.1", self.port), 2) as sock:
            sock.sendall(f"*2\r\n$4\r\nKEYS\r\n${len(pattern)}\r\n{pattern}\r\n".encode())
            reply = b""
            while not reply.endswith(b"\r\n") or reply.count(b"\r\n") < 1:
                reply += sock.recv(65536)
            header = reply.split(b"\r\n", 1)[0]
        return int(header[1:])

    def get(self, key: str) -> str | None:
        """A key's value (through redis-cli's protocol, by hand: one GET)."""
        with socket.create_connection(("127.0.0.1", self.port), 2) as sock:
            sock.sendall(f"*2\r\n$3\r\nGET\r\n${len(key)}\r\n{key}\r\n".encode())
            reply = sock.recv(65536).decode()
        if reply.startswith("$-1"):
            return None
        return reply.split("\r\n")[1]


class Node(LiveServer):
    """One ``baohuang serve --redis`` node."""

    def __init__(
        self, database: str, redis: Redis, name: str, log: Path, lease: float, *options: str
    ) -> None:
        cluster = ("--redis", redis.url, "--node", name, "--lease", str(lease))
        super().__init__(database, log, *cluster, *options)
        self.name = name

    def pause(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def metric(self, name: str) -> float:
        """A metric's value (summed over its labels) from ``GET /metrics``."""
        text = httpx.get(f"{self.url}/metrics", timeout=5).text
        values = re.findall(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M)
        return sum(float(v) for v in values)


class Seat(TableClient):
    """A bot's seat that follows its match to the end, moving to the next node in ``servers``
    whenever its connection is lost, and that keeps every event it was sent."""

    def __init__(self, servers: list[str], first: int, table_id: str, cookie: str) -> None:
        super().__init__(servers[first % len(servers)], table_id, cookie, timeout=60)
        self.servers = itertools.cycle(servers[first + 1 :] + servers[: first + 1])
        #: (seq, kind, the seat of the view it came with or None) of every event received.
        self.events: list[tuple[int, str, int | None]] = []
        #: Where the stream started: the first snapshot's sequence number.
        self.start: int | None = None
        self.moves = 0
        self.bot: Any = None
        self.pending: tuple[str, dict[str, Any], int] | None = None
        #: The latest view received (``join`` may read the game's first event while it
        #: waits for its ``ready`` answer).
        self.view: dict[str, Any] | None = None

    def take(self, text: str | bytes | dict[str, Any]) -> dict[str, Any]:
        msg = super().take(text)
        if msg["t"] in ("event", "snapshot") and msg["d"].get("view"):
            self.view = msg["d"]["view"]
        if msg["t"] == "snapshot" and self.start is None:
            self.start = msg["v"]
        elif msg["t"] == "event":
            view = msg["d"].get("view")
            self.events.append((msg["v"], msg["d"]["kind"], view["seat"] if view else None))
        elif msg["t"] in ("ack", "error") and self.pending and msg["d"]["id"] == self.pending[0]:
            self.pending = None
        return msg

    async def join(self) -> None:
        await self.hello()
        snapshot = await self.until("snapshot")
        await self.answer(await self.send("sit"))
        rules = Rules.from_dict(snapshot["d"]["table"]["rules"])
        self.bot = make_bot("heuristic", rules, f"cluster/{self.seat}")
        await self.answer(await self.send("ready"))

    async def act(self, view: dict[str, Any]) -> None:
        command_id = f"c{next(self.ids)}"
        data = {"id": command_id, "op": "act", "action": choose(self.bot, view)}
        self.pending = (command_id, data, self.seq)
        await self.send_message("cmd", data, self.seq)

    async def play(self, deadline: float) -> None:
        """Follow the match to ``match_over``; on a lost connection, the next node."""
        if self.view is not None and self._my_turn(self.view):
            await self.act(self.view)
        while True:
            try:
                async for msg in self.messages():
                    data = msg["d"]
                    if msg["t"] == "event" and data["kind"] == "match_over":
                        return
                    view = data.get("view") if msg["t"] in ("event", "snapshot") else None
                    if self._my_turn(view):
                        await self.act(view)
            except (ConnectionClosed, OSError):
                pass
            await self._move(deadline)

    def _my_turn(self, view: dict[str, Any] | None) -> bool:
        return bool(view and view["turn"] == self.seat and view["legal"])

    async def _move(self, deadline: float) -> None:
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"seat {self.seat} found no node to reconnect to")
            self.server = next(self.servers)
            try:
                await self.reconnect()
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                await asyncio.sleep(0.2)
                continue
            self.moves += 1
            if self.pending is not None:  # lost with the node: the same id, answered once
                _, data, seq = self.pending
                await self.send_message("cmd", data, seq)
            return
