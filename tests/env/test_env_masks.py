"""The env's masks (baohuang.env.masks): buffers are refilled in place only when no mask made
from them is alive, so a mask handed out never changes, however long it is held."""

from __future__ import annotations

import random

import numpy as np
import pytest

from baohuang.env import raw_env
from baohuang.env.masks import Masks


def test_masks_mark_exactly_the_ids_given() -> None:
    masks = Masks(50)
    for ids in [(3, 7), (), (0, 49), (7,)]:
        mask = masks.make(ids)
        assert mask.dtype == np.int8 and mask.shape == (50,)
        assert list(np.flatnonzero(mask)) == sorted(ids)


def test_a_held_mask_never_changes_and_a_dropped_buffer_is_reused() -> None:
    masks = Masks(10)
    held = masks.make((1, 2))
    masks.make((3,))  # the other buffer, dropped at once
    kept = [masks.make((4,)) for _ in range(5)]  # the first buffer is held: fresh ones
    assert list(np.flatnonzero(held)) == [1, 2]
    assert [list(np.flatnonzero(m)) for m in kept] == [[4]] * 5
    view = kept[-1][2:]  # a slice keeps its buffer alive too
    del kept
    for _ in range(4):
        masks.make((9,))
    assert list(np.flatnonzero(view)) == [2]
    del view
    first = masks.make((5,))
    buffer = id(first.base.obj)  # type: ignore[union-attr]
    del first
    masks.make((6,))
    again = masks.make((7,))  # the same buffer, its 5 cleared
    assert id(again.base.obj) == buffer  # type: ignore[union-attr]
    assert list(np.flatnonzero(again)) == [7]


@pytest.mark.parametrize("preset", ["classic", "qq"])
def test_r14_every_mask_of_a_match_stays_as_it_was_made(preset: str) -> None:
    e = raw_env(preset, games=2)
    e.reset(seed=5)
    rng = random.Random(5)
    held: list[tuple[np.ndarray, list[int]]] = []
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        ids = e.infos[agent]["legal_ids"]
        other = next(a for a in e.agents if a != agent)
        assert not e.observe(other)["action_mask"].any()  # R14: only the acting seat's
        mask = e.observe(agent)["action_mask"]
        assert sorted(ids) == list(np.flatnonzero(mask))
        if rng.random() < 0.3:  # hold some masks (a replay buffer), drop the others
            held.append((mask, sorted(ids)))
        e.step(ids[rng.randrange(len(ids))])
    assert len(held) > 50
    assert all(list(np.flatnonzero(mask)) == ids for mask, ids in held)
