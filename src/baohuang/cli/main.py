"""The ``baohuang`` command (命令行): play against bots, simulate bot games, run a duplicate
tournament between bots (arena), replay records, explain the rules of a preset (in full:
``docs/rules.md``).

Chinese first; ``--lang en`` switches every message to English (see :mod:`baohuang.text.catalog`).
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import Progress
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..bots.arena import arena_json, assignments, play_deals, summarize
from ..bots.base import (
    BOTS,
    MODEL_PREFIX,
    Bot,
    RandomBot,
    bot_step,
    is_bot,
    make_bot,
    play_out,
)
from ..bots.learned import QModel
from ..engine.actions import PASS, SOLO, Action, Call, Escape, OpenSolo, parse_action
from ..engine.cards import format_cards
from ..engine.describe import describe, refresh_markdown, summary
from ..engine.errors import IllegalActionError, NotationError, RecordError, RulesError
from ..engine.events import (
    CallEvent,
    DealEvent,
    DeclineEvent,
    Event,
    RolesEvent,
    TributeEvent,
    TributePaidEvent,
)
from ..engine.game import Game, new_game
from ..engine.match import Match, game_seed
from ..engine.record import read_record, replay, write_record
from ..engine.rules import PRESETS, Rules, parse_options
from ..engine.views import View
from ..provenance import write_stamped
from ..text.catalog import ACTION_WORDS, t
from .analyse import analyse_command
from .loadtest import loadtest
from .options import Lang, LangOption
from .remotebot import bot_command
from .server import db, protocol, serve
from .terminal import (
    Narrator,
    arena_markdown,
    bot_label,
    legal_summary,
    metrics_table,
    preset_label,
    presets_table,
    results_table,
    rules_text,
    status,
    totals_table,
)
from .train import train


def _flags_untyped(params: list[Any]) -> list[Any]:
    """Flags show no value type in ``--help`` (typer 0.29 writes ``--help <bool>``). Typed
    loosely: typer 0.29 carries its own copy of click's parameter classes."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Group(TyperGroup):
    """The command group, its ``--help`` without a value type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_untyped(super().get_params(ctx))


class Command(TyperCommand):
    """A command, its flags without a value type in ``--help``."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_untyped(super().get_params(ctx))


app = typer.Typer(
    help="保皇 Baohuang：终端对局、机器人模拟、规则说明、对局回放。 "
    "Terminal game, simulator, rules, replays.",
    no_args_is_help=True,
    add_completion=False,
    cls=Group,
)


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"baohuang {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="版本 show the version and exit"
        ),
    ] = False,
) -> None:
    """The options before the command (its help is the app's)."""


#: The seat the user plays in ``baohuang play``.
HUMAN = 0
QUIT_WORDS = frozenset({"quit", "exit", "退出"})
HELP_WORDS = frozenset({"help", "?", "？", "帮助"})
#: The user's own escape (R10.4): at a table with one person it names no seat.
ESCAPE_WORDS = frozenset({"escape", "逃跑"})
#: The answers that confirm an escape.
YES_WORDS = frozenset({"y", "yes", "是", "确定"})

#: Reads one line of input after showing a prompt (``input`` in a terminal, a script in tests).
Ask = Callable[[str], str]


PresetOption = Annotated[
    str, typer.Option("--preset", help=f"规则预设 rule preset (R7): {', '.join(PRESETS)}")
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="规则选项 rule option key=value, repeatable: roast=true, ranks_from=6",
    ),
]


def _fail(message: str) -> NoReturn:
    """Show ``message`` on stderr and exit with status 2 (a usage error)."""
    Console(stderr=True, highlight=False).print(
        message, markup=False, soft_wrap=True, style="bold red"
    )
    raise typer.Exit(2)


def _rules(preset: str, options: Sequence[str] | None, lang: str) -> Rules:
    """``preset`` with ``--option`` values; a :class:`RulesError` is shown in ``lang``, exit 2."""
    try:
        return Rules.preset(preset, **parse_options(options or []))
    except RulesError as exc:
        _fail(exc.text(lang))


