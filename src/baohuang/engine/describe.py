"""A rule set in words (规则说明), section by section, for ``baohuang rules`` and
``docs/rules.md``.

Every sentence is chosen by a field of :class:`~baohuang.engine.rules.Rules` and every number
is asked of the engine (:func:`~baohuang.engine.cards.deck`, :mod:`baohuang.engine.scoring`),
never read off a preset's name, so the words cannot disagree with the game. Chinese by
default, English with ``lang="en"`` (the sentences live in :mod:`baohuang.text.catalog`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from typing import Any

from ..text.catalog import t
from .cards import R_CARD, RANK_SYMBOLS, TWO, Card, deck
from .rules import PRESETS, Rules
from .scoring import (
    PLACE_POINTS,
    GameResult,
    Outcome,
    escape_scores,
    score,
    team_score,
    tribute_payments,
)
from .state import SEATS

#: A heading and its sentences.
Section = tuple[str, list[str]]

#: The seats of the worked numbers: emperor 0, guard 1 (a rebel when the emperor is solo), rebel 2.
EMPEROR, GUARD, REBEL = 0, 1, 2

#: Rules fields named in a preset's one-line summary when they are on.
FEATURES = (
    "open_solo_anyone",
    "yielding",
    "rebellion",
    "kick",
    "grab_solo",
    "roast",
    "twos_wild",
    "qq_jokers",
    "qq_chain",
    "qq_open_guard",
    "hold_sixes",
    "hold_threes",
    "tribute",
    "dissolve_on_auto",
)


def pack(rules: Rules) -> list[Card]:
    """R7: the pack the engine deals, four decks from ``ranks_from`` up, the marked jokers in,
    the removed 6s out."""
    return deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes)


def pack_counts(rules: Rules) -> dict[str, int]:
    """R7: the pack's cards per rank symbol (``"3"`` … ``"2"``, ``"B"``, ``"R"``): what a
    记牌器 counts down from."""
    return dict(Counter(RANK_SYMBOLS[card.rank] for card in pack(rules)))


def pack_size(rules: Rules) -> int:
    """The number of cards in :func:`pack`."""
    return len(pack(rules))


def hand_sizes(rules: Rules) -> list[int]:
    """Cards per hand, most first: the pack less the emperor card set aside (R8.1), dealt round."""
    dealt = pack_size(rules) - int(rules.emperor_card_aside)
    share, extra = divmod(dealt, SEATS)
    return [share + 1] * extra + [share] * (SEATS - extra)


def describe(rules: Rules, lang: str = "zh") -> list[Section]:
    """The rules of ``rules``: cards and deal, playing, emperor and guard, scoring, tribute."""
    return [(heading, lines) for _, heading, lines in _sections(rules, lang)]


def page(rules: Rules, lang: str = "zh", options: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`describe` as data for a page (``GET /api/rules``, the browser's 规则 page): the
    title (the preset and the ``options`` given, ``key=value``), the one-line summary, each
    section by a stable ``id`` (``cards``, ``play``, ``roles``, ``scoring``, ``tribute``)
    with its heading and sentences, and every preset by name, to turn to."""
    label = t("rules.preset_name", lang, name=t(f"preset.{rules.name}", lang), code=rules.name)
    return {
        "preset": rules.name,
        "lang": lang,
        "options": list(options),
        "title": t("rules.title", lang, preset=" ".join([label, *options])),
        "summary": summary(rules, lang),
        "sections": [
            {"id": key, "heading": heading, "lines": lines}
            for key, heading, lines in _sections(rules, lang)
        ],
        "presets": [{"key": name, "name": t(f"preset.{name}", lang)} for name in PRESETS],
    }


def _sections(rules: Rules, lang: str) -> list[tuple[str, str, list[str]]]:
    """(id, heading, sentences) per section; the tribute section only with ``tribute``."""
    parts = [
        ("cards", _cards),
        ("play", _playing),
        ("roles", _roles),
        ("scoring", _scoring),
        *([("tribute", _tribute)] if rules.tribute else []),
    ]
    return [(key, t(f"desc.h.{key}", lang), say(rules, lang)) for key, say in parts]


