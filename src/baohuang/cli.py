"""The ``baohuang`` command (命令行): play against bots, simulate bot games, replay records.

Chinese first; ``--lang en`` switches every message to English (see :mod:`baohuang.i18n`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from .bots import Bot, RandomBot, bot_step, play_out
from .errors import IllegalActionError, NotationError, RecordError, RulesError
from .events import Event
from .game import Game, new_game
from .i18n import t
from .match import Match, game_seed
from .record import read_record, replay, write_record
from .rules import Rules
from .terminal import (
    event_text,
    legal_summary,
    metrics_table,
    results_table,
    status,
    totals_table,
)

app = typer.Typer(
    help="保皇 Baohuang：终端对局、机器人模拟、对局回放。 Terminal game, simulator, replays.",
    no_args_is_help=True,
    add_completion=False,
)

#: The seat the user plays in ``baohuang play``.
HUMAN = 0
QUIT_WORDS = frozenset({"quit", "exit", "退出"})
HELP_WORDS = frozenset({"help", "?", "？", "帮助"})

#: Reads one line of input after showing a prompt (``input`` in a terminal, a script in tests).
Ask = Callable[[str], str]


class Lang(StrEnum):
    """Interface language."""

    zh = "zh"
    en = "en"


LangOption = Annotated[Lang, typer.Option("--lang", help="界面语言 language: zh | en")]
PresetOption = Annotated[str, typer.Option("--preset", help="规则预设 rule preset (R7)")]


def _rules(preset: str) -> Rules:
    try:
        return Rules.preset(preset)
    except RulesError as exc:
        raise typer.BadParameter(str(exc), param_hint="--preset") from None


# ---------------------------------------------------------------------------------- play


def play_match(
    match: Match,
    ask: Ask,
    console: Console,
    lang: str = "zh",
    bots: Sequence[Bot] | None = None,
) -> bool:
    """Play ``match`` with the user at seat 0 and ``bots`` at the others (default RandomBots).

    Narrates everything seat 0 may see, reads seat 0's actions with ``ask``, prints a results
    table after each game and the totals after a match. ``False`` when the user quit.
    """
    seats = bots or [RandomBot(f"{match.seed}/bot{seat}") for seat in range(5)]
    while True:
        number = match.index + 1
        console.rule(Text(t("game.header", lang, n=number, total=match.games)))
        if not _play_game(match.game, ask, console, lang, seats):
            console.print(t("bye", lang))
            return False
        result = match.game.result
        assert result is not None
        console.print(results_table(result.to_dict(), lang, number, me=HUMAN))
        if match.next_game() is None:
            break
    if match.games > 1:
        console.print(totals_table(match.totals, match.games, lang, me=HUMAN))
    return True


def _play_game(game: Game, ask: Ask, console: Console, lang: str, bots: Sequence[Bot]) -> bool:
    """One game: narrate, let the bots act, ask the user at seat 0; ``False`` if they quit."""
    seen = 0
    while (seat := game.current_seat) is not None:
        seen = _narrate(game, console, lang, seen)
        if seat != HUMAN:
            bot_step(game, bots[seat])
        elif not _human_turn(game, ask, console, lang):
            return False
    _narrate(game, console, lang, seen)
    return True


def _narrate(game: Game, console: Console, lang: str, since: int) -> int:
    """Print the events after ``since`` as seat 0 sees them; the new ``since``."""
    events = game.events_for(HUMAN, since)
    for event in events:
        for line in event_text(event, lang, HUMAN):
            console.print(line, soft_wrap=True)
    return since + len(events)


def _human_turn(game: Game, ask: Ask, console: Console, lang: str) -> bool:
    """Show seat 0's status and read actions until one applies; ``False`` if the user quits."""
    view = game.view(HUMAN)
    console.print(status(view, lang))
    console.print(_hint(view, lang), style="bold", markup=False)
    if view["phase"] != "play":
        console.print(legal_summary(view["legal"], lang), markup=False)
    while True:
        try:
            text = ask(t("prompt.input", lang)).strip()
        except EOFError:
            return False
        if text.lower() in QUIT_WORDS:
            return False
        if not text or text.lower() in HELP_WORDS:
            console.print(legal_summary(view["legal"], lang), markup=False)
            console.print(t("help.commands", lang), markup=False, style="dim")
            continue
        try:
            game.apply(text)
        except NotationError as exc:
            console.print(t("err.notation", lang, msg=exc.text(lang)), markup=False, style="red")
        except IllegalActionError as exc:
            console.print(t("err.illegal", lang, msg=exc.text(lang)), markup=False, style="red")
        else:
            return True


def _hint(view: dict[str, Any], lang: str) -> str:
    """What seat 0 is asked now, by phase."""
    phase = view["phase"]
    if phase == "candidate":
        return t("prompt.candidate", lang, pile=" ".join(view["pile"]))
    if phase == "call":
        return t("prompt.call", lang)
    if phase == "tribute":
        return t("prompt.tribute", lang)
    if view["lead"] is None:
        return t("prompt.lead", lang)
    return t("prompt.follow", lang, play=view["lead"]["play"])


@app.command()
def play(
    games: Annotated[int, typer.Option("--games", min=1, help="局数 games in the match")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="随机种子 seed")] = None,
    lang: LangOption = Lang.zh,
    preset: PresetOption = "classic",
) -> None:
    """和四个机器人对局（你是座位0）。 Play against four bots, as seat 0."""
    rules = _rules(preset)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    console = Console(highlight=False)
    console.print(t("play.intro", lang.value, preset=rules.name, seed=seed), markup=False)
    try:
        play_match(Match(rules, games, seed), console.input, console, lang.value)
    except KeyboardInterrupt:
        console.print(t("bye", lang.value))


