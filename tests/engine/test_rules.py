"""R7 rule sets: presets, options, validation, and their dict form."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from baohuang import Rules, RulesError
from baohuang.engine.rules import PRESETS
from helpers.rulesets import ALL_RULES, CLASSIC, rules_id


def test_r7_classic_defaults() -> None:
    assert CLASSIC == Rules() == Rules.preset()
    assert CLASSIC.to_dict() == {
        "name": "classic",
        "selection": "called",
        "ranks_from": "3",
        "removed_sixes": 0,
        "emperor_card_aside": True,
        "qq_chain": False,
        "qq_open_guard": False,
        "open_solo_anyone": False,
        "yielding": False,
        "rebellion": False,
        "kick": False,
        "grab_solo": False,
        "roast": False,
        "twos_wild": False,
        "qq_jokers": False,
        "hold_sixes": False,
        "hold_threes": False,
        "tribute": True,
        "scoring": "classic",
        "win_rule": "team",
        "dissolve_on_auto": False,
    }
    assert CLASSIC.lowest_rank == 0 and CLASSIC.marked == ""


_KK_SIMPLE = {
    "selection": "fixed",
    "ranks_from": "6",
    "emperor_card_aside": False,
    "yielding": True,
    "rebellion": True,
    "tribute": False,
    "scoring": "kk",
}
_KK_CLASSIC = {
    "selection": "kk_classic",
    "emperor_card_aside": False,
    "rebellion": True,
    "grab_solo": True,
    "tribute": False,
    "scoring": "kk",
}
#: R7's table, row by row: what each preset changes from `classic`, and its marked jokers.
PRESET_TABLE: dict[str, tuple[dict[str, Any], str]] = {
    "classic": ({}, ""),
    # 165 cards: no 3/4/5, three 6s removed; R9 + 明独 by anyone, 踢; 憋6; R10.2; no tribute
    "weihai": (
        {
            "selection": "fixed",
            "ranks_from": "6",
            "removed_sixes": 3,
            "emperor_card_aside": False,
            "open_solo_anyone": True,
            "rebellion": True,
            "kick": True,
            "hold_sixes": True,
            "tribute": False,
            "scoring": "weihai",
        },
        "RB",
    ),
    # 168 cards: no 3/4/5; R9 with yielding and 造反; R10.1's KK rule ×造反; no tribute
    # R13 (revised turn 2): a person on 托管 at the end of a game ends a KK match
    "kk_simple": ({**_KK_SIMPLE, "dissolve_on_auto": True}, "RB"),
    "lianzhong_simple": (_KK_SIMPLE, "RB"),
    # 216 cards; R11 (叫保 + 抢独, 造反 in KK only: R11.5 revised turn 3); R10.1 ×造反; no
    # tribute
    "kk_classic": ({**_KK_CLASSIC, "dissolve_on_auto": True}, "R"),
    "lianzhong_classic": ({**_KK_CLASSIC, "rebellion": False}, "R"),
    # 200 cards: no 3s; as classic with the QQ chain (R8.9: nothing aside) and QQ 明保
    # (R8.10); QQ's 2s and joker rule; R10.3; tribute
    "qq": (
        {
            "ranks_from": "4",
            "emperor_card_aside": False,
            "qq_chain": True,
            "qq_open_guard": True,
            "twos_wild": True,
            "qq_jokers": True,
            "win_rule": "qq",
        },
        "",
    ),
}


@pytest.mark.parametrize("name", PRESET_TABLE)
def test_r7_every_preset_has_the_tables_option_values(name: str) -> None:
    changes, marked = PRESET_TABLE[name]
    rules = Rules.preset(name)
    assert rules.to_dict() == {**CLASSIC.to_dict(), "name": name, **changes}
    assert rules.marked == marked
    assert Rules.from_dict(rules.to_dict()) == rules


def test_r7_presets_are_exactly_the_tables_rows() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("qq", {"ranks_from": "3", "hold_threes": True}),
        ("qq", {"ranks_from": "6"}),
        ("weihai", {"roast": True, "tribute": True}),
        ("kk_simple", {"hold_sixes": True, "twos_wild": True}),
        ("kk_classic", {"ranks_from": "6", "roast": True}),
    ],
    ids=str,
)
def test_r7_options_apply_to_any_preset(name: str, options: dict[str, Any]) -> None:
    rules = Rules.preset(name, **options)
    assert rules.name == name and all(getattr(rules, k) == v for k, v in options.items())
    others = {k: v for k, v in rules.to_dict().items() if k not in options}
    assert others == {k: v for k, v in Rules.preset(name).to_dict().items() if k not in options}


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
    [("nope", "unknown preset 'nope'.*classic.*weihai.*qq"), ("Weihai", "unknown preset")],
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
        ({"hold_threes": True, "ranks_from": "4"}, "hold_threes needs 3s.*4"),
    ],
)
def test_r7_bad_options_raise(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words) as info:
        Rules.preset("classic", **options)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "field",
    [
        "name",
        "scoring",
        "selection",
        "emperor_card_aside",
        "qq_chain",
        "qq_open_guard",
        "removed_sixes",
        "rebellion",
        "kick",
        "grab_solo",
        "qq_jokers",
    ],
)
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
        ({"selection": "fixed"}, "sets the emperor card aside.*only when the guard is called"),
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


@pytest.mark.parametrize(
    ("base", "change", "words"),
    [
        # R5.1 and R5.2 are two different joker rules
        ("qq", {"roast": True}, "roast.*QQ joker rule"),
        ("classic", {"roast": True, "qq_jokers": True}, "roast.*QQ joker rule"),
        # R9.6 踢 follows R9.5 造反
        ("weihai", {"rebellion": False}, "kick.*follows rebellion"),
        # options of one family of R8/R9/R11 only
        ("classic", {"kick": True, "rebellion": True}, "kick needs selection=fixed"),
        ("kk_classic", {"kick": True}, "kick needs selection=fixed, not kk_classic"),
        ("classic", {"open_solo_anyone": True}, "open_solo_anyone needs selection=fixed"),
        ("kk_classic", {"yielding": True}, "yielding needs selection=fixed"),
        ("weihai", {"grab_solo": True}, "grab_solo needs selection=kk_classic"),
        # weihai's three 6s: 0-4 copies, and only with 6s in the pack
        ("weihai", {"removed_sixes": 5}, "removed_sixes must be 0-4"),
        ("classic", {"removed_sixes": -1}, "removed_sixes must be 0-4"),
        ("classic", {"removed_sixes": True}, "removed_sixes takes a whole number"),
        ("weihai", {"hold_sixes": False, "ranks_from": "7"}, "ranks_from may be 3, 4, 5 or 6"),
        # R8.1, R8.9: a called guard's chain sets the emperor card aside or is QQ's, not both
        ("classic", {"emperor_card_aside": False}, "sets the emperor card aside"),
        ("weihai", {"emperor_card_aside": True}, "sets the emperor card aside"),
        ("kk_classic", {"emperor_card_aside": True}, "sets the emperor card aside"),
        ("kk_classic", {"qq_chain": True}, "sets the emperor card aside"),
        ("qq", {"emperor_card_aside": True}, "sets the emperor card aside.*or is the QQ chain"),
        ("qq", {"selection": "kk_classic"}, "sets the emperor card aside"),
        # R8.10: QQ 明保 is for a called guard
        ("weihai", {"qq_open_guard": True}, "qq_open_guard needs selection=called"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_r7_contradictions_raise(base: str, change: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_dict({**Rules.preset(base).to_dict(), **change})


@pytest.mark.parametrize(
    "options",
    [{"hold_threes": True, "ranks_from": "6"}, {"roast": True, "qq_jokers": False, "x": 1}],
    ids=str,
)
def test_r7_option_errors_speak_chinese(options: dict[str, Any]) -> None:
    """The terminal and the server show a refused option in the user's language."""
    with pytest.raises(RulesError) as info:
        Rules.preset("classic", **options)
    assert info.value.code.startswith("error.rules.") and info.value.text("zh") != str(info.value)