def summary(rules: Rules, lang: str = "zh") -> str:
    """One line: pack, hands, how the roles are chosen, scoring, the options that are on."""
    features = [t(f"opt.{name}", lang) for name in FEATURES if getattr(rules, name)]
    return t(
        "rules.summary",
        lang,
        cards=t("rules.cards", lang, n=pack_size(rules)),
        hands=_hands(rules, lang),
        family=t(f"desc.family.{rules.selection}", lang),
        features=_join(features, lang) if features else t("opt.none", lang),
    )


# ------------------------------------------------------------------------------ helpers


def _join(items: Sequence[str], lang: str, sep: str = "、") -> str:
    return (sep if lang == "zh" else ", ").join(items)


def _signed(n: int) -> str:
    """``+4``, ``0``, ``-2``."""
    return f"{n:+d}" if n else "0"


def _of_t(points: int, team: int) -> str:
    """``points`` as a multiple of the team score: ``2T``, ``T``, ``-T``."""
    k = points // team
    return {1: "T", -1: "-T"}.get(k, f"{k}T")


def _places(emperor_at: int, guard_at: int | None = None) -> list[int]:
    """A finishing order with the emperor (and the guard) at these places, from 0."""
    fixed = {emperor_at: EMPEROR, **({} if guard_at is None else {guard_at: GUARD})}
    rest = iter(s for s in range(SEATS) if s not in fixed.values())
    return [fixed[p] if p in fixed else next(rest) for p in range(SEATS)]


def _score(rules: Rules, places: list[int], solo: bool = False, **flags: bool) -> list[int]:
    return score(rules, emperor=EMPEROR, guard=None if solo else GUARD, places=places, **flags)


def _lines(keys: Sequence[str], lang: str) -> list[str]:
    return [t(key, lang) for key in keys]


# ------------------------------------------------------------------------------ sections


def _hands(rules: Rules, lang: str) -> str:
    sizes = hand_sizes(rules)
    if len(set(sizes)) == 1:
        return t("desc.hands.even", lang, n=sizes[0])
    return t("desc.hands.uneven", lang, sizes="/".join(map(str, sizes)))


def _cards(rules: Rules, lang: str) -> list[str]:
    """R2, R7, R8.1, R9.1: the pack, the marked jokers, the deal, card power, play order."""
    low = rules.lowest_rank
    cards = pack(rules)
    decks = sum(card.rank == R_CARD.rank for card in cards)
    lines = [t("desc.pack", lang, decks=decks, low=RANK_SYMBOLS[low], size=len(cards))]
    if low:
        lines.append(t("desc.no_low", lang, ranks=_join(RANK_SYMBOLS[:low], lang)))
    if rules.removed_sixes:
        lines.append(t("desc.removed_sixes", lang, n=rules.removed_sixes, decks=decks))
    lines += [t(f"desc.marked.{mark}", lang) for mark in rules.marked]
    deal = (
        "desc.deal.aside"
        if rules.emperor_card_aside
        else "desc.deal.starter"
        if rules.qq_chain
        else "desc.deal.dealer"
    )
    lines.append(t(deal, lang, dealt=sum(hand_sizes(rules)), hands=_hands(rules, lang)))
    lines.append(t("desc.power", lang, order=" < ".join(RANK_SYMBOLS[low : TWO + 1])))
    lines.append(t("desc.order", lang))
    return lines


def _playing(rules: Rules, lang: str) -> list[str]:
    """R3–R6: what a play is, beating, rounds, 接风, places, 憋6 and 清3."""
    keys = [
        "desc.sets",
        *(["desc.twos_wild"] if rules.twos_wild else []),
        "desc.beat_qq" if rules.qq_jokers else "desc.beat",
        *(["desc.roast"] if rules.roast else []),
        "desc.rounds",
        "desc.jiefeng",
        "desc.places",
        *(["desc.hold_sixes"] if rules.hold_sixes else []),
    ]
    lines = _lines(keys, lang)
    if rules.hold_threes:  # R6.8: with wild 2s, 2s go out with the 3s too
        rest = t("desc.hold_threes.twos" if rules.twos_wild else "desc.hold_threes.jokers", lang)
        lines.append(t("desc.hold_threes", lang, rest=rest))
    return lines


