"""The ``baohuang`` command: the play loop, simulate, replay, the message catalog, rendering.

The play loop is driven by a scripted responder that reads only seat 0's view and legal
actions (what the user sees) and types real moves in every notation the prompt accepts.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import random
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import baohuang
from baohuang import (
    Accept,
    Action,
    BaohuangError,
    Call,
    Card,
    Declare,
    Decline,
    Game,
    Match,
    OpenSolo,
    Pass,
    Play,
    PlayCards,
    Rules,
    RulesError,
    Tribute,
    new_game,
    read_record,
    write_record,
)
from baohuang.bots import AutoBot, RandomBot, play_out
from baohuang.cli.main import (
    _call_options,
    _hint,
    app,
    parse_options,
    play_match,
    simulate_game,
    summary_rows,
)
from baohuang.cli.terminal import (
    Narrator,
    group_hand,
    legal_summary,
    narrate,
    results_table,
    role_text,
    status,
    wrap_cells,
)
from baohuang.engine.actions import PASS, SOLO, parse_action
from baohuang.engine.cards import RANK_SYMBOLS
from baohuang.engine.describe import summary
from baohuang.engine.match import game_seed
from baohuang.engine.movegen import leading_plays, rank_counts
from baohuang.engine.record import start_game
from baohuang.engine.rules import PRESETS
from baohuang.engine.views import View
from baohuang.text.catalog import t

CLASSIC = Rules.preset("classic")
#: The presets beyond the classic family (R9, R11), for the play loop's role phases.
VARIANTS = ("weihai", "kk_simple", "kk_classic")
runner = CliRunner()

#: The Chinese words a user may type for the declarations (R9, R11) and a poll's pass.
ZH_DECLARE = {"transfer": "转让", "show": "明保", "rebel": "造反", "kick": "踢", "grab": "抢独"}
ZH_POLL_PASS = {"solo": "过", "show": "暗保", "rebel": "不造反", "kick": "不踢", "grab": "不抢"}

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
        situation = view.phase if view.phase != "play" else ("follow" if view.lead else "lead")
        self.poll = view.poll
        text = None
        if not self.typed:
            text = "9z"
        elif situation not in self.situations:
            self.situations.add(situation)
            text = self._bad(situation, view, game.legal_actions())
        if text is None:
            hand = [str(card) for card in view.hand or ()]
            text = self._write(self.rng.choice(game.legal_actions()), hand)
        else:
            self.expected.append(self._rejection(game, text))
        self.typed.append(text)
        return text

    def _rejection(self, game: Game, text: str) -> str:
        """The engine's message, in the UI language, for a bad entry."""
        try:
            game.check(text)
        except BaohuangError as exc:
            return exc.text(self.lang)
        raise AssertionError(f"{text!r} was meant to be rejected")

    def _bad(self, situation: str, view: View, legal: list[Action]) -> str | None:
        """An entry the engine rejects, with the precise message it must print."""
        if situation == "lead":
            return "过"
        if situation == "follow":
            return self._not_beating(view, legal)
        if situation in ("candidate", "call"):
            return "pass"
        if situation == "poll":
            return "accept"
        return None

    def _not_beating(self, view: View, legal: list[Action]) -> str | None:
        """R4: a play seat 0 holds, of the lead's size, that does not beat it."""
        assert view.lead is not None and view.hand is not None
        lead = view.lead.play
        for play in leading_plays(rank_counts(view.hand)):
            if play.size == lead.size and play not in legal:
                return str(play)
        return None

    def _write(self, action: Action, hand: list[str]) -> str:
        """``action`` as a user types it, in one of the accepted spellings."""
        pick = self.rng.random() < 0.5
        if isinstance(action, Play):
            return str(action) if pick else " ".join(exact_cards(action, hand))
        if isinstance(action, Pass):
            return ZH_POLL_PASS.get(self.poll or "", "过") if pick else "pass"
        if isinstance(action, Declare):
            return ZH_DECLARE[action.kind] if pick else action.kind
        if isinstance(action, OpenSolo) and action.card is None:
            return "明独" if pick else "solo"
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


def scripted_match(
    games: int, seed: int, lang: str = "zh", rules: Rules = CLASSIC
) -> tuple[Match, Responder, str, bool]:
    """Play a match through :func:`play_match` with a :class:`Responder` at seat 0."""
    match = Match(rules, games, seed)
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
    narrator = Narrator("zh", 0)
    for event in events:
        for line in narrator(event):
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
    assert f"不合规则：现在是进贡阶段，你不能 tribute 3s；可以：{legal}" in text
    assert "座位0（你） 进贡 2d" in text
    assert game.tribute_paid[0][0] == 0 and game.tribute_paid[0][-1] is Card.parse("2d")


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
    assert "your hand: " in out and "Game 1 result" in out and "Points" in out
    assert "bad input: bad card '9z'" in out and "not legal: " in out
    assert "你的手牌" not in out and "得分" not in out


