"""Words (issue 15): one name per role, side and preset in each language; the English page starts
every message in English (a Chinese game term may follow in parentheses); a game's log never
tells the same fact twice; the page's selection text (cards.js ``playText``) agrees with the
engine on what is a set (R3, R5.2)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baohuang import Game, Rules
from baohuang.cli.main import open_event
from baohuang.cli.terminal import Narrator
from baohuang.engine.cards import Card, NotationError, deck
from baohuang.engine.plays import Play, allowed
from baohuang.engine.rules import PRESETS
from baohuang.text import catalog
from baohuang.text.catalog import MESSAGES, t
from baohuang.text.game import GAME
from baohuang.text.narration import NARRATION
from baohuang.text.page import PAGE
from baohuang.text.results import RESULTS
from baohuang.text.rules import RULES
from baohuang.text.terminal import TERMINAL
from helpers.drivers import random_game
from helpers.nodejs import need_node
from helpers.policies import varied

STATIC = Path(catalog.__file__).parent.parent / "server" / "static"

# ------------------------------------------------------------------------------ the names

#: The presets' names (R7), after the seeds (001/004: 经典玩法, 简明玩法).
PRESET_NAMES = {
    "classic": ("经典", "Classic"),
    "weihai": ("威海", "Weihai"),
    "kk_simple": ("KK简明", "KK Simple"),
    "lianzhong_simple": ("联众简明", "Lianzhong Simple"),
    "kk_classic": ("KK经典", "KK Classic"),
    "lianzhong_classic": ("联众经典", "Lianzhong Classic"),
    "qq": ("QQ", "QQ"),
}


def test_every_preset_has_a_chinese_and_an_english_name() -> None:
    assert set(PRESET_NAMES) == set(PRESETS)
    for name in PRESETS:
        zh, en = MESSAGES[f"preset.{name}"]
        assert (zh, en) == PRESET_NAMES[name]
        assert not CJK.search(en) and all(word[0].isupper() for word in en.split()), en
        assert CJK.search(zh) or zh == en == "QQ", zh  # QQ is QQ in both


def test_one_word_for_each_role_and_side() -> None:
    """反贼 rebel is the side's one name (造反 is the act, R9.5): never 造反派; English says
    emperor, guard, rebel(s)."""
    for zh, en in MESSAGES.values():
        assert "造反派" not in zh and "反方" not in zh
        assert not re.search(r"loyalist|royalist|traitor|protector", en, re.I)
    assert t("outcome.rebels") == "反贼胜" and t("outcome.rebels", "en") == "the rebels win"
    assert [t(f"role.{r}") for r in ("emperor", "guard", "rebel")] == ["皇帝", "保皇派", "反贼"]
    assert [t(f"role.{r}", "en") for r in ("emperor", "guard", "rebel")] == [
        "emperor",
        "guard",
        "rebel",
    ]


# ------------------------------------------------------------------------------ English first

#: CJK ideographs and full-width punctuation.
CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")
PARENS = re.compile(r"\(([^()]*)\)")
#: The entries the English page (or terminal) shows, and the few that are Chinese on purpose:
#: the switch back to Chinese, and the terminal's input words (同意, 过 … are typed commands).
ENGLISH_TABLES = {
    "page": PAGE,
    "game": GAME,
    "narration": NARRATION,
    "results": RESULTS,
    "rules": RULES,
    "terminal": TERMINAL,
}
CHINESE_ON_PURPOSE = {"lang.switch", "help.commands"}


def english_problem(text: str) -> str | None:
    """Why ``text`` breaks the rule, or None: it must start in English (its first letter
    Latin), and CJK may appear only inside parentheses that follow English words."""
    bare = re.sub(r"\{\w+\}", "", text)
    first = next((ch for ch in bare if ch.isalpha()), None)
    if first is not None and not first.isascii():
        return "starts in Chinese"
    outside = bare
    while match := next(
        (m for m in PARENS.finditer(outside) if re.search(r"[A-Za-z]{2}", outside[: m.start()])),
        None,
    ):
        outside = outside[: match.start()] + outside[match.end() :]
    return "Chinese outside parentheses" if CJK.search(outside) else None


def test_english_problem_finds_chinese_first_and_outside_parentheses() -> None:
    assert english_problem("declaring: showing the guard (明保)") is None
    assert english_problem("{seat} passes (过)") is None
    assert english_problem("明保 (the guard may show itself)") == "starts in Chinese"
    assert english_problem("{seat}: no 明保") == "Chinese outside parentheses"
    assert english_problem("(明保) first") == "starts in Chinese"


@pytest.mark.parametrize("table", sorted(ENGLISH_TABLES))
def test_english_messages_start_in_english(table: str) -> None:
    """Every English entry the page uses (page, game, narration, results, the presets and the
    rule options of rules.py) and the terminal's: English first, a Chinese term only in
    parentheses after English words ("declaring: showing the guard (明保)")."""
    bad = {
        key: (en, problem)
        for key, (_, en) in ENGLISH_TABLES[table].items()
        if key not in CHINESE_ON_PURPOSE and (problem := english_problem(en))
    }
    assert not bad


def test_the_polls_read_as_english_on_the_page() -> None:
    """The phase line and the poll narration fill in poll.* (R9, R11): English words first."""
    for poll in ("solo", "show", "rebel", "kick", "grab"):
        line = t("phase.poll.of", "en", poll=t(f"poll.{poll}", "en"))
        assert english_problem(line) is None, line
    assert t("phase.poll.of", "en", poll=t("poll.show", "en")) == (
        "declaring: showing the guard (明保)"
    )


def test_selection_messages_say_set_and_now() -> None:
    assert (t("hand.not_a_play"), t("hand.not_a_play", "en")) == ("不是一套牌", "not a set")
    assert (t("hand.not_legal"), t("hand.not_legal", "en")) == ("现在不能出", "can't be played now")


def test_the_pages_scripts_write_no_words_of_their_own() -> None:
    """Words a player reads come from the catalog: no Chinese in the page's scripts outside
    comments (the page's log, badges, dialogs and tables all call t())."""
    for path in STATIC.glob("*.js"):
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(), flags=re.S)
        assert not CJK.search(code), (path.name, CJK.findall(code)[:5])


