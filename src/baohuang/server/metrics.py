"""Prometheus metrics (指标), served at ``GET /metrics``: see docs/deploy.md.

One registry per process (:data:`REGISTRY`) with the process's own collectors and:

- ``baohuang_tables{status}``: live tables in memory by status (set when scraped);
- ``baohuang_sockets``: open table WebSockets;
- ``baohuang_commands_total{op}``, ``baohuang_refusals_total{code}``: table commands handled
  (repeats answered from memory are not counted) and those refused, by error code;
- ``baohuang_command_seconds{op}``: from the table's actor taking a command to its answer being
  queued for the connection (what the command caused is stored by then);
- ``baohuang_store_commit_seconds``, ``baohuang_store_writes_total``: one commit of the
  group-committing writer per batch, and the writes committed;
- many nodes: ``baohuang_fenced_writes_total`` (writes refused by a table's epoch),
  ``baohuang_takeovers_total``, ``baohuang_leases_lost_total``, ``baohuang_relayed_sockets``,
  ``baohuang_relays_total`` (sockets that began to be relayed), ``baohuang_handoffs_total``
  (tables handed to the node their sockets reach);
- bots: ``baohuang_bot_fallbacks_total{reason}`` (moves the bot pool could not serve in time:
  ``busy``, ``late``, ``died``, ``error``; the heuristic played them),
  ``baohuang_bot_worker_restarts_total``.

Only aggregates over the whole server, labelled by op, status or error code: nothing about a
seat, a hand or a table's id.
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Iterable
from typing import get_args

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

from ..protocol.messages import Command, ErrorCode

#: What ``GET /metrics`` answers with.
CONTENT_TYPE = CONTENT_TYPE_LATEST

disable_created_metrics()  # type: ignore[no-untyped-call]  # no ``_created`` series
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
REGISTRY.register(GC_COLLECTOR)

#: A table's statuses (``TableInfo.status``).
STATUSES = ("waiting", "playing", "finished")
#: The table commands' ops and the refusals' codes: the only label values there are.
OPS: tuple[str, ...] = tuple(
    get_args(model.model_fields["op"].annotation)[0] for model in get_args(get_args(Command)[0])
)
CODES: tuple[str, ...] = get_args(ErrorCode)

#: Seconds: a command is mostly one engine step and one group commit.
LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip

TABLES = Gauge("baohuang_tables", "Live tables in memory, by status", ["status"], registry=REGISTRY)
SOCKETS = Gauge("baohuang_sockets", "Open table WebSockets", registry=REGISTRY)
COMMANDS = Counter("baohuang_commands", "Table commands handled, by op", ["op"], registry=REGISTRY)
REFUSALS = Counter(
    "baohuang_refusals", "Table commands refused, by error code", ["code"], registry=REGISTRY
)
COMMAND_SECONDS = Histogram(
    "baohuang_command_seconds",
    "From the table actor taking a command to its answer being queued",
    ["op"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "baohuang_store_commit_seconds",
    "One commit of the store's writer (a batch of writes)",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
WRITES = Counter("baohuang_store_writes", "Writes committed by the store", registry=REGISTRY)
# Many nodes (serve --redis):
FENCED = Counter(
    "baohuang_fenced_writes",
    "Writes refused because another node took the table over (its epoch was raised)",
    registry=REGISTRY,
)
TAKEOVERS = Counter(
    "baohuang_takeovers", "Tables this node took over (new, lapsed or free)", registry=REGISTRY
)
LEASES_LOST = Counter(
    "baohuang_leases_lost",
    "Tables this node stopped running: another node holds them",
    registry=REGISTRY,
)
# Bots (serve --bot-workers):
BOT_FALLBACKS = Counter(
    "baohuang_bot_fallbacks",
    "Bot moves the pool could not serve in time, played by the heuristic, by reason",
    ["reason"],
    registry=REGISTRY,
)
BOT_WORKER_RESTARTS = Counter(
    "baohuang_bot_worker_restarts",
    "Bot worker processes that ended and were replaced",
    registry=REGISTRY,
)
RELAYED = Gauge("baohuang_relayed_sockets", "Sockets relayed to other nodes", registry=REGISTRY)
RELAYS = Counter(
    "baohuang_relays", "Sockets this node began relaying to another node", registry=REGISTRY
)
HANDOFFS = Counter(
    "baohuang_handoffs",
    "Tables this node handed to the one node whose relays held all their sockets",
    registry=REGISTRY,
)

for _op in OPS:  # every series from zero, so that rate() sees the first command
    COMMANDS.labels(_op)
    COMMAND_SECONDS.labels(_op)
for _code in CODES:
    REFUSALS.labels(_code)
for _reason in ("busy", "late", "died", "error"):
    BOT_FALLBACKS.labels(_reason)


def start() -> float:
    """A start time for :func:`command_answered` or :func:`committed`."""
    return time.perf_counter()


def command_answered(op: str, refusal: str | None, started: float) -> None:
    """A table command answered (``refusal``: its error code, if refused)."""
    COMMANDS.labels(op).inc()
    if refusal is not None:
        REFUSALS.labels(refusal).inc()
    COMMAND_SECONDS.labels(op).observe(time.perf_counter() - started)


def committed(writes: int, started: float) -> None:
    """The store's writer committed a batch of ``writes``."""
    COMMIT_SECONDS.observe(time.perf_counter() - started)
    WRITES.inc(writes)


def exposition(statuses: Iterable[str]) -> bytes:
    """The metrics in Prometheus's text format, with the live tables' ``statuses``."""
    counts = Tally(statuses)
    for status in {*STATUSES, *counts}:
        TABLES.labels(status).set(counts[status])
    return generate_latest(REGISTRY)