def test_cli_version_is_the_packages() -> None:
    answer = runner.invoke(app, ["--version"])
    assert answer.exit_code == 0
    assert answer.output == f"baohuang {importlib.metadata.version('baohuang')}\n"
    assert importlib.metadata.version("baohuang") == baohuang.__version__  # one place


def test_cli_play_lang_switch() -> None:
    zh = runner.invoke(app, ["play", "--seed", "3"], input="?\nquit\n")
    en = runner.invoke(app, ["play", "--seed", "3", "--lang", "en"], input="?\nquit\n")
    assert zh.exit_code == 0 and en.exit_code == 0
    assert "你坐座位0" in zh.output and "合法动作" in zh.output and "已退出。" in zh.output
    assert "you are seat 0" in en.output and "legal actions" in en.output
    assert "left the game." in en.output and "座位" not in en.output


def test_cli_play_unknown_preset_in_the_interface_language() -> None:
    zh = runner.invoke(app, ["play", "--preset", "weihai2"])
    assert zh.exit_code == 2 and "没有预设 'weihai2'" in zh.output
    en = runner.invoke(app, ["play", "--preset", "weihai2", "--lang", "en"])
    assert en.exit_code == 2 and "unknown preset 'weihai2'" in en.output


def told_elsewhere(event: dict[str, Any], before: dict[str, Any]) -> bool:
    """A role-phase event another line tells: a poll nobody is asked, a 造反 nobody made, a
    declaration the next event announces, a 明保's reveal, a 登基 that leaves seat 0 nothing
    private to learn."""
    kind = event["kind"]
    return (
        (kind == "poll" and not event["seats"])
        or (kind == "rebellion" and not event["rebels"])
        or (kind == "declare" and event["answer"] in ("solo", "grab", "kick"))
        or (kind == "reveal" and before.get("answer") == "show")
        or (kind == "roles" and set(event) == {"seq", "kind", "emperor"})
    )


def test_play_loop_variants_narrate_the_role_phases_r9_r11() -> None:
    kinds: set[str] = set()
    for name in VARIANTS:
        match, responder, out, finished = scripted_match(1, 1, rules=Rules.preset(name))
        assert finished and match.is_over, name
        for message in responder.expected:
            assert message in out
        narrator, before = Narrator("zh", 0), {}
        for event in match.game.events_for(0):
            lines = narrator(event)
            for line in lines:
                assert line in out
            assert lines or told_elsewhere(event, before) or event["kind"] not in ROLE_KINDS
            kinds.add(event["kind"])
            before = event
    assert ROLE_KINDS - {"transfer", "cleared", "escape"} <= kinds
    # The polls are told with the game's words (R11.4 抢独, R9.5 造反; kk_classic last).
    assert "问抢独：" in out or "问造反：" in out


#: The event kinds of the role phases (R9, R11), 清3 (R6.8) and 逃跑 (R10.4).
ROLE_KINDS = {
    "roles", "poll", "declare", "open_solo", "rebellion", "reveal", "kick", "transfer",
    "cleared", "escape",
}  # fmt: skip


@pytest.mark.parametrize("poll", ["show", "rebel"])
def test_play_loop_poll_prompt_and_help_list_the_answers_r9(poll: str) -> None:
    """R9.4 then R9.5: the prompt says what seat 0 may answer, as the guard or not."""
    for seed in range(40):
        match = Match(Rules.preset("kk_simple"), 1, seed)
        game = match.game
        while game.phase != "play" and (game.current_seat != 0 or game.poll != poll):
            bot = RandomBot(len(game.actions))
            game.apply(bot.choose(game.view(game.current_seat or 0), game.legal_actions()))
        if game.poll == poll:
            break
    role = "guard" if game.view(0).role == "guard" else "other"
    out = io.StringIO()
    answers = iter(["?", "quit"])
    assert not play_match(match, lambda _: next(answers), Console(file=out, width=400))
    text = out.getvalue()
    assert t(f"prompt.poll.{poll}.{role}") in text
    for word in ("transfer 转让", "show 明保", "rebel 造反", "kick 踢", "grab 抢独", "暗保/不造反"):
        assert word in text


#: A kk_simple match seed whose first decision is seat 0's, holding both R* and B* (R9.3).
DOUBLE_HOLDER_SEED = 16
#: A weihai match seed whose seat 0 is dealt both R* and B* (R9.3), and one dealt R* alone.
WEIHAI_DOUBLE_SEED, WEIHAI_HOLDER_SEED = 48, 4
#: Bots that pass in every poll (托管, R13), so that nobody declares 明独 before seat 0 acts.
QUIET_BOTS = [AutoBot() for _ in range(5)]


