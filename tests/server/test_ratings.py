"""段位 (#50): the two sides rated as teams by OpenSkill, people and bot levels on one ladder;
R13's unscored games and R10.4's escapes; steps stored with the game, in one transaction."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from baohuang.engine.scoring import GameResult
from baohuang.server import ratings
from baohuang.server.ladder import leaderboard
from baohuang.server.ratings import LEVELS, Skill, level_of, rate, rated_seats
from baohuang.server.store import GameRow, RatingRow, RatingStepRow, Store, TableRow, UserRow
from baohuang.server.table.seats import Seat
from baohuang.text.catalog import MESSAGES

PLAYERS = {s: f"u:{s + 1}" for s in range(5)}
#: Emperor 0 with guard 2; every outcome.
WON = GameResult(0, 2, (0, 1, 2, 3, 4), (8, -4, 4, -4, -4), "emperor")
LOST = GameResult(0, 2, (1, 3, 4, 0, 2), (-8, 4, -4, 4, 4), "rebels")
DRAW = GameResult(0, 2, (0, 1, 3, 2, 4), (0,) * 5, "draw")
SOLO = GameResult(3, None, (3, 0, 1, 2, 4), (16, -4, -4, -4, -4), "emperor")
ESCAPE = GameResult(None, None, (), (0, 0, -30, 0, 0), "escape", escaped=2)


def steps(result: GameResult, skills: dict[str, Skill] | None = None) -> dict[int, float]:
    return {c.seat: c.after.mu - c.before.mu for c in rate(result, PLAYERS, skills or {})}


def test_the_winning_side_rises_and_the_losing_side_falls() -> None:
    won, lost = steps(WON), steps(LOST)
    assert all(won[s] > 0 for s in (0, 2)) and all(won[s] < 0 for s in (1, 3, 4))
    assert all(lost[s] < 0 for s in (0, 2)) and all(lost[s] > 0 for s in (1, 3, 4))
    assert [c.won for c in rate(WON, PLAYERS, {})] == [True, False, True, False, False]


def test_two_guards_of_the_emperor_are_no_underdogs_for_being_two() -> None:
    """Equal players: the emperor side's win moves it as far as the rebels' win moves them,
    and a draw moves nobody (each side weighed by its mean)."""
    assert steps(WON)[0] == pytest.approx(steps(LOST)[1])
    assert all(abs(d) < 1e-9 for d in steps(DRAW).values())
    lost = GameResult(3, None, (0, 1, 2, 4, 3), (-16, 4, 4, 4, 4), "rebels")
    assert steps(SOLO)[3] == pytest.approx(-steps(lost)[3]) and steps(SOLO)[3] > 0


def test_a_favourite_gains_little_and_an_upset_much() -> None:
    strong = {"u:1": Skill(35, 3), "u:3": Skill(35, 3)}
    assert steps(WON, strong)[0] < steps(WON)[0] < steps(LOST, strong)[1]


def test_r10_4_only_the_escaper_is_rated_and_loses() -> None:
    (change,) = rate(ESCAPE, {2: "u:3"}, {})
    assert change.seat == 2 and change.after.mu < change.before.mu and not change.won
    seats = [Seat(f"p{s}", user=s + 1) for s in range(5)]
    assert rated_seats(seats, ESCAPE) == {2: "u:3"}


def test_bot_levels_play_under_their_rated_name_and_bot_only_games_rate_nobody() -> None:
    person = Seat("张三", user=7)
    bots = [Seat("高手", bot="strong"), Seat("普通", bot="heuristic")] * 2
    assert rated_seats([person, *bots], WON) == {
        0: "u:7",
        1: "b:strong",
        2: "b:heuristic",
        3: "b:strong",
        4: "b:heuristic",
    }
    assert rated_seats([Seat("b", bot="random"), *bots], WON) == {}


@given(
    st.sampled_from([WON, LOST, DRAW, SOLO]),
    st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 9)), min_size=5, max_size=5),
)
def test_winners_never_fall_and_uncertainty_grows_by_drift_alone(
    result: GameResult, skills: list[tuple[float, float]]
) -> None:
    known = {PLAYERS[s]: Skill(mu, sigma) for s, (mu, sigma) in enumerate(skills)}
    for change in rate(result, PLAYERS, known):
        drift = math.hypot(change.before.sigma, ratings.MODEL.tau)  # skills move over time
        assert change.after.sigma <= drift + 1e-9
        if change.won:
            assert change.after.mu >= change.before.mu - 1e-9
        elif result.outcome != "draw":
            assert change.after.mu <= change.before.mu + 1e-9


def test_levels_climb_from_布衣_to_皇帝() -> None:
    names = [MESSAGES[f"level.{key}"] for _, key in LEVELS]
    assert names[0] == ("布衣", "Commoner") and names[-1][0] == "皇帝"
    assert Skill().rating == 0 and Skill().level == "buyi"
    floors = [floor for floor, _ in LEVELS]
    assert floors == sorted(floors) and LEVELS[-1][1] == "huangdi"
    assert [level_of(f) for f in floors] == [key for _, key in LEVELS]
    assert level_of(floors[3] - 1) == LEVELS[2][1]


def test_steps_are_stored_as_moves_so_two_tables_at_once_both_count(database: str) -> None:
    """A bot level seated twice moves twice; a player whose rating moved since the game read
    it keeps that move too; each step stored with the rating after it."""

    async def main() -> None:
        store = Store(database)
        await store.start()
        try:
            await store.write(lambda s: _game(s, "g1"))
            await store.write(lambda s: _game(s, "g2"))
            first = rate(WON, {0: "u:1", 1: "b:strong", 3: "b:strong"}, {})
            await store.write(lambda s: ratings.save(s, "classic", "g1", 1.0, first))
            # The other table read u:1 before the first game was stored.
            second = rate(LOST, {0: "u:1"}, {})
            await store.write(lambda s: ratings.save(s, "classic", "g2", 2.0, second))
            known = await ratings.skills(store, ["u:1", "b:strong"], "classic")
            gains = first[0].after.mu - 25 + second[0].after.mu - 25
            assert known["u:1"].mu == pytest.approx(25 + gains)
            bot = 25 + sum(c.after.mu - 25 for c in first[1:])
            assert known["b:strong"].mu == pytest.approx(bot)
            async with store.sessions() as session:
                row = await session.get(RatingRow, ("b:strong", "classic"))
                assert row is not None and (row.games, row.wins, row.bot) == (2, 0, "strong")
                stored = await session.scalars(select(RatingStepRow.game_id))
                assert sorted(stored) == ["g1", "g1", "g1", "g2"]
                steps = await session.scalars(
                    select(RatingStepRow)
                    .where(RatingStepRow.player == "b:strong")
                    .order_by(RatingStepRow.id)
                )
                bot_steps = [(step.mu, step.sigma) for step in steps]
                assert bot_steps[-1] == (row.mu, row.sigma) and bot_steps[0] != bot_steps[-1]
        finally:
            await store.close()

    asyncio.run(main())


def test_the_leaderboard_is_the_top_by_the_rating_shown(tmp_path: Path) -> None:
    """排行榜: the database picks the best ``limit`` by ``μ − 3σ``; below 0 every rating shows
    0, and those tie by μ."""
    skills = {
        "b:strong": Skill(30.0, 2.0),  # 2400
        "b:heuristic": Skill(26.0, 3.0),  # 1700
        "b:random": Skill(20.0, 7.0),  # 0 (μ − 3σ = −1 above greedy's −3), μ 20
        "b:greedy": Skill(24.0, 9.0),  # 0, μ 24
        "b:learned": Skill(28.0, 1.0),  # 2500
    }

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'l.db'}")
        await store.start()
        try:

            def rows(session: Session) -> None:
                for player, skill in skills.items():
                    bot = player.removeprefix("b:")
                    session.add(
                        RatingRow(
                            player=player,
                            preset="classic",
                            bot=bot,
                            mu=skill.mu,
                            sigma=skill.sigma,
                            games=1,
                            wins=0,
                            updated=0.0,
                        )
                    )

            await store.write(rows)
            board = await leaderboard(store, "classic")
            assert [e["bot"] for e in board] == [
                "learned",
                "strong",
                "heuristic",
                "greedy",
                "random",
            ]
            assert [e["rating"] for e in board] == [2500, 2400, 1700, 0, 0]
            top = await leaderboard(store, "classic", limit=4)
            assert [e["bot"] for e in top] == ["learned", "strong", "heuristic", "greedy"]
        finally:
            await store.close()

    asyncio.run(main())


def _game(session: Session, game_id: str) -> None:
    if session.get(UserRow, 1) is None:
        session.execute(insert(UserRow), [{"id": 1, "name": "张三", "created": 0.0}])
        session.execute(
            insert(TableRow),
            [{"id": "t", "config": {}, "seed": "s", "status": "finished", "created": 0.0}],
        )
    session.add(
        GameRow(id=game_id, table_id="t", index=0, preset="classic", finished=0.0, record={})
    )
