"""Operations and packaging: health and readiness, JSON logs, Prometheus metrics, the Dockerfile
and compose.yaml (the image is built where a Docker engine runs), the extras, the wheel, and an
engine import that loads no web or database library."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import shutil
import subprocess
import sys
import time
import tomllib
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

import baohuang
from baohuang.server import health
from baohuang.server.app import create_app
from baohuang.server.logs import REPEAT_WINDOW, JsonFormatter, LogFormat, Repeats, log_config
from baohuang.server.store import Store
from helpers.servers import SERVE, Player, Postgres, create_table, free_port, guest

ROOT = Path(__file__).resolve().parents[2]

#: What importing the engine must not load.
HEAVY = (
    "fastapi",
    "starlette",
    "sqlalchemy",
    "uvicorn",
    "pydantic",
    "asyncpg",
    "httpx",
    "websockets",
    "prometheus_client",
)


# ---------------------------------------------------------------------- a server with options


class Served:
    """``baohuang serve`` in a subprocess with extra options, standard error kept apart."""

    def __init__(self, database: str, tmp: Path, *options: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.err = tmp / f"serve-{self.port}.err"
        args = ["serve", "--port", str(self.port), "--database", database, *options]
        with self.err.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", SERVE, *args], stdout=subprocess.DEVNULL, stderr=err
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.err.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.url}/healthz", timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in 30 s")

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.url}{path}", timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[Served]:
    served = Served(f"sqlite:///{tmp_path / 'ops.db'}", tmp_path, "--log-format", "json")
    yield served
    served.stop()


def samples(text: str) -> dict[str, float]:
    """Prometheus text format: ``name{labels}`` → value."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


def wait_for(test: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# ---------------------------------------------------------------------- health, metrics, logs


def test_healthz_readyz_and_metrics_over_a_live_server(json_server: Served) -> None:
    health_answer = json_server.get("/healthz")
    assert health_answer.status_code == 200
    assert health_answer.json() == {"status": "ok"}
    ready = json_server.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "writer": "ok"}

    before = samples(json_server.get("/metrics").text)
    assert before["baohuang_sockets"] == 0
    assert before['baohuang_commands_total{op="act"}'] == 0  # every series from zero

    http = guest(json_server, "运维")
    table = create_table(http, bots=4, timer=0)
    player = Player(json_server, table["id"], http)
    player.hello()
    player.recv()
    assert player.command("act", action="pass")["t"] == "error"  # not seated
    assert player.command("sit")["t"] == "ack"
    assert player.command("ready")["t"] == "ack"

    response = json_server.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    seen = samples(text)
    assert seen["baohuang_sockets"] == 1
    assert seen['baohuang_tables{status="playing"}'] == 1
    assert seen['baohuang_tables{status="waiting"}'] == 0
    for op in ("sit", "ready", "act"):
        assert seen[f'baohuang_commands_total{{op="{op}"}}'] == 1, op
        assert seen[f'baohuang_command_seconds_count{{op="{op}"}}'] == 1, op
    assert seen['baohuang_refusals_total{code="not_seated"}'] == 1
    assert seen["baohuang_store_commit_seconds_count"] >= 1
    assert seen["baohuang_store_writes_total"] >= seen["baohuang_store_commit_seconds_count"]
    assert "process_resident_memory_bytes" in seen
    # Aggregates only: no table id, no name; labelled by op, error code, status or a bot
    # move's fallback reason alone (busy, late, died, error).
    assert table["id"] not in text
    assert "运维" not in text
    ours = [name for name in seen if name.startswith("baohuang_")]
    labels = {label for name in ours for label in re.findall(r"(\w+)=", name)}
    assert labels == {"op", "code", "status", "le", "reason"}
    reasons = {v for n in ours for v in re.findall(r'reason="(\w+)"', n)}
    assert reasons == {"busy", "late", "died", "error"}

    player.close()
    wait_for(lambda: samples(json_server.get("/metrics").text)["baohuang_sockets"] == 0)

    json_server.stop()
    lines = json_server.err.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    ready_line = next(r for r in records if r["message"].startswith("server ready"))
    assert ready_line["logger"] == "baohuang.server"
    assert ready_line["level"] == "INFO"
    assert ready_line["tables"] == 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", ready_line["time"])


@pytest.mark.postgres
def test_readyz_is_503_when_postgresql_stops(tmp_path: Path) -> None:
    try:
        cluster = Postgres().start()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    served, running = None, True
    try:
        served = Served(cluster.database(f"ops{uuid.uuid4().hex[:8]}"), tmp_path)
        assert served.get("/readyz").json() == {
            "status": "ready",
            "database": "ok",
            "writer": "ok",
        }
        cluster.stop()
        running = False
        down = served.get("/readyz")
        assert down.status_code == 503
        assert down.json()["status"] == "not_ready"
        assert down.json()["database"].startswith("error: ")
        assert "127.0.0.1" not in down.text  # the error's type only, not its message
        assert served.get("/healthz").status_code == 200  # alive all the same
    finally:
        if served is not None:
            served.stop()
        if running:
            cluster.stop()