def test_play_loop_double_holder_yields_like_anyone_r9_3() -> None:
    """KK/联众 simple (R9.3): holding both, seat 0 may 登基, 独保 or yield, and its yield is
    told like anyone's; a bare ``escape`` is its own."""
    match = Match(Rules.preset("kk_simple"), 1, DOUBLE_HOLDER_SEED)
    out = io.StringIO()
    answers = iter(["escape 3", "让位", "quit"])
    assert not play_match(match, lambda _: next(answers), Console(file=out, width=400))
    text = out.getvalue()
    prompt = "你是皇帝候选人，牌堆 R*：accept（同意/登基） / solo（明独） / decline（放弃/让位）？"
    assert prompt in text
    assert "不合规则：只能自己逃跑：输入 逃跑" in text  # R10.4: nobody else's escape
    assert "座位0（你） 拿着皇牌 大王★，让位给 座位4" in text
    assert "转让" not in text.split("输入：")[0]


def test_play_loop_weihai_double_holder_transfers_r9_3() -> None:
    match = Match(Rules.preset("weihai"), 1, WEIHAI_DOUBLE_SEED)
    out = io.StringIO()
    answers = iter(["pass", "转让", "quit"])
    console = Console(file=out, width=400)
    assert not play_match(match, lambda _: next(answers), console, bots=QUIET_BOTS)
    text = out.getvalue()
    assert (
        "你是皇帝候选人，牌堆 R*：accept（同意/登基） / solo（明独） / transfer（转让）？" in text
    )
    assert "座位0（你） 转让：把皇牌 大王★ 交给 座位4" in text
    assert "座位0（你） 拿着保牌 小王★，是保皇派" in text  # a 转让 reveals the guard (R14)
    # the forced 登基 is one line, told once (not "candidate", then "accepts")
    assert "座位4 拿着皇牌 大王★，登基当皇帝" in text and "座位4 是皇帝候选人" not in text
    assert match.game.emperor == 4 and match.game.guard == 0


def test_play_loop_weihai_forced_ascent_is_one_line_r9_3() -> None:
    """Weihai's R* holder without B* must 登基: one line says it, not three."""
    match = Match(Rules.preset("weihai"), 1, WEIHAI_HOLDER_SEED)
    out = io.StringIO()
    answers = iter(["pass", "accept", "quit"])
    console = Console(file=out, width=400)
    assert not play_match(match, lambda _: next(answers), console, bots=QUIET_BOTS)
    text = out.getvalue()
    assert "你是皇帝候选人，牌堆 R*：accept（同意/登基）？" in text
    assert "座位0（你） 拿着皇牌 大王★，登基当皇帝" in text
    assert "同意，收下牌堆" not in text and "是皇帝候选人，牌堆" not in text.replace("你是", "")
    assert "座位0（你） 是皇帝" not in text


def test_play_loop_bare_ranks_and_a_bare_escape_r2_r10_4() -> None:
    """``9 9`` and ``Q Q Q`` are plays of ranks (R2); ``escape`` alone is the user's own."""
    match = Match(CLASSIC, 1, CANDIDATE_SEED)
    game = match.game
    while game.current_seat != 0 or game.phase != "play" or game.lead is not None:
        game.apply(RandomBot(len(game.actions)).choose(game.view(None), game.legal_actions()))
    lead = next(a for a in game.legal_actions() if isinstance(a, Play) and a.count > 1)
    spaced = " ".join(str(lead))
    before = len(game.actions)
    out = io.StringIO()
    answers = iter([spaced, "quit"])
    assert not play_match(match, lambda _: next(answers), Console(file=out, width=400))
    seat, played = game.actions[before]
    assert seat == 0 and isinstance(played, PlayCards) and played.play is lead
    assert "写法有误" not in out.getvalue()
    again = Match(CLASSIC, 1, CANDIDATE_SEED)
    confirmed = iter(["escape", "是"])
    assert play_match(again, lambda _: next(confirmed), Console(file=io.StringIO()))
    assert again.results[0].escaped == 0


def test_play_loop_escape_ends_the_game_r10_4() -> None:
    match = Match(Rules.preset("kk_simple"), 2, DOUBLE_HOLDER_SEED)
    out = io.StringIO()
    answers = iter(["escape 0", "n", "escape 0", "yes", "quit"])
    assert not play_match(match, lambda _: next(answers), Console(file=out, width=400))
    text = out.getvalue()
    assert "不逃了，接着打" in text  # asked twice: the first answer kept the game
    assert "座位0（你） 逃跑：得 -30 分，本局结束，其他人不计分" in text
    assert "第 1 局结果：有人逃跑，本局不计分" in text and "-30" in text
    assert match.results[0].scores == (-30, 0, 0, 0, 0) and "第 2/2 局" in text


def test_cli_play_every_preset_with_options() -> None:
    for name in PRESETS:
        result = runner.invoke(app, ["play", "--preset", name, "--seed", "2"], input="quit\n")
        shown = f"保皇 · {t(f'preset.{name}')}（{name}） · 种子 2"  # the preset by its name (R7)
        assert result.exit_code == 0 and shown in result.output
    roast = runner.invoke(
        app,
        ["play", "--option", "roast=true", "-o", "ranks_from=6", "--lang", "en"],
        input="quit\n",
    )
    assert "Baohuang · Classic (classic) roast=true ranks_from=6 ·" in roast.output
    bad = runner.invoke(app, ["play", "--option", "roast=maybe"])
    assert bad.exit_code == 2 and "选项 roast 要填 true 或 false，不是 'maybe'" in bad.output


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
    assert len(rows) == 10 and rows == _table_rows(two.output)
    # classic has no 造反, 明保 or 踢 (R8): no rows for them.
    assert not any(w in one.output for w in ("造反", "明保", "踢"))
    assert "/12 (" in rows[0]