def _label(rules: Rules, options: Sequence[str] | None, lang: str) -> str:
    """The preset's name with the options given: ``经典（classic） roast=true``."""
    return " ".join([preset_label(rules.name, lang), *(options or [])])


# ---------------------------------------------------------------------------------- play


def play_match(
    match: Match,
    ask: Ask,
    console: Console,
    lang: str = "zh",
    bots: Sequence[Bot] | None = None,
    auto_pass: bool = False,
) -> bool:
    """Play ``match`` with the user at seat 0 and ``bots`` at the others (default RandomBots).

    Narrates everything seat 0 may see, reads seat 0's actions with ``ask`` (``auto_pass``:
    passes by itself when 过 is all seat 0 may do, 要不起), prints a results table after each
    game and the totals after a match. ``False`` when the user quit.
    """
    seats = bots or [RandomBot(f"{match.seed}/bot{seat}") for seat in range(5)]
    while True:
        number = match.index + 1
        console.rule(Text(t("game.header", lang, n=number, total=match.games)))
        if not _play_game(match.game, ask, console, lang, seats, auto_pass):
            console.print(t("bye", lang))
            return False
        result = match.game.result
        assert result is not None
        console.print(results_table(result.to_dict(), lang, number, HUMAN, match.rules))
        if match.next_game() is None:
            break
    if match.games > 1:
        console.print(totals_table(match.totals, match.games, lang, me=HUMAN))
    return True


def _play_game(
    game: Game, ask: Ask, console: Console, lang: str, bots: Sequence[Bot], auto_pass: bool
) -> bool:
    """One game: narrate, let the bots act, ask the user at seat 0; ``False`` if they quit."""
    seen = 0
    narrator = Narrator(lang, HUMAN)
    while (seat := game.current_seat) is not None:
        seen = _narrate(game, console, narrator, seen)
        if seat != HUMAN:
            bot_step(game, bots[seat])
        elif auto_pass and game.phase == "play" and game.legal_actions() == [PASS]:
            console.print(t("play.auto_pass", lang), style="dim", markup=False)
            game.apply(PASS)
        elif not _human_turn(game, ask, console, lang):
            return False
    _narrate(game, console, narrator, seen)
    return True


def _narrate(game: Game, console: Console, narrator: Narrator, since: int) -> int:
    """Print the events after ``since`` as seat 0 sees them; the new ``since``."""
    events = game.events_for(HUMAN, since)
    for event in events:
        for line in narrator.text(event):
            console.print(line, soft_wrap=True)
    return since + len(events)


def _human_turn(game: Game, ask: Ask, console: Console, lang: str) -> bool:
    """Show seat 0's status and read actions until one applies; ``False`` if the user quits."""
    view = game.view(HUMAN)
    console.print(status(view, lang))
    console.print(_hint(view, lang), style="bold", markup=False)
    if view.phase != "play":
        console.print(legal_summary(view.legal, lang), markup=False)
    while True:
        try:
            text = ask(t("prompt.input", lang)).strip()
        except EOFError:
            return False
        if text.lower() in QUIT_WORDS:
            return False
        if not text or text.lower() in HELP_WORDS:
            console.print(legal_summary(view.legal, lang), markup=False)
            console.print(t("help.commands", lang), markup=False, style="dim")
            continue
        try:
            action = _own_action(text)
            if isinstance(action, Escape) and not _sure(ask, console, lang):
                continue
            game.apply(action)
        except NotationError as exc:
            console.print(t("err.notation", lang, msg=exc.text(lang)), markup=False, style="red")
        except IllegalActionError as exc:
            console.print(t("err.illegal", lang, msg=exc.text(lang)), markup=False, style="red")
        else:
            return True


