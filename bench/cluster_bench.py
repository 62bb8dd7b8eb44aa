"""Many nodes under load: ``baohuang loadtest`` against 1 or more ``baohuang serve`` nodes on one
PostgreSQL database (and one Redis for more than one node), with what each part spent.

    .venv/bin/python bench/cluster_bench.py [--runs 1x20x0,2x20x0,2x100x0.5,2x200x0.5]
        [--games 1] [--redis-for-one] [--model 10000] [--json FILE]

A run ``NxTxS`` is N nodes, T tables of five bot seats (the load tool's, spread over the
nodes: seat s of table i on node (i + s) mod N, so that most sockets are relayed), S seconds
of thought per action (0: saturation). Each run gets a fresh database and Redis. Measured:
the load tool's report (commands/s while playing, command → event latency), each node's CPU
(``process_cpu_seconds_total`` from its ``/metrics``) and commands (``baohuang_commands_total``),
Redis's commands (``INFO commandstats``) and PostgreSQL's transactions and rows
(``pg_stat_database``), all per command; and the load tool's own CPU, since it shares the
machine's cores with the nodes. PostgreSQL and Redis are Debian's (``scripts/test.sh``
installs them), started like the tests' (tests/helpers).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from baohuang.client.loadtest import load_test
from benchkit import machine, save
from helpers.cluster import Node, Redis
from helpers.servers import LiveServer, Postgres

#: Every node trusts the load tool's address with any number of tables, guests and sockets.
EXEMPT = ("--exempt", "127.0.0.1")


@dataclass
class Run:
    """One run's plan and figures."""

    nodes: int
    tables: int
    think: float
    games: int
    redis: bool
    report: dict[str, Any] = field(default_factory=dict)
    commands: float = 0.0
    node_cpu_s: list[float] = field(default_factory=list)
    loadgen_cpu_s: float = 0.0
    wall_s: float = 0.0
    redis_calls: dict[str, float] = field(default_factory=dict)
    pg: dict[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.nodes}x{self.tables}x{self.think:g}"

    def per_command(self, value: float) -> float:
        return value / self.commands if self.commands else 0.0

    @property
    def server_us(self) -> float:
        """Server CPU per command, all nodes together (µs)."""
        return 1e6 * self.per_command(sum(self.node_cpu_s))

    def figures(self) -> dict[str, Any]:
        out = asdict(self)
        out |= {
            "server_cpu_us_per_command": round(self.server_us, 1),
            "redis_calls_per_command": round(self.per_command(sum(self.redis_calls.values())), 2),
            "pg_per_command": {k: round(self.per_command(v), 3) for k, v in self.pg.items()},
        }
        return out


def parse_runs(text: str) -> list[tuple[int, int, float]]:
    runs = []
    for part in text.split(","):
        nodes, tables, think = part.split("x")
        runs.append((int(nodes), int(tables), float(think)))
    return runs


def metric(url: str, name: str) -> float:
    """A metric's value summed over its labels, from a node's ``/metrics``."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(float(v) for v in re.findall(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M))


def redis_calls(url: str) -> dict[str, float]:
    """Redis's calls so far, by command (``INFO commandstats``)."""
    stats = redis.Redis.from_url(url).info("commandstats")
    return {name.removeprefix("cmdstat_"): float(v["calls"]) for name, v in stats.items()}


#: What ``pg_stat_database`` counts that a command costs.
PG_COUNTS = ("xact_commit", "xact_rollback", "tup_inserted", "tup_updated", "tup_fetched")


def pg_stats(database: str) -> dict[str, float]:
    """The database's transactions and rows so far (``pg_stat_database``, through Debian's
    ``psql``). PostgreSQL publishes its counts up to a second late: wait for them."""
    time.sleep(1.2)
    url = make_url(database)
    query = (
        f"SELECT {', '.join(PG_COUNTS)} FROM pg_stat_database WHERE datname = current_database()"
    )
    args = [
        "-h",
        str(url.host),
        "-p",
        str(url.port),
        "-U",
        str(url.username),
        "-d",
        str(url.database),
    ]
    out = subprocess.run(
        ["psql", *args, "-At", "-c", query], capture_output=True, text=True, check=True
    ).stdout
    return dict(zip(PG_COUNTS, map(float, out.strip().split("|")), strict=True))


def one_run(
    postgres: Postgres,
    folder: Path,
    plan: tuple[int, int, float],
    games: int,
    use: bool,
    exempt: tuple[str, ...],
    route: str = "spread",
) -> Run:
    nodes, tables, think = plan
    run = Run(nodes, tables, think, games, use)
    database = postgres.database(f"b{uuid.uuid4().hex[:12]}")
    store: Redis | None = Redis(folder / f"{run.name}-redis.log").start() if use else None
    servers: list[LiveServer] = []
    try:
        for n in range(nodes):
            log = folder / f"{run.name}-n{n}.log"
            if store is None:
                servers.append(LiveServer(database, log, *exempt).start())
            else:
                servers.append(Node(database, store, f"n{n}", log, 5.0, *exempt).start())
        urls = [server.url for server in servers]
        before: dict[str, Any] = {}

        def sample() -> dict[str, Any]:
            """Everything counted so far, with the load tool's CPU and the clock."""
            return {
                "cpu": [metric(url, "process_cpu_seconds_total") for url in urls],
                "commands": sum(metric(url, "baohuang_commands_total") for url in urls),
                "redis": redis_calls(store.url) if store else {},
                "pg": pg_stats(database),
                "tool": time.process_time(),
                "clock": time.perf_counter(),
            }

        def mark() -> None:  # play begins: what the tables' setup cost is left out
            before.update(sample())

        report = asyncio.run(load_test(urls, tables, games, think=think, on_play=mark, route=route))
        after = sample()
        run.report = report.to_dict()
        run.commands = after["commands"] - before["commands"]
        run.node_cpu_s = [a - b for a, b in zip(after["cpu"], before["cpu"], strict=True)]
        run.loadgen_cpu_s = after["tool"] - before["tool"]
        run.wall_s = after["clock"] - before["clock"]
        calls = after["redis"]
        run.redis_calls = {k: v - before["redis"].get(k, 0.0) for k, v in calls.items()}
        run.redis_calls.pop("info", None)  # the bench's own
        run.pg = {k: v - before["pg"][k] for k, v in after["pg"].items()}
    finally:
        for server in servers:
            server.stop()
        if store is not None:
            store.kill()
    return run