def _called(rules: Rules) -> list[str]:
    """R8: candidates (R8.9 the QQ chain), the callable triple, calling, 暗独, 明独, and QQ's
    明保 (R8.10)."""
    chain = ["desc.r8.qq_candidate", "desc.r8.qq_decline"] if rules.qq_chain else []
    return [
        "desc.triple",
        *(chain or ["desc.r8.candidate", "desc.r8.decline"]),
        "desc.r8.void",
        "desc.r8.call",
        "desc.r8.dark",
        "desc.r8.open",
        *(["desc.r8.show"] if rules.qq_open_guard else []),
    ]


def _fixed(rules: Rules) -> list[str]:
    """R9.1–R9.4: the marked jokers, 明独 by anyone, 登基 or 让位, 独保/暗独 and a yield or
    转让, 明保/暗保 asked first."""
    return [
        "desc.r9.cards",
        *(["desc.r9.open_anyone"] if rules.open_solo_anyone else []),
        "desc.r9.yield" if rules.yielding else "desc.r9.forced",
        "desc.r9.both.yield" if rules.yielding else "desc.r9.both.transfer",
        "desc.r9.guard",
    ]


def _kk_classic(rules: Rules) -> list[str]:
    """R11: R*, 让位, calling (暗独保, 明独保) and 抢独."""
    return [
        "desc.triple",
        "desc.r11.card",
        "desc.r11.call",
        *(["desc.r11.grab"] if rules.grab_solo else []),
    ]


_SELECTION: dict[str, Callable[[Rules], list[str]]] = {
    "called": _called,
    "fixed": _fixed,
    "kk_classic": _kk_classic,
}


def _roles(rules: Rules, lang: str) -> list[str]:
    """How the emperor and the guard are chosen (R8, R9, R11), then 造反 and 踢 (R9.5, R9.6)."""
    keys = [
        *_SELECTION[rules.selection](rules),
        *(["desc.rebellion"] if rules.rebellion else []),
        *(["desc.kick"] if rules.kick else []),
    ]
    return _lines(keys, lang)


def _scoring(rules: Rules, lang: str) -> list[str]:
    """R10: place points, T, who wins, the points with a guard and alone, multipliers, 逃跑."""
    points = [f"{t(f'place.{i + 1}', lang)} {_signed(p)}" for i, p in enumerate(PLACE_POINTS)]
    lines = [
        t("desc.place_points", lang, points=_join(points, lang, "，")),
        t("desc.team", lang),
        t("desc.win", lang),
        *_guard_points(rules, lang),
        *_solo_points(rules, lang),
    ]
    multipliers = _multipliers(rules, lang)
    if multipliers:
        lines.append(t("desc.multipliers", lang, items=multipliers))
    lines += _solo_multipliers(rules, lang)
    if rules.guard_may_show and _factor(rules, _places(0, 1), "open_guard") == 1:
        lines.append(t("desc.x.open_guard_none", lang))  # KK/联众: 明保 changes no points
    lines.append(t("desc.escape", lang, points=escape_scores(EMPEROR)[EMPEROR]))
    return lines


def _guard_points(rules: Rules, lang: str) -> list[str]:
    """R10.1: emperor 2T, guard T, rebels -T, with a worked example."""
    top = _places(0, 1)
    team = team_score(emperor=EMPEROR, guard=GUARD, places=top)
    scores = _score(rules, top)
    example_places = _places(0, 3)
    example = _score(rules, example_places)
    return [
        t(
            "desc.points.guard",
            lang,
            emperor=_of_t(scores[EMPEROR], team),
            guard=_of_t(scores[GUARD], team),
            rebel=_of_t(scores[REBEL], team),
        ),
        t(
            "desc.example",
            lang,
            pe=_signed(PLACE_POINTS[0]),
            pg=_signed(PLACE_POINTS[3]),
            t=_signed(team_score(emperor=EMPEROR, guard=GUARD, places=example_places)),
            e=_signed(example[EMPEROR]),
            g=_signed(example[GUARD]),
            r=_signed(example[REBEL]),
        ),
    ]


