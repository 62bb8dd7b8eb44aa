"""Work on a Ray cluster (the ``ray`` extra): ``--ray ADDRESS`` runs a duplicate arena's deals,
or the trainer's self-play actors, on the cluster's machines instead of local processes,
without other changes. ``ADDRESS`` is what ``ray.init`` takes (``auto``: the cluster this
machine belongs to; ``ray://host:10001``), or ``local`` for a fresh instance on this machine."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def connect(address: str) -> Any:
    """Ray, connected to ``address`` (see the module docstring); a clear error without it."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'baohuang[ray]'") from None
    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    return ray


def _call(work: Callable[[T], R], item: T) -> R:
    return work(item)


def ray_map(address: str) -> Callable[[Callable[[T], R], Iterable[T]], Iterator[R]]:
    """A ``map`` that runs each call as a task on the cluster at ``address``, results in order."""
    ray = connect(address)
    task = ray.remote(_call)

    def mapped(work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        shared = ray.put(work)
        refs = [task.remote(shared, item) for item in items]
        for ref in refs:
            yield ray.get(ref)

    return mapped
