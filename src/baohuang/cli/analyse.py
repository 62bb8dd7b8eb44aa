"""``baohuang analyse``: 复盘, one seat's decisions in a record weighed by the search
(:mod:`baohuang.bots.analysis`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from ..bots.analysis import DEALS, Analysis, analyse, turns_of
from ..engine.errors import RecordError
from ..engine.record import read_record, replay
from ..text.catalog import t
from .options import Lang, LangOption

#: The eight heights of a sparkline.
BARS = "▁▂▃▄▅▆▇█"


def analyse_command(
    file: Annotated[Path, typer.Argument(help="对局记录文件 a record file")],
    seat: Annotated[int, typer.Option(help="座位 the seat whose decisions to weigh")] = 0,
    deals: Annotated[
        int, typer.Option(help="每步推演的牌 deals dealt for each decision", min=2)
    ] = DEALS,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="结果写入 JSON the analysis as JSON")
    ] = None,
    lang: LangOption = Lang.zh,
) -> None:
    """复盘：逐步评估一个座位的决定（只用该座位当时能看到的信息）。 Weigh one seat's decisions in
    a record, from what the seat could see at each (R14)."""
    console = Console(highlight=False)
    language = lang.value
    if seat not in range(5):
        console.print(t("analyse.no_seat", language, seat=seat), style="bold red")
        raise typer.Exit(2)
    try:
        data = read_record(file)
        replay(data)  # a record the engine does not replay is refused before any work
    except RecordError as exc:
        message = t("replay.error", language, msg=exc.text(language))
        console.print(message, markup=False, soft_wrap=True, style="bold red")
        raise typer.Exit(1) from None
    console.rule(Text(t("analyse.title", language, path=file, seat=seat, deals=deals)))
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(t("analyse.progress", language), total=turns_of(data, seat))
        result = analyse(data, seat, deals, done=lambda n: progress.advance(task, n))
    console.print(decisions_table(result, language))
    console.print(summary_line(result, language))
    console.print(f"{t('analyse.outlook', language)}: {sparkline(result)}")
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1) + "\n")


def decisions_table(result: Analysis, lang: str) -> Table:
    table = Table()
    for key in ("move", "phase", "played", "best", "moves", "loss"):
        table.add_column(
            t(f"analyse.col.{key}", lang), justify="right" if key == "loss" else "left"
        )
    for d in result.decisions:
        moves = " · ".join(f"{m.action} {m.mean:+.2f}" for m in d.moves)
        loss = f"{d.loss:.2f}" + (f" {t('analyse.mistake', lang)}" if d.mistake else "")
        style = "bold red" if d.mistake else None
        table.add_row(str(d.index + 1), d.phase, d.played, d.best, moves, loss, style=style)
    return table


def summary_line(result: Analysis, lang: str) -> str:
    return t(
        "analyse.summary",
        lang,
        decisions=len(result.decisions),
        best=result.best_share,
        mistakes=len(result.mistakes),
        lost=result.lost,
        points="-" if result.points is None else f"{result.points:+d}",
    )


def sparkline(result: Analysis) -> str:
    """The played moves' expected points over the game, as bars (lowest to highest)."""
    values = [d.expected for d in result.decisions]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    bars = "".join(BARS[round((v - low) / span * (len(BARS) - 1))] for v in values)
    return f"{bars}  ({low:+.1f} … {high:+.1f})"
