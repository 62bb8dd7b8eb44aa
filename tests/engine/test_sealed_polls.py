"""R14: the sealed polls, 明保 (R9.4, R8.10) and 造反 (R9.5).

The options a seat has in them tell its role (only the guard may show; the guard may only
pass), so every asked seat may answer at once, in any order, without seeing another's answer,
and the answers are published together, in the poll's order, when the last is in. The game
that results is the same whoever answered first: events, action log, views, record, result.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import PASS, Game, new_game
from baohuang.bots.base import BOTS, make_bot
from baohuang.engine.actions import SHOW, Escape
from baohuang.engine.errors import IllegalActionError
from baohuang.engine.record import replay, to_record
from baohuang.engine.roles import SEALED_POLLS
from baohuang.engine.views import views_json
from helpers.drivers import play
from helpers.policies import sparing
from helpers.referee import Referee
from helpers.rulesets import PRESET_NAMES, PRESETS

#: Every preset with a sealed poll: 明保 (qq, weihai, kk_simple, lianzhong_simple), 造反 (weihai,
#: kk_*, lianzhong_simple).
SEALED_PRESETS = tuple(
    name for name in PRESET_NAMES if PRESETS[name].guard_may_show or PRESETS[name].rebellion
)
VIEWERS: list[int | None] = [None, 0, 1, 2, 3, 4]


def at_sealed_poll(name: str, seed: int, poll: str = "show") -> Game:
    """A game of preset ``name`` dealt from the first seed from ``seed`` on whose roles lead
    to the sealed poll ``poll``, stopped at its opening (passing in every earlier poll)."""
    for tried in range(seed, seed + 200):
        game = play(
            new_game(PRESETS[name], seed=tried),
            random.Random(tried),
            sparing(0.0),
            until=lambda g: g.sealed and g.poll == poll,
        )
        if game.sealed and game.guard is not None:
            return game
    raise AssertionError(f"no {name} game reached {poll}")


def public(game: Game) -> str:
    """Everything public, and every seat's view, as one text."""
    views = views_json(game, VIEWERS)
    return json.dumps([game.events_for(None), [views[v] for v in VIEWERS]], sort_keys=True)


def test_r14_the_presets_with_sealed_polls() -> None:
    assert set(SEALED_PRESETS) == {"qq", "weihai", "kk_simple", "kk_classic", "lianzhong_simple"}
    assert {"show", "rebel"} == SEALED_POLLS


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(SEALED_PRESETS), seed=st.integers(0, 10**6), rng=st.randoms())
def test_r14_sealed_answers_in_any_order_make_the_same_game(
    name: str, seed: int, rng: random.Random
) -> None:
    """Two copies of a game take the same actions, but each sealed poll's answers come in the
    poll's order in one and in a random order in the other: nothing is published before the
    last answer (no event; each seat's view unchanged but the answering seat's own), and after
    it the two games are the same (events, views, action log); and so are their results."""
    rules = PRESETS[name]
    turn, shuffled = new_game(rules, seed=seed), new_game(rules, seed=seed)
    policy, referee = sparing(0.5), Referee()
    while not turn.is_over:
        assert turn.actions == shuffled.actions
        if not turn.sealed:
            action = policy(turn, rng)
            turn.apply(action)
            shuffled.apply(action)
            referee(shuffled)
            continue
        assert public(turn) == public(shuffled)
        asked = list(turn.to_act)
        answers = {s: rng.choice(turn.legal_actions(s)) for s in asked}
        for seat in asked:
            assert turn.current_seat == seat
            turn.apply(answers[seat])
        order = rng.sample(asked, len(asked))
        before = {v: shuffled.view(v).to_json() for v in VIEWERS}
        since = len(shuffled.events)
        for n, seat in enumerate(order, 1):
            shuffled.apply(answers[seat], seat)
            referee(shuffled)
            if n == len(order):
                break
            assert len(shuffled.events) == since  # sealed: nothing published yet
            for viewer in VIEWERS:
                view = shuffled.view(viewer).to_json()
                if viewer in order[:n]:  # answered: its answer, no options, nobody to act
                    own = {"answer": str(answers[viewer]), "legal": [], "turn": None}
                    assert view == {**before[viewer], **own}
                else:  # nobody else sees anything change
                    assert view == before[viewer]
        assert public(turn) == public(shuffled)
    assert turn.result == shuffled.result and public(turn) == public(shuffled)