def _solo_points(rules: Rules, lang: str) -> list[str]:
    """R10.1/R10.2: a dark solo scores 4T by place; an open solo a multiple, or weihai's table."""
    dark = [_score(rules, _places(p), solo=True) for p in range(SEATS)]
    table = "/".join(_signed(scores[EMPEROR]) for scores in dark)
    lines = [
        t(
            "desc.points.solo",
            lang,
            emperor=_of_t(dark[0][EMPEROR], PLACE_POINTS[0]),
            table=table,
            rebel=_of_t(dark[0][GUARD], PLACE_POINTS[0]),
        )
    ]
    shown = [_score(rules, _places(p), solo=True, open_solo=True) for p in range(SEATS)]
    factor = shown[0][EMPEROR] // dark[0][EMPEROR]
    name = _open_name(rules, lang)
    if all(o == [factor * d for d in ds] for o, ds in zip(shown, dark, strict=True)):
        if factor != 1:
            lines.append(t("desc.open.factor", lang, name=name, factor=factor))
        return lines
    win, lose = shown[0], shown[1]
    lines.append(
        t(
            "desc.open.table",
            lang,
            name=name,
            win=_signed(win[EMPEROR]),
            others_win=_signed(win[GUARD]),
            lose=_signed(lose[EMPEROR]),
            others_lose=_signed(lose[GUARD]),
        )
    )
    return lines


def _open_name(rules: Rules, lang: str) -> str:
    """The open solo as the rules' family calls it: 明独 (R8.7); 明独, 独保 or 明独保 (R9.2,
    R9.3); 明独保 or 抢独 (R11.3, R11.4)."""
    return t(f"desc.open.name.{rules.selection}", lang)


def _multipliers(rules: Rules, lang: str) -> str:
    """R10.1/R10.2: the factors 造反, 明保 and 踢 put on a game with a guard, where they occur."""
    places = _places(0, 1)

    def factor(*names: str) -> int:
        return _factor(rules, places, *names)

    occurs = {
        "rebellion": rules.rebellion,
        "open_guard": rules.guard_may_show,
        "kicked": rules.kick,
    }
    names = [name for name, on in occurs.items() if on and factor(name) != 1]
    items = []
    pair = ("rebellion", "open_guard")
    if set(pair) <= set(names) and factor(*pair) == factor(pair[0]) == factor(pair[1]):
        first, second = (t(f"desc.x.{name}", lang) for name in pair)
        items.append(t("desc.x.either", lang, first=first, second=second, factor=factor(*pair)))
        names = [name for name in names if name not in pair]
    items += [
        t("desc.x.item", lang, what=t(f"desc.x.{name}", lang), factor=factor(name))
        for name in names
    ]
    return _join(items, lang, "；")


def _factor(rules: Rules, places: list[int], *names: str, solo: bool = False) -> int:
    """What the flags ``names`` multiply the emperor's points by, at these places."""
    flags = dict.fromkeys(names, True)
    base = _score(rules, places, solo=solo, open_solo="open_solo" in names)[EMPEROR]
    return _score(rules, places, solo=solo, **flags)[EMPEROR] // base


def _solo_multipliers(rules: Rules, lang: str) -> list[str]:
    """R10.1, R10.2: what 造反 and 踢 do to a solo emperor's points, dark (暗独) or open
    (明独, 明独保); nothing when neither is in the rules or neither multiplies."""
    places = _places(0)
    occurs = {"rebellion": rules.rebellion, "kicked": rules.kick}
    kinds: dict[str, tuple[str, ...]] = {
        t("desc.x.dark", lang): (),
        _open_name(rules, lang): ("open_solo",),  # no 造反 poll after an open solo (R9.5)
    }
    said = []
    for who, base in kinds.items():
        items = [
            t("desc.x.item", lang, what=t(f"desc.x.{name}", lang), factor=times)
            for name, on in occurs.items()
            if on
            and not (base and name == "rebellion")
            and (times := _factor(rules, places, *base, name, solo=True)) != 1
        ]
        if items:
            said.append(t("desc.x.solo", lang, who=who, items=_join(items, lang)))
    if not said:
        return []
    return [t("desc.multipliers.solo", lang, items=("；" if lang == "zh" else "; ").join(said))]


