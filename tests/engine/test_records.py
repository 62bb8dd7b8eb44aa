"""Game records: write, read and replay round-trip; corrupt records raise RecordError."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baohuang import Escape, Game, RecordError, read_record, replay, to_record, write_record
from baohuang.engine.rules import RULES_VERSION
from helpers.drivers import find_game, play_match, random_game, reach
from helpers.policies import FIRST_DEAL_DECLINER, varied
from helpers.reading import snapshot
from helpers.rulesets import PRESET_NAMES, PRESETS

Record = dict[str, Any]


def round_trip(game: Game, path: Path, match: dict[str, Any] | None = None) -> Game:
    """Write ``game``'s record, read it back and replay it."""
    write_record(game, path, match)
    return replay(read_record(path))


@pytest.mark.parametrize("seed", range(6))
def test_record_round_trip_reproduces_result_and_events(seed: int, tmp_path: Path) -> None:
    game = random_game(seed)
    path = tmp_path / "game.json"
    again = round_trip(game, path)
    assert again.result == game.result and again.events == game.events
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["events"] == game.events_for(None)
    assert game.result is not None and data["result"] == game.result.to_dict()
    assert again.actions == game.actions


def test_record_round_trip_of_a_void_deal(tmp_path: Path) -> None:
    game = find_game(lambda g: g.deal_no > 0, FIRST_DEAL_DECLINER)
    again = round_trip(game, tmp_path / "void.json")
    assert again.events == game.events and again.deal_no == game.deal_no


def test_record_round_trip_of_a_match_game_with_tribute(tmp_path: Path) -> None:
    _, games = play_match(2, 3)
    game = next(g for g in games if any(e.kind == "tribute" for e in g.events))
    info = {"seed": 2, "game": games.index(game), "games": 3}
    again = round_trip(game, tmp_path / "tribute.json", info)
    assert again.previous == game.previous and again.events == game.events
    assert read_record(tmp_path / "tribute.json")["match"] == info


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_record_round_trip_of_every_preset(name: str, tmp_path: Path) -> None:
    for seed in range(3):
        game = random_game(seed, varied(seed), rules=PRESETS[name])
        again = round_trip(game, tmp_path / f"{name}-{seed}.json")
        assert again.rules == game.rules and again.actions == game.actions
        assert again.result == game.result and again.events == game.events


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_record_of_an_escape_replays(name: str, tmp_path: Path) -> None:
    """R10.4: the escape is recorded with the escaper's seat, whoever was to act."""
    game = reach(lambda g: g.phase == "play" and len(g.actions) > 20, rules=PRESETS[name])
    seat = ((game.current_seat or 0) + 1) % 5
    game.apply(Escape(seat))
    data = to_record(game)
    assert data["actions"][-1] == {"seat": seat, "action": f"escape {seat}"}
    assert data["result"]["escaped"] == seat and data["result"]["outcome"] == "escape"
    again = round_trip(game, tmp_path / "escape.json")
    assert again.result == game.result and again.events == game.events
    data["actions"][-1]["seat"] = (seat + 1) % 5
    with pytest.raises(RecordError, match="recorded for seat"):
        replay(data)


@pytest.mark.parametrize("name", ["weihai", "kk_simple", "kk_classic"])
def test_record_of_a_later_match_game_keeps_its_dealer(name: str, tmp_path: Path) -> None:
    """R9.1: the previous result in the record makes the replay deal from its emperor."""
    _, games = play_match(1, 2, varied(1), PRESETS[name])
    second = games[1]
    again = round_trip(second, tmp_path / "second.json")
    assert again.previous == second.previous is not None
    dealer = again.events[0].public["dealer"]
    assert dealer == second.previous.emperor and again.events == second.events


def test_record_of_an_unfinished_game_replays_to_the_same_state(tmp_path: Path) -> None:
    game = reach(lambda g: g.phase == "play" and len(g.actions) > 30)
    again = round_trip(game, tmp_path / "partial.json")
    assert snapshot(again) == snapshot(game) and again.result is None


# ---------------------------------------------------------------------- corrupt records


@pytest.fixture(scope="module")
def record() -> Record:
    return to_record(random_game(5))


def first(data: Record, wanted: Callable[[str], bool]) -> int:
    """The index of the first recorded action whose text satisfies ``wanted``."""
    return next(i for i, a in enumerate(data["actions"]) if wanted(a["action"]))


def edit_action(text: str, wanted: Callable[[str], bool]) -> Callable[[Record], int]:
    """An edit replacing the first action matching ``wanted`` by ``text``; gives its index."""

    def edit(data: Record) -> int:
        index = first(data, wanted)
        data["actions"][index]["action"] = text
        return index

    return edit