def test_readyz_is_503_before_the_store_starts(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'cold.db'}")

    async def check() -> None:
        # No lifespan: the store's writer never started.
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://ops") as client:
            assert (await client.get("/healthz")).json() == {"status": "ok"}
            answer = await client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"status": "not_ready", "database": "ok", "writer": "stopped"}
        await app.state.services.store.close()

    asyncio.run(check())


def test_readiness_names_a_database_that_does_not_answer() -> None:
    async def check() -> tuple[bool, dict[str, Any]]:
        store = Store(f"postgresql://nobody@127.0.0.1:{free_port()}/none")  # nothing listens
        try:
            return await health.readiness(store)
        finally:
            await store.close()

    ready, body = asyncio.run(check())
    assert not ready
    assert body == {
        "status": "not_ready",
        "database": "error: ConnectionRefusedError",
        "writer": "stopped",
    }


def test_json_log_lines_carry_the_table_and_the_fields() -> None:
    logger = logging.getLogger("baohuang.server")
    formatter = JsonFormatter()
    stalled = logger.makeRecord(
        "baohuang.server",
        logging.ERROR,
        "actor.py",
        1,
        "table %s stalled at event %d: %s overdue; rescheduling",
        ("ab12cd34", 17, "bot"),
        None,
    )
    line = formatter.format(stalled)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert entry["logger"] == "baohuang.server"
    assert entry["message"] == "table ab12cd34 stalled at event 17: bot overdue; rescheduling"
    assert entry["table"] == "ab12cd34"
    assert set(entry) == {"time", "level", "logger", "message", "table"}

    try:
        raise RuntimeError("disk gone")
    except RuntimeError:
        failed = logger.makeRecord(
            "baohuang.server",
            logging.ERROR,
            "actor.py",
            1,
            "table %s failed; it will be reloaded",
            ("t1",),
            sys.exc_info(),
            extra={"seq": 3},
        )
    entry = json.loads(formatter.format(failed))
    assert entry["table"] == "t1" and entry["seq"] == 3
    assert "RuntimeError: disk gone" in entry["exception"]


def test_a_flood_of_one_warning_is_written_once_a_window_with_its_count() -> None:
    """A database outage made every table log the same failure over and over: a warning or
    error like one written within REPEAT_WINDOW seconds is left out, and the next one let
    through says how many were; information lines and other messages always pass."""
    now = [100.0]
    repeats = Repeats(lambda: now[0])

    def record(level: int, msg: str, *args: object) -> logging.LogRecord:
        return logging.getLogger("baohuang.server").makeRecord(
            "baohuang.server", level, "store.py", 1, msg, args, None
        )

    failed = "table %s failed; it will be reloaded"
    passed = [repeats.filter(record(logging.ERROR, failed, f"t{n}")) for n in range(50)]
    assert passed == [True] + [False] * 49
    assert repeats.filter(record(logging.WARNING, "another %s", 1))
    assert all(repeats.filter(record(logging.INFO, "server ready")) for _ in range(5))
    now[0] += REPEAT_WINDOW
    later = record(logging.ERROR, failed, "t9")
    assert repeats.filter(later) and later.repeated == 49  # type: ignore[attr-defined]
    assert later.getMessage() == "table t9 failed; it will be reloaded (and 49 like it left out)"
    assert log_config("json")["handlers"]["stderr"]["filters"] == ["repeats"]


def test_log_config_routes_the_server_loggers_to_the_chosen_format() -> None:
    config = log_config("json")
    assert config["handlers"]["stderr"]["formatter"] == "json"
    assert config["disable_existing_loggers"] is False  # baohuang.server exists at import
    assert "baohuang" in config["loggers"]
    assert log_config(LogFormat.text)["handlers"]["stderr"]["formatter"] == "text"
    with pytest.raises(ValueError):
        log_config("xml")


def test_serve_help_names_the_log_formats_and_the_default() -> None:
    from typer.testing import CliRunner

    from baohuang.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--log-format" in result.output
    assert "text|json" in result.output
    assert "default: text" in result.output


# ---------------------------------------------------------------------- Docker


