"""Terminal rendering (终端显示) with Rich: hands, seat status, event narration, result tables.

Everything here works on what a seat may see: views (``game.view(seat)``), events
(``game.events_for(seat, since)``) and results (``GameResult.to_dict()``), never on a Game.
The rules the words name are in ``docs/rules.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from ..engine.actions import Action
from ..engine.cards import RANK_SYMBOLS, Card, format_cards, parse_cards, sort_cards
from ..engine.rules import Rules
from ..engine.scoring import GameResult, qq_tribute
from ..engine.views import View
from ..text.catalog import MESSAGES, t
from ..text.narrator import SEAT_FIELDS, Narration

if TYPE_CHECKING:
    from ..bots.arena import BotStats

#: Rich styles of the narrated event kinds (the rest are plain).
EVENT_STYLES = {
    "round": "dim",
    "pass": "dim",
    "accept": "bold yellow",
    "call": "bold yellow",
    "open_solo": "bold red",
    "transfer": "bold yellow",
    "declare": "yellow",
    "rebellion": "bold red",
    "kick": "bold red",
    "reveal": "bold magenta",
    "cleared": "bold",
    "escape": "bold red",
    "out": "bold green",
    "void": "bold",
    "game_over": "bold",
}


def seat_label(seat: int, lang: str, me: int | None = None) -> str:
    """``座位3``, or ``座位0（你）`` for the seat the user plays."""
    return t("seat.you" if seat == me else "seat", lang, seat=seat)


def place_name(place: int, lang: str) -> str:
    """头科 二科 三科 二落 大落 for places 1–5 (R6.4)."""
    return t(f"place.{place}", lang)


def role_text(role: str | None, solo: str | None, lang: str) -> str:
    """皇帝/保皇派/反贼/未定, with 明独 or 暗独 when known."""
    text = t(f"role.{role}" if role else "role.unknown", lang)
    if role == "emperor" and solo:
        text += (
            f"（{t(f'solo.{solo}', lang)}）" if lang == "zh" else f" ({t(f'solo.{solo}', lang)})"
        )
    return text


def rank_groups(cards: Iterable[Card]) -> list[str]:
    """A hand's cards grouped by rank, high first: ``["R: R", "2: 2s 2h", "A: Ah Ah Ad"]``."""
    return [
        f"{RANK_SYMBOLS[rank]}: {' '.join(str(c) for c in group)}"
        for rank, group in groupby(sort_cards(cards), key=lambda c: c.rank)
    ]


def group_hand(cards: Sequence[str]) -> str:
    """A hand in notation on one line, grouped by rank, high first: ``R: R  2: 2s 2h  A: Ah
    Ah Ad``."""
    return "  ".join(rank_groups(parse_cards(cards)))


def legal_summary(legal: Sequence[Action], lang: str, limit: int = 40) -> str:
    """The legal actions, the first ``limit`` of them when there are more."""
    shown = " ".join(map(str, legal[:limit]))
    if len(legal) > limit:
        shown += " " + t("help.more", lang, n=len(legal) - limit)
    return t("help.legal", lang, n=len(legal), actions=shown)


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards)


#: A ``{field}`` of a template.
_FIELD = re.compile(r"\{(\w+)\}")