# ------------------------------------------------------------------------------ each fact once

#: What each narration template tells: a fact told at most once per deal of a log. A guard or
#: dark solo known to the reader and the same made public (a reveal, 明保, 转让) are two facts.
FACT_OF = {
    "event.accept": "emperor",
    "event.accept.holder": "emperor",
    "event.open_solo.declared": "open solo",
    "event.open_solo.grabbed": "emperor",
    "event.transfer": "emperor card handed on",
    "event.call.guard": "guard",
    "event.roles.guard": "guard",
    "event.guard_is": "guard",
    "event.transfer.reveal": "guard public",
    "event.declare.show": "guard public",
    "event.reveal.guard": "guard public",
    "event.call.dark": "dark",
    "event.roles.dark": "dark",
    "event.dark": "dark",
    "event.reveal.solo": "dark public",
    "event.call": "called card",
    "event.declare.rebel": "rebel",
    "event.open_solo": "open solo",
}
#: Templates that may rightly repeat: plays, passes, leads, and the candidates of a chain that
#: goes round again (R8.6 all declined, R9.3 and R11.2 two laps).
REPEATABLE = {
    "event.play",
    "event.pass",
    "event.round",
    "event.round.jiefeng",
    "event.candidate",
    "event.decline",
    "event.decline.added",
    "event.decline.holder",
}
#: Words that name the emperor, once the emperor card, the candidate and the side are struck.
EMPEROR_WORDS = {"zh": ("皇帝", "登基"), "en": ("emperor", "throne")}
NOT_THE_EMPEROR = {
    "zh": ("皇牌", "皇帝候选人", "皇帝方"),
    "en": ("emperor card", "emperor's side", "candidate"),
}


def logs(game: Game) -> Iterator[tuple[str, int | None, list[dict[str, Any]]]]:
    """A game's log as each seat, a spectator and an open replay (``me`` None) have it."""
    for seat in (*range(5), None):
        yield f"seat {seat}", seat, game.events_for(seat)
    yield "open replay", None, [open_event(e) for e in game.events]


def facts_told(narrator: Narrator, log: list[dict[str, Any]]) -> Counter[tuple[Any, ...]]:
    """How often each fact is told in ``log``: by template (FACT_OF, else the line itself)."""
    told: Counter[tuple[Any, ...]] = Counter()
    deal = 0
    for event in log:
        deal += event["kind"] == "deal"
        for key, fields in narrator.says(event):
            if key in REPEATABLE or key.startswith("event.tribute"):
                continue
            fact = FACT_OF.get(key)
            subject = fields.get("seat", fields.get("guard_seat"))
            told[(deal, fact, subject) if fact else (deal, narrator.render(key, fields))] += 1
            if "{rebels}" in t(key):  # a list of rebels restates their declarations
                told.update((deal, "rebel", seat) for seat in fields["rebels"])
    return told


def emperor_lines(narrator: Narrator, log: list[dict[str, Any]], emperor: int) -> list[str]:
    """The lines that name ``emperor`` together with a word for the emperor."""
    lang = narrator.lang
    label = t("seat", lang, seat=emperor)
    found = []
    for event in log:
        for line in narrator(event):
            bare = line
            for phrase in NOT_THE_EMPEROR[lang]:
                bare = bare.replace(phrase, "")
            if label in bare and any(word in bare for word in EMPEROR_WORDS[lang]):
                found.append(line)
    return found


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_games_log_tells_each_fact_once(preset: str) -> None:
    """Seeded games of every preset, narrated as each seat, a spectator and an open replay, in
    both languages: no fact twice (who is emperor, who is the guard, the called card, each
    declaration), and one line names the emperor (not "X 登基，当皇帝" and then "X 是皇帝")."""
    rules = Rules.preset(preset)
    for seed in range(12):
        game = random_game(seed, varied(seed), rules=rules)
        for who, me, log in logs(game):
            for lang in ("zh", "en"):
                told = facts_told(Narrator(lang, me), log)
                twice = {fact: n for fact, n in told.items() if n > 1}
                assert not twice, (preset, seed, who, lang)
                assert game.emperor is not None
                lines = emperor_lines(Narrator(lang, me), log, game.emperor)
                assert len(lines) <= 1, (preset, seed, who, lines)
                if not any(e["kind"] == "open_solo" for e in log):
                    assert len(lines) == 1, (preset, seed, who, lang)


