"""The ``baohuang`` command: the play loop, simulate, replay, the message catalog, rendering.

The play loop is driven by a scripted responder that reads only seat 0's view and legal
actions (what the user sees) and types real moves in every notation the prompt accepts.
"""

from __future__ import annotations

import io
import json
import random
import string
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from baohuang import (
    Accept,
    Action,
    BaohuangError,
    Call,
    Card,
    Decline,
    Game,
    Match,
    OpenSolo,
    Pass,
    Play,
    Rules,
    Tribute,
    parse_cards,
    read_record,
    write_record,
)
from baohuang.bots import RandomBot, play_out
from baohuang.cards import RANK_SYMBOLS
from baohuang.cli import app, play_match
from baohuang.i18n import MESSAGES, t
from baohuang.movegen import leading_plays, rank_counts
from baohuang.terminal import group_hand, legal_summary, narrate, role_text, status

CLASSIC = Rules.preset("classic")
runner = CliRunner()

#: A match seed whose second game, after RandomBots played the first, asks seat 0 which of
#: several equal highest cards to pay as tribute (R12).
TRIBUTE_SEED = 8
#: A match seed whose first game asks seat 0 to accept or decline (R8.5) and to call (R8.7).
CANDIDATE_SEED = 1


class Responder:
    """Types seat 0's moves: a malformed and an illegal entry the first time each situation
    comes up, then a random legal action written as a user would (R2 ranks or exact cards,
    Chinese or English words)."""

    def __init__(self, match: Match, seed: int = 0, lang: str = "zh") -> None:
        self.match = match
        self.lang = lang
        self.rng = random.Random(seed)
        self.typed: list[str] = []
        #: The engine's messages the bad entries must have shown.
        self.expected: list[str] = []
        self.situations: set[str] = set()

    def __call__(self, prompt: str) -> str:
        game = self.match.game
        view = game.view(0)
        situation = (
            view["phase"] if view["phase"] != "play" else ("follow" if view["lead"] else "lead")
        )
        text = None
        if not self.typed:
            text = "9z"
        elif situation not in self.situations:
            self.situations.add(situation)
            text = self._bad(situation, view, game.legal_actions())
        if text is None:
            text = self._write(self.rng.choice(game.legal_actions()), view["hand"])
        else:
            self.expected.append(self._rejection(game, text))
        self.typed.append(text)
        return text

    def _rejection(self, game: Game, text: str) -> str:
        """The engine's message, in the UI language, for a bad entry (tried on a clone)."""
        try:
            game.clone().apply(text)
        except BaohuangError as exc:
            return exc.text(self.lang)
        raise AssertionError(f"{text!r} was meant to be rejected")

    def _bad(self, situation: str, view: dict[str, Any], legal: list[Action]) -> str | None:
        """An entry the engine rejects, with the precise message it must print."""
        if situation == "lead":
            return "过"
        if situation == "follow":
            return self._not_beating(view, legal)
        if situation in ("candidate", "call"):
            return "pass"
        return None

    def _not_beating(self, view: dict[str, Any], legal: list[Action]) -> str | None:
        """R4: a play seat 0 holds, of the lead's size, that does not beat it."""
        lead = Play.parse(view["lead"]["play"])
        hand = parse_cards(view["hand"])
        for play in leading_plays(rank_counts(hand)):
            if play.size == lead.size and play not in legal:
                return str(play)
        return None

    def _write(self, action: Action, hand: list[str]) -> str:
        """``action`` as a user types it, in one of the accepted spellings."""
        pick = self.rng.random() < 0.5
        if isinstance(action, Play):
            return str(action) if pick else " ".join(exact_cards(action, hand))
        if isinstance(action, Pass):
            return "过" if pick else "pass"
        if isinstance(action, Accept):
            return "同意" if pick else "accept"
        if isinstance(action, Decline):
            return "放弃" if pick else "decline"
        if isinstance(action, Call):
            return f"叫 {action.card}" if pick else f"call {action.card}"
        if isinstance(action, OpenSolo | Tribute):
            return str(action)
        raise AssertionError(f"unexpected action {action}")


def exact_cards(play: Play, hand: list[str]) -> list[str]:
    """Cards from ``hand`` that make ``play`` (R2: exact cards instead of ranks)."""
    need = {"R": play.big, "B": play.small}
    if play.count:
        need[RANK_SYMBOLS[play.rank]] = play.count
    chosen = []
    for card in hand:
        if need.get(card[0], 0):
            need[card[0]] -= 1
            chosen.append(card)
    return chosen


def scripted_match(games: int, seed: int, lang: str = "zh") -> tuple[Match, Responder, str, bool]:
    """Play a match through :func:`play_match` with a :class:`Responder` at seat 0."""
    match = Match(CLASSIC, games, seed)
    responder = Responder(match, seed, lang)
    out = io.StringIO()
    console = Console(file=out, width=400, highlight=False)
    finished = play_match(match, responder, console, lang)
    return match, responder, out.getvalue(), finished