def results_table(runs: list[Run]) -> Table:
    t = Table(title="Nodes under load (PostgreSQL; Redis for more than one node)")
    for col in (
        "run",
        "games",
        "err",
        "cmd/s",
        "p50",
        "p95",
        "p99",
        "µs/cmd",
        "node %",
        "tool %",
        "Redis",
        "PG tx",
        "PG rows",
    ):
        t.add_column(col, justify="right")
    t.caption = (
        "run: nodes×tables×think s; latency in ms; µs/cmd: server CPU per command, all nodes; "
        "node %, tool %: CPU of each node and of the load tool over the run; Redis, PG tx, "
        "PG rows: calls, transactions and rows written per command"
    )
    for run in runs:
        r, lat = run.report, run.report["latency_ms"]
        busy = [f"{100 * c / run.wall_s:.0f}" for c in run.node_cpu_s]
        rows = run.pg.get("tup_inserted", 0) + run.pg.get("tup_updated", 0)
        t.add_row(
            run.name + (" +redis" if run.redis and run.nodes == 1 else ""),
            f"{r['games_completed']}/{r['games_expected']}",
            str(r["errors"]),
            f"{r['commands_per_s']:,.0f}",
            f"{lat['p50']:.1f}",
            f"{lat['p95']:.1f}",
            f"{lat['p99']:.1f}",
            f"{run.server_us:.0f}",
            " + ".join(busy),
            f"{100 * run.loadgen_cpu_s / run.wall_s:.0f}",
            f"{run.per_command(sum(run.redis_calls.values())):.2f}" if run.redis else "-",
            f"{run.per_command(run.pg.get('xact_commit', 0)):.3f}",
            f"{run.per_command(rows):.2f}",
        )
    return t


def capacity(runs: list[Run], tables: int, per_table: float) -> Table:
    """What ``tables`` tables at ``per_table`` commands/s each would need, from the runs'
    measured costs per command (the most relayed run: every node's worst case)."""
    spread = max((r for r in runs if r.nodes > 1), key=lambda r: r.tables, default=runs[-1])
    rate = tables * per_table
    t = Table(title=f"Capacity model: {tables:,} tables at {per_table:g} commands/s each")
    t.add_column("part")
    t.add_column("per command", justify="right")
    t.add_column(f"at {rate:,.0f} commands/s", justify="right")
    cores = rate * spread.server_us / 1e6
    t.add_row("server CPU (all nodes)", f"{spread.server_us:.0f} µs", f"{cores:.1f} cores")
    calls = spread.per_command(sum(spread.redis_calls.values()))
    t.add_row("Redis calls", f"{calls:.2f}", f"{rate * calls:,.0f} /s")
    tx = spread.per_command(spread.pg.get("xact_commit", 0))
    t.add_row("PostgreSQL transactions", f"{tx:.3f}", f"{rate * tx:,.0f} /s")
    rows = spread.per_command(spread.pg.get("tup_inserted", 0))
    t.add_row("PostgreSQL rows inserted", f"{rows:.2f}", f"{rate * rows:,.0f} /s")
    t.caption = f"costs from run {spread.name}"
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="1x20x0,2x20x0,2x100x0.5,2x200x0.5")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument(
        "--redis-for-one", action="store_true", help="a single node runs with --redis too"
    )
    parser.add_argument("--model", type=int, default=10000, help="tables for the capacity model")
    parser.add_argument(
        "--per-table", type=float, default=0.5, help="commands/s per table in the model"
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--route",
        choices=("spread", "table"),
        default="spread",
        help="spread: seat s of table i on node i + s; table: every seat of table i on node i "
        "(a balancer hashing on the table id), the table made on node i + 1",
    )
    parser.add_argument(
        "--server-src",
        type=Path,
        help="run the nodes from another checkout's src/ (to compare an older server; it "
        "is not given --exempt, so keep each run within 10 tables)",
    )
    args = parser.parse_args()
    exempt = EXEMPT
    if args.server_src:  # the nodes import baohuang from there; this process keeps its own
        os.environ["PYTHONPATH"] = str(args.server_src.resolve())
        exempt = ()
    console = Console()
    plan = parse_runs(args.runs)
    postgres = Postgres().start()
    folder = Path(tempfile.mkdtemp(prefix="baohuang-cluster-bench-"))
    runs = []
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("runs", total=len(plan))
            for step in plan:
                nodes, tables, think = step
                progress.update(task, description=f"{nodes} node(s), {tables} tables, {think} s")
                use = nodes > 1 or args.redis_for_one
                runs.append(one_run(postgres, folder, step, args.games, use, exempt, args.route))
                progress.advance(task)
    finally:
        postgres.stop()
    console.print(results_table(runs))
    console.print(capacity(runs, args.model, args.per_table))
    info = machine()
    console.print(f"Python {info['python']} on {info['processor']}, {info['cpu_count']} CPUs")
    save(args.json, vars(args), machine=info, runs=[run.figures() for run in runs])
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