class Narrator(Narration):
    """Tells one game's events in order, as ``me`` sees them (``me=None``: an open replay):
    :meth:`~Narration.says` picks the catalog's templates (:mod:`baohuang.text.narrator`, as
    the server does for the page), :meth:`field` puts their fields in words."""

    def __init__(self, lang: str, me: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.me = me

    def __call__(self, event: dict[str, Any]) -> list[str]:
        """The lines that tell ``event``."""
        return [self.render(key, fields) for key, fields in self.says(event)]

    def render(self, key: str, fields: Mapping[str, Any]) -> str:
        """The template ``key`` in this narrator's language, its fields in words."""
        return _FIELD.sub(lambda m: self.field(m[1], fields.get(m[1])), t(key, self.lang))

    def field(self, name: str, value: Any) -> str:
        """A template's field in words: seats by label, cards as written."""
        lang = self.lang
        if name in SEAT_FIELDS:
            return seat_label(value, lang, self.me)
        if name in ("seats", "rebels"):
            return t("sep.list", lang).join(seat_label(s, lang, self.me) for s in value)
        if name == "payers":
            return t("sep.clause", lang).join(self.render(*payer) for payer in value)
        if name in ("place", "outcome", "poll"):
            return t(f"{name}.{value}", lang)
        if name == "auto":
            return t("event.auto", lang) if value else ""
        if name == "hand":
            return group_hand(value)
        if name in ("pile", "shown", "cards"):  # R8.9: the QQ pile starts empty
            return _cards(value) or t("pile.empty", lang)
        return str(value)

    def text(self, event: dict[str, Any]) -> list[Text]:
        """The lines of ``event`` as styled Rich text."""
        style = EVENT_STYLES.get(event["kind"], "")
        return [Text(line, style=style) for line in self(event)]


def narrate(event: dict[str, Any], lang: str, me: int | None = None) -> list[str]:
    """The lines that tell ``event`` on its own (:class:`Narrator` tells a game in order)."""
    return Narrator(lang, me)(event)


def status(view: View, lang: str) -> Table:
    """What the seat of ``view`` knows: hand, role, called card, counts, the current play."""
    me = view.seat
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    hand = view.hand or ()
    groups = Columns([Text(group) for group in rank_groups(hand)], padding=(0, 2))
    grid.add_row(Text(t("st.hand", lang, n=len(hand))), groups)
    lead = view.lead
    current = (
        t(
            "st.lead",
            lang,
            seat=seat_label(lead.seat, lang, me),
            play=lead.play,
            cards=format_cards(lead.cards),
        )
        if lead
        else t("none", lang)
    )
    _text_row(grid, t("st.role", lang), role_text(view.role, view.solo, lang))
    called = view.called
    _text_row(grid, t("st.called", lang), str(called) if called else t("none", lang))
    _text_row(grid, t("st.counts", lang), _counts(view, lang))
    _text_row(grid, t("st.current", lang), current)
    return grid


def _text_row(table: Table, *cells: str) -> None:
    """Add a row of plain text: card and seat texts are never read as Rich markup."""
    table.add_row(*(Text(cell) for cell in cells))


def _counts(view: View, lang: str) -> str:
    """``座位0（你）[皇帝] 44 | 座位1 43 | 座位2 头科 | …`` with known roles marked."""
    me, places = view.seat, view.places
    parts = []
    for seat, n in enumerate(view.counts):
        label = seat_label(seat, lang, me)
        if seat == view.emperor:
            label += f"[{t('role.emperor', lang)}]"
        elif seat == view.guard:
            label += f"[{t('role.guard', lang)}]"
        shown = place_name(places.index(seat) + 1, lang) if seat in places else str(n)
        parts.append(f"{label} {shown}")
    return " | ".join(parts)


def _result_role(result: GameResult, seat: int, lang: str) -> str:
    if seat == result.escaped:
        return t("role.escaped", lang)
    if result.emperor is None:
        return t("role.unknown", lang)
    role = result.role(seat)
    if role == "solo":
        return role_text("emperor", "open" if result.open_solo else "dark", lang)
    return role_text(role, None, lang)


def results_table(
    result: dict[str, Any],
    lang: str,
    number: int | None = None,
    me: int | None = None,
    rules: Rules | None = None,
) -> Table | Group:
    """Game ``number``'s result (R10): place, seat, role, points, in finishing order; under
    QQ ``rules`` a line below says who pays tribute next (R10.3: QQ's rule, not the winner).

    After an escape (R10.4) the seats that were not out yet follow, with no place.
    """
    outcome = t(f"outcome.{result['outcome']}", lang)
    title = (
        t("results.final", lang, outcome=outcome)
        if number is None
        else t("results.title", lang, n=number, outcome=outcome)
    )
    final = GameResult.from_dict(result)
    table = Table(title=Text(title))
    for key in ("col.place", "col.seat", "col.role", "col.points"):
        table.add_column(t(key, lang), justify="right" if key == "col.points" else "left")
    places = result["places"]
    rows = [(place_name(n, lang), seat) for n, seat in enumerate(places, start=1)]
    rows += [("-", seat) for seat in range(len(result["scores"])) if seat not in places]
    for place, seat in rows:
        _text_row(
            table,
            place,
            seat_label(seat, lang, me),
            _result_role(final, seat, lang),
            f"{result['scores'][seat]:+d}",
        )
    note = qq_tribute(rules, final) if rules is not None else None
    if note is None:
        return table
    side, points = note
    return Group(table, Text(t(f"results.tribute_qq.{side}", lang, points=f"{points:+d}")))


def totals_table(totals: Sequence[int], games: int, lang: str, me: int | None = None) -> Table:
    """Points per seat over a match."""
    table = Table(title=Text(t("totals.title", lang, games=games)))
    table.add_column(t("col.seat", lang))
    table.add_column(t("col.total", lang), justify="right")
    for seat, total in enumerate(totals):
        _text_row(table, seat_label(seat, lang, me), f"{total:+d}")
    return table


def metrics_table(title: str, rows: Sequence[tuple[str, str]], lang: str) -> Table:
    """A two-column table of named metrics (the simulation summary)."""
    table = Table(title=Text(title))
    table.add_column(t("sim.metric", lang))
    table.add_column(t("sim.value", lang), justify="right")
    for name, value in rows:
        _text_row(table, name, value)
    return table


_CJK = "\u2e80-\u9fff\uff00-\uffef"
#: Where a line may break: at spaces, or around any CJK character; an opening bracket stays
#: with what follows it, closing punctuation with what precedes it.
_WRAP_TOKEN = re.compile(rf"\s+|[（「]*(?:[{_CJK}]|[^\s{_CJK}]+)[，。；：、）」！？]*")


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal cells, broken at spaces or between CJK
    characters (Rich itself breaks only at spaces). A word wider than ``width`` stays whole."""
    lines: list[str] = []
    line = ""
    for token in _WRAP_TOKEN.findall(text):
        if not line and token.isspace():
            continue
        if line and cell_len(line + token.rstrip()) > width:
            lines.append(line.rstrip())
            line = "" if token.isspace() else token
        else:
            line += token
    return [*lines, line.rstrip()]


class Bullet:
    """A sentence as a bulleted paragraph with a hanging indent, wrapped by :func:`wrap_cells`."""

    def __init__(self, text: str, indent: int = 2) -> None:
        self.text = text
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pad = " " * self.indent
        width = max(options.max_width - self.indent - 2, 10)
        for i, line in enumerate(wrap_cells(self.text, width)):
            yield Text(f"{pad}{'• ' if i == 0 else '  '}{line}")


def rules_text(sections: Sequence[tuple[str, Sequence[str]]]) -> Group:
    """A rule set in words (:func:`baohuang.engine.describe.describe`): a heading per section, then
    its sentences as bullets, a blank line between sections."""
    parts: list[Text | Bullet] = []
    for n, (heading, lines) in enumerate(sections):
        parts += [Text("")] * bool(n) + [Text(heading, style="bold cyan")]
        parts += [Bullet(line) for line in lines]
    return Group(*parts)


def presets_table(rows: Sequence[tuple[str, str]], lang: str) -> Table:
    """The presets (R7), one summary line each."""
    table = Table(title=Text(t("rules.presets", lang)))
    table.add_column(t("rules.col.preset", lang), style="bold", no_wrap=True)
    table.add_column(t("rules.col.summary", lang))
    for name, line in rows:  # its name, and under it the key that selects it
        shown = t(f"preset.{name}", lang) if f"preset.{name}" in MESSAGES else name
        _text_row(table, f"{shown}\n{name}" if shown != name else name, line)
    return table


def preset_label(name: str, lang: str) -> str:
    """A preset (R7) by its name in ``lang`` and the key that selects it: ``经典（classic）``,
    ``KK Simple (kk_simple)``; an unknown name as it is."""
    key = f"preset.{name}"
    return t("rules.preset_name", lang, name=t(key, lang), code=name) if key in MESSAGES else name


def bot_label(name: str, lang: str) -> str:
    """A bot's name in ``lang`` (新手, 普通, 大师 …), the registry name for the others."""
    key = f"bot.{name}"
    return t(key, lang) if key in MESSAGES else name


def _win_cell(stats: BotStats, role: str) -> str:
    """Win rate (won/games) and mean points in ``role``: where a bot gains or loses."""
    won, games = stats.wins[role]
    points = stats.role_points.get(role)
    return (
        f"{won / games:.0%} ({won}/{games}), {points:+.2f}" if games and points is not None else "-"
    )


def arena_markdown(stats: Sequence[BotStats], lang: str) -> str:
    """The arena's results as a Markdown table: per bot the mean points per game, its 95%
    interval, win rates and points by role, and average and p95 decision times."""
    roles = ("emperor", "guard", "rebel", "solo")
    keys = ("bot", "mean", "ci", *roles, "ms", "p95")
    head = [t(f"arena.col.{key}", lang) for key in keys]
    rows = [
        [
            s.name,
            f"{s.mean:+.2f}",
            f"[{s.ci_low:+.2f}, {s.ci_high:+.2f}]",
            *(_win_cell(s, role) for role in roles),
            f"{s.time_mean_ms:.3f}",
            f"{s.time_p95_ms:.3f}",
        ]
        for s in stats
    ]
    lines = [head, [":---"] + ["---:"] * (len(head) - 1), *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)
