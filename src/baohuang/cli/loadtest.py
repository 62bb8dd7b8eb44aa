"""``baohuang loadtest`` (压力测试) and ``--chaos`` (混沌测试): the command and its reports.

The tools themselves are :mod:`baohuang.client.loadtest` and :mod:`baohuang.client.chaos`,
imported when the command runs (they need httpx, the ``[load]`` extra).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress

from ..client.errors import ClientError
from ..provenance import write_stamped
from .options import Lang, LangOption
from .server import need_load_extra
from .terminal import metrics_table

if TYPE_CHECKING:
    from ..client.chaos import ChaosReport, ChaosSettings
    from ..client.loadtest import LoadReport


class LoadBot(StrEnum):
    """The bots a load test plays with (``search`` is too slow to load a server)."""

    heuristic = "heuristic"
    auto = "auto"
    random = "random"


#: The load test's report rows: (中文, English).
LABELS: dict[str, tuple[str, str]] = {
    "title": ("压力测试", "Load test"),
    "servers": ("服务器", "servers"),
    "tables": ("牌桌", "tables"),
    "sockets": ("连接", "sockets"),
    "think": ("每步思考 s", "think time per action s"),
    "games": ("完成局数 / 预期", "games completed / expected"),
    "errors": ("错误", "errors"),
    "reconnects": ("断线重连 · 重复事件", "reconnects · duplicate events"),
    "commands": ("发送指令", "commands sent"),
    "latency": ("指令→广播延迟 ms", "command→broadcast latency ms"),
    "setup": ("建桌入座用时 s", "setup time s"),
    "wall": ("总用时 s", "wall time s"),
    "rate": ("对局中指令/秒", "commands/s while playing"),
    "progress": ("已完成局数", "games completed"),
    "first": ("最先的错误：", "first errors:"),
    "failed": ("压测无法进行：", "load test cannot run:"),
}

#: The chaos soak's report rows: (中文, English).
CHAOS_LABELS: dict[str, tuple[str, str]] = {
    "title": ("混沌测试", "Chaos soak"),
    "tables": ("同时牌桌 / 建桌总数", "tables at once / created"),
    "settings": ("限时 · 宽限 · 判卡住 s", "timer · grace · stall after s"),
    "manners": ("思考中位数 · 平均捣乱间隔 s", "think median · chaos every s"),
    "stalls": ("卡住的牌桌", "stalls"),
    "errors": ("错误", "errors"),
    "games": ("完成局数 / 比赛", "games / matches completed"),
    "commands": ("发送指令 · 每秒", "commands sent · per s"),
    "latency": ("出牌→广播延迟 ms", "act→event latency ms"),
    "timeouts": ("超时托管", "timeouts (托管 by the timer)"),
    "drops": ("掉线 / 重连", "drops / reconnects"),
    "toggles": ("托管切换", "托管 toggles"),
    "escapes": ("逃跑", "escapes"),
    "races": ("竞态拒绝（正常）", "refusals by races (expected)"),
    "wall": ("总用时 s", "wall time s"),
    "progress": ("混沌测试", "chaos soak"),
    "first_stalls": ("最先卡住的牌桌：", "first stalls:"),
    "stall": (
        "桌 {table}（第{index}张，{phase}）{idle_s} 秒没有进展：最后进展 {last_move}，"
        "最后事件 v{last_seq} {last_event}",
        "table {table} (#{index}, {phase}) has not moved on for {idle_s} s: last move "
        "{last_move}, last event v{last_seq} {last_event}",
    ),
}

#: A stall's phase in words: (中文, English).
PHASES = {"playing": ("对局中", "playing"), "starting": ("该开局了", "due to start")}


def report_rows(report: LoadReport, lang: str) -> list[tuple[str, str]]:
    """The load test's report as (label, value) rows in ``lang``."""
    pick = 0 if lang == "zh" else 1
    rows = {
        "servers": "\n".join(report.urls),
        "tables": str(report.tables),
        "sockets": str(report.sockets),
        "think": f"{report.think:g}",
        "games": f"{report.games_completed} / {report.games_expected}",
        "errors": str(report.errors),
        "reconnects": f"{report.reconnects} · {report.duplicates}",
        "commands": str(report.commands),
        "latency": report.latency_text(),
        "setup": f"{report.setup_s:.2f}",
        "wall": f"{report.setup_s + report.play_s:.2f}",
        "rate": f"{report.commands_per_s:.0f}",
    }
    return [(LABELS[key][pick], value) for key, value in rows.items()]


