"""The replay (回放, ``GET /api/games/{id}/replay``): a game of a match starts before its
tribute (R12 进贡) and shows each card paid and handed over; its answer carries the results
(R10, R10.4, R13) as the table's results window showed them."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from baohuang.engine.game import Game
from baohuang.engine.match import Match
from baohuang.engine.record import to_record
from baohuang.engine.rules import Rules
from baohuang.engine.scoring import GameResult, team_score, tribute_side
from baohuang.server.store import GameRow, ResultRow
from baohuang.server.table.replays import replay_result, replay_views
from baohuang.server.table.results import record_result
from baohuang.text.narrator import Narration
from helpers.tables import Client, Harness


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def second_game(preset: str, seed: int) -> Game:
    """Game 2 of a match played by random legal choices."""
    match = Match(Rules.preset(preset), games=2, seed=f"replay/{seed}")
    rng = random.Random(seed)
    while True:
        game = match.game
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if match.index == 1:
            return game
        match.next_game()


def told(steps: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for step in steps for e in step["events"] if e["kind"] == kind]


def check_tribute_steps(game: Game) -> list[dict[str, Any]]:
    """The replay of ``game`` against the engine's own log: the hands as dealt, each card
    paid (R12: the payer's hand loses it), the cards handed over, then the recorded actions."""
    record = to_record(game, {"game": 1, "games": 2})
    steps = replay_views(record)
    paid = [
        (e.public["seat"], e.private[e.public["seat"]]["card"])
        for e in game.events
        if e.kind == "tribute_paid"
    ]
    first = steps[0]
    assert first["action"] is None and first["view"]["phase"] == "tribute"
    assert [e["kind"] for e in first["events"]] == ["tribute_due"]
    assert first["hands"] == game.dealt[0]["hands"]  # before the tribute: as dealt
    assert first["view"]["turn"] == paid[0][0]
    # Each payment is a step of its own, the card out of the payer's hand.
    assert [(e["seat"], e["card"]) for e in told(steps, "tribute_paid")] == paid
    at = [i for i, step in enumerate(steps) if step["events"][:1]]
    for i in at:
        event = steps[i]["events"][0]
        if event["kind"] == "tribute_paid":
            seat, card = event["seat"], event["card"]
            before, after = Counter(steps[i - 1]["hands"][seat]), Counter(steps[i]["hands"][seat])
            assert before - after == Counter([card]) and not after - before
    # Each deal (a void one is dealt again, R8.6) starts before its tribute, as dealt; the
    # hand-over gives each receiver the cards paid to it (R12 不还贡: nothing comes back).
    dues = [i for i in at if steps[i]["events"][0]["kind"] == "tribute_due"]
    assert [steps[i]["hands"] for i in dues] == [deal["hands"] for deal in game.dealt]
    handed = [i for i in at if steps[i]["events"][0]["kind"] == "tribute"]
    assert len(handed) == len(dues)
    for due, given in zip(dues, handed, strict=True):
        paying = [steps[i]["events"][0] for i in range(due + 1, given) if i in at]
        over = steps[given]["events"][0]
        assert sorted((c["from"], c["card"]) for c in over["cards"]) == sorted(
            (e["seat"], e["card"]) for e in paying
        )
        for seat in range(5):
            got = Counter(c["card"] for c in over["cards"] if c["to"] == seat)
            before = Counter(steps[given - 1]["hands"][seat])
            assert Counter(steps[given]["hands"][seat]) - before == got
        assert steps[given]["view"]["turn"] is None and steps[given]["view"]["tribute_due"] == []
    # Then the recorded actions, each once and in order; the last step is the game's end.
    acted = [step["action"] for step in steps if step["action"] is not None]
    assert acted == record["actions"]
    tributes = [a for a in record["actions"] if a["action"].startswith("tribute ")]
    for entry in tributes:  # a card paid by choice is the step that tells it
        step = next(s for s in steps if s["action"] is entry)
        assert step["events"][0]["kind"] == "tribute_paid"
        assert step["events"][0]["card"] == entry["action"].split()[1]
    last = steps[-1]
    assert last["view"]["phase"] == "over" and last["action"] == record["actions"][-1]
    assert last["hands"] == [game.hand_text(s) for s in range(5)]
    return steps


@pytest.mark.parametrize("preset", ["classic", "qq"])
def test_a_second_game_replays_from_before_its_tribute(preset: str) -> None:
    checked = chosen = 0
    for seed in range(12):
        game = second_game(preset, seed)
        if not any(e.kind == "tribute_paid" for e in game.events):
            continue  # a draw, R12: no tribute
        steps = check_tribute_steps(game)
        checked += 1
        chosen += any(s["action"] and s["action"]["action"].startswith("tribute ") for s in steps)
    assert checked >= 3, "too few games with tribute to say anything"
    assert chosen, "no payer had a choice of cards"


def test_a_first_game_has_a_step_per_action() -> None:
    game = Match(Rules.preset("classic"), games=2, seed="replay/first").game
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    record = to_record(game)
    steps = replay_views(record)
    assert len(steps) == len(record["actions"]) + 1 and not told(steps, "tribute_due")
    assert steps[0]["action"] is None and steps[0]["view"]["phase"] != "tribute"
    if len(game.dealt) == 1:  # (a void deal, R8.6, is dealt again at the step that voids it)
        assert steps[0]["hands"] == game.dealt[0]["hands"]


# ------------------------------------------------------------------ through the server


def take_turns(kit: Harness, me: Client) -> None:
    """I play the hint whenever I am to act; the bots play the rest of the match."""
    for _ in range(20_000):
        if kit.actor.state.status == "finished":
            return
        if me.my_turn():
            kit.send(me, "act", action=kit.send(me, "hint")["d"]["hint"])
        else:
            kit.step()
    raise AssertionError(f"the match did not end: {kit.kinds()[-5:]}")


def stored(kit: Harness) -> list[GameRow]:
    async def rows() -> list[GameRow]:
        async with kit.store.sessions() as session:
            found = await session.scalars(select(GameRow).order_by(GameRow.index))
            return list(found)

    found: list[GameRow] = kit.run(rows())
    return found


def game_over_events(kit: Harness) -> dict[str, dict[str, Any]]:
    return {e.public["record"]: e.public for e in kit.actor.state.log if e.kind == "game_over"}


def test_the_replay_of_a_match_game_shows_its_tribute_and_its_result(harness: Harness) -> None:
    (me,) = harness.create(games=2, preset="classic")
    take_turns(harness, me)
    first, second = stored(harness)
    events = game_over_events(harness)
    steps = replay_views(second.record)
    result = harness.run(replay_result(harness.store, second))
    assert result is not None
    # The result is what the table's results window said (results.game_over_data) …
    assert result == events[second.id]
    # … and the engine's: roles, places, T and its multipliers, the points.
    engine = GameResult.from_dict(second.record["result"])
    rules = Rules.from_dict(second.record["rules"])
    end = steps[-1]["view"]
    assert end["phase"] == "over" and end["places"] == result["result"]["places"]
    assert end["emperor"] == engine.emperor and end["guard"] == engine.guard
    assert result["roles"] == [engine.role(s) for s in range(5)]
    assert result["roles"].count("emperor") + result["roles"].count("solo") == 1
    assert result["result"]["places"] == list(engine.places)
    assert result["scores"] == list(engine.scores) and sum(result["scores"]) == 0
    assert engine.emperor is not None
    t = team_score(emperor=engine.emperor, guard=engine.guard, places=engine.places)
    assert result["scoring"]["t"] == t
    assert result["scoring"] == engine.multipliers(rules).to_dict()  # type: ignore[union-attr]
    assert result["players"][0] == "玩家1" and result["game"] == 1
    assert result["tribute"] is None  # R10.3: outside QQ tribute follows the winner
    totals = [a + b for a, b in zip(events[first.id]["scores"], result["scores"], strict=True)]
    assert result["totals"] == totals
    assert second.record["match"]["bots"][0] is None and all(second.record["match"]["bots"][1:])
    # The record alone gives the same, but for the match's totals and the 段位 steps (kept by
    # the ladder, not the record).
    alone = record_result(second.record, second.id)
    assert set(result["ratings"]) == {"0", "1", "2", "3", "4"}
    assert alone == {**result, "totals": result["scores"], "ratings": {}}
    # Game 2 starts before its tribute unless game 1 was a draw (R12).
    if GameResult.from_dict(first.record["result"]).outcome == "draw":
        assert steps[0]["view"]["phase"] != "tribute"
    else:
        assert steps[0]["view"]["phase"] == "tribute"
        assert told(steps, "tribute_paid") and told(steps, "tribute")
    assert steps[0]["hands"] == second.record["deals"][0]["hands"]


def test_r10_3_a_qq_result_names_who_pays_tribute_and_rows_are_won_by_points(
    harness: Harness,
) -> None:
    """R10.3 (revised turn 3): QQ's results say who pays tribute by QQ's rule beside the emperor
    side's points; the winner, and each stored row's ``won``, is the sign of the points; the
    next game's tribute follows QQ's rule (平贡: none)."""
    (me,) = harness.create(games=2, preset="qq")
    take_turns(harness, me)
    first, second = stored(harness)
    events = game_over_events(harness)
    rules = Rules.preset("qq")
    for row in (first, second):
        engine = GameResult.from_dict(row.record["result"])
        side = sum(p for s, p in enumerate(engine.scores) if engine.role(s) != "rebel")
        assert events[row.id]["tribute"] == {"side": tribute_side(rules, engine), "points": side}
        assert engine.outcome == ("emperor" if side > 0 else "rebels" if side < 0 else "draw")

    async def rows() -> list[tuple[int, bool]]:
        async with harness.store.sessions() as session:
            found = await session.execute(select(ResultRow.points, ResultRow.won))
            return [(points, won) for points, won in found]

    results = harness.run(rows())
    assert len(results) == 2 and all(won == (points > 0) for points, won in results)
    paid = tribute_side(rules, GameResult.from_dict(first.record["result"])) != "draw"
    assert (replay_views(second.record)[0]["view"]["phase"] == "tribute") == paid


def test_an_unscored_game_says_so(harness: Harness) -> None:
    """R13: every person on 托管 at the end: the replay's result says unscored, 0 points."""
    (me,) = harness.create(games=1)
    for _ in range(2000):
        if me.my_turn():
            break
        harness.step()
    assert harness.send(me, "auto", on=True)["t"] == "ack"
    while harness.actor.state.status != "finished":
        harness.step()
    (row,) = stored(harness)
    result = harness.run(replay_result(harness.store, row))
    assert result is not None
    assert result["unscored"] == "all_auto" and result["scores"] == [0] * 5
    would = GameResult.from_dict(result["result"])  # what the places would have given
    assert result["result"] == row.record["result"] and sorted(would.places) == list(range(5))
    assert replay_views(row.record)[-1]["view"]["phase"] == "over"


def test_an_escape_is_the_last_step_and_the_result_names_it(harness: Harness) -> None:
    """R10.4 逃跑: −30 to the seat that left, no T."""
    (me,) = harness.create(games=1)
    for _ in range(2000):
        if me.my_turn():
            break
        harness.step()
    harness.send(me, "leave")
    (row,) = stored(harness)
    steps = replay_views(row.record)
    assert steps[-1]["action"] == {"seat": 0, "action": "escape 0"}
    assert steps[-1]["view"]["escaped"] == 0
    result = harness.run(replay_result(harness.store, row))
    assert result is not None
    assert result["result"]["outcome"] == "escape" and result["result"]["escaped"] == 0
    assert result["scores"][0] == -30 and result["scoring"] is None


def test_each_step_says_what_its_events_tell() -> None:
    """A step's ``says``: its events told on their own, as the page shows them (R12's cards
    named, a void deal), chosen by the text layer as the terminal's are, in JSON's shapes
    (lists, not tuples: the table state machine compares them with what was received)."""
    steps = replay_views(to_record(second_game("classic", 3), {"game": 1, "games": 2}))
    for step in steps:
        narration = Narration()
        assert step["says"] == [narration.says_json(event) for event in step["events"]]
        assert json.loads(json.dumps(step["says"])) == step["says"]  # as sent: JSON's shapes
    keys = {key for step in steps for said in step["says"] for key, _ in said}
    assert "event.tribute.card" in keys or "event.tribute_paid.card" in keys
