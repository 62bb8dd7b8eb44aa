"""The learning curve: the loss, and the learned bot's points against the heuristic with their
95% intervals, by minutes of training or by updates (a PNG, matplotlib without a screen)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def plot_curve(log: Sequence[dict[str, Any]], path: Path, preset: str, by: str = "minutes") -> None:
    """Draw ``log`` (the trainer's rows) into ``path``, ``by`` minutes or ``updates``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)

    def x(row: dict[str, Any]) -> float:
        return float(row["updates"]) if by == "updates" else row["seconds"] / 60

    label = "updates" if by == "updates" else "minutes of training"
    losses = [(x(row), row["loss"]) for row in log if row.get("loss") is not None]
    if losses:
        left.plot(*zip(*losses, strict=True), color="#b0413e")
    left.set(xlabel=label, ylabel="loss", title="loss")
    evals = [row for row in log if row.get("eval_mean") is not None]
    if evals:
        minutes = [x(row) for row in evals]
        means = [row["eval_mean"] for row in evals]
        low = [row["eval_mean"] - row["eval_low"] for row in evals]
        high = [row["eval_high"] - row["eval_mean"] for row in evals]
        right.errorbar(minutes, means, yerr=[low, high], marker="o", capsize=3, color="#2a6f97")
    right.axhline(0.0, color="grey", linewidth=0.8)
    right.set(
        xlabel=label,
        ylabel="points/game vs heuristic",
        title=f"learned vs heuristic ({preset}, duplicate deals, 95% CI)",
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)
