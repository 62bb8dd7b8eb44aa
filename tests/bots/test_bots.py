"""Bots: the small interface (a seat's view and legal actions in, an action out), RandomBot,
AutoBot (托管, R13), the registry, and play_out running games to the end (R6.6, R10, R14)."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from baohuang import (
    ACCEPT,
    DECLINE,
    PASS,
    Action,
    Call,
    Card,
    Match,
    OpenSolo,
    Play,
    PlayCards,
    Rules,
    RulesError,
    Tribute,
    legal_plays,
    new_game,
)
from baohuang.bots import BOTS, AutoBot, Bot, RandomBot, bot_step, make_bot, play_out
from baohuang.cli.main import app, play_match
from baohuang.engine.actions import GRAB, KICK, REBEL, SHOW, SOLO, TRANSFER
from baohuang.engine.rules import PRESETS
from baohuang.engine.views import View

CLASSIC = Rules.preset("classic")
#: A spectator's view: RandomBot and AutoBot choose without looking at the view.
ANY_VIEW = new_game(CLASSIC, "any").view(None)
runner = CliRunner()


class FirstBot:
    """Always the first legal action; records every view it is shown."""

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View, legal: list[Action]) -> Action:
        self.views.append(view)
        return legal[0]


def random_bots(seed: str) -> list[Bot]:
    return [RandomBot(f"{seed}/{seat}") for seat in range(5)]


def test_play_out_finishes_with_scores_r6_6_r10() -> None:
    game = new_game(CLASSIC, "bots/1")
    result = play_out(game, random_bots("a"))
    assert game.is_over and game.result is result
    assert sorted(result.places) == [0, 1, 2, 3, 4]
    assert sum(result.scores) == 0  # R10.1 is zero-sum


def test_same_seeds_same_game() -> None:
    first, second = new_game(CLASSIC, "bots/2"), new_game(CLASSIC, "bots/2")
    play_out(first, random_bots("b"))
    play_out(second, random_bots("b"))
    assert [str(a) for _, a in first.actions] == [str(a) for _, a in second.actions]
    assert first.result == second.result
    other = new_game(CLASSIC, "bots/2")
    play_out(other, random_bots("c"))
    assert [str(a) for _, a in other.actions] != [str(a) for _, a in first.actions]


def test_random_bot_chooses_uniformly_among_legal() -> None:
    bot = RandomBot(9)
    legal: list[Action] = list(new_game(CLASSIC, "bots/3").legal_actions())
    picks = [bot.choose(ANY_VIEW, legal) for _ in range(200)]
    assert set(picks) <= set(legal)
    assert len(set(picks)) == len(legal)


def test_bots_see_only_their_seats_view_r14() -> None:
    bots = [FirstBot() for _ in range(5)]
    game = new_game(CLASSIC, "bots/4")
    play_out(game, bots)
    assert game.is_over
    for seat, bot in enumerate(bots):
        for view in bot.views:
            assert view.seat == seat and view.turn == seat
            assert view.legal  # the view of the seat to act lists its legal actions
            assert view.hand is not None and len(view.hand) == view.counts[seat]
    assert sum(len(bot.views) for bot in bots) == len(game.actions)


def test_bot_step_applies_the_choice() -> None:
    game = new_game(CLASSIC, "bots/5")
    seat = game.current_seat
    action = bot_step(game, FirstBot())
    assert game.actions[-1] == (seat, action)


def test_play_out_needs_five_bots_and_a_live_game() -> None:
    game = new_game(CLASSIC, "bots/6")
    with pytest.raises(ValueError, match="five bots"):
        play_out(game, random_bots("d")[:4])
    play_out(game, random_bots("d"))
    with pytest.raises(ValueError, match="the game is over"):
        bot_step(game, RandomBot())


# ------------------------------------------------------------------ registry, auto (R13), legality


def test_registry_builds_every_bot_and_names_the_unknown() -> None:
    assert set(BOTS) >= {"random", "auto", "heuristic"}
    for name in BOTS:
        bot = make_bot(name, CLASSIC, "seed")
        assert callable(bot.choose)
    with pytest.raises(ValueError, match="unknown bot 'nosuch'"):
        make_bot("nosuch", CLASSIC)


def test_auto_default_answers_r13() -> None:
    """The seeds' 托管: accept, first triple, pass every poll, first tribute card."""
    auto = AutoBot()
    nine, ten = Card.parse("9h"), Card.parse("Ts")
    assert auto.choose(ANY_VIEW, [ACCEPT, DECLINE]) is ACCEPT
    assert auto.choose(ANY_VIEW, [ACCEPT, SOLO, TRANSFER]) is ACCEPT  # R9.3: 登基, no 独保/转让
    assert auto.choose(ANY_VIEW, [Call(nine), Call(ten), OpenSolo(ten)]) == Call(nine)
    assert auto.choose(ANY_VIEW, [Call(ten), SOLO]) == Call(ten)  # R11.3: never 明独保
    for poll in ([SOLO, PASS], [REBEL, PASS], [SHOW, PASS], [KICK, PASS], [GRAB, PASS]):
        assert auto.choose(ANY_VIEW, list(poll)) is PASS
    assert auto.choose(ANY_VIEW, [Tribute(ten), Tribute(Card.parse("Th"))]) == Tribute(ten)