def chaos_rows(report: ChaosReport, lang: str) -> list[tuple[str, str]]:
    """The chaos soak's report as (label, value) rows in ``lang``."""
    pick = 0 if lang == "zh" else 1
    s = report.settings
    races = " · ".join(f"{code} {n}" for code, n in sorted(report.races.items())) or "0"
    rows = {
        "tables": f"{s.tables} / {report.tables_created}",
        "settings": f"{s.timer} · {s.grace:g} · {s.stall_after:g}",
        "manners": f"{s.think:g} · {s.chaos_every:g}",
        "stalls": str(report.stalls),
        "errors": str(report.errors),
        "games": f"{report.games_completed} / {report.matches_completed}",
        "commands": f"{report.commands} · {report.commands_per_s:.1f}",
        "latency": report.latency_text(),
        "timeouts": str(report.timeouts),
        "drops": f"{report.drops} / {report.reconnects}",
        "toggles": str(report.toggles),
        "escapes": str(report.escapes),
        "races": races,
        "wall": f"{report.play_s:.1f}",
    }
    return [(CHAOS_LABELS[key][pick], value) for key, value in rows.items()]


#: The server ``--url`` defaults to.
DEFAULT_URL = "http://127.0.0.1:8000"


def loadtest(
    ctx: typer.Context,
    url: Annotated[
        list[str] | None,
        typer.Option(
            help="服务器地址，可重复：多个节点时每桌的座位分散连到各节点 server URL (repeatable: "
            "the nodes of a cluster; each table's seats are spread over them, a lost "
            f"connection comes back on the next) [default: {DEFAULT_URL}]",
            show_default=False,
        ),
    ] = None,
    tables: Annotated[int, typer.Option(min=1, help="牌桌数（每桌五个连接） tables of 5")] = 10,
    games: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=50,
            help="每桌局数（混沌：每场，默认 3） games per table (chaos: per match, 3)",
        ),
    ] = None,
    preset: Annotated[str, typer.Option(help="规则预设 rule preset")] = "classic",
    bot: Annotated[LoadBot, typer.Option(help="出牌机器人 bot")] = LoadBot.heuristic,
    seed: Annotated[int, typer.Option(help="机器人种子 bot seed")] = 0,
    think: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="每步思考秒数（0：压满；混沌：中位数，默认 1） seconds each seat thinks before "
            "acting (chaos: the median, 1)",
        ),
    ] = None,
    reconnect_for: Annotated[
        float,
        typer.Option(
            min=0,
            help="断线后重连的最长秒数（0：不重连，断线即错误） seconds a seat keeps trying to "
            "come back after a lost connection (0: a lost connection is an error)",
        ),
    ] = 60.0,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="报告另存为 JSON write the report here")
    ] = None,
    lang: LangOption = Lang.zh,
    chaos: Annotated[
        bool,
        typer.Option(
            "--chaos",
            help="混沌测试：计时牌桌上的人会超时、掉线、托管、逃跑，查卡住的牌桌 a soak of timed "
            "tables whose people time out, drop, switch 托管 and escape; finds stalled tables",
        ),
    ] = False,
    minutes: Annotated[float, typer.Option(min=0.01, help="（混沌）持续分钟 soak minutes")] = 1.0,
    timer: Annotated[int, typer.Option(min=1, max=600, help="（混沌）每步限时秒 turn timer s")] = 3,
    grace: Annotated[
        float, typer.Option(min=0, help="（混沌）断线重连宽限秒 reconnect grace s")
    ] = 2.0,
    slack: Annotated[
        float,
        typer.Option(min=0, help="（混沌）判定卡住的余量秒 stall after timer + grace + slack s"),
    ] = 5.0,
    pause: Annotated[
        float, typer.Option(min=0, help="（混沌）局间停顿秒 pause between games s")
    ] = 0.5,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="（混沌）机器人出牌前等待秒 bot delay s")
    ] = 0.2,
    bots: Annotated[
        int, typer.Option(min=0, max=4, help="（混沌）每桌服务器机器人座位 server bots per table")
    ] = 0,
    chaos_every: Annotated[
        float,
        typer.Option(
            min=0.1, help="（混沌）每人平均捣乱间隔秒 mean s between a person's chaos moves"
        ),
    ] = 20.0,
) -> None:
    """压力测试：多桌机器人通过 WebSocket 对战一台运行中的服务器；--chaos：混沌测试。 Load-test a
    running server with tables of bot clients over real WebSockets; --chaos: a chaos soak."""
    need_load_extra("loadtest", "压力测试")
    options = ctx.params  # the JSON report's stamp
    console = Console(highlight=False)
    urls = url or [DEFAULT_URL]
    if chaos:
        from ..client.chaos import ChaosSettings

        settings = ChaosSettings(
            minutes=minutes,
            tables=tables,
            timer=timer,
            grace=grace,
            slack=slack,
            pause=pause,
            bot_delay=bot_delay,
            games=games or 3,
            bots=bots,
            preset=preset,
            bot=bot.value,
            think=think or 1.0,
            chaos_every=chaos_every,
            seed=seed,
        )
        run_chaos(console, urls, settings, json_file, lang.value, options)
        return
    from ..client.loadtest import load_test

    pick = 0 if lang == Lang.zh else 1
    games = games or 1
    with Progress(console=console, transient=True) as bar, cannot_run(console, lang.value):
        task = bar.add_task(LABELS["progress"][pick], total=tables * games)
        report = asyncio.run(
            load_test(
                urls,
                tables,
                games,
                preset,
                bot.value,
                seed,
                lambda done: bar.update(task, completed=done),
                think=think or 0.0,
                reconnect_for=reconnect_for,
            )
        )
    title = LABELS["title"][pick]
    rows = report_rows(report, lang.value)
    show(console, title, rows, report, json_file, lang.value, options)


