"""What the benchmark scripts share: the machine's description, and the alternating runs that
keep the best of each measurement (the machine is shared; noise only slows)."""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rich.console import Console


class Rated(Protocol):
    @property
    def per_second(self) -> float: ...


R = TypeVar("R", bound=Rated)


def best(runs: Sequence[R]) -> R:
    """The fastest of several runs of one measurement."""
    return max(runs, key=lambda r: r.per_second)


def alternate(
    rounds: int,
    ours: Callable[[], list[R]],
    theirs: Callable[[], R | None],
    console: Console,
    name: str,
) -> tuple[list[R], R | None]:
    """``ours`` and ``theirs`` (RLCard's; ``None`` without it) ``rounds`` times, alternating;
    the best run of each measurement."""
    mine: list[list[R]] = []
    other: list[R] = []
    for n in range(1, rounds + 1):
        with console.status(f"round {n}/{rounds}: {name}"):
            mine.append(ours())
        with console.status(f"round {n}/{rounds}: RLCard"):
            run = theirs()
        if run is not None:
            other.append(run)
    return [best(runs) for runs in zip(*mine, strict=True)], best(other) if other else None


def machine(**extra: Any) -> dict[str, Any]:
    """Where the figures come from."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        **extra,
    }


def stamp(settings: dict[str, Any]) -> dict[str, Any]:
    """What a result file says of itself: the commit, the date, the machine, the settings."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "commit": commit,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": {
            k: v if isinstance(v, int | float | list) else str(v) for k, v in settings.items()
        },
    }


def save(path: Path | None, settings: dict[str, Any], **data: Any) -> None:
    """Write ``data`` to ``path`` as JSON under a :func:`stamp` (nothing without a path)."""
    if path is not None:
        path.write_text(json.dumps({"stamp": stamp(settings), **data}, indent=1) + "\n")
