"""A hostile client against one node, measured: the attacks of the hardening audit (issue
"Hardening") re-run as a script, each against a fresh ``baohuang serve`` on SQLite over
loopback, with what it got. Each row of docs/deploy.md's security section has a test that
holds it; this is the same attacks at the audit's own sizes, for figures.

- **logins**: 500 guesses at one account at once from one address, the right password last;
  meanwhile another member logs in from another address (how long it took).
- **stale**: 8 sockets of one's own seat each send 2,000 stale ``act`` commands and never
  read; the node's memory at its peak and once they have gone.
- **bodies**: six 100 MB posts; the node's memory after.
- **slow**: 1,100 slow posts from 28 addresses, held (each reopened when closed) against a
  node whose descriptor limit is 1,024, soft and hard (the audit's); a visitor's requests
  meanwhile, how many were served.
- **lobby**: 600 junk tables made within the limits (from 20 addresses); the lobby's answer
  and a ping while four clients fetch it over and over.
- **names**: members 'Élodie', 'Дима', 'Alice'; look-alikes tried as guests and as members.
- **friends**: a stranger with a 好友房's id: its info, its socket.

    .venv/bin/python bench/hostile.py [--only logins,slow] [--json bench/hostile.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from benchkit import machine, save
from helpers.servers import LiveServer, Player, create_table

PASSWORD = "correct horse battery"
#: A message as JSON text (the results go through benchkit's ``save`` alone).
to_json = json.JSONEncoder().encode


@contextlib.contextmanager
def node(*options: str, descriptors: int | None = None) -> Iterator[LiveServer]:
    """A fresh node on its own SQLite database."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        live = LiveServer(
            f"sqlite:///{where / 'bench.db'}", where / "log", *options, descriptors=descriptors
        )
        live.start()
        try:
            yield live
        finally:
            live.stop()


def client(server: LiveServer, address: str = "127.0.0.1", **kwargs: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127/8)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, transport=transport, timeout=60, **kwargs)


def guest_from(server: LiveServer, name: str, address: str) -> httpx.Client:
    """A guest's client from ``address``, its session cookie on every request."""
    http = client(server, address)
    answer = http.post("/api/guest", json={"name": name})
    answer.raise_for_status()
    http.headers["Cookie"] = answer.headers["set-cookie"].split(";")[0]
    return http


def rss_mb(server: LiveServer) -> float:
    assert server.proc is not None
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    (line,) = [line for line in status.splitlines() if line.startswith("VmRSS:")]
    return int(line.split()[1]) / 1024


def logins() -> dict[str, Any]:
    with node() as server:
        for name in ("目标", "路人"):
            client(server).post("/api/register", json={"name": name, "password": PASSWORD})

        async def guesses() -> list[int | str]:
            limits = httpx.Limits(max_connections=100)
            async with httpx.AsyncClient(base_url=server.url, timeout=120, limits=limits) as h:

                async def guess(n: int) -> int | str:
                    password = PASSWORD if n == 499 else f"guess{n:04d}"
                    body = {"name": "目标", "password": password}
                    try:
                        return (await h.post("/api/login", json=body)).status_code
                    except httpx.HTTPError as exc:
                        return type(exc).__name__

                return await asyncio.gather(*(guess(n) for n in range(500)))

        other: list[float] = []

        def bystander() -> None:
            time.sleep(0.2)  # inside the burst
            started = time.monotonic()
            body = {"name": "路人", "password": PASSWORD}
            client(server, "127.0.0.2").post("/api/login", json=body).raise_for_status()
            other.append(time.monotonic() - started)

        thread = threading.Thread(target=bystander)
        thread.start()
        codes = asyncio.run(guesses())
        thread.join()
    return {
        "guesses": len(codes),
        "hashed (401)": codes.count(401),
        "refused (429/503)": codes.count(429) + codes.count(503),
        "right password got in": codes[-1] == 200,
        "another member's login (s)": round(other[0], 2),
    }