# ---------------------------------------------------------------------------------- simulate


@dataclass(frozen=True, slots=True)
class GameStats:
    """What the simulation summary needs from one finished bot game."""

    outcome: str
    solo: str | None
    deals: int
    decisions: int
    plays: int


def simulate_game(rules: Rules, seed: int, records: Path | None, index: int) -> GameStats:
    """Game ``index`` of a simulation: RandomBots on all seats, seeded by ``seed`` and ``index``."""
    game = new_game(rules, game_seed(seed, index))
    result = play_out(game, [RandomBot(f"{game.seed}/bot{seat}") for seat in range(5)])
    if records is not None:
        write_record(game, records / f"game-{index:05d}.json")
    solo = None
    if result.guard is None:
        solo = "open" if result.open_solo else "dark"
    plays = sum(1 for event in game.events if event.kind == "play")
    return GameStats(result.outcome, solo, game.deal_no + 1, len(game.actions), plays)


def run_games(
    rules: Rules, games: int, seed: int, jobs: int = 1, records: Path | None = None
) -> Iterator[GameStats]:
    """The stats of games ``0 .. games-1`` in order, over ``jobs`` processes."""
    work = partial(simulate_game, rules, seed, records)
    if jobs == 1:
        yield from map(work, range(games))
        return
    chunk = max(1, games // (jobs * 16))
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        yield from pool.map(work, range(games), chunksize=chunk)


def _rate(n: int, total: int) -> str:
    return f"{n}/{total} ({n / total:.1%})" if total else "0/0"


def summary_rows(stats: Sequence[GameStats], seconds: float, lang: str) -> list[tuple[str, str]]:
    """The simulation summary: outcome rates, solo rates, void deals, averages, speed."""
    n = len(stats)
    outcomes = [s.outcome for s in stats]
    deals = sum(s.deals for s in stats)
    decisions = sum(s.decisions for s in stats)
    plays = sum(s.plays for s in stats)
    speed = max(seconds, 1e-9)
    return [
        (t("sim.win", lang), _rate(outcomes.count("emperor"), n)),
        (t("sim.draw", lang), _rate(outcomes.count("draw"), n)),
        (t("sim.loss", lang), _rate(outcomes.count("rebels"), n)),
        (t("sim.dark", lang), _rate(sum(s.solo == "dark" for s in stats), n)),
        (t("sim.open", lang), _rate(sum(s.solo == "open" for s in stats), n)),
        (t("sim.void", lang), _rate(deals - n, deals)),
        (t("sim.decisions", lang), f"{decisions / n:.1f}"),
        (t("sim.plays", lang), f"{plays / n:.1f}"),
        (t("sim.games_rate", lang), f"{n / speed:.1f}"),
        (t("sim.decisions_rate", lang), f"{decisions / speed:.0f}"),
    ]


@app.command()
def simulate(
    preset: PresetOption = "classic",
    games: Annotated[int, typer.Option("--games", min=1, help="局数 number of games")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="随机种子 seed")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="进程数 processes")] = 1,
    records: Annotated[
        Path | None, typer.Option("--records", help="对局记录目录 write one record per game here")
    ] = None,
    lang: LangOption = Lang.zh,
) -> None:
    """随机机器人模拟对局并统计。 Simulate games between random bots and summarise them."""
    rules = _rules(preset)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    console = Console(highlight=False)
    stats: list[GameStats] = []
    start = time.perf_counter()
    with Progress(console=console) as progress:
        task = progress.add_task(t("sim.progress", lang.value), total=games)
        for game in run_games(rules, games, seed, jobs, records):
            stats.append(game)
            progress.advance(task)
    seconds = time.perf_counter() - start
    title = t("sim.title", lang.value, games=games, preset=rules.name, seed=seed)
    console.print(metrics_table(title, summary_rows(stats, seconds, lang.value), lang.value))
    if records is not None:
        console.print(t("sim.records", lang.value, path=records), markup=False)


# ---------------------------------------------------------------------------------- replay


def open_event(event: Event) -> dict[str, Any]:
    """An event with its private parts opened for a post-game replay (all hands, the guard)."""
    out = event.for_seat(None)
    private = event.private
    if event.kind == "deal":
        out["hands"] = {seat: fields["hand"] for seat, fields in private.items()}
    elif event.kind in ("tribute_paid", "decline"):
        out.update(private.get(event.public["seat"], {}))
    elif event.kind == "tribute":
        out["cards"] = [
            move
            for seat, fields in private.items()
            for move in fields["cards"]
            if move["to"] == seat
        ]
    elif event.kind == "call":
        guards = [seat for seat, fields in private.items() if fields.get("guard")]
        if guards:
            out["guard_seat"] = guards[0]
        out["dark"] = any(fields.get("solo") == "dark" for fields in private.values())
    return out


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="对局记录文件 a record file")],
    lang: LangOption = Lang.zh,
) -> None:
    """逐步回放一局记录（明牌）。 Replay a game record move by move, all hands open."""
    console = Console(highlight=False)
    try:
        game = replay(read_record(file))
    except RecordError as exc:
        message = t("replay.error", lang.value, msg=exc.text(lang.value))
        console.print(message, markup=False, soft_wrap=True, style="bold red")
        raise typer.Exit(1) from None
    console.rule(Text(t("replay.title", lang.value, path=file, seed=game.seed)))
    for event in game.events:
        for line in event_text(open_event(event), lang.value):
            console.print(line, soft_wrap=True)
    if game.result is None:
        console.print(t("replay.unfinished", lang.value))
    else:
        console.print(results_table(game.result.to_dict(), lang.value))