#: The statistics rows each preset must show (R9.4 明保, R9.5 造反, R9.6 踢) and must not.
SIM_ROWS = {
    "classic": ((), ("造反成功率", "明保率", "踢率")),
    "qq": ((), ("造反成功率", "明保率", "踢率")),
    "weihai": (("造反成功率", "明保率", "踢率"), ()),
    "kk_simple": (("造反成功率", "明保率"), ("踢率",)),
    "lianzhong_simple": (("造反成功率", "明保率"), ("踢率",)),
    "kk_classic": (("造反成功率",), ("明保率", "踢率")),
    "lianzhong_classic": ((), ("造反成功率", "明保率", "踢率")),  # R11.5: no 造反
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_simulate_every_preset_shows_its_statistics(name: str) -> None:
    result = runner.invoke(app, ["simulate", "--preset", name, "--games", "20", "--seed", "5"])
    assert result.exit_code == 0, result.output
    shown, hidden = SIM_ROWS[name]
    common = ("皇帝方胜率", "暗独率", "明独率", "废牌率", "平均每局放弃/让位次数", "逃跑率")
    for label in (*common, *shown):
        assert label in result.output, label
    for label in hidden:
        assert label not in result.output, label
    assert f"（{name}）" in result.output and t(f"preset.{name}") in result.output
    assert re.search(r"逃跑率 +│ +0/20 \(0\.0%\)", result.output)  # bots never escape


def test_simulate_statistics_count_the_events() -> None:
    stats = [simulate_game(Rules.preset("kk_simple"), 9, None, i) for i in range(6)]
    for i, game_stats in enumerate(stats):
        game = new_game(Rules.preset("kk_simple"), game_seed(9, i))
        result = play_out(game, [RandomBot(f"{game.seed}/bot{seat}") for seat in range(5)])
        kinds = [event.kind for event in game.events]
        assert game_stats.yields == kinds.count("decline")
        assert game_stats.voids == kinds.count("void") == game_stats.deals - 1
        assert game_stats.rebellion == result.rebellion
        assert game_stats.open_guard == result.open_guard
    rows = dict(summary_rows(stats, 1.0, "en", Rules.preset("kk_simple")))
    rebellions = sum(s.rebellion for s in stats)
    assert rows["successful rebellions (造反)"].startswith(f"{rebellions}/6 (")
    assert rows["declines / yields per game"] == f"{sum(s.yields for s in stats) / 6:.1f}"
    assert "kicks (踢)" not in rows


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
    assert "Final scores" in result.output and "seat 0's hand" in result.output


def test_replay_corrupted_action_names_its_index(tmp_path: Path) -> None:
    path = _record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, a in enumerate(data["actions"]) if a["action"] != "pass" and i > 3)
    data["actions"][index]["action"] = "RRRR"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"记录有误：第 {index} 个动作：座位" in result.output
    assert "'RRRR'：你手里没有 RRRR 这些牌" in result.output