def _paid(
    rules: Rules, outcome: Outcome, solo: bool = False, open_solo: bool = False
) -> dict[int, int]:
    """R12: the cards each seat pays after such a game (emperor 0, guard 1, seats in order),
    the winner paid (QQ's own rule, R10.3, is said in words)."""
    result = GameResult(
        emperor=EMPEROR,
        guard=None if solo else GUARD,
        places=tuple(range(SEATS)),
        scores=(0,) * SEATS,
        outcome=outcome,
        open_solo=open_solo,
    )
    return dict(tribute_payments(replace(rules, win_rule="team"), result))


def _tribute(rules: Rules, lang: str) -> list[str]:
    """R12: who pays how many cards to whom (:func:`~baohuang.engine.scoring.tribute_payments`)."""
    won, lost = _paid(rules, "emperor"), _paid(rules, "rebels")
    solo_won, solo_lost = _paid(rules, "emperor", solo=True), _paid(rules, "rebels", solo=True)
    shown = _paid(rules, "emperor", solo=True, open_solo=True)
    return [
        t("desc.tribute.when", lang),
        *([t("desc.tribute.qq", lang)] if rules.win_rule == "qq" else []),
        t("desc.tribute.emperor", lang, n=won[REBEL], total=sum(won.values())),
        t("desc.tribute.rebels", lang, emperor=lost[EMPEROR], guard=lost[GUARD]),
        t("desc.tribute.solo_win", lang, n=solo_won[GUARD]),
        t("desc.tribute.solo_loss", lang, n=solo_lost[EMPEROR]),
        t("desc.tribute.open", lang, factor=shown[GUARD] // solo_won[GUARD]),
    ]


# ------------------------------------------------------------------------------ docs/rules.md

#: A generated block of docs/rules.md lies between these two lines (``{name}``: the block).
BLOCK_BEGIN = "<!-- generated: {name} (baohuang rules --docs docs/rules.md) -->"
BLOCK_END = "<!-- end generated: {name} -->"


def markdown_blocks() -> dict[str, str]:
    """The parts of ``docs/rules.md`` made from the rules objects: R7's table of every preset's
    option values, and each preset in words (English, as ``baohuang rules PRESET --lang en``)."""
    return {"presets": _presets_markdown(), "in-words": _in_words_markdown()}


def refresh_markdown(text: str) -> str:
    """``text`` (docs/rules.md) with every generated block written anew; raises ``ValueError``
    when a block's markers are missing."""
    for name, block in markdown_blocks().items():
        begin, end = BLOCK_BEGIN.format(name=name), BLOCK_END.format(name=name)
        head, found, rest = text.partition(begin + "\n")
        _, closed, tail = rest.partition(end)
        if not (found and closed):
            raise ValueError(f"docs/rules.md has no block {name!r} ({begin} … {end})")
        text = f"{head}{begin}\n{block}{end}{tail}"
    return text


def _presets_markdown() -> str:
    """R7: a column per preset, a row per option (✓ on, – off), with the pack and the hands."""
    names = list(PRESETS)
    head = ["option", *(f"`{name}`" for name in names)]
    rows = [
        ["cards", *(str(pack_size(PRESETS[n])) for n in names)],
        ["hands", *("/".join(map(str, sorted(set(hand_sizes(PRESETS[n]))))) for n in names)],
    ]
    for option in (f.name for f in fields(Rules) if f.name != "name"):
        values = [getattr(PRESETS[n], option) for n in names]
        cells = ["✓" if v is True else "–" if v is False else f"`{v}`" for v in values]
        rows.append([f"`{option}`", *cells])
    lines = [head, [":---"] + [":---:"] * len(names), *rows]
    return "".join("| " + " | ".join(cells) + " |\n" for cells in lines)


def _in_words_markdown() -> str:
    """Each preset's rules in words; presets described alike share one entry."""
    said: dict[str, list[str]] = {}
    for name, rules in PRESETS.items():
        text = "".join(
            f"\n**{heading}**\n\n" + "".join(f"- {line}\n" for line in lines)
            for heading, lines in describe(rules, "en")
        )
        said.setdefault(text, []).append(name)
    return "".join(f"\n### {_named(names)}\n{text}" for text, names in said.items())


def _named(presets: Sequence[str]) -> str:
    """Presets by their English names and keys: ``KK Simple (`kk_simple`), …``."""
    return ", ".join(f"{t(f'preset.{name}', 'en')} (`{name}`)" for name in presets)
