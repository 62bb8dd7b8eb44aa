"""What every training run does alike: play its exported model against the heuristic, and
keep its state and its log (a checkpoint a later run resumes from, a CSV of the rows)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from ..bots.arena import play_deals, summarize
from ..engine.rules import Rules


def against_heuristic(rules: Rules, model: Path, deals: int, seed: str) -> dict[str, Any]:
    """The model at ``model`` (the learned bot) against the heuristic over ``deals`` duplicate
    deals of ``seed``: its mean points per game with a 95% interval."""
    names = [f"learned:{model}", "heuristic"]
    records = list(play_deals(rules, names, deals, seed))
    learned, heuristic = summarize(names, records)
    return {
        "eval_deals": deals,
        "eval_mean": round(learned.mean, 3),
        "eval_low": round(learned.ci_low, 3),
        "eval_high": round(learned.ci_high, 3),
        "eval_heuristic": round(heuristic.mean, 3),
    }


def keep(
    run: Any,
    checkpoint: Path,
    table: Path,
    order: Callable[[str], Any] = str,
) -> None:
    """Save a run (its dataclasses ``config`` and ``counters``, ``net``, ``optimizer`` and
    ``log``) to ``checkpoint``, and the log's rows to the CSV ``table``, its columns sorted by
    ``order``."""
    log: list[dict[str, Any]] = run.log
    state = {
        "config": asdict(run.config),
        "model": run.net.state_dict(),
        "optimizer": run.optimizer.state_dict(),
        "counters": asdict(run.counters),
        "log": log,
    }
    torch.save(state, checkpoint)
    columns = sorted({key for row in log for key in row}, key=order)
    with table.open("w", newline="") as out:
        writer = csv.DictWriter(out, columns)
        writer.writeheader()
        writer.writerows(log)