def stale() -> dict[str, Any]:
    with node() as server:
        http = guest_from(server, "不读", "127.0.0.1")
        table = create_table(http, bots=4, timer=0)
        player = Player(server, table["id"], http)
        player.hello()
        player.recv()
        player.command("sit")
        player.command("ready")
        if not player.my_turn():
            player.until(lambda _: player.my_turn(), 60)
        before = rss_mb(server)
        own = {"Origin": server.url, "Cookie": http.headers["Cookie"]}
        peak, closed = before, 0
        with contextlib.ExitStack() as stack:
            sockets = []
            for _ in range(8):
                ws = stack.enter_context(
                    connect(server.ws_url(table["id"]), additional_headers=own, max_queue=None)
                )
                ws.send(to_json({"t": "hello", "d": {"token": player.token}}))
                sockets.append(ws)
            for n in range(2000):
                for s, ws in enumerate(sockets):
                    act = {"id": f"s{s}.{n}", "op": "act", "action": "pass"}
                    with contextlib.suppress(WebSocketException, OSError):
                        ws.send(to_json({"t": "cmd", "v": 0, "d": act}))
                if n % 100 == 0:
                    peak = max(peak, rss_mb(server))
            for _ in range(20):
                peak = max(peak, rss_mb(server))
                time.sleep(0.1)
            closed = sum(ws.close_code is not None for ws in sockets)
        time.sleep(2)
        after = rss_mb(server)
        player.close()
    return {
        "sockets": 8,
        "stale commands": 16000,
        "closed by the node": closed,
        "memory at peak (MB over before)": round(peak - before, 1),
        "memory after they went (MB over before)": round(after - before, 1),
    }


def bodies() -> dict[str, Any]:
    with node() as server:
        before = rss_mb(server)
        refused = 0
        for _ in range(6):
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as big:
                big.sendall(
                    b"POST /api/login HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\n\r\n" % (100 * 2**20)
                )
                chunk = b"x" * 2**20
                with contextlib.suppress(OSError):
                    for _ in range(100):
                        big.sendall(chunk)
                with contextlib.suppress(OSError):
                    refused += big.recv(100).startswith(b"HTTP/1.1 413")
        after = rss_mb(server)
    return {
        "posts of 100 MB": 6,
        "refused 413": refused,
        "memory after (MB over before)": round(after - before, 1),
    }


