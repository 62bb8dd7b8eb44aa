"""Admission for costly bots (机器人额度): a share of the bot workers' cores per user and a
budget per node, counted by each level's measured cost (:data:`~.botpool.COST`).

A table's bots think one at a time, so a table takes at most one core of thinking; with its
bots waiting ``bot_delay`` before each move, and the node's own work per move
(:data:`MOVE_SECONDS`), at most ``cost / (cost + bot_delay + MOVE_SECONDS)`` of one
(:func:`demand`): ``strong`` at the default 0.8 s about 0.1 core, at zero delay about 1. Creating
a table is refused when the creator's open tables (waiting or playing) would then ask more than
their share, or the node's more than its budget, with a message that says which and what to
change. Moves beyond what the workers can serve still never stall a table: the heuristic plays
them (:mod:`.botpool`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..protocol.messages import TableConfig
from .botpool import cost
from .refusals import AccountError

#: Seconds of the node's own work per move (engine, store, sending), besides the thinking.
MOVE_SECONDS = 0.002
#: Cores of bot thinking one user's open tables may ask for at most (``--bot-share``).
USER_CORES = 2.0
#: Cores of bot thinking a node's open tables may ask for, per bot worker (``--bot-budget``
#: is this times the workers): most tables wait on people far longer than on their bots.
NODE_CORES_PER_WORKER = 8.0


def demand(config: TableConfig) -> float:
    """The cores of thinking a table of ``config`` asks for at most (see the module
    docstring)."""
    seconds = cost(config.bot_level)
    return seconds / (seconds + config.bot_delay + MOVE_SECONDS)


@dataclass(frozen=True, slots=True)
class Admission:
    """The node's budget and each user's share, in cores of bot thinking."""

    node: float
    user: float = USER_CORES

    def check(
        self, config: TableConfig, user: int | None, tables: Iterable[tuple[int | None, float]]
    ) -> None:
        """Refuse (429 for the user's share, 503 for the node's budget) a new table of
        ``config`` by ``user`` (``None``: a load generator's, held to the node's budget only),
        given the open tables' ``(owner, demand)``."""
        wanted = demand(config)
        if wanted < 0.01:  # a cheap level or a slow pace: nothing worth counting
            return
        node = mine = 0.0
        for owner, asked in tables:
            node += asked
            if user is not None and owner == user:
                mine += asked
        if user is not None and mine + wanted > self.user:
            raise AccountError(
                429,
                "bot_share",
                "error.server.bot_share",
                used=f"{mine:.1f}",
                share=f"{self.user:g}",
                wanted=f"{wanted:.2f}",
            )
        if node + wanted > self.node:
            raise AccountError(503, "bot_budget", "error.server.bot_budget", wanted=f"{wanted:.2f}")
