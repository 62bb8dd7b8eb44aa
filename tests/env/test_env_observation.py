"""The observation: its layout and bounds, what it holds, and R14: built from the seat's view
and the public history only, it never changes when only other seats' hidden cards differ."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from env_helpers import RULE_SETS, Observer, episode, rules_id
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from baohuang import Game, Play, PlayCards, RecordError, Rules, new_game
from baohuang.engine.cards import NUM_RANKS, RANK_SYMBOLS, deck
from baohuang.env import HIGH, LAYOUT, SIZE, raw_env
from baohuang.features.observation import ROTATION, SEAT_COLUMNS

DOCS = Path(__file__).parents[2] / "docs" / "env.md"


def block(obs: np.ndarray, name: str) -> np.ndarray:
    b = LAYOUT[name]
    return obs[b.offset : b.stop].reshape(b.rows, b.cols)


def test_layout_is_contiguous_and_documented() -> None:
    offset = 0
    for name, b in LAYOUT.items():
        assert (b.name, b.offset) == (name, offset)
        offset = b.stop
    assert offset == SIZE == 349 and HIGH.shape == (SIZE,) and (HIGH > 0).all()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", DOCS.read_text(), re.MULTILINE)
    assert [(n, int(o), int(s)) for n, o, s in rows] == [
        (b.name, b.offset, b.size) for b in LAYOUT.values()
    ]


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rules_id)
def test_observations_stay_in_the_observation_space(rule_set: tuple[str, dict[str, Any]]) -> None:
    preset, options = rule_set
    e = raw_env(preset, games=2, **options)
    space = e.observation_space("seat_0")
    for n, (_, observed, _) in enumerate(episode(e, 3, random.Random(3))):
        if n % 7 == 0:
            assert space.contains(observed)
            assert observed["observation"].flags.writeable


def played_by_seat(game: Game) -> np.ndarray:
    """Cards played per seat and rank, from the engine's own action log (the referee)."""
    out = np.zeros((5, NUM_RANKS), np.float32)
    for seat, action in game.actions:
        if isinstance(action, PlayCards):
            for card in action.cards:
                out[seat, card.rank] += 1
    return out


@pytest.mark.parametrize("preset", ["classic", "weihai", "qq"])
def test_r14_observation_holds_own_hand_public_counts_and_history(preset: str) -> None:
    rules = Rules.preset(preset)
    pack = np.zeros(NUM_RANKS, np.float32)
    for card in deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes):
        pack[card.rank] += 1
    game = new_game(rules, seed=6)
    observer = Observer(rules)
    rng = random.Random(6)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        obs, _ = observer.observe(game, seat)
        hand = game.hand(seat)
        cards = np.zeros(56, np.float32)
        ranks = np.zeros(NUM_RANKS, np.float32)
        for card in hand:
            cards[card.id] += 1
            ranks[card.rank] += 1
        assert (block(obs, "hand_cards")[0] == cards).all()
        assert (block(obs, "hand_ranks")[0] == ranks).all()
        played = np.array(game.played, np.float32)
        assert (block(obs, "played")[0] == played).all()
        assert (block(obs, "unseen")[0] == pack - ranks - played).all()
        by_seat = played_by_seat(game)[ROTATION[seat]]  # relative rows: 0 is the observer
        assert (block(obs, "history")[:, :NUM_RANKS] == by_seat).all()
        seats = block(obs, "seats")
        assert list(seats[:, SEAT_COLUMNS.index("cards")]) == [
            game.sizes[s] for s in ROTATION[seat]
        ]
        assert seats[0, SEAT_COLUMNS.index("turn")] == 1
        lead = block(obs, "lead")[0]
        if game.lead is None:
            assert not lead.any() and block(obs, "has_lead")[0, 0] == 0
        else:  # the rank play, filler 2s (R5.2) under 2
            text = "".join(RANK_SYMBOLS[r] * int(n) for r, n in reversed(list(enumerate(lead))))
            assert Play.parse(text) is game.lead
        game.apply(rng.choice(game.legal_actions()))


# ---------------------------------------------------------------------- R14: hidden cards


def public_log(game: Game, since: int) -> list[tuple[str, Any]]:
    return [(e.kind, e.public) for e in game.events[since:]]