def slow(seconds: float) -> dict[str, Any]:
    with node(descriptors=1024) as server:
        stop = threading.Event()
        opened = [0]

        def attacker(address: str, count: int) -> None:
            held: list[socket.socket] = []
            while not stop.is_set():
                while len(held) < count and not stop.is_set():
                    try:
                        sock = socket.socket()
                        sock.settimeout(5)
                        sock.bind((address, 0))
                        sock.connect(("127.0.0.1", server.port))
                        sock.sendall(
                            b"POST /api/login HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\n{"
                        )
                        held.append(sock)
                        opened[0] += 1
                    except OSError:
                        time.sleep(0.1)
                time.sleep(0.5)
                alive = []
                for sock in held:  # reopen the ones the node closed
                    sock.settimeout(0)
                    try:
                        gone = sock.recv(1) == b""
                    except BlockingIOError:
                        gone = False
                    except OSError:
                        gone = True
                    (sock.close() if gone else alive.append(sock))
                held = alive
            for sock in held:
                sock.close()

        addresses = [f"127.0.1.{n}" for n in range(1, 29)]
        threads = [
            threading.Thread(target=attacker, args=(a, 1100 // 28 + (n < 1100 % 28)))
            for n, a in enumerate(addresses)
        ]
        for thread in threads:
            thread.start()
        time.sleep(3)  # the attack in place
        served, tried, waits = 0, 0, []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tried += 1
            started = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                served += httpx.get(f"{server.url}/api/presets", timeout=5).status_code == 200
                waits.append(time.monotonic() - started)
            time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join()
    return {
        "slow connections held": 1100,
        "from addresses": len(addresses),
        "opened in all": opened[0],
        "visitor's requests": tried,
        "served": served,
        "slowest served (s)": round(max(waits), 2) if waits else None,
    }


def lobby(seconds: float) -> dict[str, Any]:
    with node() as server:
        with ThreadPoolExecutor(4) as pool:

            def make(n: int) -> None:
                http = guest_from(server, f"刷桌{n}", f"127.0.2.{n + 1}")
                for _ in range(30):
                    http.post("/api/tables", json={"bots": 0}).raise_for_status()

            list(pool.map(make, range(20)))
        first = httpx.get(f"{server.url}/api/tables")
        stop = threading.Event()

        def fetch() -> None:
            with client(server) as http:
                while not stop.is_set():
                    http.get("/api/tables")

        def ping(count: int) -> float:
            """The median of ``count`` pings (ms), 0.1 s apart."""
            pings = []
            with client(server, "127.0.0.3") as http:
                for _ in range(count):
                    started = time.monotonic()
                    http.get("/healthz")
                    pings.append(1000 * (time.monotonic() - started))
                    time.sleep(0.1)
            return statistics.median(pings)

        quiet = ping(20)
        fetchers = [threading.Thread(target=fetch) for _ in range(4)]
        for thread in fetchers:
            thread.start()
        busy = ping(int(seconds * 10))
        stop.set()
        for thread in fetchers:
            thread.join()
    body = first.json()
    return {
        "tables made": 600,
        "lobby answer (KB)": round(len(first.content) / 1024, 1),
        "tables in it": len(body["tables"]),
        "pages": body["pages"],
        "ping, median (ms)": round(quiet, 1),
        "ping while four clients fetch it, median (ms)": round(busy, 1),
    }


LOOKALIKES = {
    "Élodie": ["élodie", "ÉLODIE", "E\u0301lodie"],
    "Дима": ["дима", "ДИМА"],
    "Alice": ["\u0410lice", "ALICE", "A\u217cice", "ａｌｉｃｅ"],
}


def names() -> dict[str, Any]:
    tried = taken = 0
    with node() as server:
        for n, (member, alikes) in enumerate(LOOKALIKES.items()):
            http = client(server, f"127.0.3.{n + 1}")  # within the registrations' limit
            http.post("/api/register", json={"name": member, "password": PASSWORD})
            for alike in alikes:
                for path, body in (
                    ("/api/guest", {"name": alike}),
                    ("/api/register", {"name": alike, "password": PASSWORD}),
                ):
                    tried += 1
                    answer = http.post(path, json=body)
                    taken += answer.status_code == 409
    return {"look-alikes tried (as guest and as member)": tried, "refused as taken": taken}


def friends() -> dict[str, Any]:
    with node() as server:
        owner = guest_from(server, "房主", "127.0.0.1")
        table = create_table(owner, bots=0, private=True)
        stranger = guest_from(server, "生人", "127.0.0.2")
        info = stranger.get(f"/api/tables/{table['id']}")
        origin = {"Origin": server.url, "Cookie": stranger.headers["Cookie"]}
        told: list[str] = []
        try:
            with connect(server.ws_url(table["id"]), additional_headers=origin) as ws:
                ws.send(to_json({"t": "hello", "d": {}}))
                with contextlib.suppress(TimeoutError, WebSocketException):
                    while True:
                        message = json.loads(ws.recv(3))
                        told.append(
                            message["d"]["code"] if message["t"] == "error" else message["t"]
                        )
        except InvalidStatus:
            told.append("refused at the handshake")
        listed = [t["id"] for t in stranger.get("/api/tables").json()["tables"]]
    return {
        "stranger's GET /api/tables/{id}": info.status_code,
        "stranger's socket was sent": ", ".join(told),
        "in the lobby's list": table["id"] in listed,
    }


ATTACKS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "logins": lambda _: logins(),
    "stale": lambda _: stale(),
    "bodies": lambda _: bodies(),
    "slow": lambda args: slow(args.seconds),
    "lobby": lambda args: lobby(args.seconds),
    "names": lambda _: names(),
    "friends": lambda _: friends(),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(ATTACKS), help="attacks, comma-separated")
    parser.add_argument("--seconds", type=float, default=20, help="slow, lobby: how long")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    results: dict[str, dict[str, Any]] = {}
    for name in args.only.split(","):
        with console.status(f"attack: {name}"):
            results[name] = ATTACKS[name](args)
        shown = Table(title=name, show_header=False)
        for key, value in results[name].items():
            shown.add_row(key, str(value))
        console.print(shown)
    console.print(f"machine: {machine()}")
    save(args.json, vars(args), results=results)


if __name__ == "__main__":
    main()
