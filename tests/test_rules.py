"""R7 rule sets: presets, options, validation, and their dict form."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from baohuang import Rules, RulesError
from conftest import ALL_RULES, CLASSIC, rules_id


def test_r7_classic_defaults() -> None:
    assert CLASSIC == Rules() == Rules.preset()
    assert CLASSIC.to_dict() == {
        "name": "classic",
        "selection": "called",
        "ranks_from": "3",
        "emperor_card_aside": True,
        "roast": False,
        "twos_wild": False,
        "hold_sixes": False,
        "hold_threes": False,
        "tribute": True,
        "scoring": "classic",
        "win_rule": "team",
    }
    assert CLASSIC.lowest_rank == 0


@pytest.mark.parametrize(
    ("options", "field", "value"),
    [
        ({"roast": True}, "roast", True),
        ({"hold_sixes": True}, "hold_sixes", True),
        ({"tribute": False}, "tribute", False),
        ({"ranks_from": "6"}, "ranks_from", "6"),
        ({"ranks_from": 5}, "ranks_from", "5"),
        ({"ranks_from": "4"}, "ranks_from", "4"),
        ({"ranks_from": "3"}, "ranks_from", "3"),
    ],
)
def test_r7_override_option(options: dict[str, Any], field: str, value: object) -> None:
    rules = Rules.preset("classic", **options)
    assert getattr(rules, field) == value
    assert rules.name == "classic"
    others = {k: v for k, v in rules.to_dict().items() if k != field}
    assert others == {k: v for k, v in CLASSIC.to_dict().items() if k != field}
    assert CLASSIC.with_options(**options) == rules


def test_r7_ranks_from_sets_lowest_rank() -> None:
    assert [Rules.preset(ranks_from=r).lowest_rank for r in "3456"] == [0, 1, 2, 3]
    assert Rules.preset(ranks_from="6", hold_sixes=True).hold_sixes


@pytest.mark.parametrize(
    ("name", "words"),
    [("nope", "unknown preset 'nope'.*classic"), ("weihai", "'weihai'.*planned")],
)
def test_r7_unknown_preset(name: str, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.preset(name)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"roasting": True}, "unknown option 'roasting'"),
        ({"roast": 1}, "roast takes true or false, not 1"),
        ({"hold_sixes": "yes"}, "hold_sixes takes true or false, not 'yes'"),
        ({"tribute": None}, "tribute takes true or false, not None"),
        ({"ranks_from": "x"}, "ranks_from.*'x'"),
        ({"ranks_from": None}, "ranks_from"),
        ({"ranks_from": "7"}, "ranks_from may be 3, 4, 5 or 6, not 7"),
        ({"ranks_from": "A"}, "ranks_from may be 3, 4, 5 or 6, not A"),
        ({"ranks_from": 10}, "ranks_from may be 3, 4, 5 or 6, not T"),
        ({"hold_sixes": True, "ranks_from": "7"}, "hold_sixes needs 6s.*7"),
        ({"hold_sixes": True, "ranks_from": "K"}, "hold_sixes needs 6s.*K"),
        ({"twos_wild": True}, "not supported.*twos_wild"),
        ({"hold_threes": True}, "not supported.*hold_threes"),
        ({"hold_threes": True, "ranks_from": "4"}, "hold_threes needs 3s.*4"),
    ],
)
def test_r7_bad_options_raise(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words) as info:
        Rules.preset("classic", **options)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("field", ["name", "scoring", "selection", "emperor_card_aside"])
def test_r7_only_options_can_be_overridden(field: str) -> None:
    """Fields that a preset fixes are not options (R7): with_options refuses them."""
    with pytest.raises(RulesError, match=f"unknown option '{field}'"):
        CLASSIC.with_options(**{field: getattr(CLASSIC, field)})


def test_r7_rules_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.roast = True  # type: ignore[misc]
    assert hash(Rules.preset("classic", roast=True)) == hash(Rules(roast=True))
    assert len(set(ALL_RULES)) == len(ALL_RULES) == 4
    assert {CLASSIC: 1}[Rules()] == 1


@pytest.mark.parametrize(
    "rules", [*ALL_RULES, Rules.preset(ranks_from="6", tribute=False)], ids=rules_id
)
def test_r7_dict_round_trip(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"extra": 1}, "unknown rules field.*extra"),
        ({"ranks_from": "7"}, "ranks_from"),
        ({"hold_sixes": True, "ranks_from": "8"}, "hold_sixes"),
        ({"selection": "fixed"}, "not supported.*selection=fixed"),
    ],
)
def test_r7_from_dict_rejects_bad_rules(change: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_dict({**CLASSIC.to_dict(), **change})


@pytest.mark.parametrize(
    "change",
    [
        {"roast": "yes"},
        {"tribute": 1},
        {"hold_sixes": None},
        {"ranks_from": None},
        {"ranks_from": 9},
        {"scoring": "bogus"},
        {"win_rule": "best"},
        {"selection": 3},
    ],
    ids=str,
)
def test_r7_from_dict_rejects_wrong_types(change: dict[str, Any]) -> None:
    """A stored record with a mistyped or unknown option value is a RulesError, as in
    with_options, never a silently accepted Rules or a TypeError."""
    with pytest.raises(RulesError):
        Rules.from_dict({**CLASSIC.to_dict(), **change})


def test_r7_from_dict_reads_ranks_from_as_number_like_with_options() -> None:
    """ranks_from=6 means the rank 6, in a stored record as in with_options."""
    rules = Rules.from_dict({**CLASSIC.to_dict(), "ranks_from": 6})
    assert rules.ranks_from == "6"
    assert rules == Rules.preset("classic", ranks_from=6)