def _sure(ask: Ask, console: Console, lang: str) -> bool:
    """R10.4: an escape costs 30 points and ends the game, so it is asked twice."""
    if ask(t("prompt.escape_sure", lang)).strip().lower() in YES_WORDS:
        return True
    console.print(t("play.escape_kept", lang), markup=False)
    return False


def _own_action(text: str) -> Action:
    """The user's action; an escape (逃跑, R10.4) is the user's own, ``escape`` alone."""
    if text.lower() in ESCAPE_WORDS:
        return Escape(HUMAN)
    action = parse_action(text)
    if isinstance(action, Escape) and action.seat != HUMAN:
        raise IllegalActionError("error.game.escape_self")
    return action


def _hint(view: View, lang: str) -> str:
    """What seat 0 is asked now: by the running poll (R9, R11; 明保 and 造反 by role), else by
    phase."""
    phase, legal, poll = view.phase, view.legal, view.poll
    if poll in ("show", "rebel"):
        return t(f"prompt.poll.{poll}.{'guard' if view.role == 'guard' else 'other'}", lang)
    if poll:
        return t(f"prompt.poll.{poll}", lang)
    if phase == "candidate":
        pile = format_cards(view.pile) or t("pile.empty", lang)
        return t("prompt.candidate", lang, pile=pile, options=" / ".join(map(_with_word, legal)))
    if phase == "call":
        return t("prompt.call", lang, options=_call_options(legal, lang))
    if phase == "tribute":
        return t("prompt.tribute", lang)
    if phase != "play":
        return t("prompt.choose", lang, options=" / ".join(map(_with_word, legal)))
    if view.lead is None:
        return t("prompt.lead", lang)
    return t("prompt.follow", lang, play=view.lead.play)


def _call_options(legal: Sequence[Action], lang: str) -> str:
    """R8.7, R11.3: the kinds of call seat 0 may make, each with an example it holds."""
    calls = [a.card for a in legal if isinstance(a, Call)]
    shown = [a.card for a in legal if isinstance(a, OpenSolo) and a.card is not None]
    options = [t("prompt.call.call", lang, card=str(calls[0]))] if calls else []
    options += [t("prompt.call.shown", lang, card=str(shown[0]))] if shown else []
    options += [t("prompt.call.solo", lang)] if SOLO in legal else []
    return f" {t('prompt.or', lang)} ".join(options)


def _with_word(action: Action) -> str:
    """A role answer with the game's word for it: ``transfer（转让）``."""
    text = str(action)
    word = ACTION_WORDS.get(text)
    return f"{text}（{word}）" if word else text


def _check_bot(name: str, lang: str) -> str:
    """``name`` if it is a bot of the registry (a ``learned:PATH`` whose model loads); else
    the error in ``lang`` (which extra to install, what is wrong with the model), exit 2."""
    learned = name == "learned" or name.startswith(MODEL_PREFIX)
    if learned and importlib.util.find_spec("numpy") is None:
        _fail(t("err.bot_extra", lang, name=name.partition(":")[0]))
    if not is_bot(name):
        _fail(t("err.bot", lang, name=name, names=", ".join([*BOTS, "learned:PATH"])))
    if name.startswith(MODEL_PREFIX):
        try:
            QModel.load(name.removeprefix(MODEL_PREFIX).partition("@")[0])
        except (OSError, ValueError, KeyError) as exc:
            _fail(t("err.bot_model", lang, name=name, reason=exc))
    return name


