"""R2 play notation, R3 what a play is, R4 beating, R5.1 roast (烤牌), R5.2 filler 2s and the QQ
joker rule, and the holding rules R6.7/R6.8 as play properties."""

from __future__ import annotations

import copy
import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import NotationError, Play, Rules, beats, legal_plays, parse_cards
from baohuang.engine.cards import CARDS, TWO, Card, rank_index
from baohuang.engine.movegen import rank_counts
from baohuang.engine.plays import allowed, must_empty_hand
from helpers.reference import literal_beats_r4, reference_beats
from helpers.rulesets import (
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
from helpers.strategies import ALL_PLAYS, MAX_COUNT, filled_plays, plays

#: Plays of up to five cards: every pair of them is checked exhaustively.
SMALL_PLAYS = [p for p in ALL_PLAYS if p.size <= 5]
#: Plays of up to four cards, with and without filler 2s (R5.2): checked pairwise too.
SMALL_MIXED = [p for p in ALL_PLAYS if p.size <= 4] + filled_plays(4)
ROAST_TWOS = variant(roast=True, twos_wild=True)
#: One rule set per joker rule (R4, R5.1, R5.2 QQ), each with and without twos_wild.
JOKER_RULES = (CLASSIC, TWOS_WILD, ROAST, ROAST_TWOS, QQ_JOKERS, QQ)


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


@given(plays(max_twos=MAX_COUNT), st.sampled_from(CARDS))
def test_r2_copies_and_pickles_of_plays_and_cards_are_themselves(play: Play, card: Card) -> None:
    """Plays and cards compare by identity: a copy (a search bot copied to look ahead) or an
    unpickled one (a bot's state in another process) is the interned object itself."""
    for thing in (play, card, (play, [card])):
        for again in (copy.copy(thing), copy.deepcopy(thing), pickle.loads(pickle.dumps(thing))):
            assert again == thing and (again is thing or isinstance(thing, tuple))
    assert copy.deepcopy([play])[0] is play and pickle.loads(pickle.dumps([card]))[0] is card


@given(plays(max_twos=MAX_COUNT), st.randoms(use_true_random=False), st.booleans())
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
            assert beats(response, current, ROAST) == reference_beats(response, current, ROAST), (
                response,
                current,
            )


@given(plays(), plays())
def test_r5_1_roast_matches_literal_definition(response: Play, current: Play) -> None:
    assert beats(response, current, ROAST) == reference_beats(response, current, ROAST)


def test_r5_1_roast_is_not_transitive() -> None:
    """R5.1 as written: BBJ > BT (roast) and BT > 99 (R4), yet BBJ does not beat 99."""
    assert beats("BBJ", "BT", ROAST)
    assert beats("BT", "99", ROAST)
    assert not beats("BBJ", "99", ROAST)


# ---------------------------------------------------------------- R5.2 filler 2s: notation


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("22999", "99922"),
        ("B99922", "B99922"),
        ("2B9299", "B99922"),
        ("9 2", "92"),
        ("R2T2", "RT22"),
        ("101022", "TT22"),
        ("2222", "2222"),  # 2s alone are a set of 2s
        ("B22", "B22"),
        ("2R", "R2"),
    ],
)
def test_r5_2_filler_parse_canonical(text: str, canonical: str) -> None:
    """R2/R5.2: the rank, then the filler 2s; order-free."""
    play = Play.parse(text)
    assert str(play) == canonical
    assert Play.parse(canonical) is play


def test_r5_2_filler_fields() -> None:
    play = Play.parse("B99922")
    assert (play.rank, play.count, play.twos, play.small, play.big) == (6, 3, 2, 1, 0)
    assert (play.size, play.set_size, play.jokers) == (6, 5, 1)
    assert play.has_rank(6) and not play.has_rank(TWO)
    twos = Play.parse("R22")
    assert (twos.rank, twos.count, twos.twos, twos.set_size, twos.size) == (TWO, 2, 0, 2, 3)
    assert Play.parse("RB").set_size == 0
    assert all(p.twos == 0 and p.set_size == p.count for p in ALL_PLAYS)


def test_r5_2_filler_of_is_interned() -> None:
    assert Play.of(6, 3, 1, 0, 2) is Play.parse("B99922") is Play.parse("9B2992")
    assert Play.of(6, 3, 1, 0, 0) is Play.of(6, 3, 1) is Play.parse("B999")
    assert Play.of(0, 1, twos=1) is not Play.of(0, 2)


