"""Terminal rendering (终端显示) with Rich: hands, seat status, event narration, result tables.

Everything here works on what a seat may see: views (``game.view(seat)``), events
(``game.events_for(seat, since)``) and results (``GameResult.to_dict()``), never on a Game.
The rules the words name are in ``docs/rules.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from ..engine.cards import RANK_SYMBOLS, Card, sort_cards
from ..engine.scoring import escape_scores
from ..text.catalog import MESSAGES, t

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


def rank_groups(cards: Sequence[str]) -> list[str]:
    """A hand's cards grouped by rank, high first: ``["R: R", "2: 2s 2h", "A: Ah Ah Ad"]``."""
    parsed = sort_cards(Card.parse(c) for c in cards)
    return [
        f"{RANK_SYMBOLS[rank]}: {' '.join(str(c) for c in group)}"
        for rank, group in groupby(parsed, key=lambda c: c.rank)
    ]


def group_hand(cards: Sequence[str]) -> str:
    """A hand on one line, grouped by rank, high first: ``R: R  2: 2s 2h  A: Ah Ah Ad``."""
    return "  ".join(rank_groups(cards))


def legal_summary(legal: Sequence[str], lang: str, limit: int = 40) -> str:
    """The legal actions, the first ``limit`` of them when there are more."""
    shown = " ".join(legal[:limit])
    if len(legal) > limit:
        shown += " " + t("help.more", lang, n=len(legal) - limit)
    return t("help.legal", lang, n=len(legal), actions=shown)


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards)


def _pile(cards: Sequence[str], lang: str) -> str:
    """The emperor pile's cards, or that it is empty (R8.9: the QQ pile starts empty)."""
    return _cards(cards) if cards else t("pile.empty", lang)


def _seats_join(parts: Sequence[str], lang: str) -> str:
    """``座位1 …，座位3 …`` / ``seat 1 …, seat 3 …``."""
    return ("，" if lang == "zh" else ", ").join(parts)


def _seats(seats: Sequence[int], lang: str, me: int | None) -> str:
    """``座位1、座位3`` / ``seat 1, seat 3``."""
    return ("、" if lang == "zh" else ", ").join(seat_label(s, lang, me) for s in seats)


class Narrator:
    """Tells one game's events in order, as ``me`` sees them (``me=None``: an open replay).

    A few lines depend on what came before: the R* holder's 登基 or 让位 at the start of the
    chain is one line (not "candidate", then "accepts, takes R*"), and a poll answer that the
    next event announces (明独, 抢独, 踢, 明保) is told once.
    """

    def __init__(self, lang: str, me: int | None = None) -> None:
        self.lang = lang
        self.me = me
        #: The seat holding R* when a marked-joker chain starts, until it answers (R9.3, R11.2).
        self.holder: int | None = None
        #: The chain has moved on since the deal (a yield or a 转让).
        self.passed_on = False
        self.last: dict[str, Any] = {}

    def __call__(self, event: dict[str, Any]) -> list[str]:
        """The lines that tell ``event``."""
        kind = event["kind"]
        seat = event.get("seat")
        who = seat_label(seat, self.lang, self.me) if isinstance(seat, int) else ""
        told = self._contextual(event, who)
        if told is None:
            told = _NARRATORS.get(kind, _silent)(event, who, self.lang, self.me)
        self.last = event
        return told

    def _contextual(self, event: dict[str, Any], who: str) -> list[str] | None:
        """The lines of an event told by what came before; ``None`` for the usual ones."""
        kind, seat, lang = event["kind"], event.get("seat"), self.lang
        if kind == "deal":
            self.holder, self.passed_on = None, False
        elif kind == "candidate" and event["pile"] == ["R*"] and not self.passed_on:
            self.holder = seat  # R9.3, R11.2: told with its answer
            return []
        elif kind in ("accept", "decline", "transfer"):
            holder, self.holder = self.holder, None
            self.passed_on |= kind != "accept"
            if holder == seat and kind == "accept":
                return [t("ev.holder_accepts", lang, seat=who)]
            if holder == seat and kind == "decline":
                to = seat_label(event["to"], lang, self.me)
                line = t("ev.holder_yields", lang, seat=who, to=to)
                return [line + (t("ev.decline_auto", lang) if event.get("auto") else "")]
        elif kind == "declare" and event["answer"] in ("solo", "grab", "kick"):
            return []  # the open solo or the kick that follows tells it
        elif kind == "reveal" and self.last.get("seat") == seat:
            if self.last.get("answer") == "show":
                return []  # 明保 said it
            if self.last.get("kind") == "transfer":
                return [t("ev.transfer_reveals", lang, seat=who)]
        return None

    def text(self, event: dict[str, Any]) -> list[Text]:
        """The lines of ``event`` as styled Rich text."""
        style = EVENT_STYLES.get(event["kind"], "")
        return [Text(line, style=style) for line in self(event)]