def test_r14_a_sealed_poll_takes_any_seat_yet_to_answer_and_only_them() -> None:
    """``apply(action, seat)``: a seat not asked, a seat that has answered, or an answer not
    among a seat's options is refused, and the game is left as it was."""
    game = at_sealed_poll("weihai", 0)
    asked, emperor, guard = list(game.to_act), game.emperor, game.guard
    assert emperor is not None and guard is not None and emperor not in asked
    last = asked[-1]
    other = next(s for s in asked if s != guard)
    state = public(game)
    failures = [
        (PASS, emperor, "error.game.not_to_act"),
        (SHOW, other, "error.game.phase.poll"),  # R9.4: only the guard may show
    ]
    for action, seat, code in failures:
        with pytest.raises(IllegalActionError) as caught:
            game.apply(action, seat)
        assert caught.value.code == code
        assert public(game) == state
    game.apply(PASS, last)
    assert game.current_seat == asked[0] and last not in game.to_act
    with pytest.raises(IllegalActionError) as caught:
        game.apply(PASS, last)
    assert caught.value.code == "error.game.not_to_act"
    assert game.legal_actions(last) == [] and game.legal_actions(emperor) == []
    assert set(game.legal_actions(guard)) == {SHOW, PASS}


@pytest.mark.parametrize("name", SEALED_PRESETS)
def test_r14_records_of_answers_out_of_order_replay_and_say_nothing_of_the_order(
    name: str,
) -> None:
    """The action log keeps a sealed poll's answers in the poll's order, whoever answered
    first: the record is the one answering in turn would make, and it replays."""
    poll = "show" if PRESETS[name].guard_may_show else "rebel"
    game = at_sealed_poll(name, 0, poll)
    rng = random.Random(1)
    turn = game.clone()
    while not game.is_over:
        if game.sealed:
            asked = list(game.to_act)
            answers = {s: rng.choice(game.legal_actions(s)) for s in asked}
            for seat in reversed(asked):  # the slowest first
                game.apply(answers[seat], seat)
            for seat in asked:
                turn.apply(answers[seat])
        else:
            action = rng.choice(game.legal_actions())
            game.apply(action)
            turn.apply(action)
    record = to_record(game)
    assert record == to_record(turn)
    assert replay(json.loads(json.dumps(record))).result == game.result


def test_r14_an_escape_in_a_sealed_poll_ends_the_game_and_publishes_nothing() -> None:
    """R10.4 in a sealed poll: the game ends; the kept answers are never told."""
    game = at_sealed_poll("kk_simple", 0)
    asked = list(game.to_act)
    game.apply(PASS, asked[2])
    since = len(game.events)
    game.apply(Escape(asked[0]))
    assert game.is_over and [e.kind for e in game.events[since:]] == ["escape", "game_over"]
    assert not any(e.kind == "declare" for e in game.events[since:])
    assert replay(to_record(game)).result == game.result


BOT_NAMES = [name for name in ("auto", "heuristic", "search", "strong", "learned") if name in BOTS]


@pytest.mark.parametrize("bot_name", BOT_NAMES)
@pytest.mark.parametrize(("name", "poll"), [("weihai", "show"), ("kk_classic", "rebel")])
def test_r14_bots_answer_a_sealed_poll_from_their_own_view_in_any_order(
    bot_name: str, name: str, poll: str
) -> None:
    """Every bot (search and strong searching the role phase on determinizations, the learned
    one reading its own views) answers each asked seat's options, the last seat of the poll
    first, seeing nobody's answer."""
    game = at_sealed_poll(name, 3, poll)
    rules = game.rules
    asked = list(game.to_act)
    shown: list[Any] = []
    for seat in reversed(asked):
        bot = make_bot(bot_name, rules, f"7/{seat}")
        view, legal = game.view(seat), game.legal_actions(seat)
        assert view.turn == seat and view.asked == tuple(asked) and view.answer is None
        choice = bot.choose(view, legal)
        assert choice in legal
        game.apply(choice, seat)
        shown.append(choice)
    assert game.poll != poll and len(shown) == len(asked)
