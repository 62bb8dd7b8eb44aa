"""Test helpers: the real server in a subprocess on a free loopback port, and a synchronous
face over the protocol client (:mod:`baohuang.client`) for the tests to talk to it."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx

from baohuang.client import http as api
from baohuang.client.connection import TableClient

T = TypeVar("T")

SERVE = "from baohuang.cli import app; app()"
#: Seconds a server may take to answer after its start: a safety net, not the expected time (a
#: second or two; far more on a busy machine, or for a node that waits for another's migration).
START_S = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """``baohuang serve`` as a subprocess; :meth:`kill` is ``kill -9``."""

    def __init__(
        self, database: str, log: Path, *options: str, descriptors: int | None = None
    ) -> None:
        self.database = database
        self.log = log
        #: More ``serve`` options (``--request-timeout 1`` …).
        self.options = options
        #: The server's descriptor limit, soft and hard (``None``: this process's).
        self.descriptors = descriptors
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/v1/tables/{table}"

    def start(self) -> LiveServer:
        args = ["serve", "--port", str(self.port), "--database", self.database, *self.options]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", SERVE, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=None if self.descriptors is None else self._limit_descriptors,
            )
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.url}/api/presets", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start in {START_S} s")

    def _limit_descriptors(self) -> None:
        assert self.descriptors is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.descriptors, self.descriptors))

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> LiveServer:
        self.kill()
        return self.start()


@functools.cache
def _loop() -> asyncio.AbstractEventLoop:
    """The event loop, in a daemon thread, that runs the tests' async protocol clients."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="test-clients", daemon=True).start()
    return loop


def run(work: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    """Run ``work`` on the clients' loop and wait for its result (or its exception)."""
    future = asyncio.run_coroutine_threadsafe(work, _loop())
    try:
        return future.result(timeout)
    except TimeoutError:
        future.cancel()
        raise


class Server(Protocol):
    """What the clients need of a server: its address."""

    @property
    def url(self) -> str: ...


def http_call(server: str, call: Callable[[httpx.AsyncClient], Awaitable[T]]) -> T:
    """``call`` with an HTTP client for the server at ``server``."""

    async def work() -> T:
        async with api.server_client(server, 10) as http:
            return await call(http)

    return run(work())


def guest(server: Server, name: str) -> httpx.Client:
    """An HTTP client logged in as a new guest (every request carries its session cookie)."""
    cookie = http_call(server.url, lambda http: api.guest(http, name))
    return httpx.Client(base_url=server.url, timeout=10, headers={"Cookie": cookie})


def create_table(client: httpx.Client, **config: Any) -> dict[str, Any]:
    """A new table (no bot delay, no pause unless said) created by the guest of ``client``."""
    config = {"bot_delay": 0, "pause": 0, **config}
    cookie = client.headers["Cookie"]
    url = str(client.base_url).rstrip("/")
    return http_call(url, lambda http: api.create_table(http, cookie, config))


class Player:
    """One table connection, synchronous (the async :class:`TableClient` on the clients' loop),
    keeping what it has seen."""

    def __init__(self, server: Server, table: str, http: httpx.Client | None = None) -> None:
        cookie = http.headers.get("Cookie", "") if http else ""
        self.client = TableClient(server.url, table, cookie, listen=self.keep)
        run(self.client.open())
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.inbox: list[dict[str, Any]] = []
        #: Every message received, as JSON text.
        self.raw: list[str] = []

    @property
    def seq(self) -> int:
        return self.client.seq

    @seq.setter
    def seq(self, value: int) -> None:
        self.client.seq = value

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @seat.setter
    def seat(self, value: int | None) -> None:
        self.client.seat = value

    @property
    def token(self) -> str | None:
        return self.client.token

    def keep(self, msg: dict[str, Any]) -> None:
        """Note a received message (on the clients' loop, while the test waits for it)."""
        self.raw.append(json.dumps(msg, ensure_ascii=False))
        data = msg["d"]
        if msg["t"] == "event":
            self.events.append(data)
            if "view" in data:
                self.view = data["view"]
            if "table" in data:
                self.table = data["table"]
        elif msg["t"] in ("snapshot", "welcome"):
            self.table = data["table"]
            if msg["t"] == "snapshot":
                self.view = data["view"]

    def send(self, t: str, d: Any, v: int | None = None) -> None:
        run(self.client.send_message(t, d, v))

    def send_raw(self, text: str | bytes) -> None:
        """Send ``text`` as it is, protocol or not."""
        run(self.client.socket.send(text))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message (the client checks its envelope and that no event is missing)."""
        return run(self.client.recv(timeout), timeout + 10)

    def hello(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        run(self.client.hello(token, since))
        welcome = self.recv()
        assert welcome["t"] == "welcome", welcome
        return welcome

    def command(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send a command; the ack or error answering it (events before it are kept)."""
        return self.answer(run(self.client.send(op, **fields)))

    def answer(self, command_id: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["t"] in ("ack", "error") and msg["d"].get("id") == command_id:
                return msg
            if msg["t"] not in ("event", "snapshot"):
                self.inbox.append(msg)

    def until(self, test: Any, timeout: float = 30) -> dict[str, Any]:
        """Read messages until one passes ``test``."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if test(msg):
                return msg

    @property
    def over(self) -> bool:
        """The match has ended (its last event arrived)."""
        return bool(self.events) and self.events[-1]["kind"] == "match_over"

    def my_turn(self) -> bool:
        view = self.view
        return bool(view and view["turn"] == self.seat and view["legal"])

    def close(self) -> None:
        run(self.client.close())


class Postgres:
    """A throwaway PostgreSQL cluster (Debian's package) on a free port, for one test session.

    As root the cluster runs as the ``postgres`` user, which PostgreSQL requires.
    """

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not found:
            raise RuntimeError(
                "PostgreSQL is not installed: scripts/test.sh installs Debian's postgresql"
            )
        self.bin = found[-1].parent
        self.dir = Path(tempfile.mkdtemp(prefix="baohuang-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> Postgres:
        if self.as_root:  # its own folder under /tmp: pytest's are closed to other users
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres")
        self._ctl("start")
        return self

    def restart(self) -> None:
        """Stop the cluster at once (every connection cut, as in a crash) and start it again."""
        self._ctl("restart", "-m", "immediate")

    def _ctl(self, *action: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.dir / "log")
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-o", options, "-l", log, "-w", *action)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def database(self, name: str) -> str:
        """A fresh database on the cluster."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"