@pytest.mark.parametrize(
    "args",
    [
        (TWO, 1, 0, 0, 1),  # 2s do not fill a set of 2s
        (6, 0, 0, 0, 1),  # a filled set needs a natural card
        (-1, 0, 1, 0, 1),
        (6, 1, 0, 0, 17),
        (6, 17, 0, 0, 1),
        (6, 1, 5, 0, 1),
        (6, 1, 0, -1, 1),
        (6, 1, 0, 0, -1),
    ],
)
def test_r5_2_filler_of_rejects_impossible(args: tuple[int, int, int, int, int]) -> None:
    with pytest.raises(NotationError, match="no such play"):
        Play.of(*args)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("992J", "'992J'.*mixes ranks 9J"),
        ("2" * 17, "more cards"),
        ("9" + "2" * 17, "more cards"),
        ("9" * 17 + "2", "more cards"),
    ],
)
def test_r5_2_bad_filler_play_raises(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        Play.parse(text)


def test_r5_2_filler_round_trip() -> None:
    """Every filler play of up to six cards, and the largest, survive str and parse."""
    filled = [*filled_plays(6), Play.of(11, 16, 4, 4, 16)]
    assert len(set(filled)) == len(filled)
    for play in filled:
        assert Play.parse(str(play)) is play
        assert str(play).endswith("2" * play.twos)


def test_r5_2_filler_from_cards() -> None:
    assert Play.from_cards(parse_cards("9h 2s 9c B")) is Play.parse("B992")
    assert Play.from_cards(parse_cards("2s 9h 2c")) is Play.parse("922")
    assert Play.from_cards(parse_cards("2s 2h R*")) is Play.parse("R22")
    with pytest.raises(NotationError, match=re.escape("mix ranks 9 and J")):
        Play.from_cards(parse_cards("9h 2s Jh"))


def test_r5_2_fits_counts_filler_2s() -> None:
    counts = rank_counts(parse_cards("9h 9s 2c 2d B"))
    assert Play.parse("B9922").fits(counts)
    assert Play.parse("22").fits(counts)
    assert not Play.parse("9222").fits(counts)
    assert not Play.parse("999").fits(counts)
    assert not Play.parse("R9").fits(counts)


def test_r5_2_allowed_needs_twos_wild() -> None:
    """R3: without twos_wild a 2 is just a rank, and a play mixing it with another is illegal."""
    filled = Play.parse("B992")
    assert not allowed(filled, CLASSIC) and not allowed(filled, ROAST)
    assert allowed(filled, TWOS_WILD) and allowed(filled, Rules.preset("qq"))
    assert all(allowed(p, r) for p in SMALL_PLAYS[:50] for r in (CLASSIC, TWOS_WILD))


# ---------------------------------------------------------------- R4 with filler 2s


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("99922", "88888"),  # a filling 2 counts as the set's rank
        ("B9922", "88888"),
        ("R9922", "B8888"),
        ("RR922", "BB888"),
        ("99922", "88822"),
        ("9922", "8888"),
        ("22222", "AAA22"),  # natural 2s outrank a filled A-set
        ("8888", "7722"),
    ],
)
def test_r4_filler_beats_examples(response: str, current: str) -> None:
    assert beats(response, current, TWOS_WILD)
    assert not beats(current, response, TWOS_WILD)


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("AA222", "22222"),  # a filled A-set is a set of As, below 2s
        ("88822", "88888"),  # same rank
        ("88888", "88822"),
        ("99922", "B8888"),  # small jokers must be answered by big jokers
        ("B9922", "B8888"),
        ("9922", "88888"),  # different sizes
        ("RR922", "R8888"),  # R is unbeatable under R4
    ],
)
def test_r4_filler_does_not_beat_examples(response: str, current: str) -> None:
    assert not beats(response, current, TWOS_WILD)


@pytest.mark.parametrize(
    "rules", [CLASSIC, ROAST, QQ_JOKERS, None], ids=lambda r: rules_id(r) if r else "none"
)
def test_r4_filler_response_needs_twos_wild(rules: Rules | None) -> None:
    assert not beats("99922", "88888", rules)
    assert not beats("RR922", "B88", rules)
    assert beats("99999", "88888", rules)


@pytest.mark.parametrize("rules", JOKER_RULES, ids=rules_id)
def test_r4_r5_matches_reference_exhaustively(rules: Rules) -> None:
    """All pairs of plays up to four cards, filler plays too: engine = docs/rules.md as written."""
    for current in SMALL_MIXED:
        for response in SMALL_MIXED:
            assert beats(response, current, rules) == reference_beats(response, current, rules), (
                response,
                current,
            )


@given(plays(max_twos=6), plays(max_twos=6), st.sampled_from(OPTION_RULES))
def test_r4_r5_matches_reference(response: Play, current: Play, rules: Rules) -> None:
    assert beats(response, current, rules) == reference_beats(response, current, rules)


# ---------------------------------------------------------------- R5.2 QQ joker rule


