"""Legal play generation (R3-R6) against a brute-force enumeration, for every option that
changes it: roast (R5.1), twos_wild and qq_jokers (R5.2), hold_sixes (R6.7), hold_threes (R6.8)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import Card, Play, Rules, legal_plays, parse_cards
from baohuang.engine.cards import BIG_JOKER, SMALL_JOKER, TWO
from baohuang.engine.movegen import can_beat, following_plays, rank_counts
from helpers.cards import SIX, THREE
from helpers.reference import brute_force_plays
from helpers.rulesets import (
    ALL_RULES,
    CLASSIC,
    HOLD_SIXES,
    HOLD_THREES,
    OPTION_RULES,
    QQ,
    QQ_JOKERS,
    ROAST,
    TWOS_WILD,
    rules_id,
    variant,
)
from helpers.strategies import hands, plays


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


@pytest.mark.slow
@settings(max_examples=1500)
@given(hands(), plays(6, 4), st.sampled_from(ALL_RULES))
def test_r4_following_plays_exact(hand: list[Card], current: Play, rules: Rules) -> None:
    """R4/R5.1/R6.7: following, exactly the plays that beat the current one."""
    assert_exact(hand, current, rules)


@settings(max_examples=300)
@given(hands(), plays(), st.sampled_from(ALL_RULES))
def test_r4_following_any_current_play_exact(hand: list[Card], current: Play, rules: Rules) -> None:
    assert_exact(hand, current, rules)


@settings(max_examples=1500)
@given(
    st.tuples(
        st.lists(st.integers(0, 6), min_size=SMALL_JOKER, max_size=SMALL_JOKER),
        st.lists(st.integers(0, 4), min_size=2, max_size=2),  # 4 decks: 4 of each joker
    ).map(lambda parts: parts[0] + parts[1]),
    plays(6, 3, 5),
    st.sampled_from(OPTION_RULES),
)
def test_r4_can_beat_is_whether_any_play_follows(
    counts: list[int], current: Play, rules: Rules
) -> None:
    """R4/R5: the test without listing agrees with the listed answers (wild 2s filling sets,
    QQ jokers, 烤牌 included)."""
    assert can_beat(counts, current, rules) == bool(following_plays(counts, current, rules))


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


# ---------------------------------------------------------------- every option combination


@st.composite
def option_hands(draw: st.DrawFn) -> list[Card]:
    """A hand of a few ranks with 2s to fill sets (R5.2), often with jokers, 3s and 6s."""
    extra = draw(st.sets(st.sampled_from([SMALL_JOKER, BIG_JOKER, THREE, SIX])))
    return draw(hands(max_size=30, min_size=4, max_ranks=3, always=[TWO, *extra]))


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Card], Play | None]:
    """A hand and the play to beat (``None``: leading), one the hand can often beat: a set no
    higher than one it holds, with filler 2s and jokers its own 2s and R could answer."""
    hand = draw(option_hands())
    if draw(st.booleans()):
        return hand, None
    counts = rank_counts(hand)
    top = draw(st.sampled_from([r for r in range(TWO + 1) if counts[r]] or [0]))
    big = counts[BIG_JOKER]
    current = Play.of(
        draw(st.integers(0, top)),
        draw(st.integers(1, max(1, counts[top]))),
        draw(st.integers(0, big)),
        draw(st.integers(0, big // 2)),
        draw(st.integers(0, counts[TWO])) if top != TWO else 0,
    )
    return hand, current


@pytest.mark.parametrize("rules", OPTION_RULES, ids=rules_id)
@settings(max_examples=60)
@given(position=positions())
def test_r5_r6_plays_exact_every_option(
    rules: Rules, position: tuple[list[Card], Play | None]
) -> None:
    """R3-R6.8: leading and following, for each combination of roast, twos_wild, qq_jokers,
    hold_sixes and hold_threes, exactly the brute-force plays (filler plays included)."""
    assert_exact(*position, rules)


@settings(max_examples=300)
@given(option_hands(), plays(8, 4, 8), st.sampled_from(OPTION_RULES))
def test_r5_2_following_filled_current_exact(hand: list[Card], current: Play, rules: Rules) -> None:
    """Following any play, filler plays and plays with R (beatable under qq_jokers) included."""
    assert_exact(hand, current, rules)


# ---------------------------------------------------------------- R5.2 examples


def test_r5_2_twos_fill_every_rank_when_leading() -> None:
    hand = "9h 9s 2h B"
    plain = {"9", "99", "B9", "B99", "2", "B2", "B"}
    assert names(hand, None, CLASSIC) == plain
    assert names(hand, None, TWOS_WILD) == plain | {"92", "992", "B92", "B992"}
    assert names(hand, None, QQ) == names(hand, None, TWOS_WILD)


def test_r5_2_twos_fill_when_following() -> None:
    hand = "9h 9s 2h 2s B R"
    assert names(hand, "88", CLASSIC) == {"99", "22", "B9", "B2", "R9", "R2", "RB"}
    assert names(hand, "88", TWOS_WILD) == names(hand, "88", CLASSIC) | {"92"}
    assert names(hand, "888", TWOS_WILD) >= {"922", "992", "B92", "R92", "RB9", "RB2"}
    assert "922" not in names(hand, "888", CLASSIC)
    assert names("Ah 2s 2h", "KK22", TWOS_WILD) == set()  # four cards needed, three held
    assert names("Ah 2s 2h 2c", "KK22", TWOS_WILD) == {"A222"}


def test_r5_2_qq_following_examples() -> None:
    """R5.2: ``RB…`` needs RRR; a play with R can be beaten."""
    hand = "R R R 8s 8h 8d 2s"
    assert names(hand, "RB7777", QQ) == {"RRR888", "RRR882"}
    assert names(hand, "RB7777", QQ_JOKERS) == {"RRR888"}
    assert names(hand, "RB7777", CLASSIC) == set()
    assert names(hand, "R7777", QQ) == {"RR888", "RR882", "RRR88", "RRR82"}
    assert names(hand, "B777", QQ) == {"R888", "R882", "RR88", "RR82", "RRR8", "RRR2"}


def test_r5_2_qq_pure_joker_responses() -> None:
    """[decision] A pure-joker response counts as higher than any rank."""
    assert names("R B 3s", "B7", QQ_JOKERS) == {"RB"}
    assert names("R R B", "R", QQ_JOKERS) == set()  # one R needs RR: two cards
    assert names("R R B", "BB", QQ_JOKERS) == {"RR"}


# ---------------------------------------------------------------- R6.8 hold_threes


def test_r6_8_hold_threes_only_as_final_play() -> None:
    """R6.8 清3: 3s obey R6.7, a play containing a 3 must empty the hand."""
    assert names("3s 3h 9s", None, HOLD_THREES) == {"9"}
    assert names("3s 3h B", None, HOLD_THREES) == {"B", "B33"}
    assert names("3s 3h", None, HOLD_THREES) == {"33"}
    assert names("3s 3h 9s", "B", HOLD_THREES) == set()
    assert "33" in names("3s 3h 9s", None, CLASSIC)


def test_r6_8_hold_threes_with_filler_twos() -> None:
    """A 3-set filled with 2s contains 3s; a natural 2 does not."""
    rules = variant(hold_threes=True, twos_wild=True)
    assert names("3s 2s 9h", None, rules) == {"9", "2", "92"}
    assert names("3s 2s", None, rules) == {"2", "32"}
    assert names("3s 2s 2h", None, rules) == {"2", "22", "322"}


def test_r6_7_hold_sixes_with_filler_twos() -> None:
    """A 6-set filled with 2s contains 6s, so it too must empty the hand."""
    rules = variant(hold_sixes=True, twos_wild=True)
    assert names("6s 6h 2s 9c", None, rules) == {"9", "2", "92"}
    assert names("6s 6h 2s", None, rules) == {"2", "662"}
    assert names("6s 6h 2s", "555", rules) == {"662"}
    both = variant(hold_sixes=True, hold_threes=True)
    assert names("6s 3h 9c", None, both) == {"9"}