def compare_from(
    a: Game, b: Game, seat: int, rng: random.Random, steps: int = 10_000
) -> tuple[int, int]:
    """Drive ``a`` at random and ``b`` alike while their public histories and ``seat``'s own
    hand agree; at each such point ``seat``'s observations (and masks) must be equal.
    Return (observations compared, of which with different hands elsewhere)."""
    ra, rb = a.rules, b.rules
    oa, ob = Observer(ra), Observer(rb)
    compared = differing = checked = 0
    while not a.is_over and not b.is_over and steps:
        steps -= 1
        if len(a.events) != len(b.events) or public_log(a, checked) != public_log(b, checked):
            break
        checked = len(a.events)
        if a.hand_text(seat) != b.hand_text(seat):
            break
        obs_a, mask_a = oa.observe(a, seat)
        obs_b, mask_b = ob.observe(b, seat)
        assert obs_a.tobytes() == obs_b.tobytes()
        assert mask_a.tobytes() == mask_b.tobytes()
        compared += 1
        differing += any(a.hand_text(s) != b.hand_text(s) for s in range(5))
        action = rng.choice(a.legal_actions())
        if a.current_seat != b.current_seat or action not in b.legal_actions():
            break
        a.apply(action)
        try:
            b.apply(action)
        except RecordError:  # b voided a deal a did not (R8.6): no such deal laid out
            break
    return compared, differing


def swapped(deal: dict[str, Any], swaps: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    """``deal`` with card i of seat a and card j of seat b exchanged, per (a, i, b, j)."""
    hands = [list(hand) for hand in deal["hands"]]
    for a, i, b, j in swaps:
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return {**deal, "hands": hands}


@settings(max_examples=25)
@given(
    seed=st.integers(0, 10**6),
    preset=st.sampled_from(["classic", "weihai", "kk_classic", "qq"]),
    seat=st.integers(0, 4),
    picks=st.lists(
        st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(0, 99)), min_size=1, max_size=4
    ),
)
def test_r14_observation_ignores_other_seats_hidden_cards(
    seed: int, preset: str, seat: int, picks: list[tuple[int, int, int]]
) -> None:
    rules = Rules.preset(preset)
    a = new_game(rules, seed=seed)
    deal = a.dealt[0]
    swaps = []
    for da, db, k in picks:
        sa, sb = (seat + da) % 5, (seat + db) % 5
        if sa != sb:
            i, j = k % len(deal["hands"][sa]), (k * 7 + 3) % len(deal["hands"][sb])
            swaps.append((sa, i, sb, j))
    changed = swapped(deal, swaps)
    assume(changed["hands"] != deal["hands"])
    try:
        b = new_game(rules, seed=seed, deals=[changed, *a.dealt[1:]])
    except RecordError:  # the swap left every candidate without a triple: a void deal (R8.6)
        reject()  # at once, which a did not: their public histories differ from the start
    compare_from(a, b, seat, random.Random(seed))


def reach_call(rules: Rules, seed: int) -> Game | None:
    """A game of ``seed`` played at random until the emperor called a card with a guard."""
    game = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while game.called is None and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game if game.called is not None and game.guard is not None else None


@pytest.mark.parametrize("preset", ["classic", "kk_classic"])
def test_r14_r8_8_the_guards_identity_never_reaches_a_rebels_observation(preset: str) -> None:
    """Two games alike in public, the guard (R8.7: the 4th copy's holder) a different rebel:
    a third rebel observes the same thing until the guard reveals itself (R8.8)."""
    rules = Rules.preset(preset)
    compared = differing = games = 0
    for seed in range(40):
        a = reach_call(rules, seed)
        if a is None:
            continue
        emperor, guard, called = a.emperor, a.guard, a.called
        assert emperor is not None and guard is not None and called is not None
        others = [s for s in range(5) if s not in (emperor, guard)]
        deal = a.dealt[-1]
        hands = deal["hands"]
        i = hands[guard].index(str(called))
        # give the guard's copy to another rebel, for a card of another rank of theirs
        new_guard = others[0]
        j = next(
            (
                k
                for k, c in enumerate(hands[new_guard])
                if c[0] not in (str(called)[0], "2", "B", "R")
            ),
            None,
        )
        if j is None:
            continue
        deals = [*a.dealt[:-1], swapped(deal, [(guard, i, new_guard, j)])]
        b = new_game(rules, seed=seed, deals=deals)
        replay = new_game(rules, seed=seed)
        try:
            for _, action in a.actions:
                if b.is_over or action not in b.legal_actions():
                    raise RecordError("error.record.deal", number=0, reason="diverged")
                replay.apply(action)
                b.apply(action)
        except RecordError:
            continue
        if b.guard != new_guard:
            continue  # the swap changed more than the guard
        observer = others[1]
        n, d = compare_from(replay, b, observer, random.Random(seed))
        games += 1
        compared += n
        differing += d
        if games >= 4:
            break
    assert games >= 2 and compared >= 100 and differing == compared