@app.command(cls=Command)
def play(
    games: Annotated[int, typer.Option("--games", min=1, help="局数 games in the match")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="随机种子 seed")] = None,
    lang: LangOption = Lang.zh,
    preset: PresetOption = "classic",
    option: OptionsOption = None,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents", help=f"对手机器人 the bots you play against: {', '.join(BOTS)}"
        ),
    ] = "random",
    auto_pass: Annotated[
        bool, typer.Option("--auto-pass", help="要不起时自动过 pass by itself when 过 is all")
    ] = False,
) -> None:
    """和四个机器人对局（你是座位0）。 Play against four bots, as seat 0."""
    rules = _rules(preset, option, lang.value)
    _check_bot(opponents, lang.value)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    console = Console(highlight=False)
    label = bot_label(opponents, lang.value)
    intro = t(
        "play.intro", lang.value, preset=_label(rules, option, lang.value), seed=seed, bots=label
    )
    console.print(intro, markup=False)
    bots = [make_bot(opponents, rules, f"{seed}/bot{seat}") for seat in range(5)]
    try:
        match = Match(rules, games, seed)
        play_match(match, console.input, console, lang.value, bots, auto_pass)
    except KeyboardInterrupt:
        console.print(t("bye", lang.value))


# ---------------------------------------------------------------------------------- simulate


@dataclass(frozen=True, slots=True)
class GameStats:
    """What the simulation summary needs from one finished bot game."""

    outcome: str
    #: ``"open"`` (明独), ``"dark"`` (暗独) or ``None`` (a guard, or an escape first).
    solo: str | None
    deals: int
    #: Redeals: ``void`` events (R8.6, R9.3, R11.2).
    voids: int
    decisions: int
    plays: int
    #: ``decline`` events: candidates declining (R8.5) or yielding (R9.3, R11.2).
    yields: int
    rebellion: bool
    open_guard: bool
    kicked: bool
    escaped: bool


def simulate_game(rules: Rules, seed: int, records: Path | None, index: int) -> GameStats:
    """Game ``index`` of a simulation: RandomBots on all seats, seeded by ``seed`` and ``index``."""
    game = new_game(rules, game_seed(seed, index))
    result = play_out(game, [RandomBot(f"{game.seed}/bot{seat}") for seat in range(5)])
    if records is not None:
        write_record(game, records / f"game-{index:05d}.json")
    solo = None
    if result.guard is None and result.escaped is None:
        solo = "open" if result.open_solo else "dark"
    kinds = Counter(event.kind for event in game.events)
    return GameStats(
        outcome=result.outcome,
        solo=solo,
        deals=kinds["deal"],
        voids=kinds["void"],
        decisions=len(game.actions),
        plays=kinds["play"],
        yields=kinds["decline"],
        rebellion=result.rebellion,
        open_guard=result.open_guard,
        kicked=result.kicked,
        escaped=result.escaped is not None,
    )


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


def summary_rows(
    stats: Sequence[GameStats], seconds: float, lang: str, rules: Rules
) -> list[tuple[str, str]]:
    """The simulation summary: outcome and solo rates, the declarations ``rules`` has (造反
    R9.5, 明保 R9.4, 踢 R9.6), redeals, yields, escapes, averages, speed."""
    n = len(stats)
    outcomes = [s.outcome for s in stats]
    decisions = sum(s.decisions for s in stats)
    speed = max(seconds, 1e-9)

    def rate(key: str, count: int) -> tuple[str, str]:
        return t(key, lang), _rate(count, n)

    rows = [
        rate("sim.win", outcomes.count("emperor")),
        rate("sim.draw", outcomes.count("draw")),
        rate("sim.loss", outcomes.count("rebels")),
        rate("sim.dark", sum(s.solo == "dark" for s in stats)),
        rate("sim.open", sum(s.solo == "open" for s in stats)),
    ]
    if rules.rebellion:
        rows.append(rate("sim.rebellion", sum(s.rebellion for s in stats)))
    if rules.selection == "fixed":
        rows.append(rate("sim.open_guard", sum(s.open_guard for s in stats)))
    if rules.kick:
        rows.append(rate("sim.kick", sum(s.kicked for s in stats)))
    return [
        *rows,
        (t("sim.void", lang), _rate(sum(s.voids for s in stats), sum(s.deals for s in stats))),
        (t("sim.yields", lang), f"{sum(s.yields for s in stats) / n:.1f}"),
        rate("sim.escapes", sum(s.escaped for s in stats)),
        (t("sim.decisions", lang), f"{decisions / n:.1f}"),
        (t("sim.plays", lang), f"{sum(s.plays for s in stats) / n:.1f}"),
        (t("sim.games_rate", lang), f"{n / speed:.1f}"),
        (t("sim.decisions_rate", lang), f"{decisions / speed:.0f}"),
    ]


