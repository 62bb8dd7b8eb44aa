"""The action space: fixed ids, an exact bijection with the engine's legal actions in every
phase (R3–R12), and the action mask equal to the acting seat's legal actions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from env_helpers import RULE_SETS, Observer, rules_id
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import PASS, Call, Declare, OpenSolo, Play, Rules, Tribute, new_game
from baohuang.engine.actions import ACCEPT, DECLINE, SOLO
from baohuang.engine.cards import CARDS
from baohuang.env import NUM_ACTIONS, NUM_ACTIONS_TWOS_WILD, action_table, num_actions
from baohuang.features.actions import FIRST_PLAY


def test_table_sizes_and_fixed_ids() -> None:
    plain, wild = action_table(False), action_table(True)
    assert (len(plain), len(wild)) == (NUM_ACTIONS, NUM_ACTIONS_TWOS_WILD) == (5385, 82185)
    assert num_actions(True) == NUM_ACTIONS_TWOS_WILD
    assert list(wild.actions[:NUM_ACTIONS]) == list(plain.actions)  # twos_wild only appends
    assert plain.action(0) == PASS and plain.action(1) == ACCEPT and plain.action(2) == DECLINE
    assert plain.action(8) == SOLO and FIRST_PLAY == 161
    assert plain.id_of("call 9h") == plain.id_of(Call(CARDS[6 * 4 + 1]))
    assert plain.action(FIRST_PLAY) is Play.parse("R")
    assert plain.action(NUM_ACTIONS - 1) is Play.parse("RRRRBBBB" + "2" * 16)


@pytest.mark.parametrize("twos_wild", [False, True])
def test_every_id_maps_to_an_action_whose_key_maps_back(twos_wild: bool) -> None:
    table = action_table(twos_wild)
    for i, action in enumerate(table.actions):
        assert table.id_of(action) == i
    kinds = {type(a) for a in table.actions}
    assert kinds == {
        type(PASS),
        type(ACCEPT),
        type(DECLINE),
        Declare,
        OpenSolo,
        Call,
        Tribute,
        Play,
    }
    filled = [a for a in table.actions if isinstance(a, Play) and a.twos]
    assert len(filled) == (NUM_ACTIONS_TWOS_WILD - NUM_ACTIONS if twos_wild else 0)


def check_game(rules: Rules, seed: int, limit: int = 10_000) -> set[str]:
    """Play a random game; at each decision check the bijection and the mask (R14: from the
    seat's own view). Return the kinds of action seen."""
    observer = Observer(rules)
    table = observer.table
    game = new_game(rules, seed=seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    while not game.is_over and limit:
        limit -= 1
        seat = game.current_seat
        assert seat is not None
        legal = game.legal_actions()
        ids = [table.id_of(a) for a in legal]
        assert len(set(ids)) == len(legal)  # one id per legal action
        for i, action in zip(ids, legal, strict=True):
            back = table.action(i)
            assert back == action and (back is action or not isinstance(action, Play))
        _, mask = observer.observe(game, seat)
        assert mask.dtype == np.int8 and mask.shape == (len(table),)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)  # mask == legal actions
        for other in range(5):  # nobody else may act: their masks are empty (R14: in a
            if other not in game.to_act:  # sealed poll, every seat yet to answer may)
                assert not game.view(other).legal
        action = table.action(ids[rng.randrange(len(ids))])
        kinds.add(action.kind if isinstance(action, Declare) else type(action).__name__)
        if isinstance(action, Play) and action.twos:
            kinds.add("filled play")
        game.apply(action)
    return kinds


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rules_id)
def test_r3_r12_every_legal_action_has_exactly_one_id_and_the_mask_is_the_legal_set(
    rule_set: tuple[str, dict[str, object]],
) -> None:
    preset, options = rule_set
    rules = Rules.preset(preset, **options)
    kinds: set[str] = set()
    for seed in range(3):
        kinds |= check_game(rules, seed)
    assert {"Play", "Pass"} <= kinds
    if rules.twos_wild:
        assert "filled play" in kinds  # R5.2


def test_r8_r9_r11_role_phase_actions_are_reached() -> None:
    """Across presets, the role phases' actions all go through the table."""
    kinds: set[str] = set()
    for preset in ("classic", "weihai", "kk_simple", "kk_classic", "qq"):
        for seed in range(6):
            kinds |= check_game(Rules.preset(preset), 100 + seed)
    expected = {"Accept", "Decline", "Call", "OpenSolo", "rebel", "show", "kick"}
    assert expected <= kinds, expected - kinds


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["classic", "weihai", "qq"]))
def test_bijection_holds_in_random_games(seed: int, preset: str) -> None:
    check_game(Rules.preset(preset), seed, limit=120)