@pytest.mark.parametrize(("current", "need"), [("B777777", 1), ("R777777", 2), ("RB77777", 3)])
@pytest.mark.parametrize("small", [0, 1])
def test_r5_2_qq_big_jokers_needed(current: str, need: int, small: int) -> None:
    """R5.2: ``B777777`` needs one R, ``R777777`` needs RR, ``RB…`` needs RRR; the response's
    own small jokers do not count."""
    eight = rank_index("8")
    for big in range(5):
        response = Play.of(eight, 7 - big - small, small, big)
        assert beats(response, current, QQ_JOKERS) == (big >= need), response


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("R888888", "B777777"),
        ("RR88888", "R777777"),  # a play with R can be beaten
        ("RRR8888", "R777777"),
        ("RRR8888", "RB77777"),
        ("RRRB888", "RB77777"),
        ("RR99922", "R888888"),  # with filler 2s (twos_wild)
        ("R2", "B7"),
        ("RB", "B7"),  # [decision] a pure-joker response counts as higher than any rank
        ("RR", "B7"),
        ("BB", "77"),
        ("R", "B"),
        ("RR", "BB"),
        ("8888", "7777"),
        ("B99", "888"),
    ],
)
def test_r5_2_qq_beats_examples(response: str, current: str) -> None:
    assert beats(response, current, QQ)
    assert not beats(current, response, QQ)


@pytest.mark.parametrize(
    ("response", "current"),
    [
        ("BB88888", "B777777"),  # no R
        ("8888888", "B777777"),
        ("R777777", "B777777"),  # the rank must be strictly higher
        ("R888888", "R777777"),  # one R against one R
        ("RR77777", "R777777"),
        ("RR88888", "RB77777"),  # two R against RB
        ("RRBB888", "RB77777"),
        ("RR", "R"),  # same number of cards
        ("R", "R"),
        ("RR", "RB"),
        ("RB7", "BB7"),
        ("RBB9", "BB88"),
        ("99922", "88888"),  # filler 2s need twos_wild
    ],
)
def test_r5_2_qq_does_not_beat_examples(response: str, current: str) -> None:
    assert not beats(response, current, QQ_JOKERS)


@pytest.mark.parametrize("current", ["RR7777", "RRR777", "RRB777", "RR", "RRRR", "RR22"])
def test_r5_2_qq_two_big_jokers_cannot_be_beaten(current: str) -> None:
    """000: "如过配大王，1张大王就用2张大王管，2张大王没人能管": a play holding two or more R
    stands against anything, four R included."""
    rules = Rules.preset("qq")
    size = Play.parse(current).size
    assert not any(beats(p, current, rules) for p in ALL_PLAYS if p.size == size)
    assert not beats("RRRR88", "RR7777", rules)
    hand = "R R R R B B B B " + " ".join(["As"] * 8 + ["2s"] * 8)
    assert legal_plays(hand, current, rules) == []


def test_r5_2_qq_needs_the_option() -> None:
    """Without qq_jokers a play with R stays unbeatable (R4)."""
    assert beats("RR88888", "R777777", QQ_JOKERS)
    assert not beats("RR88888", "R777777", TWOS_WILD)
    assert not beats("RR88888", "R777777", CLASSIC)


def test_r5_2_qq_keeps_every_r4_win() -> None:
    """Against a play without R, the QQ rule is R4 (it needs s big jokers against s B)."""
    for current in SMALL_MIXED:
        for response in SMALL_MIXED:
            if beats(response, current, TWOS_WILD):
                assert beats(response, current, QQ), (response, current)
            elif not current.big:
                assert not beats(response, current, QQ), (response, current)


@given(plays(max_twos=4), st.sampled_from([QQ_JOKERS, QQ]))
def test_r5_2_qq_irreflexive(play: Play, rules: Rules) -> None:
    assert not beats(play, play, rules)


# ---------------------------------------------------------------- R6.7 / R6.8 held ranks


@pytest.mark.parametrize(
    ("play", "rules", "held"),
    [
        ("66", HOLD_SIXES, True),
        ("B66", HOLD_SIXES, True),
        ("6622", variant(hold_sixes=True, twos_wild=True), True),  # filler 2s: still 6s
        ("22", HOLD_SIXES, False),
        ("7", HOLD_SIXES, False),
        ("33", HOLD_SIXES, False),
        ("66", CLASSIC, False),
        ("33", HOLD_THREES, True),
        ("R332", variant(hold_threes=True, twos_wild=True), True),
        ("66", HOLD_THREES, False),
        ("RB", HOLD_THREES, False),
        ("66", variant(hold_sixes=True, hold_threes=True), True),
        ("3", variant(hold_sixes=True, hold_threes=True), True),
    ],
    ids=lambda x: rules_id(x) if isinstance(x, Rules) else str(x),
)
def test_r6_8_must_empty_hand(play: str, rules: Rules, held: bool) -> None:
    """R6.7 憋6 and R6.8 清3: a play containing a held rank must be the final play."""
    assert must_empty_hand(Play.parse(play), rules) is held
