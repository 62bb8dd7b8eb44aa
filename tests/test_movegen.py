"""Legal play generation (R3-R6) against a brute-force enumeration."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import Card, Play, Rules, legal_plays, parse_cards
from baohuang.movegen import rank_counts
from conftest import (
    ALL_RULES,
    CLASSIC,
    HOLD_SIXES,
    ROAST,
    brute_force_plays,
    hands,
    plays,
    rules_id,
)


def names(hand: str, current: str | None, rules: Rules) -> set[str]:
    """The legal plays as canonical strings."""
    return {str(p) for p in legal_plays(hand, current, rules)}


def assert_exact(hand: list[Card], current: Play | None, rules: Rules) -> None:
    """legal_plays gives exactly the brute-force set, each play once."""
    got = legal_plays(hand, current, rules)
    assert len(got) == len(set(got)), "duplicate plays"
    assert set(got) == brute_force_plays(hand, current, rules)


@settings(max_examples=1500)
@given(hands(), st.sampled_from(ALL_RULES))
def test_r3_leading_plays_exact(hand: list[Card], rules: Rules) -> None:
    """R3/R6.2: leading, every sub-multiset of one rank plus jokers (R6.7 with hold_sixes)."""
    assert_exact(hand, None, rules)


@settings(max_examples=1500)
@given(hands(), plays(6, 4), st.sampled_from(ALL_RULES))
def test_r4_following_plays_exact(hand: list[Card], current: Play, rules: Rules) -> None:
    """R4/R5.1/R6.7: following, exactly the plays that beat the current one."""
    assert_exact(hand, current, rules)


@settings(max_examples=300)
@given(hands(), plays(), st.sampled_from(ALL_RULES))
def test_r4_following_any_current_play_exact(hand: list[Card], current: Play, rules: Rules) -> None:
    assert_exact(hand, current, rules)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_r3_empty_hand_has_no_plays(rules: Rules) -> None:
    assert legal_plays([], None, rules) == []
    assert legal_plays("", "B", rules) == []


def test_r3_leading_small_hand_listed() -> None:
    want = {"9", "99", "B9", "B99", "R9", "R99", "RB9", "RB99", "B", "R", "RB"}
    assert names("9h 9s B R", None, CLASSIC) == want
    assert len(legal_plays("9h 9s B R", None)) == len(want)


def test_r4_small_jokers_answered_by_big_jokers() -> None:
    """R4: BB999 is beaten by RRJJJ, RRRJJ (and RRBJJ), never by a play with under two R."""
    assert names("Jh Js Jd Jc R R B 9s 9h 9d", "BB999", CLASSIC) == {"RRJJJ", "RRBJJ"}
    assert names("Jh Js Jd R R R", "BB999", CLASSIC) == {"RRJJJ", "RRRJJ"}
    assert names("Jh Js Jd Jc R B B B", "BB999", CLASSIC) == set()


def test_r4_nothing_beats_a_big_joker_play() -> None:
    assert names("R R R R B B B B 2s 2s 2s 2s", "R3", CLASSIC) == set()


def test_r5_1_roast_adds_plays() -> None:
    hand = "R R B B B 9h"
    assert names(hand, "B", CLASSIC) == {"R"}
    extra = {"BBB", "RB", "RBB", "RBBB", "RR", "RRB", "RRBB", "RRBBB"}
    assert names(hand, "B", ROAST) == {"R", "BB"} | extra
    assert names(hand, "R", ROAST) == extra
    assert names(hand, "R", CLASSIC) == set()


def test_r6_7_hold_sixes_only_as_final_play() -> None:
    """R6.7 憋6: a play containing a 6 must empty the hand."""
    assert names("6s 6h 9s", None, HOLD_SIXES) == {"9"}
    assert names("6s 6h B", None, HOLD_SIXES) == {"B", "B66"}
    assert names("6s 6h", "55", HOLD_SIXES) == {"66"}
    assert names("6s 6h 9s", "55", HOLD_SIXES) == set()
    assert names("6s 6h 9s", "5", HOLD_SIXES) == {"9"}
    assert "66" in names("6s 6h 9s", "55", CLASSIC)


def test_r2_marked_jokers_play_like_plain() -> None:
    """R2: R* and B* play exactly like R and B."""
    assert legal_plays("R* B* 9h", "B8", CLASSIC) == legal_plays("R B 9h", "B8", CLASSIC)
    assert names("R* B* 9h", "B8", CLASSIC) == {"R9", "RB"}
    assert rank_counts(parse_cards("R* B* R B 9h")) == [0] * 6 + [1] + [0] * 6 + [2, 2]
