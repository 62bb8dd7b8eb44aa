"""What the benchmark scripts share: the machine's description, and the alternating runs that
keep the best of each measurement (the machine is shared; noise only slows)."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Sequence
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