@app.command(cls=Command)
def simulate(
    preset: PresetOption = "classic",
    games: Annotated[int, typer.Option("--games", min=1, help="局数 number of games")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="随机种子 seed")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="进程数 processes")] = 1,
    records: Annotated[
        Path | None, typer.Option("--records", help="对局记录目录 write one record per game here")
    ] = None,
    lang: LangOption = Lang.zh,
    option: OptionsOption = None,
) -> None:
    """随机机器人模拟对局并统计。 Simulate games between random bots and summarise them."""
    rules = _rules(preset, option, lang.value)
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
    title = t(
        "sim.title", lang.value, games=games, preset=_label(rules, option, lang.value), seed=seed
    )
    rows = summary_rows(stats, seconds, lang.value, rules)
    console.print(metrics_table(title, rows, lang.value))
    if records is not None:
        console.print(t("sim.records", lang.value, path=records), markup=False)


# ---------------------------------------------------------------------------------- arena


def parse_bots(text: str, lang: str) -> list[str]:
    """``heuristic,random`` as bot names: 2 to 5 different bots of the registry, else exit 2."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        _check_bot(name, lang)
    if not 2 <= len(names) <= 5 or len(set(names)) != len(names):
        _fail(t("arena.bots", lang, bots=text))
    return names


@app.command(cls=Command)
def arena(
    ctx: typer.Context,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help=f"参赛机器人，逗号分开 bots, comma-separated: {', '.join(BOTS)}"
        ),
    ],
    preset: PresetOption = "classic",
    games: Annotated[
        int, typer.Option("--games", min=2, help="牌局数，每副按座位轮换重打 deals, each replayed")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="随机种子 seed")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="进程数 processes")] = 1,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="结果写成 JSON write the results here")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Ray 集群 run the deals on a Ray cluster: its address (auto, ray://host:10001) "
            "or local",
        ),
    ] = None,
    lang: LangOption = Lang.zh,
    option: OptionsOption = None,
) -> None:
    """机器人复式赛：每副牌轮换座位重打。 Duplicate tournament between bots, seats rotated."""
    rules = _rules(preset, option, lang.value)
    names = parse_bots(bots, lang.value)
    console = Console(highlight=False)
    records = []
    mapper = None
    if ray is not None:
        from ..distributed import ray_map

        try:
            mapper = ray_map(ray)
        except RuntimeError as exc:
            _fail(str(exc))
    with Progress(console=console) as progress:
        task = progress.add_task(t("arena.progress", lang.value), total=games)
        for record in play_deals(rules, names, games, seed, jobs, mapper):
            records.append(record)
            progress.advance(task)
    stats = summarize(names, records)
    title = t(
        "arena.title",
        lang.value,
        bots=", ".join(names),
        preset=_label(rules, option, lang.value),
        games=games,
        seatings=len(assignments(len(names))),
        seed=seed,
    )
    console.print(title, markup=False)
    console.print(arena_markdown(stats, lang.value), markup=False, soft_wrap=True)
    if json_path is not None:
        document = arena_json(rules, games, seed, stats)
        write_stamped(json_path, ctx.params, document, indent=2)
        console.print(t("arena.json", lang.value, path=json_path), markup=False)


# ---------------------------------------------------------------------------------- rules


@app.command("rules", cls=Command)
def rules_command(
    preset: Annotated[
        str | None, typer.Argument(help="规则预设 a preset; none: list the presets")
    ] = None,
    lang: LangOption = Lang.zh,
    option: OptionsOption = None,
    docs: Annotated[
        Path | None,
        typer.Option(
            "--docs",
            help="重写这个文件（docs/rules.md）里由规则生成的部分 "
            "rewrite the parts of this file (docs/rules.md) generated from the rules",
        ),
    ] = None,
) -> None:
    """规则说明：列出预设，或讲一种预设的规则。 List the presets, or explain one preset's rules."""
    console = Console(highlight=False)
    if docs is not None:
        try:
            docs.write_text(refresh_markdown(docs.read_text("utf-8")), "utf-8")
        except (OSError, ValueError) as exc:
            _fail(t("rules.docs_error", lang.value, path=docs, msg=exc))
        console.print(str(docs), markup=False)
        return
    if preset is None:
        if option:
            _fail(t("rules.option_alone", lang.value))
        rows = [(name, summary(rules, lang.value)) for name, rules in PRESETS.items()]
        console.print(presets_table(rows, lang.value))
        console.print(t("rules.more", lang.value), markup=False)
        return
    rules = _rules(preset, option, lang.value)
    console.rule(Text(t("rules.title", lang.value, preset=_label(rules, option, lang.value))))
    console.print(rules_text(describe(rules, lang.value)))