def test_a_forced_ascent_after_a_transfer_is_one_line_r9_3() -> None:
    """weihai's 转让 (R9.3): the receiver must 登基: told once, by its 登基."""
    events = [
        {"kind": "deal", "deal": 0, "counts": [33] * 5, "dealer": 0},
        {"kind": "candidate", "seat": 3, "pile": ["R*"]},
        {"kind": "transfer", "seat": 3, "to": 2, "added": None, "counts": [33] * 5},
        {"kind": "reveal", "seat": 3, "role": "guard"},
        {"kind": "candidate", "seat": 2, "pile": ["R*"]},
        {"kind": "accept", "seat": 2, "pile": ["R*"], "counts": [33] * 5},
        {"kind": "roles", "emperor": 2},
    ]
    for lang in ("zh", "en"):
        narrator = Narrator(lang, 0)
        lines = [line for event in events[1:] for line in narrator(event)]
        assert len(lines) == 3, lines
        assert emperor_lines(Narrator(lang, 0), events, 2) == [lines[-1]]


# ------------------------------------------------------------------------------ the selection

#: Runs static/cards.js's playText over [cards, rules] pairs on stdin; prints the answers.
PLAY_TEXT_SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { playText } = await import("./cards.js");
let input = "";
for await (const chunk of process.stdin) input += chunk;
const cases = JSON.parse(input);
process.stdout.write(JSON.stringify(cases.map(([cards, rules]) => playText(cards, rules))));
"""


def engine_play_text(cards: list[Card], rules: Rules) -> str | None:
    """The engine's notation of ``cards`` (Play.from_cards), None when they are no set under
    ``rules``: mixed ranks (R3), or 2s filling another rank without ``twos_wild`` (R5.2)."""
    try:
        play = Play.from_cards(cards)
    except NotationError:
        return None
    return play.text if allowed(play, rules) else None


def selections(rules: Rules, rng: random.Random, n: int) -> Iterator[list[Card]]:
    """``n`` selections from the preset's pack: mostly one or two ranks with 2s and jokers
    (the cases that matter), sometimes any cards."""
    pack = deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes)
    by_rank: dict[int, list[Card]] = {}
    for card in pack:
        by_rank.setdefault(card.rank, []).append(card)
    ranks = sorted(by_rank)
    for _ in range(n):
        if rng.random() < 0.2:
            yield rng.sample(pack, rng.randint(1, 6))
            continue
        chosen = rng.sample(ranks, rng.choice((1, 1, 2, 2, 3)))
        cards = [c for r in chosen for c in rng.sample(by_rank[r], rng.randint(1, 4))]
        yield rng.sample(cards, len(cards))


def test_the_pages_selection_text_agrees_with_the_engine(tmp_path: Path) -> None:
    """cards.js playText(cards, rules) is null exactly when the engine says the cards are no
    set under the table's rules (不是一套牌), and otherwise the engine's notation; with and
    without ``twos_wild`` (qq, R5.2), and the marked jokers (R9)."""
    for script in STATIC.glob("*.js"):
        shutil.copy(script, tmp_path)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "play_text.js").write_text(PLAY_TEXT_SCRIPT)
    rng = random.Random(15)
    cases: list[tuple[list[str], dict[str, Any], str | None]] = []
    for name in ("classic", "qq", "weihai", "kk_classic"):
        rules = Rules.preset(name)
        page_rules = rules.to_dict()  # as the page has them (GET /api/presets, table info)
        for cards in selections(rules, rng, 1500):
            cases.append(([str(c) for c in cards], page_rules, engine_play_text(cards, rules)))
    # the reported case: Q and a 2 in classic are no set; in qq the 2 fills the Q's set
    q2 = [Card.parse("Qh"), Card.parse("2s")]
    assert engine_play_text(q2, Rules.preset("classic")) is None
    assert engine_play_text(q2, Rules.preset("qq")) == "Q2"
    run = subprocess.run(
        [need_node(), "play_text.js"],
        cwd=tmp_path,
        input=json.dumps([[cards, rules] for cards, rules, _ in cases]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    page = json.loads(run.stdout)
    assert len(page) == len(cases)
    wrong = [(c, e, p) for (c, _, e), p in zip(cases, page, strict=True) if e != p]
    assert not wrong, wrong[:5]
    kinds = Counter((rules["twos_wild"], expected is None) for _, rules, expected in cases)
    assert min(kinds.values()) > 50, kinds  # sets and non-sets, with and without twos_wild