def tribute_match() -> Match:
    """A 2-game match at its second game, RandomBots having played the first (R12 tribute due)."""
    match = Match(CLASSIC, 2, TRIBUTE_SEED)
    play_out(match.game, [RandomBot(f"{TRIBUTE_SEED}/{seat}") for seat in range(5)])
    match.next_game()
    return match


# ---------------------------------------------------------------------------------- play loop


def test_play_loop_whole_game_with_bad_entries_r8_r6() -> None:
    match, responder, out, finished = scripted_match(1, CANDIDATE_SEED)
    assert finished and match.is_over
    # Seat 0 met every kind of decision of a classic game (R8.5, R8.7, R6.2).
    assert {"candidate", "lead", "follow"} <= responder.situations
    assert len(responder.expected) >= 4
    for message in responder.expected:
        assert message in out
    assert out.count("输入有误：") >= 1 and out.count("不合规则：") >= 3
    # The game went on after every rejected entry and reached the results table (R10).
    result = match.results[0]
    assert "第 1 局结果" in out and "得分" in out
    for seat in range(5):
        assert f"{result.scores[seat]:+d}" in out
    assert "头科" in out and "大落" in out


def test_play_loop_narrates_every_event_seat0_sees_r14() -> None:
    match, _, out, _ = scripted_match(1, CANDIDATE_SEED)
    events = match.game.events_for(0)
    for event in events:
        for line in narrate(event, "zh", 0):
            assert line in out
    kinds = {event["kind"] for event in events}
    assert {"deal", "candidate", "accept", "call", "play", "pass", "reveal", "out"} <= kinds
    assert any(e["kind"] == "round" and e["jiefeng"] for e in events)  # R6.5 接风 told
    assert "接风，领出" in out and "你的手牌：" in out
    assert "的手牌：" not in out.replace("你的手牌：", "")  # no other seat's hand (R14)


def test_play_loop_match_with_tribute_and_totals_r12() -> None:
    match, _, out, finished = scripted_match(3, 5)
    assert finished and len(match.results) == 3
    assert "进贡" in out and "比赛总分（3 局）" in out
    for seat, total in enumerate(match.totals):
        assert f"座位{seat}" in out and f"{total:+d}" in out


def test_play_loop_tribute_choice_r12() -> None:
    match = tribute_match()
    game = match.game
    assert game.phase == "tribute" and game.current_seat == 0
    out = io.StringIO()
    answers = iter(["tribute 3s", "进贡 2d", "quit"])
    assert not play_match(match, lambda _: next(answers), Console(file=out, width=300))
    text = out.getvalue()
    assert "第 2/2 局" in text and "请进贡一张最大的牌" in text
    legal = "tribute 2s, tribute 2d, tribute 2c"
    assert f"不合规则：进贡阶段座位0不能 tribute 3s；可以：{legal}" in text
    assert "座位0（你） 进贡 2d" in text
    assert game.tribute_paid[0] == (0, Card.parse("2d"))


def test_play_loop_quit_and_end_of_input() -> None:
    match = Match(CLASSIC, 1, CANDIDATE_SEED)
    out = io.StringIO()
    console = Console(file=out, width=200)
    answers = iter(["help", "退出"])
    assert not play_match(match, lambda _: next(answers), console)
    assert "合法动作" in out.getvalue() and "已退出。" in out.getvalue()

    def eof(_: str) -> str:
        raise EOFError

    assert not play_match(Match(CLASSIC, 1, 1), eof, Console(file=io.StringIO()))


def test_play_loop_english() -> None:
    _, _, out, _ = scripted_match(1, CANDIDATE_SEED, lang="en")
    assert "your hand: " in out and "game 1 result" in out and "points" in out
    assert "bad input: bad card '9z'" in out and "not legal: " in out
    assert "你的手牌" not in out and "得分" not in out


def test_cli_play_lang_switch() -> None:
    zh = runner.invoke(app, ["play", "--seed", "3"], input="?\nquit\n")
    en = runner.invoke(app, ["play", "--seed", "3", "--lang", "en"], input="?\nquit\n")
    assert zh.exit_code == 0 and en.exit_code == 0
    assert "你坐座位0" in zh.output and "合法动作" in zh.output and "已退出。" in zh.output
    assert "you are seat 0" in en.output and "legal actions" in en.output
    assert "left the game." in en.output and "座位" not in en.output


def test_cli_play_unknown_preset() -> None:
    result = runner.invoke(app, ["play", "--preset", "weihai2"])
    assert result.exit_code == 2 and "unknown preset 'weihai2'" in result.output


# ---------------------------------------------------------------------------------- simulate