def is_play(text: str) -> bool:
    """A recorded play (exact cards), not a pass or a role or tribute decision."""
    words = ("pass", "accept", "decline", "call", "solo", "tribute", "transfer", "show")
    return text.split()[0] not in (*words, "rebel", "kick", "grab", "escape")


def wrong_seat(data: Record) -> int:
    index = first(data, lambda a: a == "pass")
    data["actions"][index]["seat"] = (data["actions"][index]["seat"] + 1) % 5
    return index


def missing_seat(data: Record) -> int:
    del data["actions"][3]["seat"]
    return 3


def extra_action(data: Record) -> int:
    data["actions"].append({"seat": 0, "action": "pass"})
    return len(data["actions"]) - 1


INDEXED_EDITS: dict[str, tuple[Callable[[Record], int], str]] = {
    "pass-when-leading": (edit_action("pass", is_play), "cannot pass"),
    "malformed-action": (edit_action("9x", is_play), "bad card"),
    "mixed-ranks": (edit_action("98", is_play), "mixes ranks"),
    "cards-not-held": (edit_action("2c 2c 2c 2c 2c", is_play), "seat [0-4], .*you hold"),
    "wrong-seat": (wrong_seat, "recorded for seat"),
    "missing-seat": (missing_seat, "needs a seat"),
    "after-game-over": (extra_action, "seat None is to act"),
}


@pytest.mark.parametrize("name", INDEXED_EDITS)
def test_corrupt_action_names_its_index(name: str, record: Record) -> None:
    data = copy.deepcopy(record)
    edit, message = INDEXED_EDITS[name]
    index = edit(data)
    with pytest.raises(RecordError, match=f"action {index}: .*{message}") as caught:
        replay(data)
    assert caught.value.index == index


def drop(key: str) -> Callable[[Record], None]:
    return lambda data: data.pop(key)


def set_field(key: str, value: Any) -> Callable[[Record], None]:
    return lambda data: data.__setitem__(key, value)


def truncate_actions(data: Record) -> None:
    data["actions"] = data["actions"][:-3]


def change_scores(data: Record) -> None:
    data["result"]["scores"] = [s + 1 for s in data["result"]["scores"]]


ENVELOPE_EDITS: dict[str, tuple[Callable[[Record], None], str]] = {
    "wrong-format": (set_field("format", "other-record"), "not a baohuang-record"),
    "wrong-version": (set_field("version", 3), "version 3 is not supported"),
    "missing-actions": (drop("actions"), "'actions' is missing"),
    "missing-rules": (drop("rules"), "'rules' is missing"),
    "missing-deals": (drop("deals"), "'deals' is missing"),
    "version-1-without-seed": (
        lambda data: (data.pop("seed"), data.__setitem__("version", 1)),
        "'seed' is missing",
    ),
    "short-deal": (
        lambda data: data["deals"][0]["hands"][0].pop(),
        "deal 0 is not five hands of this pack",
    ),
    "bad-deal-card": (
        lambda data: data["deals"][0]["hands"][1].__setitem__(0, "Zz"),
        "deal 0 is missing or malformed",
    ),
    "unknown-rule": (set_field("rules", {"name": "classic", "bogus": 1}), "bad rules"),
    "bad-previous": (set_field("previous", {"emperor": 1}), "bad rules or previous result"),
    "truncated-actions": (truncate_actions, "do not finish"),
    "changed-result": (change_scores, "differs"),
}


@pytest.mark.parametrize("name", ENVELOPE_EDITS)
def test_corrupt_record_is_refused(name: str, record: Record) -> None:
    data = copy.deepcopy(record)
    edit, message = ENVELOPE_EDITS[name]
    edit(data)
    with pytest.raises(RecordError, match=message):
        replay(data)


def swap_same_rank_singles(data: Record) -> None:
    """Make two single-card plays of one seat trade their same-rank cards (not the called one).

    Every action stays legal and the result is unchanged; only the cards in the log differ.
    """
    called = next(e["card"] for e in data["events"] if e["kind"] in ("call", "open_solo"))
    singles = [
        (i, a["seat"], a["action"])
        for i, a in enumerate(data["actions"])
        if is_play(a["action"]) and len(a["action"]) == 2 and a["action"] != called
    ]
    i, j = next(
        (i, j)
        for i, seat, card in singles
        for j, other_seat, other in singles
        if i < j and seat == other_seat and card[0] == other[0] and card != other
    )
    actions = data["actions"]
    actions[i]["action"], actions[j]["action"] = actions[j]["action"], actions[i]["action"]


