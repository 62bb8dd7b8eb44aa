"""The sample cluster (deploy/): compose.cluster.yaml (two nodes on one PostgreSQL and one
Redis, behind nginx) and deploy/nginx.conf, read as data (``docker compose config`` too where
compose is installed); nginx.conf run by a local nginx in front of a live server where nginx is
installed; and the load tool against two real nodes, one killed under it."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer.core
import typer.main
import yaml
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from baohuang.cli import app
from baohuang.client.http import create_table, guest, server_client
from baohuang.client.loadtest import load_test
from helpers.cluster import Node, Redis
from helpers.servers import LiveServer, Postgres, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NODES = ("node1", "node2")


def compose() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())
    return found


def options(command: list[str]) -> dict[str, str]:
    """A node's ``command`` (every option with a value) as option → value."""
    assert len(command) % 2 == 0 and all(flag.startswith("--") for flag in command[::2])
    return dict(zip(command[::2], command[1::2], strict=True))


# A directive: (name, arguments, its block or None).
Directive = tuple[str, list[str], list[Any] | None]


def parse_nginx(text: str) -> list[Directive]:
    """nginx's configuration as nested directives (comments dropped, quotes kept)."""
    text = re.sub(r"#[^\n]*", "", text)
    tokens = re.findall(r'"[^"]*"|[{};]|[^\s{};"]+', text)
    stack: list[list[Directive]] = [[]]
    words: list[str] = []
    for token in tokens:
        if token == ";":
            stack[-1].append((words[0], words[1:], None))
            words = []
        elif token == "{":
            block: list[Directive] = []
            stack[-1].append((words[0], words[1:], block))
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"no ; after {words}"
            stack.pop()
        else:
            words.append(token)
    assert len(stack) == 1 and not words, "unbalanced braces"
    return stack[0]


def find(block: list[Directive], name: str) -> list[Directive]:
    return [d for d in block if d[0] == name]


def block_of(directive: Directive) -> list[Directive]:
    assert directive[2] is not None, directive
    return directive[2]


def seconds(value: str) -> float:
    """An nginx time (``90``, ``90s``, ``10m``, ``1h``) in seconds."""
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()  # type: ignore[union-attr]
    scale = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}[unit]
    return int(number) * scale


def test_two_nodes_share_one_database_and_one_redis() -> None:
    services = compose()["services"]
    assert set(services) == {*NODES, "nginx", "postgres", "redis"}
    flags = {name: options(services[name]["command"]) for name in NODES}
    one, two = flags["node1"], flags["node2"]
    assert one["--database"] == two["--database"]
    assert one["--database"].startswith("postgresql://") and "@postgres:5432/" in one["--database"]
    assert one["--redis"] == two["--redis"] == "redis://redis:6379/0"
    # Each node is named after its service, and the names differ.
    assert [flags[name]["--node"] for name in NODES] == list(NODES)
    assert one["--lease"] == two["--lease"] and float(one["--lease"]) > 0
    # Both trust nginx's X-Forwarded-* (and nobody else's): its fixed address.
    nginx_address = services["nginx"]["networks"]["cluster"]["ipv4_address"]
    assert one["--proxy"] == two["--proxy"] == nginx_address
    addresses = {services[name]["networks"]["cluster"]["ipv4_address"] for name in NODES}
    assert len(addresses | {nginx_address}) == 3
    for name in NODES:
        node = services[name]
        # Built from the repository's Dockerfile, like compose.yaml's server.
        context = (DEPLOY / node["build"]["context"]).resolve()
        assert context == ROOT and (context / node["build"]["dockerfile"]).is_file()
        needs = node["depends_on"]
        assert needs["postgres"]["condition"] == needs["redis"]["condition"] == "service_healthy"
        assert "/readyz" in " ".join(node["healthcheck"]["test"])
    published = [services[name]["ports"][0] for name in NODES]
    assert published == ["127.0.0.1:8001:8000", "127.0.0.1:8002:8000"]


def test_the_node_command_is_what_baohuang_serve_takes() -> None:
    """Every option the nodes pass is one of ``baohuang serve``'s; the image's entrypoint
    listens on 0.0.0.0:8000, the port nginx and the published ports name."""
    serve = typer.main.get_command(app)
    assert isinstance(serve, typer.core.TyperGroup)
    known = {opt for param in serve.commands["serve"].params for opt in param.opts}
    for name in NODES:
        assert set(options(compose()["services"][name]["command"])) <= known
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert '"serve", "--host", "0.0.0.0", "--port", "8000"]' in dockerfile


