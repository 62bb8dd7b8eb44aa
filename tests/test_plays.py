"""R2 play notation, R3 what a play is, R4 beating and R5.1 roast (烤牌)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import NotationError, Play, beats, parse_cards
from conftest import (
    ALL_PLAYS,
    CLASSIC,
    ROAST,
    literal_beats_r4,
    plays,
    reference_beats,
)

#: Plays of up to five cards: every pair of them is checked exhaustively.
SMALL_PLAYS = [p for p in ALL_PLAYS if p.size <= 5]


# ---------------------------------------------------------------- R2 notation


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("BB999", "BB999"),
        ("9BB99", "BB999"),
        ("9 B B 9 9", "BB999"),
        ("bb999", "BB999"),
        ("101010", "TTT"),
        ("TtT", "TTT"),
        ("RBBB", "RBBB"),
        ("BRBB", "RBBB"),
        ("R", "R"),
        ("8888", "8888"),
        ("JRJRJ", "RRJJJ"),
        ("B10", "BT"),
        (" 2 ", "2"),
    ],
)
def test_r2_play_parse_canonical(text: str, canonical: str) -> None:
    play = Play.parse(text)
    assert str(play) == canonical
    assert Play.parse(canonical) is play


def test_r2_play_fields() -> None:
    play = Play.parse("RBB999")
    assert (play.rank, play.count, play.small, play.big) == (6, 3, 2, 1)
    assert (play.size, play.jokers) == (6, 3)
    assert play.has_rank(6) and not play.has_rank(7)
    jokers = Play.parse("RB")
    assert (jokers.rank, jokers.count, jokers.size) == (-1, 0, 2)
    assert not jokers.has_rank(-1)


def test_r2_play_of_is_interned() -> None:
    assert Play.of(6, 3, 2, 0) is Play.parse("BB999")
    assert Play.of(5, 0, 1, 0) is Play.of(-1, 0, 1, 0) is Play.parse("B")  # rank ignored
    assert Play.of(6, 3, 2, 0) == Play.parse("9B9B9")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((0, 0, 0, 0), "at least one card"),
        ((13, 1, 0, 0), "no such play"),
        ((0, 17, 0, 0), "no such play"),
        ((0, 1, 5, 0), "no such play"),
        ((0, 1, 0, -1), "no such play"),
    ],
)
def test_r2_play_of_rejects_impossible(args: tuple[int, int, int, int], words: str) -> None:
    with pytest.raises(NotationError, match=words):
        Play.of(*args)


def test_r2_all_plays_round_trip() -> None:
    """str(Play.parse(str(p))) is p for every play four decks allow."""
    assert len(set(ALL_PLAYS)) == len(ALL_PLAYS) == 13 * 16 * 25 + 24
    for play in ALL_PLAYS:
        assert Play.parse(str(play)) is play


@given(plays(), st.randoms(use_true_random=False), st.booleans())
def test_r2_play_parse_any_order_and_ten(play: Play, rnd: random.Random, lower: bool) -> None:
    """Order inside a play does not matter; ``10`` reads as ``T``; case does not matter."""
    chars = list(str(play))
    rnd.shuffle(chars)
    text = " ".join(chars).replace("T", "10")
    assert Play.parse(text.lower() if lower else text) is play


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("9x", "9x"),
        ("Z", "'Z'"),
        ("99J", "'99J'.*mixes ranks"),
        ("BB9J", "'BB9J'.*mixes ranks"),
        ("", "empty play"),
        ("   ", "empty play"),
        ("BBBBB", "'BBBBB'.*more cards"),
        ("3" * 17, "more cards"),
        ("9h", "'9h'"),
        ("pass", "'pass'"),
    ],
)
def test_r2_bad_play_raises_notation_error(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words) as info:
        Play.parse(text)
    assert isinstance(info.value, ValueError)


def test_r3_from_cards() -> None:
    assert Play.from_cards(parse_cards("9h 9s B* R 9c")) is Play.parse("RB999")
    assert Play.from_cards(parse_cards("R* B B")) is Play.parse("RBB")
    with pytest.raises(NotationError, match=re.escape("mix ranks 9 and J")):
        Play.from_cards(parse_cards("9h Jh"))
    with pytest.raises(NotationError):
        Play.from_cards([])


# ---------------------------------------------------------------- R4 beating


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("8888", "7777"),
        ("RBBB", "AAAA"),
        ("B777", "6666"),
        ("R6666", "B5555"),
        ("RRJJJ", "BB999"),
        ("RRRJJ", "BB999"),
        ("R", "B"),
        ("R", "2"),
        ("B", "2"),
        ("4", "3"),
        ("RR", "BB"),
        ("RRB", "BB3"),
        ("BA", "KK"),
    ],
)
def test_r4_beats_examples(response: str, current: str) -> None:
    assert beats(response, current)
    assert beats(Play.parse(response), Play.parse(current), CLASSIC)
    assert not beats(current, response)


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("9999", "B888"),  # a plain set never beats a joker-hung one
        ("RBJJJ", "BB999"),  # small jokers must be answered by big jokers
        ("BBJJJ", "BB999"),
        ("RR999", "BB999"),
        ("7777", "7777"),
        ("88888", "7777"),  # different sizes never beat
        ("888", "7777"),
        ("RR", "B"),
        ("R", "RR"),
        ("RR", "R"),  # a play with R is never beaten (R5.1 roast only)
        ("RR", "R3"),
        ("RRRR", "RBBB"),
        ("B", "B"),
        ("2", "B"),
    ],
)
def test_r4_does_not_beat_examples(response: str, current: str) -> None:
    assert not beats(response, current, CLASSIC)


def test_r4_big_joker_play_unbeatable() -> None:
    """Any play containing a big joker R can never be beaten (under R4)."""
    for current in ALL_PLAYS:
        if current.big:
            assert not any(beats(r, current, CLASSIC) for r in SMALL_PLAYS), current


def test_r4_different_sizes_never_beat() -> None:
    for current in SMALL_PLAYS:
        for response in SMALL_PLAYS:
            if response.size != current.size:
                assert not beats(response, current, CLASSIC)


def test_r4_matches_literal_definition_exhaustively() -> None:
    """All pairs of plays up to five cards: the engine agrees with R4 as written."""
    for current in SMALL_PLAYS:
        for response in SMALL_PLAYS:
            assert beats(response, current, CLASSIC) == literal_beats_r4(response, current), (
                response,
                current,
            )


@given(plays(), plays())
def test_r4_matches_literal_definition(response: Play, current: Play) -> None:
    assert beats(response, current) == literal_beats_r4(response, current)
    assert beats(response, current, CLASSIC) == literal_beats_r4(response, current)


@given(plays())
def test_r4_irreflexive(play: Play) -> None:
    assert not beats(play, play, CLASSIC)
    assert not beats(play, play, ROAST)


@given(plays(4, 3), plays(4, 3))
def test_r4_asymmetric(a: Play, b: Play) -> None:
    assert not (beats(a, b, CLASSIC) and beats(b, a, CLASSIC))
    assert not (beats(a, b, ROAST) and beats(b, a, ROAST))


@settings(max_examples=300)
@given(plays(4, 3), plays(4, 3), plays(4, 3))
def test_r4_transitive(a: Play, b: Play, c: Play) -> None:
    if beats(a, b, CLASSIC) and beats(b, c, CLASSIC):
        assert beats(a, c, CLASSIC)


def test_r4_transitive_exhaustively_on_small_plays() -> None:
    """For plays up to four cards, a > b > c implies a > c."""
    tiny = [p for p in SMALL_PLAYS if p.size <= 4]
    beaten_by = {a: {b for b in tiny if beats(a, b, CLASSIC)} for a in tiny}
    for a in tiny:
        for b in beaten_by[a]:
            assert beaten_by[b] <= beaten_by[a], (a, b)


# ---------------------------------------------------------------- R5.1 roast


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("R", "B"),
        ("RR", "R"),
        ("BB", "B"),
        ("BBB", "R"),
        ("RR", "B"),  # size may differ
        ("RRB", "RR"),
        ("RR999", "R888"),  # same count, higher rank, more joker power
        ("BBB999", "R888"),  # joker power 3 > 2
        ("R4", "B3"),  # R4 win as well
        ("RRJJJ", "BB999"),  # R4 wins still allowed under roast
        ("RRRJJ", "BB999"),
        ("B777", "6666"),
    ],
)
def test_r5_1_roast_beats_examples(response: str, current: str) -> None:
    assert beats(response, current, ROAST)


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("B", "B"),  # equal joker power
        ("R", "BB"),
        ("BB", "R"),
        ("R9", "B"),  # non-joker part must be empty when the current one is
        ("RRB", "B9"),  # ... and of the same count otherwise
        ("RR99", "B9"),
        ("RR8", "B9"),  # ... with a strictly higher rank
        ("RR9", "B9"),
        ("9999", "B888"),  # no joker power at all
        ("RRRR9", "8888"),  # the current play has no joker: R4 only
        ("RRR", "22"),
    ],
)
def test_r5_1_roast_does_not_beat_examples(response: str, current: str) -> None:
    assert not beats(response, current, ROAST)


@pytest.mark.parametrize(
    ("response", "current"),
    [("RR", "R"), ("BB", "B"), ("BBB", "R"), ("RR", "B"), ("RR999", "R888")],
)
def test_r5_1_roast_wins_need_roast(response: str, current: str) -> None:
    """The extra R5.1 wins are off without the option (R4 alone)."""
    assert beats(response, current, ROAST)
    assert not beats(response, current, CLASSIC)
    assert not beats(response, current)


def test_r5_1_roast_matches_literal_definition_exhaustively() -> None:
    for current in SMALL_PLAYS:
        for response in SMALL_PLAYS:
            assert beats(response, current, ROAST) == reference_beats(response, current, True), (
                response,
                current,
            )


@given(plays(), plays())
def test_r5_1_roast_matches_literal_definition(response: Play, current: Play) -> None:
    assert beats(response, current, ROAST) == reference_beats(response, current, True)


def test_r5_1_roast_is_not_transitive() -> None:
    """R5.1 as written: BBJ > BT (roast) and BT > 99 (R4), yet BBJ does not beat 99."""
    assert beats("BBJ", "BT", ROAST)
    assert beats("BT", "99", ROAST)
    assert not beats("BBJ", "99", ROAST)