def run_chaos(
    console: Console,
    url: Sequence[str],
    settings: ChaosSettings,
    json_file: Path | None,
    lang: str,
    options: Mapping[str, Any],
) -> None:
    """Run the soak under a progress bar over its time, print the report, write the JSON
    (stamped with the command's ``options``); exit 1 on any stall or error."""
    from ..client.chaos import chaos_soak

    pick = 0 if lang == "zh" else 1
    label = CHAOS_LABELS["progress"][pick]
    with Progress(console=console, transient=True) as bar, cannot_run(console, lang):
        task = bar.add_task(label, total=settings.minutes * 60)

        def update(elapsed: float, report: ChaosReport) -> None:
            counts = f"{report.games_completed} · {report.stalls} · {report.errors}"
            bar.update(task, completed=elapsed, description=f"{label} {counts}")

        report = asyncio.run(chaos_soak(url, settings, update))
    words = CHAOS_LABELS["stall"][pick]
    stalls = [
        "  " + words.format(**(stall | {"phase": PHASES[stall["phase"]][pick]}))
        for stall in report.first_stalls
    ]
    notes = [CHAOS_LABELS["first_stalls"][pick], *stalls] if stalls else []
    title = CHAOS_LABELS["title"][pick]
    show(console, title, chaos_rows(report, lang), report, json_file, lang, options, notes)


@contextlib.contextmanager
def cannot_run(console: Console, lang: str) -> Iterator[None]:
    """A :class:`ClientError` inside is printed in ``lang`` and exits 1."""
    try:
        yield
    except ClientError as exc:
        pick = 0 if lang == "zh" else 1
        console.print(f"{LABELS['failed'][pick]} {exc.text(lang)}", style="bold red")
        raise typer.Exit(1) from None


def show(
    console: Console,
    title: str,
    rows: Sequence[tuple[str, str]],
    report: LoadReport,
    json_file: Path | None,
    lang: str,
    options: Mapping[str, Any],
    notes: Sequence[str] = (),
) -> None:
    """Print the report's ``rows``, ``notes`` and first errors, write its JSON under a stamp of
    the command's ``options`` (:mod:`baohuang.provenance`); exit 1 unless it is ok."""
    console.print(metrics_table(title, rows, lang))
    for line in notes:
        console.print(line, style="bold red", markup=False)
    if report.first_errors:
        console.print(LABELS["first"][0 if lang == "zh" else 1], style="bold red")
        for line in report.first_errors:
            console.print(f"  {line}", markup=False)
    if json_file is not None:
        write_stamped(json_file, options, report.to_dict(), indent=2)
    if not report.ok:
        raise typer.Exit(1)
