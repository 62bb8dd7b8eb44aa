"""The server's CPU per command, in process: a table actor handling ``act`` commands from five
seated connections, each event stored (SQLite, group commit) and sent as five seats' frames.

No sockets and no bots: the commands are random legal actions chosen outside the measured
time, and the frames are taken off the connections' queues unread. What is measured is the
actor's own work per command — the engine's step, the event's fold and storage, a view per
seat, the frames' encoding — which is what a node spends on every command whatever its
clients do (the socket writes come on top; see bench/loadtest.md).

    .venv/bin/python bench/command_cost.py [--commands 20000] [--tables 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from sqlalchemy.orm import Session

from baohuang.protocol.messages import Act, Ready, Sit, TableConfig
from baohuang.protocol.messages import Hello as HelloData
from baohuang.server.actor import TableActor
from baohuang.server.connection import Conn
from baohuang.server.lobby import Lobby
from baohuang.server.mailbox import Cmd, Hello
from baohuang.server.store import Store, UserRow

CONFIG = TableConfig(preset="classic", games=1000, bots=0, timer=0, pause=0, bot_delay=0)


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


async def measure(commands: int, tables: int, seed: int, folder: Path) -> dict[str, float]:
    rng = random.Random(seed)
    store = Store(f"sqlite:///{folder / 'bench.db'}")
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
    done, frames, cpu, wall = 0, 0, 0.0, 0.0
    counter = 0
    samples: list[float] = []
    while done < commands:
        for table, conns in seated:  # one command per table per round, as many tables do
            frames += drain(conns)
            game = table.game
            turn = game.current_seat
            if turn is None or game.is_over:
                continue
            action = str(rng.choice(game.legal_actions()))
            counter += 1
            cmd = Cmd(conns[turn], table.seq, Act(id=f"a{counter}", op="act", action=action))
            started_cpu, started = time.process_time(), time.perf_counter()
            table.submit(cmd)
            await table.settled()
            cpu += time.process_time() - started_cpu
            wall += time.perf_counter() - started
            samples.append((time.perf_counter() - started) * 1e6)
            done += 1
        await asyncio.sleep(0)  # let the next game start after a pause of 0
    frames += sum(drain(conns) for _, conns in seated)
    await lobby.close()
    await store.close()
    return {
        "commands": done,
        "cpu_us": cpu / done * 1e6,
        "wall_us": wall / done * 1e6,
        "median_us": statistics.median(samples),
        "frames_per_command": frames / done,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(measure(args.commands, args.tables, args.seed, Path(folder)))
    table = Table(title="Server CPU per command (table actor, five seats, SQLite)")
    for column in ("commands", "CPU µs/command", "wall µs/command", "median µs", "frames"):
        table.add_column(column, justify="right")
    table.add_row(
        str(result["commands"]),
        f"{result['cpu_us']:.0f}",
        f"{result['wall_us']:.0f}",
        f"{result['median_us']:.0f}",
        f"{result['frames_per_command']:.1f}",
    )
    Console().print(table)


if __name__ == "__main__":
    main()
