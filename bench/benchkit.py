"""What the benchmark scripts share: the stamp on their result files (the commit, date,
machine, command line and settings: :mod:`baohuang.provenance`, which the CLI's ``--json``
results carry too), and the alternating runs that keep the best of each measurement (the
machine is shared; noise only slows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rich.console import Console

from baohuang.provenance import machine, stamp, write_stamped

__all__ = ["Rated", "alternate", "best", "machine", "save", "stamp"]


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


def save(path: Path | None, settings: dict[str, Any], /, **data: Any) -> None:
    """Write ``data`` to ``path`` as JSON under a :func:`stamp` of ``settings`` (the script's
    ``vars(args)``; nothing without a path)."""
    if path is not None:
        write_stamped(path, settings, data)