def test_record_whose_actions_disagree_with_its_events_is_refused(record: Record) -> None:
    data = copy.deepcopy(record)
    swap_same_rank_singles(data)
    with pytest.raises(RecordError):
        replay(data)  # replays to other events than data["events"], yet is accepted today


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "baohuang-record", "version": 1, "rules"', "not a JSON record"),
        ("[1, 2, 3]", "not a baohuang-record"),
        (b"\xff\xfe".decode("latin-1"), "not a JSON record"),
    ],
    ids=["truncated-json", "not-an-object", "not-utf8"],
)
def test_unreadable_record_file(content: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="latin-1")
    with pytest.raises(RecordError, match=message):
        read_record(path)


def test_missing_record_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "absent.json")


#: Games recorded by the engine before a rules revision. Version 1 (no ``rules_version``
#: field), partial games: classic and QQ are untouched by the second revision where these
#: games went; weihai's 明保 now comes before 造反 (R9.4) and KK simple has no 转让 (R9.3).
#: Version 2, whole games before the third: classic untouched; a QQ 明保 game the rebels "won"
#: by QQ's rule while the emperor's side scored +8 (R10.3); a KK经典 明独保 that scored 16 for
#: 二科 (R10.1: now −32); a 联众经典 game with a 造反 poll (R11.5), whose rules say so.
RULES_V1 = Path(__file__).parents[1] / "records"


def test_records_carry_the_rules_version(record: Record) -> None:
    assert record["rules_version"] == RULES_VERSION == 3


@pytest.mark.parametrize("name", ["classic", "qq"])
def test_record_from_before_a_rules_change_replays_when_untouched(name: str) -> None:
    """A version-1 record replays under the rules it carries: classic did not change, and a QQ
    record's rules (no ``qq_chain``, R aside) keep the old chain (R8.9)."""
    data = read_record(RULES_V1 / f"rules-v1-{name}.json")
    assert "rules_version" not in data
    game = replay(data)
    assert game.events_for(None) == data["events"]


@pytest.mark.parametrize(
    ("name", "cause"),
    [("weihai", "recorded for seat"), ("kk_simple", "you cannot transfer")],
)
def test_record_from_before_a_rules_change_says_so(name: str, cause: str) -> None:
    data = read_record(RULES_V1 / f"rules-v1-{name}.json")
    with pytest.raises(RecordError, match=f"predates a rules change.*version 1.*{cause}") as info:
        replay(data)
    assert "早于规则修订" in info.value.text("zh")


@pytest.mark.parametrize("name", ["classic", "lianzhong_classic"])
def test_a_version_2_record_replays_when_the_third_revision_left_it_alone(name: str) -> None:
    """Classic did not change; a 联众经典 record carries its rules (``rebellion`` on), so its
    造反 poll replays as it was played (R11.5)."""
    data = read_record(RULES_V1 / f"rules-v2-{name}.json")
    assert data["rules_version"] == 2
    game = replay(data)
    assert game.result is not None and game.result.to_dict() == data["result"]
    assert game.events_for(None) == data["events"]


@pytest.mark.parametrize(
    ("name", "cause"),
    [
        ("qq", "differs from the recorded .*'outcome': 'rebels'"),
        ("kk_classic", "differs from the recorded .*'scores': \\[-4, 16"),
    ],
)
def test_a_version_2_record_the_third_revision_changed_says_so(name: str, cause: str) -> None:
    """R10.3, R10.1 (revised turn 3): such a record says which rules it was played under."""
    data = read_record(RULES_V1 / f"rules-v2-{name}.json")
    with pytest.raises(RecordError, match=f"predates a rules change.*version 2.*{cause}") as info:
        replay(data)
    assert "早于规则修订" in info.value.text("zh")


def test_record_from_a_newer_engine_is_refused(record: Record) -> None:
    data = {**record, "rules_version": RULES_VERSION + 1}
    with pytest.raises(RecordError, match="newer than this engine"):
        replay(data)


def test_a_record_lays_out_its_deals_and_needs_no_seed(record: Record) -> None:
    """Version 2: each deal's hands are in the record; a reader needs neither the seed nor
    CPython's random generator, and a version 1 record still replays from its seed."""
    data = copy.deepcopy(record)
    assert data["version"] == 2 and data["deals"][0]["hands"][0]
    without = {k: v for k, v in data.items() if k != "seed"}
    game = replay(without)
    assert game.result is not None and game.result.to_dict() == data["result"]
    old = {k: v for k, v in data.items() if k != "deals"}
    assert replay({**old, "version": 1}).result == game.result
    json.dumps(data)  # plain JSON: lists of card names
