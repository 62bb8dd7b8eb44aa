"""Abuse limits on the real server over loopback (issue: safe to run in public): registrations,
names, logins behind a forged X-Forwarded-For, the WebSocket origin, security headers, and
commands that would flood a table with events."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from baohuang.server.ratelimits import (
    GUESTS,
    LOGIN_FAILURES,
    NAME_FAILURES,
    REGISTRATIONS,
    SOCKETS_PER_ADDRESS,
    TABLE_COMMANDS,
    TABLES,
)
from baohuang.server.slowclients import CONNECTIONS_PER_ADDRESS, MAX_BODY, RESERVED_DESCRIPTORS
from helpers.servers import LiveServer, Player, create_table, guest


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log").start()
    yield live
    live.stop()


def register(server: LiveServer, name: str, **headers: str) -> httpx.Response:
    body = {"name": name, "password": "correct horse battery"}
    return httpx.post(f"{server.url}/api/register", json=body, headers=headers, timeout=30)


def test_one_name_one_account_and_registrations_are_limited(server: LiveServer) -> None:
    with ThreadPoolExecutor(6) as pool:  # six registrations of one name at the same moment
        answers = list(pool.map(lambda _: register(server, "王五").status_code, range(6)))
    assert sorted(answers) == [200] + [409] * 5
    allowed = REGISTRATIONS.amount - len(answers)
    codes = [register(server, f"用户{n}").status_code for n in range(allowed + 1)]
    assert codes == [200] * (allowed - 1) + [200, 429]  # counted per address, every attempt


def test_a_guest_cannot_take_or_imitate_a_registered_name(server: LiveServer) -> None:
    assert register(server, "zhang").status_code == 200
    for lookalike in ("zhang", "ZHANG", "ｚｈａｎｇ", " zhang "):
        answer = httpx.post(f"{server.url}/api/guest", json={"name": lookalike})
        assert answer.status_code == 409, lookalike
        assert answer.json()["detail"]["code"] == "name_taken"
    assert httpx.post(f"{server.url}/api/guest", json={"name": "zhang2"}).status_code == 200


@pytest.mark.parametrize(
    ("member", "others"),
    [
        ("Élodie", ["élodie", "ÉLODIE", "E\u0301lodie"]),  # case beyond ASCII, decomposed É
        ("Дима", ["дима", "ДИМА"]),
        ("Alice", ["\u0410lice", "ALICE", "A\u217cice"]),  # Cyrillic А, Roman numeral ⅼ
    ],
)
def test_one_name_rule_for_members_and_guests(
    server: LiveServer, member: str, others: list[str]
) -> None:
    """NFKC, case fold and ICU's confusable skeleton (UTS #39) on every database: no second
    member, and no guest, may take a member's name or one that looks the same (SQLite's
    lower() folds ASCII only: Élodie and Дима had been free to guests there)."""
    assert register(server, member).status_code == 200
    for alike in others:
        assert register(server, alike).json()["detail"]["code"] == "name_taken", alike
        answer = httpx.post(f"{server.url}/api/guest", json={"name": alike})
        assert answer.status_code == 409, alike
    login = {"name": others[0], "password": "correct horse battery"}  # the same account
    assert httpx.post(f"{server.url}/api/login", json=login).json()["name"] == member


def test_login_failures_are_limited_whatever_x_forwarded_for_says(server: LiveServer) -> None:
    assert register(server, "李四").status_code == 200
    unknown = httpx.post(f"{server.url}/api/login", json={"name": "nobody", "password": "x" * 8})
    wrong = httpx.post(f"{server.url}/api/login", json={"name": "李四", "password": "x" * 8})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()  # an unknown name and a wrong password look alike
    codes = []
    for n in range(6):  # no --proxy: a rotating header is not an address
        forged = {"X-Forwarded-For": f"10.0.0.{n}"}
        body = {"name": "李四", "password": f"guess{n:04d}"}
        codes.append(httpx.post(f"{server.url}/api/login", json=body, headers=forged).status_code)
    assert codes[:4] == [401] * 4 and codes[-1] == 429
    # Spraying many names from one address is limited too, and the owner is not locked out
    # for good: the window moves on (a minute per name, an hour per address).


def test_a_burst_of_guesses_cannot_outrun_the_login_limit(server: LiveServer) -> None:
    """Each login holds its place under the failure limits before its password is hashed, so
    60 guesses sent at once are hashed at most 5 times (LOGIN_FAILURES), not 60: the right
    password sent last in the burst finds the account closed to this address."""
    assert register(server, "赵六").status_code == 200

    def guess(n: int) -> int:
        password = "correct horse battery" if n == 59 else f"guess{n:04d}"
        body = {"name": "赵六", "password": password}
        return httpx.post(f"{server.url}/api/login", json=body, timeout=60).status_code

    with ThreadPoolExecutor(20) as pool:
        codes = list(pool.map(guess, range(60)))
    assert set(codes) <= {401, 429, 200}, codes
    assert codes.count(401) <= LOGIN_FAILURES.amount, codes
    assert codes.count(429) >= len(codes) - LOGIN_FAILURES.amount - 1, codes
    assert codes[-1] == 429  # the right password, after the limit: refused before any hash


def test_one_account_is_guarded_from_many_addresses_too(tmp_path: Path) -> None:
    """Behind a trusted proxy each guess may come from another address: the account's own
    limit (NAME_FAILURES, over all addresses, its name as NFKC + case fold) closes it."""
    live = LiveServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "s.log", "--proxy", "127.0.0.1")
    live.start()
    try:
        assert register(live, "钱七").status_code == 200

        def guess(n: int) -> int:
            body = {"name": "钱七" if n % 2 else " 钱七 ", "password": f"guess{n:04d}"}
            forged = {"X-Forwarded-For": f"10.1.{n // 250}.{n % 250}"}
            answer = httpx.post(f"{live.url}/api/login", json=body, headers=forged, timeout=60)
            return answer.status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(guess, range(NAME_FAILURES.amount + 8)))
        assert codes.count(401) == NAME_FAILURES.amount and codes.count(429) == 8, codes
        other = {"name": "孙八", "password": "x" * 8}  # another name from a fresh address
        answer = httpx.post(
            f"{live.url}/api/login", json=other, headers={"X-Forwarded-For": "10.9.9.9"}
        )
        assert answer.status_code == 401
    finally:
        live.stop()


def test_websocket_origin_is_this_server_or_a_named_one(server: LiveServer) -> None:
    http = guest(server, "张三")
    table = create_table(http, bots=4)
    with pytest.raises(InvalidStatus) as refused:  # refused at the handshake
        connect(server.ws_url(table["id"]), origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    own = f"http://127.0.0.1:{server.port}"
    with connect(server.ws_url(table["id"]), origin=own) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"t": "hello", "d": {}}))
        assert json.loads(ws.recv(5))["t"] == "welcome"


def test_security_headers_on_every_answer(server: LiveServer) -> None:
    for path in ("/", "/api/presets", "/static/app.js", "/api/games/nope/record"):
        headers = httpx.get(f"{server.url}{path}").headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff"
    cookie = httpx.post(f"{server.url}/api/guest", json={"name": "访客"}).headers["set-cookie"]
    assert "HttpOnly" in cookie and "Secure" not in cookie  # plain HTTP here; HTTPS sets it


def test_toggling_ready_cannot_flood_a_table(server: LiveServer) -> None:
    http = guest(server, "张三")
    table = create_table(http, bots=3)
    player = Player(server, table["id"], http)
    player.hello()
    player.recv()
    assert player.command("sit")["t"] == "ack"
    answers = [player.command("ready", on=n % 2 == 0) for n in range(3 * TABLE_COMMANDS.amount)]
    limited = [a for a in answers if a["t"] == "error" and a["d"]["code"] == "rate_limited"]
    assert limited and all(a["d"]["zh"] for a in limited)
    applied = sum(a["t"] == "ack" for a in answers)
    assert applied <= 2 * TABLE_COMMANDS.amount  # a few a second, not thousands


def test_a_half_sent_request_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    options = ("--request-timeout", "1")
    live = LiveServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "log", *options).start()
    try:
        with socket.create_connection(("127.0.0.1", live.port), timeout=10) as slow:
            slow.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")  # and nothing more
            started = time.monotonic()
            assert slow.recv(100) == b""  # closed by the server, not by our own timeout
            assert time.monotonic() - started < 8
        fine = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
        for _ in range(2):  # whole requests on one kept-alive connection are served
            fine.request("GET", "/healthz")
            answer = fine.getresponse()
            assert answer.status == 200 and answer.read()
        fine.close()
    finally:
        live.stop()


def read_answer(sock: socket.socket) -> bytes:
    """What the server sends before it closes the connection (a reset ends it too: the
    server closed with our bytes unread); our own timeout raises."""
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_large_body_is_refused_before_it_is_kept(server: LiveServer, declared: bool) -> None:
    """A body over MAX_BODY gets 413 and a closed connection: said in Content-Length, at
    once, without reading it; sent chunked, as soon as it passes the cap. The server's memory
    stays where it was after six such 100 MB posts."""
    before = server_rss(server)
    for _ in range(6):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as big:
            head = "POST /api/login HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            if declared:
                big.sendall(f"{head}content-length: {100 * 2**20}\r\n\r\n".encode())
            else:
                big.sendall(f"{head}transfer-encoding: chunked\r\n\r\n".encode())
                chunk = b"x" * 8192
                with contextlib.suppress(OSError):  # the server closes while we send
                    for _ in range(MAX_BODY // len(chunk) + 4):
                        big.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            answer = read_answer(big)
        if declared or answer:  # chunked: the 413 may be lost to the reset of unread bytes
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            assert "请求太大".encode() in answer
    assert server_rss(server) - before < 50 * 2**20
    body = {"name": "nobody", "password": "x" * 8}  # a small body is served as before
    assert httpx.post(f"{server.url}/api/login", json=body).status_code == 401


def server_rss(server: LiveServer) -> int:
    """The server process's resident memory, in bytes (Linux)."""
    assert server.proc is not None
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    (line,) = [line for line in status.splitlines() if line.startswith("VmRSS:")]
    return int(line.split()[1]) * 1024