def test_replay_opens_tribute_cards_r12(tmp_path: Path) -> None:
    match = tribute_match()
    play_out(match.game, [RandomBot(seat) for seat in range(5)])
    path = tmp_path / "second.json"
    write_record(match.game, path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    for payer, *_, card in match.game.tribute_paid:
        assert f"座位{payer} 进贡 {card}" in result.output
        assert f"座位{payer} 的贡牌 {card} 交给 座位" in result.output


@pytest.mark.parametrize("name", VARIANTS)
def test_replay_variant_records_open_the_roles_r9_r11(tmp_path: Path, name: str) -> None:
    args = ["simulate", "--preset", name, "--games", "3", "--seed", "1", "--records"]
    assert runner.invoke(app, [*args, str(tmp_path)]).exit_code == 0
    for path in sorted(tmp_path.iterdir()):
        record = read_record(path)
        shown = runner.invoke(app, ["replay", str(path)])
        assert shown.exit_code == 0, shown.output
        result = record["result"]
        if result["guard"] is not None:
            assert f"保皇派是 座位{result['guard']}" in shown.output  # opened (R14 after the game)
        elif not result["open_solo"]:
            assert "皇帝一个人打：暗独" in shown.output
        for score in result["scores"]:
            assert f"{score:+d}" in shown.output


def test_replay_header_explains_the_seed_and_tells_an_open_solo_once(tmp_path: Path) -> None:
    """The header says where the deal came from; a 明独 declared in a poll is told once."""
    args = ["simulate", "--preset", "weihai", "--games", "12", "--seed", "1", "--records"]
    assert runner.invoke(app, [*args, str(tmp_path)]).exit_code == 0
    for path in sorted(tmp_path.iterdir()):
        shown = runner.invoke(app, ["replay", str(path)])
        index = int(path.stem[-5:])
        assert f"\n发牌种子 1/{index}：种子 1 的第 {index + 1} 局\n" in shown.output
        en = runner.invoke(app, ["replay", str(path), "--lang", "en"])
        assert f"\ndealt from seed 1/{index}: game {index + 1} of seed 1\n" in en.output
        solos = [e for e in read_record(path)["events"] if e["kind"] == "open_solo"]
        if solos:  # told by the open solo alone, not by the poll's answer too
            assert shown.output.count("明独！") == 1
            assert not re.search(r"座位\d 明独\n", shown.output)
            break
    else:
        raise AssertionError("no open solo in 12 weihai games")


def test_replay_of_a_record_from_before_a_rules_change_says_so() -> None:
    old = Path(__file__).parents[1] / "records" / "rules-v1-kk_simple.json"
    result = runner.invoke(app, ["replay", str(old)])
    assert result.exit_code == 1 and "这份牌谱早于规则修订" in result.output
    en = runner.invoke(app, ["replay", str(old), "--lang", "en"])
    assert "predates a rules change" in en.output


def test_help_shows_no_value_type_for_flags() -> None:
    """``--help`` is a flag: typer 0.29 would print ``--help <bool>``."""
    for args in ([], ["play"], ["replay"], ["serve"]):
        shown = runner.invoke(app, [*args, "--help"])
        assert shown.exit_code == 0 and "--help" in shown.output and "<bool>" not in shown.output


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


#: Hand-made events of the variant families and how seat 0 hears them, in both languages.
NARRATION: list[tuple[dict[str, Any], list[str], list[str]]] = [
    (
        {"kind": "deal", "deal": 0, "dealer": 3, "counts": [34, 34, 34, 33, 33]},
        ["发牌（第 1 副）：各家 33/34 张（从 座位3 开始发牌）"],
        ["deal #1: 33/34 cards each (dealt from seat 3)"],
    ),
    (
        {"kind": "roles", "emperor": 2, "guard": True},
        ["你拿着保牌 小王★：你是保皇派（只有你自己知道）"],
        ["you hold B*: you are the guard (only you know)"],
    ),
    (
        {"kind": "roles", "emperor": 0, "solo": "dark"},
        ["你同时拿着 大王★ 和 小王★：暗独，一个人对四家"],
        ["you hold both R* and B*: dark solo (暗独), alone against four"],
    ),
    ({"kind": "roles", "emperor": 2}, [], []),  # the 登基 before it said who is emperor
    (
        {"kind": "poll", "poll": "show", "seats": [3, 4, 0, 1]},
        ["问明保：座位3、座位4、座位0（你）、座位1 同时表态，都表态后一起公布"],
        [
            "asking for showing the guard (明保): seat 3, seat 4, seat 0 (you), seat 1 "
            "answer at once, told together when all are in"
        ],
    ),
    (
        {"kind": "poll", "poll": "rebel", "seats": [3, 4, 0, 1]},
        ["问造反：座位3、座位4、座位0（你）、座位1 同时表态，都表态后一起公布"],
        [
            "asking for rebellion (造反): seat 3, seat 4, seat 0 (you), seat 1 "
            "answer at once, told together when all are in"
        ],
    ),
    ({"kind": "poll", "poll": "kick", "seats": []}, [], []),
    (
        {"kind": "declare", "seat": 4, "poll": "rebel", "answer": "rebel"},
        ["座位4 造反！"],
        ["seat 4 rebels (造反)!"],
    ),
    (
        {"kind": "declare", "seat": 1, "poll": "show", "answer": "show"},
        ["座位1 明保：我是保皇派"],
        ["seat 1 shows (明保): I am the guard"],
    ),
    (
        {"kind": "declare", "seat": 1, "poll": "show", "answer": "pass"},
        ["座位1 不明保"],
        ["seat 1: no showing (不明保)"],
    ),
    (
        {"kind": "declare", "seat": 1, "poll": "rebel", "answer": "pass"},
        ["座位1 不造反"],
        ["seat 1: no rebellion (不造反)"],
    ),
    (
        {"kind": "declare", "seat": 2, "poll": "solo", "answer": "pass"},
        ["座位2 不明独"],
        ["seat 2: no open solo (不明独)"],
    ),
    # a declaration the next event announces (open_solo, kick) is told once, by that event
    ({"kind": "declare", "seat": 2, "poll": "solo", "answer": "solo"}, [], []),
    ({"kind": "declare", "seat": 3, "poll": "kick", "answer": "kick"}, [], []),
    (
        {"kind": "declare", "seat": 3, "poll": "kick", "answer": "pass"},
        ["座位3 不踢"],
        ["seat 3: no kick (不踢)"],
    ),
    ({"kind": "declare", "seat": 0, "poll": "grab", "answer": "grab"}, [], []),
    (
        {"kind": "declare", "seat": 1, "poll": "grab", "answer": "pass"},
        ["座位1 不抢独"],
        ["seat 1: no grab (不抢独)"],
    ),
    (
        {"kind": "rebellion", "success": True, "rebels": [3, 4]},
        ["造反成功：分数加倍"],
        ["the rebellion succeeds (造反): the score is doubled"],
    ),
    (
        {"kind": "rebellion", "success": False, "rebels": [3]},
        ["造反不成"],
        ["the rebellion fails (造反)"],
    ),
    ({"kind": "rebellion", "success": False, "rebels": []}, [], []),
    (
        {"kind": "reveal", "seat": 1, "role": "guard"},
        ["座位1 亮明身份：保皇派"],
        ["seat 1 is revealed as the guard"],
    ),
    (
        {"kind": "reveal", "seat": 2, "role": "solo"},
        ["座位2 亮明身份：暗独，一个人对四家"],
        ["seat 2 is revealed as a dark solo (暗独), alone against four"],
    ),
    (
        {"kind": "transfer", "seat": 3, "to": 2, "added": None},
        ["座位3 转让：把皇牌 大王★ 交给 座位2"],
        ["seat 3 transfers the emperor card R* to seat 2 (转让)"],
    ),
    (
        {"kind": "kick", "seat": 3},
        ["座位3 踢！分数再加倍"],
        ["seat 3 kicks (踢): the score is doubled once more"],
    ),
    (
        {"kind": "candidate", "seat": 2, "pile": []},
        ["座位2 是皇帝候选人，牌堆：（空）"],
        ["seat 2 is the candidate, pile: (empty)"],
    ),
    (
        {"kind": "tribute_due", "payers": [[0, None], [0, None], [3, None], [4, 1]]},
        ["进贡：座位0（你） 交 2 张，座位3 交 1 张，座位4 交 1 张给 座位1（清3）"],
        ["tribute (进贡): seat 0 (you) pays 2, seat 3 pays 1, seat 4 pays 1 to seat 1 (清3)"],
    ),
    (
        {"kind": "cleared", "seat": 4, "by": 0},
        ["座位0（你） 清3：压过了 座位4 的牌，下一局 座位4 要给 座位0（你） 进贡一张最大的牌"],
        [
            "seat 0 (you) clears the 3s (清3) of seat 4: "
            "next game seat 4 pays seat 0 (you) its highest card"
        ],
    ),
    (
        {"kind": "escape", "seat": 2},
        ["座位2 逃跑：得 -30 分，本局结束，其他人不计分"],
        ["seat 2 escapes (逃跑): -30 points, the game ends unscored for the others"],
    ),
    (
        {"kind": "open_solo", "seat": 4, "card": None, "shown": [], "how": "declared"},
        ["座位4 明独！一个人公开对四家"],
        ["seat 4 declares open solo (明独): alone against four, openly"],
    ),
    (
        {"kind": "open_solo", "seat": 1, "card": None, "shown": [], "how": "grabbed"},
        ["座位1 抢独！当皇帝，一个人公开对四家，其余都是反贼"],
        ["seat 1 grabs the solo (抢独): emperor alone against four, everyone else a rebel"],
    ),
    (
        {"kind": "open_solo", "seat": 0, "card": "9h", "how": "shown"},
        ["座位0（你） 明独！亮出 9h 9h 9h 9h，分数和进贡加倍"],
        ["seat 0 (you) declares open solo (明独)! shows 9h 9h 9h 9h; scores and tribute doubled"],
    ),
    (
        {"kind": "void", "deal": 0},
        ["没有人当皇帝：这副牌作废，重新发牌"],
        ["nobody became emperor: the deal is void, dealing anew"],
    ),
]


@pytest.mark.parametrize(("event", "zh", "en"), NARRATION, ids=lambda v: str(v)[:40])
def test_narrate_variant_events_r9_r11(event: dict[str, Any], zh: list[str], en: list[str]) -> None:
    assert narrate(event, "zh", 0) == zh
    assert narrate(event, "en", 0) == en


#: Events told in order, and the lines a Narrator gives each: the R* holder's answer at the
#: start of the chain is one line (R9.3, R11.2), 明保's reveal is not told twice.
SEQUENCES: list[tuple[list[dict[str, Any]], list[list[str]]]] = [
    (
        [
            {"kind": "candidate", "seat": 3, "pile": ["R*"]},
            {"kind": "accept", "seat": 3, "pile": ["R*"], "counts": [33] * 5},
            {"kind": "roles", "emperor": 3},
        ],
        [[], ["座位3 拿着皇牌 大王★，登基当皇帝"], []],
    ),
    (
        [
            {"kind": "candidate", "seat": 3, "pile": ["R*"]},
            {"kind": "decline", "seat": 3, "to": 2, "added": None, "counts": [34] * 5},
            {"kind": "candidate", "seat": 2, "pile": ["R*"]},
            {"kind": "accept", "seat": 2, "pile": ["R*"], "counts": [34] * 5},
        ],
        [
            [],
            ["座位3 拿着皇牌 大王★，让位给 座位2"],
            ["座位2 是皇帝候选人，牌堆：R*"],
            ["座位2 同意，收下牌堆，当皇帝"],
        ],
    ),
    (
        [
            {"kind": "declare", "seat": 1, "poll": "show", "answer": "show"},
            {"kind": "reveal", "seat": 1, "role": "guard"},
        ],
        [["座位1 明保：我是保皇派"], []],
    ),
    (
        [
            {"kind": "candidate", "seat": 3, "pile": ["R*"]},
            {"kind": "transfer", "seat": 3, "to": 2, "added": None, "counts": [33] * 5},
            {"kind": "reveal", "seat": 3, "role": "guard"},
        ],
        [[], ["座位3 转让：把皇牌 大王★ 交给 座位2"], ["座位3 拿着保牌 小王★，是保皇派"]],
    ),
    (  # the 登基 a 转让 forces (R9.3) is one line: no "candidate", no "accepts"
        [
            {"kind": "candidate", "seat": 3, "pile": ["R*"]},
            {"kind": "transfer", "seat": 3, "to": 2, "added": None, "counts": [33] * 5},
            {"kind": "reveal", "seat": 3, "role": "guard"},
            {"kind": "candidate", "seat": 2, "pile": ["R*"]},
            {"kind": "accept", "seat": 2, "pile": ["R*"], "counts": [33] * 5},
            {"kind": "roles", "emperor": 2},
        ],
        [
            [],
            ["座位3 转让：把皇牌 大王★ 交给 座位2"],
            ["座位3 拿着保牌 小王★，是保皇派"],
            [],
            ["座位2 拿着皇牌 大王★，登基当皇帝"],
            [],
        ],
    ),
]


@pytest.mark.parametrize(("events", "told"), SEQUENCES, ids=lambda v: str(v)[:60])
def test_narrator_tells_a_sequence_once(
    events: list[dict[str, Any]], told: list[list[str]]
) -> None:
    narrator = Narrator("zh", 0)
    assert [narrator(event) for event in events] == told


def test_call_prompt_offers_only_the_legal_kinds_r8_7_r11_3() -> None:
    """明独 is offered only to an emperor holding four of a card (R8.7); 明独保 in R11.3."""
    seen: dict[bool, str] = {}
    for seed in range(60):
        game = new_game(CLASSIC, seed=seed)
        while game.phase == "candidate":
            game.apply("accept" if "accept" in map(str, game.legal_actions()) else "decline")
        if game.phase != "call":
            continue
        view = game.view(game.current_seat)
        four = any(isinstance(a, OpenSolo) and a.card for a in view.legal)
        seen[four] = _hint(view, "zh")
        if len(seen) == 2:
            break
    assert "明独" in seen[True] and "明独" not in seen[False] and "call " in seen[False]
    kk = new_game(Rules.preset("kk_classic"), seed=0)
    assert "solo（明独保）" in _call_options([parse_action("call 9h"), SOLO], "zh")
    assert kk.rules.selection == "kk_classic"


def test_escape_in_a_real_game_r10_4() -> None:
    game = new_game(Rules.preset("kk_simple"), seed=3)
    game.apply("escape 2")
    assert narrate(game.events_for(0)[-2], "zh", 0) == [
        "座位2 逃跑：得 -30 分，本局结束，其他人不计分"
    ]
    assert game.result is not None
    out = io.StringIO()
    Console(file=out, width=200).print(results_table(game.result.to_dict(), "zh", 1, me=0))
    text = out.getvalue()
    assert "有人逃跑，本局不计分" in text
    assert "座位2" in text and "逃跑" in text and "-30" in text
    assert text.count("+0") == 4  # every other seat listed, unscored


def test_r10_3_a_qq_results_table_says_who_pays_tribute() -> None:
    """The QQ 明保 game of tests/records/rules-v2-qq.json: the emperor's side scored +12 and won
    (R10.3 revised turn 3), yet pays tribute by QQ's rule (R8.10: not 1st and 2nd)."""
    record = read_record(Path(__file__).parents[1] / "records" / "rules-v2-qq.json")
    game = start_game(record)
    for entry in record["actions"]:
        game.apply(entry["action"])
    assert game.result is not None
    out = io.StringIO()
    Console(file=out, width=200).print(results_table(game.result.to_dict(), "zh", 1, 0, game.rules))
    text = out.getvalue()
    assert "第 1 局结果：皇帝方胜" in text
    assert "皇帝方得分 +12；按QQ规则本局皇帝方进贡" in text
    plain = io.StringIO()
    Console(file=plain, width=200).print(results_table(game.result.to_dict(), "zh", 1, 0))
    assert "按QQ规则" not in plain.getvalue()  # without the rules, nothing said of tribute


def test_wrap_cells_breaks_chinese_between_characters() -> None:
    line = "皇帝先出第一轮。有牌的人轮流压牌或过，过了轮回来还可以压（R6）。"
    wrapped = wrap_cells(line, 20)
    assert "".join(wrapped) == line and all(len(w) <= 10 for w in wrapped)
    assert not any(w.startswith(("，", "。", "）")) for w in wrapped)
    assert not any(w.endswith("（") for n in range(6, 40) for w in wrap_cells(line, n))
    assert wrap_cells("to beat a play: the same size", 12) == [
        "to beat a",
        "play: the",
        "same size",
    ]


# ---------------------------------------------------------------------------------- rules


def test_cli_rules_lists_every_preset() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    en = runner.invoke(app, ["rules", "--lang", "en"])
    for name in PRESETS:  # each by its name in the language, with the key that selects it
        assert name in result.output and t(f"preset.{name}") in result.output
        assert t(f"preset.{name}", "en") in en.output
    assert "165 张牌" in result.output and "baohuang rules 预设名" in result.output
    assert "rule presets" in en.output and summary(PRESETS["qq"], "en")[:20] in en.output


def test_cli_rules_weihai_in_chinese_r9() -> None:
    result = runner.invoke(app, ["rules", "weihai"])
    assert result.exit_code == 0
    out = result.output
    assert "保皇规则：威海（weihai）" in out
    for heading in ("牌", "出牌", "皇帝和保皇派", "计分"):
        assert f"\n{heading}\n" in out
    assert "共 165 张" in out and "每家 33 张" in out and "+32" in out
    assert "进贡\n" not in out  # no tribute section (R7: weihai has none)


def test_cli_rules_kk_classic_in_english_r11() -> None:
    result = runner.invoke(app, ["rules", "kk_classic", "--lang", "en"])
    assert result.exit_code == 0
    out = result.output
    assert "Baohuang rules: KK Classic (kk_classic)" in out and "Grab solo (抢独)" in out
    assert "216 cards in all" in out and "皇帝" not in out


def test_cli_rules_with_options() -> None:
    result = runner.invoke(app, ["rules", "classic", "--option", "roast=true", "-o", "tribute=off"])
    assert result.exit_code == 0
    assert "保皇规则：经典（classic） roast=true tribute=off" in result.output
    assert "烤牌（R5.1）" in result.output and "\n进贡\n" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "nope"], "没有预设 'nope'：可选 classic, weihai"),
        (["rules", "nope", "--lang", "en"], "unknown preset 'nope': presets are classic"),
        (["rules", "weihai", "-o", "hold_threes=true"], "清3（hold_threes）要有 3"),
        (["play", "-o", "hold_threes=true", "-o", "ranks_from=6"], "清3（hold_threes）要有 3"),
        (
            ["play", "-o", "hold_threes=true", "-o", "ranks_from=6", "--lang", "en"],
            "hold_threes needs 3s",
        ),
        (["rules", "classic", "-o", "roast"], "--option 要写成 键=值，如 roast=true，不是 'roast'"),
        (["rules", "classic", "-o", "colour=red", "--lang", "en"], "unknown option 'colour'"),
        (["rules", "-o", "roast=true"], "--option 要跟一个预设一起用"),
        (["simulate", "--preset", "qq", "-o", "ranks_from=9"], "ranks_from 只能是 3、4、5 或 6"),
    ],
)
def test_cli_rules_errors_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and message in result.output