def test_auto_leads_the_lowest_single_and_passes_when_following_r13() -> None:
    auto = AutoBot()
    hand = "R B 2s 9h 9s 4c 4d"
    assert auto.choose(ANY_VIEW, list(legal_plays(hand, None, CLASSIC))) == Play.parse("4")
    following: list[Action] = [*legal_plays(hand, "3", CLASSIC), PASS]
    assert auto.choose(ANY_VIEW, following) is PASS
    # R6.7 憋6: with only 6s and a joker left the single B is the lowest single.
    sixes = Rules.preset("weihai")
    assert auto.choose(ANY_VIEW, list(legal_plays("B 6s 6h", None, sixes))) == Play.parse("B")
    assert auto.choose(ANY_VIEW, list(legal_plays("6s 6h", None, sixes))) == Play.parse("66")


@pytest.mark.parametrize("name", PRESETS)
def test_an_all_auto_table_finishes_every_preset_r13(name: str) -> None:
    """Accepting whenever it may, an all-auto table never voids deals forever (R8.6, R9.3)."""
    rules = PRESETS[name]
    for seed in range(3):
        game = new_game(rules, f"auto/{seed}")
        result = play_out(game, [AutoBot() for _ in range(5)])
        assert sorted(result.places) == [0, 1, 2, 3, 4]
        assert game.deal_no <= 1


class Checked:
    """Wraps a bot: shows it a JSON copy of the view (so it cannot reach the game, R14) and
    checks that its choice is legal and that it leaves the view untouched."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.kinds: set[str] = set()

    def choose(self, view: View, legal: list[Action]) -> Action:
        shown = View.from_json(json.loads(json.dumps(view.to_json())))
        action = self.bot.choose(shown, list(legal))
        assert shown == view, "a bot changed the view it was shown"
        assert action in legal or (isinstance(action, PlayCards) and action.play in legal)
        self.kinds.add(view.poll or view.phase)
        return action


#: Every preset (R7), and the options that change what may be played (R5.1, R6.8).
RULE_SETS = {
    **PRESETS,
    "classic roast": Rules.preset("classic", roast=True),
    "qq with 3s, 清3": Rules.preset("qq", ranks_from="3", hold_threes=True),
}


@pytest.mark.parametrize("name", RULE_SETS)
def test_auto_and_heuristic_always_choose_legal_actions_r14(name: str) -> None:
    rules = RULE_SETS[name]
    for seed in range(4):
        names = [("heuristic", "auto", "random")[(seed + s) % 3] for s in range(5)]
        bots = [Checked(make_bot(n, rules, f"{seed}/{s}")) for s, n in enumerate(names)]
        game = new_game(rules, f"legal/{seed}")
        result = play_out(game, bots)
        assert sorted(result.places) == [0, 1, 2, 3, 4]
        assert sum(len(b.kinds) for b in bots) >= 5


# ------------------------------------------------------------------ play --opponents


def test_play_loop_against_heuristic_bots_finishes_a_match() -> None:
    """Seat 0 types random legal actions; the four heuristic bots play the other seats."""
    rng = random.Random(5)
    match = Match(CLASSIC, games=2, seed=5)
    bots = [make_bot("heuristic", CLASSIC, f"5/bot{seat}") for seat in range(5)]
    out = io.StringIO()
    console = Console(file=out, width=120, highlight=False)

    def ask(prompt: str) -> str:
        return str(rng.choice(match.game.view(0).legal))

    assert play_match(match, ask, console, "en", bots)
    assert match.is_over and len(match.results) == 2
    assert "Match totals (2 games)" in out.getvalue()


def test_cli_play_opponents_in_both_languages() -> None:
    en = runner.invoke(
        app, ["play", "--opponents", "heuristic", "--seed", "3", "--lang", "en"], input="quit\n"
    )
    told = " ".join(en.output.split())
    assert en.exit_code == 0 and "against four regular (heuristic) bots" in told
    zh = runner.invoke(app, ["play", "--opponents", "auto", "--seed", "3"], input="quit\n")
    assert zh.exit_code == 0 and "另外四家是入门机器人" in zh.output  # auto: the seeds' 托管 policy
    bad = runner.invoke(app, ["play", "--opponents", "nosuch", "--lang", "en"])
    assert bad.exit_code == 2 and "unknown bot nosuch: bots are random, auto, heuristic" in (
        bad.output
    )


def test_r6_7_r6_8_holding_both_6s_and_3s_is_refused() -> None:
    """With hold_sixes and hold_threes both on, a hand of only 6s and 3s could never empty in
    one play (R3: one rank per play) and would be stuck: the rules refuse the combination."""
    with pytest.raises(RulesError, match="hold_sixes and hold_threes"):
        Rules.preset("classic", hold_sixes=True, hold_threes=True)