def test_a_body_that_trickles_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    options = ("--request-timeout", "1")
    live = LiveServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "log", *options).start()
    try:
        with socket.create_connection(("127.0.0.1", live.port), timeout=10) as slow:
            slow.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\n{")
            with contextlib.suppress(OSError):
                for _ in range(8):  # two bytes a second: never done in time
                    time.sleep(0.5)
                    slow.sendall(b" ")
            # Closed by the server: left open, the read would hit the socket's own timeout.
            assert read_answer(slow) == b""
    finally:
        live.stop()


def test_guests_tables_and_sockets_per_address_are_bounded(server: LiveServer) -> None:
    http = guest(server, "房主")
    for _ in range(TABLES.amount - 1):
        create_table(http, bots=4)
    last = http.post("/api/tables", json={"bots": 4})
    assert last.status_code == 200
    assert http.post("/api/tables", json={"bots": 4}).status_code == 429
    made = [
        httpx.post(f"{server.url}/api/guest", json={"name": f"客{n}"}).status_code
        for n in range(GUESTS.amount)
    ]
    assert made[:-1] == [200] * (GUESTS.amount - 1) and made[-1] == 429  # 房主 was the first
    url = server.ws_url(last.json()["id"])
    with contextlib.ExitStack() as stack:
        for _ in range(SOCKETS_PER_ADDRESS):
            stack.enter_context(connect(url))
        with pytest.raises(InvalidStatus):
            connect(url)
    time.sleep(0.2)
    with connect(url):  # closed ones free their places
        pass


def test_an_exempt_address_is_held_to_no_per_address_limit(tmp_path: Path) -> None:
    """``serve --exempt 127.0.0.1`` (a load generator's address): more tables, guests and
    sockets than any other address may have."""
    live = LiveServer(
        f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log", "--exempt", "127.0.0.1"
    ).start()
    try:
        http = guest(live, "压测")
        for _ in range(TABLES.amount + 1):
            table = create_table(http, bots=4)
        made = [
            httpx.post(f"{live.url}/api/guest", json={"name": f"客{n}"}).status_code
            for n in range(GUESTS.amount + 1)
        ]
        assert made == [200] * (GUESTS.amount + 1)
        with contextlib.ExitStack() as stack:
            for _ in range(SOCKETS_PER_ADDRESS + 1):
                stack.enter_context(connect(live.ws_url(table["id"])))
    finally:
        live.stop()


def test_metrics_by_token_and_no_api_pages_unless_asked(tmp_path: Path) -> None:
    """A node reachable without the reverse proxy keeps its metrics to whoever has the token
    (--metrics-token) and serves no OpenAPI pages unless --api-docs."""
    options = ("--metrics-token", "s3cret")
    live = LiveServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "log", *options).start()
    try:
        assert httpx.get(f"{live.url}/metrics").status_code == 401
        wrong = httpx.get(f"{live.url}/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        right = httpx.get(f"{live.url}/metrics", headers={"Authorization": "Bearer s3cret"})
        assert right.status_code == 200 and "baohuang_sockets" in right.text
        assert httpx.get(f"{live.url}/docs").status_code == 404
        assert httpx.get(f"{live.url}/openapi.json").status_code == 404
    finally:
        live.stop()
    docs = LiveServer(f"sqlite:///{tmp_path / 'd.db'}", tmp_path / "log", "--api-docs").start()
    try:
        assert httpx.get(f"{docs.url}/openapi.json").json()["info"]["title"] == "保皇 Baohuang"
        assert httpx.get(f"{docs.url}/metrics").status_code == 200  # no token: as before
    finally:
        docs.stop()


def test_a_burst_of_stale_commands_gets_one_snapshot_over_a_real_socket(
    server: LiveServer,
) -> None:
    """Each stale ``act`` had been answered with a whole snapshot: eight sockets of one's own
    seat sending them, never reading, had held 252–345 MB. A burst at one state now gets one
    (the bytes each socket and user may have queued are bounded too: test_message_limits)."""
    http = guest(server, "不读")
    table = create_table(http, bots=4, timer=0)
    player = Player(server, table["id"], http)
    player.hello()
    player.recv()
    assert player.command("sit")["t"] == "ack" and player.command("ready")["t"] == "ack"
    if not player.my_turn():  # stale only on one's turn (off it: not_your_turn, no snapshot)
        player.until(lambda m: player.my_turn(), 30)
    own = {"Origin": f"http://127.0.0.1:{server.port}", "Cookie": http.headers["Cookie"]}
    with connect(server.ws_url(table["id"]), additional_headers=own) as ws:
        ws.send(json.dumps({"t": "hello", "d": {"token": player.token}}))
        for n in range(50):
            act = {"id": f"s{n}", "op": "act", "action": "pass"}
            ws.send(json.dumps({"t": "cmd", "v": 0, "d": act}))
        kinds = []
        while len(kinds) < 2 + 50 + 1:  # welcome, snapshot, 50 errors, the burst's snapshot
            kinds.append(json.loads(ws.recv(10))["t"])
        with contextlib.suppress(TimeoutError):
            while True:
                kinds.append(json.loads(ws.recv(1))["t"])
    assert kinds.count("error") == 50 and kinds.count("snapshot") == 2, kinds


def slow_connection(address: str, port: int) -> socket.socket:
    """A connection from ``address`` (any of 127/8) that begins a request and sends no more."""
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\n{")
    return sock


def closed_by_server(sock: socket.socket, wait: bool = False) -> bool:
    """Whether the server has closed ``sock`` (``wait``: blocking until it does; the socket's
    own timeout then says it does not)."""
    sock.settimeout(10 if wait else 0)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False  # open, nothing to read
    except ConnectionResetError:
        return True


def test_slow_clients_cannot_take_every_descriptor(tmp_path: Path) -> None:
    """1,100 slow posts from 28 addresses had held all 1,024 of a node's descriptors and every
    visitor failed. Here the node may have 320 and slow clients from four addresses open 400
    connections and hold them (the request timeout far away): the oldest waiting ones are
    closed to make room, and a visitor is served; an address past its own count is closed at
    once."""
    limit = 320
    capacity = limit - RESERVED_DESCRIPTORS
    live = LiveServer(
        f"sqlite:///{tmp_path / 's.db'}",
        tmp_path / "log",
        *("--request-timeout", "300"),
        descriptors=limit,
    ).start()
    try:
        with contextlib.ExitStack() as stack:
            slow = [
                stack.enter_context(slow_connection(f"127.0.0.{2 + n % 4}", live.port))
                for n in range(400)
            ]
            for _ in range(3):  # a visitor, now and again
                assert httpx.get(f"{live.url}/healthz", timeout=10).status_code == 200
            # Closed: the oldest, to make room for the newer; the newest still wait.
            assert closed_by_server(slow[0], wait=True)
            shut = [closed_by_server(sock) for sock in slow]
            assert sum(shut) >= len(slow) - capacity, sum(shut)
            assert not any(shut[-capacity // 2 :])
            # One address holds at most CONNECTIONS_PER_ADDRESS: the next one is closed.
            own = [
                stack.enter_context(slow_connection("127.0.0.9", live.port))
                for _ in range(CONNECTIONS_PER_ADDRESS + 1)
            ]
            assert closed_by_server(own[-1], wait=True)
            assert not closed_by_server(own[-2])
    finally:
        live.stop()