def test_dockerfile_runs_the_server_as_a_user_with_a_healthcheck() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.MULTILINE)
    users = re.findall(r"^USER (\S+)$", text, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert '[postgres]"' in text and "pip install" in text
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", text, re.MULTILINE)
    assert '"baohuang", "serve", "--host", "0.0.0.0"' in text
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests"} <= set(ignored)


def test_compose_runs_the_server_on_postgres_with_healthchecks() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"server", "postgres"}
    server, postgres = services["server"], services["postgres"]
    assert server["build"] == "."
    command = server["command"]
    url = command[command.index("--database") + 1]
    assert url.startswith("postgresql://") and "@postgres:5432/" in url
    assert server["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "/readyz" in " ".join(server["healthcheck"]["test"])
    assert postgres["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume = postgres["volumes"][0].split(":")
    assert volume[1] == "/var/lib/postgresql/data" and volume[0] in compose["volumes"]


def docker_unavailable() -> str | None:
    """Why the image cannot be built here, or ``None``."""
    if shutil.which("docker") is None:
        return "no docker client on PATH"
    try:
        info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "docker info timed out"
    if info.returncode != 0:
        why = (info.stderr.strip().splitlines() or ["docker info failed"])[-1]
        return f"no Docker engine: {why}"
    return None


def docker(*args: str, timeout: float = 120) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"docker {' '.join(args)}: {done.stderr[-3000:]}"
    return done.stdout.strip()


def test_the_image_builds_and_serves() -> None:
    why = docker_unavailable()
    if why:
        pytest.skip(why)
    image = f"baohuang-test:{uuid.uuid4().hex[:8]}"
    docker("build", "-t", image, str(ROOT), timeout=1200)
    container = None
    try:
        assert docker("run", "--rm", "--entrypoint", "id", image, "-u") != "0"
        imports = "import asyncpg, prometheus_client, baohuang.server.app"
        docker("run", "--rm", "--entrypoint", "python", image, "-c", imports)
        container = docker("run", "-d", "-p", "127.0.0.1::8000", image)
        port = docker("port", container, "8000/tcp").splitlines()[0].rsplit(":", 1)[1]

        def answers() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).is_success
            except httpx.HTTPError:
                return False

        wait_for(answers, timeout=60)
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").json() == {"status": "ok"}
        assert "baohuang_sockets" in httpx.get(f"http://127.0.0.1:{port}/metrics").text
        logs = subprocess.run(["docker", "logs", container], capture_output=True, text=True)
        assert any(json.loads(line)["message"].startswith("server ready") for line in
                   logs.stderr.splitlines())  # fmt: skip
    finally:
        if container:
            subprocess.run(["docker", "rm", "-f", container], capture_output=True)
        subprocess.run(["docker", "rmi", "-f", image], capture_output=True)


# ---------------------------------------------------------------------- packaging


def test_importing_the_engine_loads_no_web_or_database_library() -> None:
    code = (
        "import sys, json; import baohuang; from baohuang import Rules, new_game; "
        "new_game(Rules.preset('classic'), seed=1); "
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_extras_hold_what_only_some_users_need() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}

    core = names(project["dependencies"])
    assert {"fastapi", "uvicorn", "sqlalchemy", "aiosqlite", "prometheus-client"} <= core
    assert not core & {"asyncpg", "httpx"}
    extras = project["optional-dependencies"]
    assert names(extras["postgres"]) == {"asyncpg"}
    assert names(extras["load"]) == {"httpx"}
    assert names(extras["rl"]) == {"pettingzoo", "gymnasium", "numpy"}
    assert not core & {"numpy", "pettingzoo", "torch"}
    assert names(extras["learn"]) == {"baohuang", "torch", "matplotlib"}
    assert names(extras["ray"]) == {"ray"}
    assert "baohuang[postgres,load,rl,learn,ray]" in extras["dev"]
    assert {"pytest", "pyyaml", "hatchling"} <= names(extras["dev"])
    assert project["license"] == "MIT"
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "the baohuang authors" in license_text


def test_the_wheel_has_py_typed_the_license_and_the_browser_client(tmp_path: Path) -> None:
    pytest.importorskip("hatchling", reason="the build backend comes with the dev extra")
    build = "import sys, hatchling.build as b; print(b.build_wheel(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", build, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / done.stdout.strip().splitlines()[-1]) as wheel:
        files = set(wheel.namelist())
        metadata = wheel.read(next(f for f in files if f.endswith(".dist-info/METADATA")))
    assert "baohuang/py.typed" in files
    assert "baohuang/server/static/index.html" in files
    assert any(f.endswith(".dist-info/licenses/LICENSE") for f in files)
    assert f"\nVersion: {baohuang.__version__}\n" in metadata.decode()  # from __init__.py
    requires = [
        line.removeprefix("Requires-Dist: ")
        for line in metadata.decode().splitlines()
        if line.startswith("Requires-Dist: ")
    ]
    unconditional = {r.split(">")[0].split("[")[0] for r in requires if "extra ==" not in r}
    assert "asyncpg" not in unconditional and "httpx" not in unconditional
    assert any(re.match(r"asyncpg\W.*extra == .postgres.$", r) for r in requires), requires


def run_cli_without(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``baohuang ARGS`` with ``module`` missing, as without its extra."""
    code = (
        f"import sys; sys.modules[{module!r}] = None; from baohuang.cli import app; "
        f"app(args={list(args)!r}, prog_name='baohuang')"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_loadtest_without_the_load_extra_says_how_to_get_it() -> None:
    done = run_cli_without("httpx", "loadtest", "--url", "http://127.0.0.1:9", "--tables", "1")
    assert done.returncode == 1
    assert "pip install 'baohuang[load]'" in done.stderr
    assert "httpx" in done.stderr


def test_serve_on_postgresql_without_the_postgres_extra_says_how_to_get_it() -> None:
    done = run_cli_without("asyncpg", "serve", "--database", "postgresql://u@127.0.0.1:9/db")
    assert done.returncode == 1
    assert "pip install 'baohuang[postgres]'" in done.stderr