def narrate(event: dict[str, Any], lang: str, me: int | None = None) -> list[str]:
    """The lines that tell ``event`` on its own (:class:`Narrator` tells a game in order).

    Besides a seat's own copy of an event (R14), this reads the fields an open replay adds:
    ``hands`` on a deal, ``guard_seat`` or ``dark`` on a call, ``card`` on any tribute payment.
    """
    return Narrator(lang, me)(event)


def _silent(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return []


def _deal(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    counts = sorted(set(event["counts"]))
    lines = [t("ev.deal", lang, deal=event["deal"] + 1, counts="/".join(map(str, counts)))]
    if isinstance(event.get("dealer"), int):
        lines[0] += t("ev.dealer", lang, seat=seat_label(event["dealer"], lang, me))
    if "hand" in event:
        lines.append(t("ev.your_hand", lang, hand=group_hand(event["hand"])))
    for s, hand in sorted(event.get("hands", {}).items()):
        lines.append(t("ev.hand_of", lang, seat=seat_label(s, lang, me), hand=group_hand(hand)))
    return lines


def _tribute_due(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """R12 and R6.8: who pays how many cards (the event has one entry per card)."""
    cards = Counter((payer, to) for payer, to in event["payers"])
    payers = [
        t("ev.tribute_payer", lang, seat=seat_label(payer, lang, me), n=n)
        if to is None
        else t(
            "ev.tribute_payer_to",
            lang,
            seat=seat_label(payer, lang, me),
            n=n,
            to=seat_label(to, lang, me),
        )
        for (payer, to), n in cards.items()
    ]
    return [t("ev.tribute_due", lang, payers=_seats_join(payers, lang))]


def _tribute_paid(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    if "card" in event:
        return [t("ev.tribute_paid_card", lang, seat=who, card=event["card"])]
    return [t("ev.tribute_paid", lang, seat=who)]


def _tribute(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    known = list(event.get("cards", []))
    lines = []
    for move in event["transfers"]:
        src, dst = seat_label(move["from"], lang, me), seat_label(move["to"], lang, me)
        card = next((c for c in known if c["from"] == move["from"] and c["to"] == move["to"]), None)
        if card is None:
            lines.append(t("ev.tribute_move", lang, src=src, dst=dst))
        else:
            known.remove(card)
            lines.append(t("ev.tribute_move_card", lang, src=src, dst=dst, card=card["card"]))
    return lines


def _candidate(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.candidate", lang, seat=who, pile=_pile(event["pile"], lang))]


def _decline(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    added = event.get("added")
    line = (
        t("ev.decline_added", lang, seat=who, card=added)
        if added
        else t("ev.decline", lang, seat=who)
    )
    if event.get("auto"):
        line += t("ev.decline_auto", lang)
    return [line]


def _void(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.void", lang)]


def _accept(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.accept", lang, seat=who, pile=_pile(event["pile"], lang))]


def _call(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    card = event["card"]
    lines = [t("ev.call", lang, seat=who, card=card)]
    if event.get("guard") is True:
        lines.append(t("ev.you_guard", lang, card=card))
    if event.get("solo") == "dark":
        lines.append(t("ev.you_dark", lang, card=card))
    return lines + _open_roles(event, lang, me)


def _open_roles(event: dict[str, Any], lang: str, me: int | None) -> list[str]:
    """The guard or a dark solo, as an open replay shows them (``guard_seat``, ``dark``)."""
    if isinstance(event.get("guard_seat"), int):
        return [t("ev.guard_is", lang, seat=seat_label(event["guard_seat"], lang, me))]
    return [t("ev.dark_solo", lang)] if event.get("dark") else []


def _roles(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """R9.3–R9.4: the guard learns it holds B*, a double holder 暗独 (the 登基 said who is
    emperor)."""
    lines = []
    if event.get("guard") is True:
        lines.append(t("ev.you_guard_marked", lang))
    if event.get("solo") == "dark":
        lines.append(t("ev.you_dark_marked", lang))
    return lines + _open_roles(event, lang, me)


def _poll(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """A poll starts (明独, 明保/造反, 踢, 抢独); nothing to tell when nobody is asked."""
    if not event["seats"]:
        return []
    name = t(f"poll.{event['poll']}", lang)
    return [t("ev.poll", lang, name=name, seats=_seats(event["seats"], lang, me))]


def _open_solo(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """明独: four cards shown (R8.7), declared (R9.2, R9.3, R11.3) or grabbed (抢独, R11.4)."""
    how = event.get("how", "shown")
    if how != "shown":
        return [t(f"ev.open_solo.{how}", lang, seat=who)]
    shown = event.get("shown") or [event["card"]] * 4
    return [t("ev.open_solo", lang, seat=who, shown=_cards(shown))]


def _transfer(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.transfer", lang, seat=who, to=seat_label(event["to"], lang, me))]


def _declare(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """One answer in a poll (明保, 造反); a pass is told by the poll's name."""
    answer = event["answer"]
    key = f"ev.pass.{event['poll']}" if answer == "pass" else f"ev.declare.{answer}"
    return [t(key, lang, seat=who)]


def _rebellion(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """R9.5: told when anybody rebelled; a failed one names its lone rebel."""
    if not event["rebels"]:
        return []
    names = _seats(event["rebels"], lang, me)
    key = "ev.rebellion.success" if event["success"] else "ev.rebellion.failed"
    return [t(key, lang, rebels=names)]


def _kick(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.kick", lang, seat=who)]


def _cleared(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.cleared", lang, seat=who, by=seat_label(event["by"], lang, me))]


def _escape(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    points = escape_scores(event["seat"])[event["seat"]]
    return [t("ev.escape", lang, seat=who, points=points)]


def _round(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    key = "ev.jiefeng" if event["jiefeng"] else "ev.round"
    return [t(key, lang, seat=seat_label(event["leader"], lang, me))]


def _play(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    cards = _cards(event["cards"])
    return [t("ev.play", lang, seat=who, play=event["play"], cards=cards, left=event["left"])]


def _pass(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.pass", lang, seat=who)]


def _reveal(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    """A guard (R8.8, R9.4, R9.5) or a dark solo (R9.5) made public."""
    return [t(f"ev.reveal.{event.get('role', 'guard')}", lang, seat=who)]


def _out(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.out", lang, seat=who, place=place_name(event["place"], lang))]


def _game_over(event: dict[str, Any], who: str, lang: str, me: int | None) -> list[str]:
    return [t("ev.game_over", lang, outcome=t(f"outcome.{event['outcome']}", lang))]


Narrate = Callable[[dict[str, Any], str, str, int | None], list[str]]

_NARRATORS: dict[str, Narrate] = {
    "deal": _deal,
    "tribute_due": _tribute_due,
    "tribute_paid": _tribute_paid,
    "tribute": _tribute,
    "candidate": _candidate,
    "decline": _decline,
    "void": _void,
    "accept": _accept,
    "call": _call,
    "open_solo": _open_solo,
    "roles": _roles,
    "poll": _poll,
    "transfer": _transfer,
    "declare": _declare,
    "rebellion": _rebellion,
    "kick": _kick,
    "cleared": _cleared,
    "escape": _escape,
    "round": _round,
    "play": _play,
    "pass": _pass,
    "reveal": _reveal,
    "out": _out,
    "game_over": _game_over,
}


def status(view: dict[str, Any], lang: str) -> Table:
    """What the seat of ``view`` knows: hand, role, called card, counts, the current play."""
    me = view["seat"]
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    hand = view["hand"] or []
    groups = Columns([Text(group) for group in rank_groups(hand)], padding=(0, 2))
    grid.add_row(Text(t("st.hand", lang, n=len(hand))), groups)
    lead = view["lead"]
    current = (
        t(
            "st.lead",
            lang,
            seat=seat_label(lead["seat"], lang, me),
            play=lead["play"],
            cards=_cards(lead["cards"]),
        )
        if lead
        else t("none", lang)
    )
    _text_row(grid, t("st.role", lang), role_text(view["role"], view["solo"], lang))
    _text_row(grid, t("st.called", lang), view["called"] or t("none", lang))
    _text_row(grid, t("st.counts", lang), _counts(view, lang))
    _text_row(grid, t("st.current", lang), current)
    return grid


def _text_row(table: Table, *cells: str) -> None:
    """Add a row of plain text: card and seat texts are never read as Rich markup."""
    table.add_row(*(Text(cell) for cell in cells))


def _counts(view: dict[str, Any], lang: str) -> str:
    """``座位0（你）[皇帝] 44 | 座位1 43 | 座位2 头科 | …`` with known roles marked."""
    me, places = view["seat"], view["places"]
    parts = []
    for seat, n in enumerate(view["counts"]):
        label = seat_label(seat, lang, me)
        if seat == view["emperor"]:
            label += f"[{t('role.emperor', lang)}]"
        elif seat == view["guard"]:
            label += f"[{t('role.guard', lang)}]"
        shown = place_name(places.index(seat) + 1, lang) if seat in places else str(n)
        parts.append(f"{label} {shown}")
    return " | ".join(parts)


def _result_role(result: dict[str, Any], seat: int, lang: str) -> str:
    if seat == result.get("escaped"):
        return t("role.escaped", lang)
    if result["emperor"] is None:
        return t("role.unknown", lang)
    if seat == result["emperor"]:
        solo = None
        if result["guard"] is None:
            solo = "open" if result["open_solo"] else "dark"
        return role_text("emperor", solo, lang)
    return t("role.guard" if seat == result["guard"] else "role.rebel", lang)


def results_table(
    result: dict[str, Any], lang: str, number: int | None = None, me: int | None = None
) -> Table:
    """Game ``number``'s result (R10): place, seat, role, points, in finishing order.

    After an escape (R10.4) the seats that were not out yet follow, with no place.
    """
    outcome = t(f"outcome.{result['outcome']}", lang)
    title = (
        t("results.final", lang, outcome=outcome)
        if number is None
        else t("results.title", lang, n=number, outcome=outcome)
    )
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
            _result_role(result, seat, lang),
            f"{result['scores'][seat]:+d}",
        )
    return table


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
    """A rule set in words (:func:`baohuang.cli.describe.describe`): a heading per section, then
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
    for name, line in rows:
        _text_row(table, name, line)
    return table


def bot_label(name: str, lang: str) -> str:
    """A bot's name in ``lang`` (随机, 托管, 启发式), the registry name for the others."""
    key = f"bot.{name}"
    return t(key, lang) if key in MESSAGES else name


def _win_cell(stats: BotStats, role: str) -> str:
    won, games = stats.wins[role]
    return f"{won / games:.0%} ({won}/{games})" if games else "-"


def arena_markdown(stats: Sequence[BotStats], lang: str) -> str:
    """The arena's results as a Markdown table: per bot the mean points per game, its 95%
    interval, win rates by role, and average and p95 decision times."""
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
