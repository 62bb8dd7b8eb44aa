"""R2 cards and their notation: parsing, formatting, ids, the pack."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given

from baohuang import Card, NotationError, format_cards, parse_cards
from baohuang.engine.cards import CARDS, SUIT_SYMBOLS, deck, sort_cards
from helpers.strategies import PACK, cards_lists


@pytest.mark.parametrize(
    ("text", "card_id"),
    [
        ("9h", 6 * 4 + 1),
        ("Ts", 7 * 4 + 0),
        ("10s", 7 * 4 + 0),
        ("10c", 7 * 4 + 3),
        ("3s", 0),
        ("2c", 51),
        ("Ad", 11 * 4 + 2),
        ("B", 52),
        ("R", 53),
        ("B*", 54),
        ("R*", 55),
    ],
)
def test_r2_card_parse(text: str, card_id: int) -> None:
    assert Card.parse(text) is CARDS[card_id]
    assert parse_cards(text) == [CARDS[card_id]]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9H", "9h"),
        ("TS", "Ts"),
        ("ts", "Ts"),
        ("10S", "Ts"),
        ("b", "B"),
        ("r*", "R*"),
        (" 9h ", "9h"),
    ],
)
def test_r2_card_parse_ignores_case_and_spaces(text: str, canonical: str) -> None:
    """Upper and lower case are both read, by Card.parse and parse_cards alike."""
    assert str(Card.parse(text)) == canonical
    assert [str(c) for c in parse_cards(text)] == [canonical]


def test_r2_card_ids_and_str() -> None:
    for i, card in enumerate(CARDS):
        assert card.id == i
        assert Card.parse(str(card)) is card
    for card in CARDS[:52]:
        assert card.suit == SUIT_SYMBOLS[card.id % 4]
        assert card.rank == card.id // 4
        assert not card.is_joker
    assert [str(c) for c in CARDS[52:]] == ["B", "R", "B*", "R*"]
    assert all(c.is_joker for c in CARDS[52:])


@pytest.mark.parametrize(
    "text", ["9h 9h 9s B R*", "9h9h9sBR*", "  9h  9h\t9s B R* ", "9H9h9S b r*"]
)
def test_r2_parse_cards_with_and_without_spaces(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["9h", "9h", "9s", "B", "R*"]


def test_r2_parse_cards_ten_spelled_10() -> None:
    assert parse_cards("10s10hTdB*") == [Card.parse(t) for t in ("Ts", "Th", "Td", "B*")]


def test_r2_parse_cards_empty_is_empty_hand() -> None:
    assert parse_cards("") == []
    assert parse_cards("   ") == []


def test_r2_parse_cards_accepts_lists() -> None:
    nine = Card.parse("9h")
    assert parse_cards(["9h", nine, "R*"]) == [nine, nine, CARDS[55]]


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("9x", "9x"),
        ("Z", "Z"),
        ("9h 9x 9s", "9x"),
        ("9hZ", "Z"),
        ("1s", "1s"),
        ("0h", "0h"),
        ("9h 1s", "1s"),
    ],
)
def test_r2_bad_cards_raise_notation_error_naming_token(text: str, token: str) -> None:
    """Bad input raises NotationError (a ValueError) naming the bad token, never KeyError."""
    with pytest.raises(NotationError, match=re.escape(repr(token))):
        parse_cards(text)


@pytest.mark.parametrize("text", ["9x", "Z", "", "9", "h", "R**", "9h9h"])
def test_r2_bad_card_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match=re.escape(repr(text))):
        Card.parse(text)
    assert issubclass(NotationError, ValueError)


def _parse_one(text: str) -> list[Card] | None:
    """Card.parse's answer as a list, or None when it raises NotationError."""
    try:
        return [Card.parse(text)]
    except NotationError:
        return None


def test_r2_parse_cards_agrees_with_card_parse_on_every_single_token() -> None:
    """Every one-card token: parse_cards reads it as Card.parse does, or raises NotationError
    when Card.parse does (never KeyError: e.g. ``1s``, ``0h``, ``tS``)."""
    firsts = [*"0123456789TJQKAtjqkaBRbrxZ*", "10"]
    tokens = [a + b for a in firsts for b in ["", *"shdcSHDC*xZ"]]
    for token in tokens:
        expected = _parse_one(token)
        if expected is None:
            with pytest.raises(NotationError):
                parse_cards(token)
        else:
            assert parse_cards(token) == expected, token


def test_r2_format_cards_high_first_suits_in_order() -> None:
    cards = parse_cards("3s 9h R B* 9s 2c Td")
    assert format_cards(cards) == "R B* 2c Td 9s 9h 3s"
    assert format_cards([]) == ""


@given(cards_lists())
def test_r2_format_parse_round_trip(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == sort_cards(cards)
    assert parse_cards(text.replace(" ", "")) == sort_cards(cards)
    assert Counter(parse_cards(text)) == Counter(cards)


def test_r2_pack_four_decks() -> None:
    """R2: four copies of every suited card and of each joker, 216 cards."""
    assert len(PACK) == 216
    assert Counter(PACK) == dict.fromkeys(CARDS[:54], 4)


def test_r2_pack_marked_jokers_and_ranks_from() -> None:
    marked = Counter(deck(marked="RB"))
    assert [marked[card] for card in CARDS[52:]] == [3, 3, 1, 1]  # B R B* R*
    assert len(marked) == 56 and sum(marked.values()) == 216
    assert len(deck(ranks_from=3)) == 168  # R7: no 3/4/5
    assert min(c.rank for c in deck(ranks_from=3)) == 3
