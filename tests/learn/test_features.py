"""The features the learned bot and the trainer share: one distinct feature row per action id,
and the plays a seat follows from its own views are exactly the public history's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from baohuang.bots.heuristic import HeuristicBot
from baohuang.engine.cards import NUM_RANKS
from baohuang.engine.game import new_game
from baohuang.features.actions import ACTION_FEATURES, KINDS, action_features, action_table
from baohuang.features.history import PublicHistory, ViewHistory
from helpers.rulesets import PRESETS


@pytest.mark.parametrize("twos_wild", [False, True])
def test_every_action_has_its_own_feature_row(twos_wild: bool) -> None:
    features, table = action_features(twos_wild), action_table(twos_wild)
    assert features.shape == (len(table), ACTION_FEATURES)
    assert len({row.tobytes() for row in features}) == len(table)
    kinds = features[:, NUM_RANKS + 1 : NUM_RANKS + 1 + len(KINDS)]
    assert (kinds.sum(axis=1) == 1).all()  # one kind each
    assert not features.flags.writeable


@pytest.mark.parametrize("name", ["classic", "weihai", "qq"])
def test_r14_the_plays_a_seat_sees_in_its_views_are_the_public_history(name: str) -> None:
    rules, rng = PRESETS[name], random.Random(name)
    for deal in range(4):
        game = new_game(rules, f"views/{deal}")
        bots = [HeuristicBot(rules) for _ in range(5)]
        followed, public = [ViewHistory() for _ in range(5)], PublicHistory()
        checked = 0
        while (seat := game.current_seat) is not None:
            view = game.view(seat)
            followed[seat].see(view)
            public.update([e for e in game.events])
            mine = np.array(followed[seat].rows)[:, :NUM_RANKS]
            assert (mine == np.array(public.rows)[:, :NUM_RANKS]).all(), (name, deal, seat)
            checked += 1
            legal = game.legal_actions()
            action = bots[seat].choose(view, legal) if rng.random() < 0.8 else rng.choice(legal)
            game.apply(action)
        assert checked > 100