# ---------------------------------------------------------------------------------- replay


def open_event(event: Event) -> dict[str, Any]:
    """An event with its private parts opened for a post-game replay (all hands, the guard)."""
    out = event.to_json(None)
    if isinstance(event, DealEvent):
        out["hands"] = {seat: [str(card) for card in hand] for seat, hand in enumerate(event.hands)}
    elif isinstance(event, TributePaidEvent | DeclineEvent):
        out = event.to_json(event.seat)
    elif isinstance(event, TributeEvent):  # each card handed over, by receiver
        out["cards"] = sorted(event.handed(), key=lambda move: move["to"])
    elif isinstance(event, CallEvent | RolesEvent):
        if event.guard is not None:
            out["guard_seat"] = event.guard
        out["dark"] = event.guard is None
    return out


def replay_origin(data: dict[str, Any], lang: str) -> str:
    """Where a record's deal came from: its match and game, else its seed, explained."""
    match, seed = data.get("match"), str(data["seed"])
    if isinstance(match, dict) and {"seed", "game", "games"} <= set(match):
        n, games = match["game"] + 1, match["games"]
        return t("replay.match", lang, n=n, games=games, base=match["seed"])
    base, slash, index = seed.rpartition("/")
    if slash and index.isdigit():  # match.game_seed: game ``index`` of seed ``base``
        return t("replay.seed.game", lang, seed=seed, base=base, n=int(index) + 1)
    return t("replay.seed", lang, seed=seed)


@app.command("replay", cls=Command)
def replay_command(
    file: Annotated[Path, typer.Argument(help="对局记录文件 a record file")],
    lang: LangOption = Lang.zh,
) -> None:
    """逐步回放一局记录（明牌）。 Replay a game record move by move, all hands open."""
    console = Console(highlight=False)
    try:
        data = read_record(file)
        game = replay(data)
    except RecordError as exc:
        message = t("replay.error", lang.value, msg=exc.text(lang.value))
        console.print(message, markup=False, soft_wrap=True, style="bold red")
        raise typer.Exit(1) from None
    console.rule(Text(t("replay.title", lang.value, path=file)))
    console.print(replay_origin(data, lang.value), markup=False, soft_wrap=True)
    narrator = Narrator(lang.value)
    for event in game.events:
        for line in narrator.text(open_event(event)):
            console.print(line, soft_wrap=True)
    if game.result is None:
        console.print(t("replay.unfinished", lang.value))
    else:
        console.print(results_table(game.result.to_dict(), lang.value, rules=game.rules))


app.command("serve", cls=Command)(serve)
app.command("protocol", cls=Command)(protocol)
app.add_typer(db, name="db")
app.command("loadtest", cls=Command)(loadtest)
app.command("bot", cls=Command)(bot_command)
app.command("train", cls=Command)(train)
app.command("analyse", cls=Command)(analyse_command)