def test_parse_options_to_bool_and_str() -> None:
    assert parse_options(["roast=true", "tribute=False", " hold_sixes = yes ", "ranks_from=6"]) == {
        "roast": True,
        "tribute": False,
        "hold_sixes": True,
        "ranks_from": "6",
    }
    assert parse_options([]) == {}
    for bad in ("roast", "=true", "roast="):
        with pytest.raises(RulesError, match="key=value"):
            parse_options([bad])
    rules = Rules.preset("classic", **parse_options(["ranks_from=4", "twos_wild=on"]))
    assert rules.ranks_from == "4" and rules.twos_wild is True


def test_serve_on_a_busy_port_says_so_before_any_banner(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        database = f"sqlite:///{tmp_path / 'busy.db'}"
        result = runner.invoke(app, ["serve", "--port", str(port), "--database", database])
    assert result.exit_code == 1
    assert f"无法在 127.0.0.1:{port} 监听" in result.output and "Cannot listen" in result.output
    assert "http://" not in result.output


def test_play_loop_auto_pass_answers_要不起_by_itself() -> None:
    """``--auto-pass``: seat 0 is never asked when 过 is all it may do in play (要不起)."""
    match = Match(CLASSIC, 1, CANDIDATE_SEED)
    game = match.game
    asked_when_only_pass = 0

    def ask(_: str) -> str:
        nonlocal asked_when_only_pass
        legal = game.legal_actions()
        asked_when_only_pass += game.phase == "play" and legal == [PASS]
        return str(legal[0])

    out = io.StringIO()
    assert play_match(match, ask, Console(file=out, width=400), auto_pass=True)
    assert asked_when_only_pass == 0 and "要不起，自动过" in out.getvalue()
