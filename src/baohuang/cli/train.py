"""``baohuang train``: training the learned bot (see baohuang.learn): deep Monte-Carlo self-play
(``--method dmc``) or expert iteration (``--method expert``: the expert's games, then the network
fitted to them, to an update budget). PyTorch is imported only when it runs (the ``learn``
extra)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..engine.errors import RulesError
from ..engine.rules import Rules


def train(
    out: Annotated[Path, typer.Option(help="输出目录 folder for the checkpoint, model and log")],
    preset: Annotated[str, typer.Option(help="规则预设 rule preset")] = "classic",
    minutes: Annotated[
        float, typer.Option(help="训练分钟数 minutes of training (more, when resumed)", min=0.05)
    ] = 30.0,
    actors: Annotated[
        int,
        typer.Option(
            help="自我对弈进程 self-play processes (0: the learner plays); with --method "
            "expert, processes playing the expert's games",
            min=0,
        ),
    ] = 1,
    device: Annotated[str, typer.Option(help="设备 auto | cpu | cuda (the learner)")] = "auto",
    eval_minutes: Annotated[
        float, typer.Option(help="每隔几分钟对启发式评估 minutes between evaluations")
    ] = 5.0,
    eval_deals: Annotated[
        int, typer.Option(help="每次评估的复式牌局 duplicate deals per evaluation", min=2)
    ] = 20,
    teacher_minutes: Annotated[
        float,
        typer.Option(help="教师（启发式）逐渐退出的分钟数 minutes over which the teacher fades"),
    ] = 30.0,
    phases: Annotated[
        str,
        typer.Option(
            help="学哪些决定 all: every decision; roles: only the answers before the first "
            "play (叫牌、明独、造反、踢…), the heuristic plays the cards"
        ),
    ] = "all",
    epsilon: Annotated[
        float, typer.Option(help="探索率 ε of the student's ε-greedy choice", min=0, max=1)
    ] = 0.05,
    seed: Annotated[int, typer.Option(help="种子 seed")] = 0,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Ray 集群 self-play actors on a Ray cluster: its address (auto, "
            "ray://host:10001) or local; --actors of them"
        ),
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            help="方法 dmc: deep Monte-Carlo self-play for --minutes; expert: expert iteration "
            "(--games of the --expert bot, then fit the network to --updates updates)"
        ),
    ] = "dmc",
    expert: Annotated[
        str, typer.Option(help="专家 the bot whose games are the lessons")
    ] = "strong",
    games: Annotated[
        int, typer.Option(help="专家对局 expert games to add to OUT before fitting", min=0)
    ] = 0,
    updates: Annotated[
        int, typer.Option(help="更新次数 fit until this many updates in all (resumable)", min=0)
    ] = 0,
    eval_every: Annotated[
        int, typer.Option(help="评估间隔 --method expert: updates between evaluations", min=1)
    ] = 1000,
    student: Annotated[
        Path | None,
        typer.Option(
            help="学生模型 --method expert: the --games are played by this model (a model.npz) "
            "at every seat and labelled by the --expert (DAgger)",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """训练学习型机器人（深度蒙特卡洛自我对弈，或专家迭代）。 Train the learned bot: deep
    Monte-Carlo self-play, or expert iteration; resumes from what OUT holds."""
    if importlib.util.find_spec("torch") is None:
        typer.echo(
            "训练需要 PyTorch：pip install 'baohuang[learn]'  "
            "Training needs PyTorch: pip install 'baohuang[learn]'",
            err=True,
        )
        raise typer.Exit(2)
    try:
        Rules.preset(preset)
    except RulesError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    if phases not in ("all", "roles"):
        typer.echo(f"--phases: all or roles, not {phases!r}", err=True)
        raise typer.Exit(2)
    if method == "expert":
        evaluation = (eval_every, eval_deals)
        expert_iteration(
            out, preset, expert, games, updates, device, evaluation, seed, actors, student
        )
        return
    if method != "dmc":
        typer.echo(f"--method: dmc or expert, not {method!r}", err=True)
        raise typer.Exit(2)
    from ..learn.dmc import CHECKPOINT, CURVE, LOG, MODEL, Config, Trainer

    config = Config(
        preset=preset,
        actors=actors,
        eval_minutes=eval_minutes,
        eval_deals=eval_deals,
        anneal_minutes=teacher_minutes,
        epsilon=epsilon,
        phases=phases,
        seed=seed,
    )
    trainer = Trainer(out, config, device)
    console = Console()
    if trainer.resumed:
        c = trainer.counters
        console.print(
            f"resuming {out / CHECKPOINT}: {c.seconds / 60:.1f} min, {c.games:,} games, "
            f"{c.updates:,} updates (its own settings: {trainer.config.preset})"
        )
    with Progress(*bar("{task.fields[status]}"), console=console) as progress:
        task = progress.add_task("训练 train", total=minutes * 60, status="starting")
        start = trainer.counters.seconds

        def show(counters: Any, row: dict[str, Any]) -> None:
            loss = "-" if row["loss"] is None else f"{row['loss']:.4f}"
            status = f"{counters.games:,} games · {counters.updates:,} updates · loss {loss}"
            if "eval_mean" in row:
                status += f" · vs heuristic {row['eval_mean']:+.2f}"
            progress.update(task, completed=counters.seconds - start, status=status)

        trainer.run(minutes, show, ray)
    console.print(summary(trainer.log))
    files = f"{out / MODEL}, {out / LOG}, {out / CURVE}"
    console.print(f"{files}; play it: baohuang arena --bots learned:{out / MODEL},heuristic")


def expert_iteration(
    out: Path,
    preset: str,
    expert: str,
    games: int,
    updates: int,
    device: str,
    evaluation: tuple[int, int],
    seed: int,
    jobs: int = 1,
    student: Path | None = None,
) -> None:
    """``--method expert``: ``games`` more expert games into OUT (by ``jobs`` processes; played
    by ``student``, labelled by the expert, if given), the heuristic's choices added to games
    recorded without them, then the fit to ``updates``."""
    from ..bots.base import is_bot
    from ..learn.expert import SHARD, annotate, generate, shards, unannotated
    from ..learn.fit import BEST, CURVE, LOG, MODEL, PROVENANCE, FitConfig, Fitter

    if not is_bot(expert):
        typer.echo(f"--expert: no bot {expert!r}", err=True)
        raise typer.Exit(2)
    console = Console()
    counted = "{task.completed:,.0f}/{task.total:,.0f} {task.fields[status]}"
    with Progress(*bar(counted), console=console) as progress:
        if games:
            title = (
                f"学生对局 {student} games, {expert} labels"
                if student
                else f"专家对局 {expert} games"
            )
            task = progress.add_task(title, total=games, status="")
            generate(
                out,
                Rules.preset(preset),
                expert,
                games,
                f"{preset}/{seed}",
                done=lambda n: progress.advance(task, n),
                jobs=jobs,
                student=student,
            )
        if todo := unannotated(out):
            label = "启发式标注 the heuristic's choices"
            marked = progress.add_task(label, total=len(todo) * SHARD, status="")
            rules = Rules.preset(preset)
            annotate(out, rules, f"{preset}/{seed}", lambda n: progress.advance(marked, n))
        held = len(shards(out))
        every, deals = evaluation
        config = FitConfig(preset=preset, eval_every=every, eval_deals=deals, seed=seed)
        fitter = Fitter(out, config, device)
        if updates <= fitter.counters.updates:
            console.print(f"{out}: {held} shards of games, {fitter.counters.updates:,} updates")
            return
        fit = progress.add_task("拟合 fit", total=updates, status="")
        progress.update(fit, completed=fitter.counters.updates)

        def show(counters: Any, row: dict[str, Any]) -> None:
            status = f"loss {row['loss']} · value {row['value_loss']}"
            if row["search_loss"] is not None:
                status += f" · search values {row['search_loss']}"
            if "eval_mean" in row:
                status += f" · vs heuristic {row['eval_mean']:+.2f}"
            progress.update(fit, completed=counters.updates, status=status)

        fitter.run(updates, show)
    console.print(summary(fitter.log))
    files = ", ".join(str(out / name) for name in (MODEL, BEST, PROVENANCE, LOG, CURVE))
    console.print(f"{files}; play it: baohuang arena --bots learned:{out / MODEL},heuristic")


def bar(status: str) -> tuple[ProgressColumn, ...]:
    """A progress bar's columns: the task, the bar, ``status`` (a format), the time left."""
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn(status),
        TimeRemainingColumn(),
    )


def summary(log: list[dict[str, Any]]) -> Table:
    """The evaluations so far: minutes, games, loss, points against the heuristic."""
    table = Table(title="learned vs heuristic (duplicate deals, points/game, 95% CI)")
    for column in ("minutes", "games", "loss", "deals", "learned", "95% CI"):
        table.add_column(column, justify="right")
    for row in log:
        if "eval_mean" not in row:
            continue
        loss = "-" if row["loss"] is None else f"{row['loss']:.4f}"
        table.add_row(
            f"{row['seconds'] / 60:.1f}",
            f"{row['games']:,}",
            loss,
            str(row["eval_deals"]),
            f"{row['eval_mean']:+.3f}",
            f"[{row['eval_low']:+.2f}, {row['eval_high']:+.2f}]",
        )
    return table
