"""The server's CPU per command, in process: a table actor handling ``act`` commands from five
seated connections, each event stored (SQLite, group commit) and sent as five seats' frames.

No sockets and no bots: the commands are random legal actions chosen outside the measured
time, and the frames are taken off the connections' queues unread. What is measured is the
actor's own work per command — the engine's step, the event's fold and storage, a view per
seat, the frames' encoding — which is what a node spends on every command whatever its
clients do (the socket writes come on top; see bench/loadtest.md).

    .venv/bin/python bench/command_cost.py [--commands 20000] [--tables 20] [--seed 0]
        [--database URL] [--profile N] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from baohuang.protocol.messages import Act, Ready, Sit, TableConfig
from baohuang.protocol.messages import Hello as HelloData
from baohuang.server import metrics
from baohuang.server.connection import Conn
from baohuang.server.lobby import Lobby
from baohuang.server.store import Store, UserRow
from baohuang.server.table.actor import TableActor
from baohuang.server.table.mailbox import Cmd, Hello
from benchkit import save

CONFIG = TableConfig(preset="classic", games=50, bots=0, timer=0, pause=0, bot_delay=0)


async def seat(table: TableActor) -> list[Conn]:
    conns = []
    for index in range(5):
        conn = Conn(index + 1, f"p{index}")
        table.submit(Hello(conn, HelloData(token=None, since=None)))
        table.submit(Cmd(conn, 0, Sit(id=f"s{index}", op="sit", seat=index)))
        table.submit(Cmd(conn, 0, Ready(id=f"r{index}", op="ready", on=True)))
        conns.append(conn)
    await table.settled()
    return conns


def drain(conns: list[Conn]) -> int:
    frames = 0
    for conn in conns:
        while not conn.out.empty():
            conn.out.get_nowait()
            frames += 1
    return frames


async def measure(commands: int, tables: int, seed: int, database: str) -> dict[str, float]:
    """Rounds of one command at every table, submitted together (so the store's writer
    commits them as one batch, as under real load); the CPU and wall time of the rounds."""
    rng = random.Random(seed)
    store = Store(database)
    await store.start()
    lobby = Lobby(store, token=lambda n: rng.randbytes(n).hex())

    def users(session: Session) -> None:
        for user in range(1, 6):
            session.add(UserRow(id=user, name=f"p{user}", password_hash=None, created=0.0))

    await store.write(users)
    seated = []
    for _ in range(tables):
        table = await lobby.create(CONFIG)
        seated.append((table, await seat(table)))
    done = frames = counter = 0
    cpu = wall = 0.0
    writes, batches = _sample("baohuang_store_writes_total"), _sample(COMMITS)
    while done < commands:
        round_ = []
        for table, conns in seated:
            frames += drain(conns)
            game = table.state.game
            turn = game.current_seat
            if turn is None or game.is_over:
                continue
            action = str(rng.choice(game.legal_actions()))
            counter += 1
            command = Act(id=f"a{counter}", op="act", action=action)
            round_.append((table, Cmd(conns[turn], table.state.seq, command)))
        started_cpu, started = time.process_time(), time.perf_counter()
        for table, cmd in round_:
            table.submit(cmd)
        await asyncio.gather(*(table.settled() for table, _ in round_))
        cpu += time.process_time() - started_cpu
        wall += time.perf_counter() - started
        done += len(round_)
        await asyncio.sleep(0)  # let the next game start after a pause of 0
    frames += sum(drain(conns) for _, conns in seated)
    writes = _sample("baohuang_store_writes_total") - writes
    batches = _sample(COMMITS) - batches
    await lobby.close()
    await store.close()
    return {
        "commands": done,
        "cpu_us": cpu / done * 1e6,
        "wall_us": wall / done * 1e6,
        "frames_per_command": frames / done,
        "writes_per_command": writes / done,
        "commits_per_command": batches / done,
    }


#: Transactions the store committed: the commit latency histogram's count.
COMMITS = "baohuang_store_commit_seconds_count"


def _sample(name: str) -> float:
    """A sample's value in this process's metrics registry."""
    for family in metrics.REGISTRY.collect():
        for sample in family.samples:
            if sample.name == name:
                return sample.value
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--database", help="a database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--profile", type=int, metavar="N", help="print the N costliest functions")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'bench.db'}"
        work = measure(args.commands, args.tables, args.seed, database)
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:
            profile.enable()
        result = asyncio.run(work)
        if profile is not None:
            profile.disable()
    kind = make_url(database).get_backend_name()
    table = Table(title=f"Server CPU per command (table actors, five seats each, {kind})")
    for column in ("commands", "CPU µs/command", "wall µs/command", "frames", "writes", "commits"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{result['commands']:,.0f}",
        f"{result['cpu_us']:.0f}",
        f"{result['wall_us']:.0f}",
        f"{result['frames_per_command']:.1f}",
        f"{result['writes_per_command']:.2f}",
        f"{result['commits_per_command']:.3f}",
    )
    console = Console()
    console.print(table)
    console.print(
        f"{args.tables} tables, a command at each per round; per command: frames queued, "
        "writes and transactions committed"
    )
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    save(args.json, vars(args), **result, database=kind)


if __name__ == "__main__":
    main()
