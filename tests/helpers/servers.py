"""Test helpers: the real server in a subprocess on a free loopback port, and a protocol client
over a real WebSocket."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

SERVE = "from baohuang.cli import app; app()"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """``baohuang serve`` as a subprocess; :meth:`kill` is ``kill -9``."""

    def __init__(self, database: str, log: Path, *options: str) -> None:
        self.database = database
        self.log = log
        #: More ``serve`` options (``--request-timeout 1`` …).
        self.options = options
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
                [sys.executable, "-c", SERVE, *args], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.url}/api/presets", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

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


def guest(server: LiveServer, name: str) -> httpx.Client:
    """An HTTP client logged in as a new guest (its cookie jar holds the session)."""
    client = httpx.Client(base_url=server.url, timeout=10)
    client.post("/api/guest", json={"name": name}).raise_for_status()
    return client


def create_table(client: httpx.Client, **config: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"bot_delay": 0, "pause": 0, **config})
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]


class Player:
    """One WebSocket connection speaking the protocol, keeping what it has seen."""

    ids = itertools.count(1)

    def __init__(self, server: LiveServer, table: str, http: httpx.Client | None = None) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items()) if http else ""
        headers = {"Cookie": cookie} if cookie else {}
        self.ws: ClientConnection = connect(server.ws_url(table), additional_headers=headers)
        self.ws.__enter__()
        self.seq = 0
        self.seat: int | None = None
        self.token: str | None = None
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.inbox: list[dict[str, Any]] = []
        #: Every message received, as sent.
        self.raw: list[str] = []

    def send(self, t: str, d: Any, v: int | None = None) -> None:
        self.ws.send(json.dumps({"t": t, "v": v, "d": d}))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout)
        self.raw.append(str(text))
        msg: dict[str, Any] = json.loads(text)
        data = msg.get("d") or {}
        if msg["t"] == "event":
            assert msg["v"] == self.seq + 1, f"gap: had {self.seq}, got {msg['v']}"
            self.seq = msg["v"]
            self.events.append(data)
            if "view" in data:
                self.view = data["view"]
            if "table" in data:
                self.table = data["table"]
        elif msg["t"] in ("snapshot", "welcome"):
            self.table = data["table"]
            self.seat = data["seat"]
            if msg["t"] == "snapshot":  # a welcome's number is news; a snapshot's is state
                self.seq = msg["v"]
                self.view = data["view"]
        return msg

    def hello(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        self.send("hello", {"token": token, "since": since})
        welcome = self.recv()
        assert welcome["t"] == "welcome", welcome
        return welcome

    def command(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send a command; the ack or error answering it (events before it are kept)."""
        command_id = f"c{next(self.ids)}"
        self.send("cmd", {"id": command_id, "op": op, **fields}, v=self.seq)
        return self.answer(command_id)

    def answer(self, command_id: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["t"] in ("ack", "error") and msg["d"].get("id") == command_id:
                if msg["t"] == "ack" and msg["d"].get("token"):
                    self.token, self.seat = msg["d"]["token"], msg["d"]["seat"]
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
        self.ws.close()


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
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.dir / "log")
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-o", options, "-l", log, "-w", "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def database(self, name: str) -> str:
        """A fresh database on the cluster."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"
