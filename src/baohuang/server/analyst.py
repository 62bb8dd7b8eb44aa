"""One analysis (复盘) in a process of its own: ``python -m baohuang.server.analyst`` reads one
job, ``{"record", "seat", "deals"}``, on standard input and writes ``{"done": n}`` after each of
the seat's actions, then ``{"result": …}`` (:meth:`Analysis.to_json`), a JSON object a line.
It runs at the bot workers' lower priority: tables first."""

from __future__ import annotations

import os
import sys

import orjson

from ..bots.analysis import analyse
from .botworker import NICE


def main() -> None:
    os.nice(NICE)
    job = orjson.loads(sys.stdin.buffer.readline())
    out = sys.stdout.buffer
    count = 0

    def done(n: int) -> None:
        nonlocal count
        count += n
        out.write(orjson.dumps({"done": count}) + b"\n")
        out.flush()

    result = analyse(job["record"], job["seat"], job["deals"], done)
    out.write(orjson.dumps({"result": result.to_json()}) + b"\n")
    out.flush()


if __name__ == "__main__":
    main()