def test_postgres_redis_and_nginx_services() -> None:
    services = compose()["services"]
    postgres, redis, nginx = services["postgres"], services["redis"], services["nginx"]
    assert postgres["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert postgres["volumes"][0].split(":")[0] in compose()["volumes"]
    assert redis["image"] == "redis:7"
    assert "ping" in redis["healthcheck"]["test"]
    assert nginx["image"].startswith("nginx:")
    source, target, *mode = nginx["volumes"][0].split(":")
    assert (DEPLOY / source).resolve() == DEPLOY / "nginx.conf"
    assert target == "/etc/nginx/nginx.conf" and mode == ["ro"]
    assert nginx["ports"] == ["8080:8080"]
    assert {name: nginx["depends_on"][name]["condition"] for name in NODES} == dict.fromkeys(
        NODES, "service_healthy"
    )
    subnet = compose()["networks"]["cluster"]["ipam"]["config"][0]["subnet"]
    assert nginx["networks"]["cluster"]["ipv4_address"].startswith(subnet.rsplit(".", 1)[0])


def test_nginx_balances_the_nodes_without_sticky_sessions() -> None:
    """Requests go to either node; a table's sockets go by a hash of its id (consistent: a
    dead node moves only its own tables), so they reach one node, which the table is handed
    to (server/cluster/nodes.py)."""
    config = parse_nginx((DEPLOY / "nginx.conf").read_text())
    http = block_of(find(config, "http")[0])
    upstreams = {d[1][0]: block_of(d) for d in find(http, "upstream")}
    assert set(upstreams) == {"baohuang", "baohuang_tables"}
    for name, servers in upstreams.items():
        # The upstreams name the compose services, on the port the image listens on.
        entries = [args for directive, args, _ in servers if directive == "server"]
        assert [args[0] for args in entries] == [f"{node}:8000" for node in NODES], name
        for args in entries:  # passive health: a node that fails is skipped for a while
            assert any(arg.startswith("max_fails=") for arg in args)
            assert any(arg.startswith("fail_timeout=") for arg in args)
    requests, tables = upstreams["baohuang"], upstreams["baohuang_tables"]
    assert not {"ip_hash", "hash", "sticky", "least_conn"} & {d[0] for d in requests}
    assert [d[1] for d in find(tables, "hash")] == [["$table_id", "consistent"]]
    maps = {tuple(d[1]): block_of(d) for d in find(http, "map")}
    (table_id,) = [block for key, block in maps.items() if key == ("$uri", "$table_id")]
    pattern = table_id[0][0]
    pcre = pattern.removeprefix("~").replace("(?<", "(?P<")  # PCRE's named group in Python's
    assert re.match(pcre, "/ws/v1/tables/5f4b006e")
    (server,) = find(http, "server")
    body = block_of(server)
    assert [args for _, args, _ in find(body, "listen")] == [["8080"]]
    locations = {tuple(d[1]): block_of(d) for d in find(body, "location")}
    sockets, pages = locations[("/ws/",)], locations[("/",)]
    assert [d[1] for d in find(sockets, "proxy_pass")] == [["http://baohuang_tables"]]
    assert [d[1] for d in find(pages, "proxy_pass")] == [["http://baohuang"]]
    for location in (sockets, pages):
        # A location that sets a header inherits none: each sets the forwarded ones itself.
        headers = {args[0]: args[1] for _, args, _ in find(location, "proxy_set_header")}
        assert headers["X-Forwarded-For"] in ("$remote_addr", "$proxy_add_x_forwarded_for")
        assert headers["X-Forwarded-Proto"] == "$scheme"
        assert headers["Host"] == "$http_host"  # the sockets' same-origin check needs the port
    upgrade = {args[0]: args[1] for _, args, _ in find(sockets, "proxy_set_header")}
    assert upgrade["Upgrade"] == "$http_upgrade"
    assert upgrade["Connection"] == "$connection_upgrade"
    assert ("$http_upgrade", "$connection_upgrade") in maps
    assert [d[1] for d in find(body, "proxy_http_version")] == [["1.1"]]
    (read_timeout,) = find(sockets, "proxy_read_timeout")
    # Beyond the server's 20 s pings and the page's 10 s ones, yet short: a socket whose
    # node is paused or gone is closed within a minute or two, and its client goes elsewhere.
    assert 40 <= seconds(read_timeout[1][0]) <= 120
    assert ("=", "/metrics") in locations


def test_compose_config_accepts_the_file(tmp_path: Path) -> None:
    """``docker compose config`` (where compose is installed) reads the file."""
    if shutil.which("docker") is None:
        pytest.skip("no docker client on PATH")
    version = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30)
    if version.returncode != 0:
        pytest.skip("no docker compose")
    done = subprocess.run(
        ["docker", "compose", "-f", str(DEPLOY / "compose.cluster.yaml"), "config", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_the_deploy_guide_shows_the_cluster() -> None:
    text = (ROOT / "docs" / "deploy.md").read_text()
    assert "## Many nodes (集群)" in text
    assert "docker compose -f deploy/compose.cluster.yaml up" in text
    assert "--url http://127.0.0.1:8001 --url http://127.0.0.1:8002" in text
    for flag in ("--redis", "--node", "--lease", "--proxy"):
        assert flag in text


@pytest.fixture
def nginx_in_front(tmp_path: Path) -> Iterator[tuple[str, LiveServer]]:
    """deploy/nginx.conf run by the nginx installed here: its upstream points at one live
    server (for both nodes), it listens on a free loopback port, its files are under
    ``tmp_path``; skipped without nginx."""
    binary = shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/usr/bin:/usr/local/bin")
    if binary is None:
        pytest.skip("no nginx installed")
    server = LiveServer(f"sqlite:///{tmp_path / 'x.db'}", tmp_path / "server.log")
    port = free_port()
    text = (DEPLOY / "nginx.conf").read_text()
    for node in NODES:
        text = text.replace(f"server {node}:8000", f"server 127.0.0.1:{server.port}")
    text = text.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    here = [f"{kind}_temp_path {tmp_path / kind};" for kind in kinds]
    here.append(f"access_log {tmp_path / 'access.log'};")
    text = text.replace("http {\n", "http {\n" + "".join(f"    {line}\n" for line in here), 1)
    (tmp_path / "nginx.conf").write_text(text)
    main = f"daemon off; pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};"
    url = f"http://127.0.0.1:{port}"
    proc: subprocess.Popen[bytes] | None = None
    try:
        server.start()
        proc = subprocess.Popen(
            [binary, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path), "-g", main],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, (tmp_path / "error.log").read_text()
            try:
                httpx.get(f"{url}/healthz", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.1)
        yield url, server
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        server.stop()


def test_tables_play_through_nginx(nginx_in_front: tuple[str, LiveServer]) -> None:
    """The load tool through deploy/nginx.conf (its config, not its upstream names): logins,
    tables and WebSockets pass; a page of the balancer's origin may open a socket (the Host
    with its port reaches the node); /metrics is not served."""
    url, server = nginx_in_front
    report = asyncio.run(load_test(url, 2, 1, bot="auto"))
    assert report.errors == 0, report.first_errors
    assert report.games_completed == 2 and report.ok
    assert httpx.get(f"{url}/metrics", timeout=5).status_code == 404
    assert httpx.get(f"{server.url}/metrics", timeout=5).status_code == 200

    async def welcome(origin: str) -> dict[str, Any]:
        async with server_client(url, 5) as http:
            cookie = await guest(http, "页面")
            table = await create_table(http, cookie, {"bots": 4})
        ws_url = "ws" + url.removeprefix("http") + f"/ws/v1/tables/{table['id']}"
        headers = {"Cookie": cookie}
        async with connect(ws_url, origin=Origin(origin), additional_headers=headers) as ws:
            await ws.send(json.dumps({"t": "hello", "v": None, "d": {}}))
            found: dict[str, Any] = json.loads(await ws.recv())
            return found

    assert asyncio.run(welcome(url))["t"] == "welcome"
    with pytest.raises(InvalidStatus) as refused:  # another site's page: refused
        asyncio.run(welcome("https://elsewhere.example"))
    assert refused.value.response.status_code == 403


@pytest.mark.postgres
@pytest.mark.slow
def test_the_load_tool_moves_to_the_live_node_when_one_dies(
    postgres: Postgres, tmp_path: Path
) -> None:
    """Two ``baohuang serve --redis`` nodes on one PostgreSQL database and one Redis, four
    tables spread over both (seat s of table i on node (i + s) mod 2); node 0 is killed
    (``kill -9``) once a game is over: its seats come back on node 1, every game finishes, and
    no connection sees a gap."""
    database = postgres.database(f"lt{uuid.uuid4().hex[:10]}")
    redis = Redis(tmp_path / "redis.log").start()
    nodes = [Node(database, redis, f"n{i}", tmp_path / f"n{i}.log", 2.0) for i in range(2)]
    killed: list[int] = []

    def kill_node_0(done: int) -> None:
        if not killed:
            killed.append(done)
            nodes[0].kill()

    try:
        for node in nodes:
            node.start()
        urls = [node.url for node in nodes]
        report = asyncio.run(load_test(urls, 4, 2, bot="auto", progress=kill_node_0))
    finally:
        for node in nodes:
            node.stop()
        redis.kill()
    assert killed and report.errors == 0, report.first_errors
    assert report.games_completed == report.games_expected == 8 and report.ok
    assert report.reconnects >= 10  # the seats on node 0: (i + s) even, two or three a table
    assert report.to_dict()["urls"] == urls