def _table_rows(output: str) -> list[str]:
    """The summary table's rows, without the timing rows that vary run to run."""
    return [
        line
        for line in output.splitlines()
        if line.startswith("│") and not any(w in line for w in ("/s", "/秒"))
    ]


def test_simulate_table_and_jobs_give_same_counts() -> None:
    one = runner.invoke(app, ["simulate", "--games", "12", "--seed", "7"])
    two = runner.invoke(app, ["simulate", "--games", "12", "--seed", "7", "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0
    for label in ("皇帝方胜率", "平局率", "皇帝方负率", "暗独率", "明独率", "废牌率", "局/秒"):
        assert label in one.output
    rows = _table_rows(one.output)
    assert len(rows) == 8 and rows == _table_rows(two.output)
    assert "/12 (" in rows[0]


def test_simulate_english() -> None:
    result = runner.invoke(app, ["simulate", "--games", "2", "--lang", "en"])
    assert result.exit_code == 0
    assert "emperor side wins" in result.output and "games/s" in result.output


def test_simulate_records_replay(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "--games", "3", "--seed", "2", "--records", str(tmp_path)]
    )
    assert result.exit_code == 0
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    for path in files:
        record = read_record(path)
        assert record["seed"] == f"2/{path.stem[-1]}"
        shown = runner.invoke(app, ["replay", str(path)])
        assert shown.exit_code == 0, shown.output
        assert "最终得分" in shown.output
        # All five hands are open in a replay, and every play is told.
        for seat in range(5):
            assert f"座位{seat} 的手牌：" in shown.output
        for score in record["result"]["scores"]:
            assert f"{score:+d}" in shown.output


# ---------------------------------------------------------------------------------- replay


def _record(tmp_path: Path) -> Path:
    result = runner.invoke(
        app, ["simulate", "--games", "1", "--seed", "4", "--records", str(tmp_path)]
    )
    assert result.exit_code == 0
    return tmp_path / "game-00000.json"


def test_replay_english(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(_record(tmp_path)), "--lang", "en"])
    assert result.exit_code == 0
    assert "final scores" in result.output and "seat 0's hand" in result.output


def test_replay_corrupted_action_names_its_index(tmp_path: Path) -> None:
    path = _record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, a in enumerate(data["actions"]) if a["action"] != "pass" and i > 3)
    data["actions"][index]["action"] = "RRRR"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"记录有误：第 {index} 个动作：'RRRR'" in result.output


def test_replay_opens_tribute_cards_r12(tmp_path: Path) -> None:
    match = tribute_match()
    play_out(match.game, [RandomBot(seat) for seat in range(5)])
    path = tmp_path / "second.json"
    write_record(match.game, path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    for payer, card in match.game.tribute_paid:
        assert f"座位{payer} 进贡 {card}" in result.output
        assert f"座位{payer} 的贡牌 {card} 交给 座位" in result.output


def test_replay_unreadable_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad), "--lang", "en"])
    assert result.exit_code == 1 and "bad record: " in result.output
    assert "is not a JSON record" in result.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert missing.exit_code == 1 and "读不了" in missing.output and "none.json" in missing.output


# ---------------------------------------------------------------------------------- rendering


def test_group_hand_by_rank_high_first_r2() -> None:
    assert group_hand(["Ad", "2h", "Ah", "2s", "Ah", "R", "B", "9c"]) == (
        "R: R  B: B  2: 2s 2h  A: Ah Ah Ad  9: 9c"
    )


def test_status_marks_the_emperor_literally_in_both_languages() -> None:
    game = Match(CLASSIC, 1, CANDIDATE_SEED).game
    game.apply("同意")
    for lang, shown in (("zh", "座位0（你）[皇帝] 44"), ("en", "seat 0 (you)[emperor] 44")):
        out = io.StringIO()
        Console(file=out, width=300).print(status(game.view(0), lang))
        assert shown in out.getvalue()


def test_role_text_and_legal_summary() -> None:
    assert role_text(None, None, "zh") == "未定"
    assert role_text("emperor", "dark", "zh") == "皇帝（暗独）"
    assert role_text("emperor", "open", "en") == "emperor (open solo)"
    assert role_text("guard", None, "zh") == "保皇派" and role_text("rebel", None, "zh") == "反贼"
    long = [str(i) for i in range(50)]
    assert legal_summary(long, "zh", limit=10).endswith("……还有 40 种")
    assert legal_summary(["pass"], "en") == "legal actions (1): pass"


def test_catalog_languages_have_the_same_fields() -> None:
    fields = string.Formatter()
    for key, (zh, en) in MESSAGES.items():
        zh_fields = {name for _, name, _, _ in fields.parse(zh) if name}
        en_fields = {name for _, name, _, _ in fields.parse(en) if name}
        assert zh_fields == en_fields, key
    assert t("role.emperor") == "皇帝" and t("role.emperor", "en") == "emperor"
    assert t("place.5") == "大落" and t("place.1", "en") == "1st"
