"""Costly bots and everyone else on one node (issue "Serving cost", target 3): ``baohuang serve``
on SQLite with ``--bot-workers N``, ``--tables`` tables of four ``strong`` bots at zero delay
(their fifth seat a client playing the heuristic at once), and meanwhile:

- the lobby, fetched every 100 ms (``GET /api/tables``): its answer time;
- a human-paced table (five client seats thinking ``--think`` s a move): each ``act``'s
  command→broadcast time (to the ``game`` event it caused).

It runs until every bot table has finished its game, then reads the server's ``/metrics``
(moves the heuristic played for the pool, worker restarts) and the CPU seconds of the server
process and of its bot workers. ``--bot-workers 0`` is the node before the pool (bots in
threads of the server's own process).

    .venv/bin/python bench/bot_load.py [--bot-workers 2] [--tables 10] [--think 1.0]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from baohuang.client.http import server_client
from baohuang.client.loadtest import LoadReport, TableRun, percentile
from benchkit import save

SERVE = "from baohuang.cli.main import app; app()"


class BotTable(TableRun):
    """A table of four ``strong`` bots at zero delay and one client seat."""

    def config(self) -> dict[str, Any]:
        return super().config() | {"bots": 4, "bot_level": "strong", "bot_delay": 0}


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def metric(text: str, name: str) -> float:
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


async def probe_lobby(url: str, stop: asyncio.Event, samples: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while not stop.is_set():
            start = time.perf_counter()
            (await http.get("/api/tables")).raise_for_status()
            samples.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.1)


async def run(url: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    bots = LoadReport(url, args.tables, 1, "classic", "heuristic")
    human = LoadReport(url, 1, 50, "classic", "heuristic", think=args.think)
    tables = [BotTable(i, bots, "heuristic", None) for i in range(args.tables)]
    person = TableRun(args.tables, human, "heuristic", None, think=args.think)
    async with server_client(url, 30) as http:
        for table in [*tables, person]:
            await table.setup([http], 600)
    setup = [r for r in (bots, human) if r.errors]
    if setup:
        raise SystemExit(f"setup failed: {[r.first_errors for r in setup]}")
    workers = children(pid)
    before = cpu_seconds(pid), sum(cpu_seconds(w) for w in workers)
    lobby: list[float] = []
    stop = asyncio.Event()
    started = time.perf_counter()
    prober = asyncio.create_task(probe_lobby(url, stop, lobby))
    paced = asyncio.create_task(person.play())
    await asyncio.gather(*(t.play() for t in tables))
    played = time.perf_counter() - started
    stop.set()
    paced.cancel()
    await asyncio.gather(prober, paced, return_exceptions=True)
    workers = children(pid)
    after = cpu_seconds(pid), sum(cpu_seconds(w) for w in workers)
    text = httpx.get(f"{url}/metrics").text
    lobby.sort()
    human_ms = sorted(human.latencies_ms)
    return {
        "bot_tables": args.tables,
        "bot_tables_finished": bots.games_completed,
        "errors": bots.errors + human.errors,
        "play_s": round(played, 1),
        "lobby_ms": {
            "samples": len(lobby),
            "p50": round(percentile(lobby, 50), 1),
            "p99": round(percentile(lobby, 99), 1),
        },
        "human_ms": {
            "samples": len(human_ms),
            "p50": round(percentile(human_ms, 50), 1) if human_ms else None,
            "p99": round(percentile(human_ms, 99), 1) if human_ms else None,
        },
        "server_cpu_s": round(after[0] - before[0], 1),
        "worker_cpu_s": round(after[1] - before[1], 1),
        "fallbacks": {
            reason: metric(text, f'baohuang_bot_fallbacks_total{{reason="{reason}"}}')
            for reason in ("busy", "late", "died", "error")
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    folder = Path(tempfile.mkdtemp(prefix="bot-load-"))
    command = [
        sys.executable, "-c", SERVE, "serve", "--port", str(args.port),
        "--database", f"sqlite:///{folder / 'load.db'}", "--exempt", "127.0.0.1",
        "--bot-workers", str(args.bot_workers), "--bot-budget", "1000",
    ]  # fmt: skip
    with (folder / "server.log").open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{url}/api/presets", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        with console.status(f"{args.tables} strong tables, {args.bot_workers} bot workers"):
            result = asyncio.run(run(url, args, server.pid))
    finally:
        server.terminate()
        server.wait(10)
    table = Table(title=f"One node, {args.tables} tables of strong bots at zero delay")
    for column in ("bot workers", "finished", "lobby p50/p99 ms", "person p50/p99 ms",
                   "server CPU s", "workers CPU s", "heuristic moves (busy/late)"):  # fmt: skip
        table.add_column(column, justify="right")
    fall = result["fallbacks"]
    table.add_row(
        str(args.bot_workers),
        f"{result['bot_tables_finished']}/{args.tables}",
        f"{result['lobby_ms']['p50']} / {result['lobby_ms']['p99']}",
        f"{result['human_ms']['p50']} / {result['human_ms']['p99']}",
        str(result["server_cpu_s"]),
        str(result["worker_cpu_s"]),
        f"{fall['busy']:.0f} / {fall['late']:.0f}",
    )
    console.print(table)
    save(args.json, vars(args), result=result)


if __name__ == "__main__":
    main()
