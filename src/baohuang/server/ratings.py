"""段位: one rating per player and preset, people and bot levels on one ladder.

After every scored game the two sides are rated as teams by OpenSkill's Plackett–Luce model:
the emperor side (the emperor alone when solo) against the rebels, the winner by the sign of
the side's points (R10.3 revised turn 3; a draw ranks them level). Each side is weighed by its
members' mean, not their sum — the smaller side is filled up with stand-ins of its own
members' mean skill, not rated — so that two 保皇派 are no underdogs for being two.

Who is rated: every person's seat (a guest too), on 托管 or not, and every seat a bot held from
the start, under its level's rated name (``b:strong`` …), so that how strong a bot level is
against people is a number the platform measures. A game with no person at the table rates
nobody. R13: an unscored game (every person on 托管) rates nobody. R10.4: after an escape
only the escaper is rated, as losing to the other four.

The number people see is the conservative estimate ``μ − 3σ``, ×100 (0 for a newcomer), and
its 称号 (:data:`LEVELS`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from ..engine.scoring import GameResult
from .store import RATING_STEPS, RATINGS, RatingRow, Store
from .table.seats import Seat

MODEL = PlackettLuce()
#: 称号 by the rating shown (at least this rating → this level), lowest first.
LEVELS: tuple[tuple[int, str], ...] = (
    (0, "buyi"),  # 布衣
    (600, "tongsheng"),  # 童生
    (1000, "xiucai"),  # 秀才
    (1300, "juren"),  # 举人
    (1600, "jinshi"),  # 进士
    (1900, "hanlin"),  # 翰林
    (2200, "zhifu"),  # 知府
    (2500, "shangshu"),  # 尚书
    (2800, "chengxiang"),  # 丞相
    (3100, "qinwang"),  # 亲王
    (3400, "huangdi"),  # 皇帝
)


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def rating(self) -> int:
        """The conservative estimate shown, ×100 and never below 0."""
        return max(0, round(100 * (self.mu - 3 * self.sigma)))

    @property
    def level(self) -> str:
        """The 称号 key of :attr:`rating`."""
        return level_of(self.rating)


def level_of(rating: int) -> str:
    return [key for floor, key in LEVELS if rating >= floor][-1]


@dataclass(frozen=True, slots=True)
class Change:
    """One rated seat's step in a game."""

    seat: int
    player: str
    before: Skill
    after: Skill
    won: bool

    def to_json(self) -> dict[str, Any]:
        old, new = self.before.rating, self.after.rating
        return {"before": old, "after": new, "delta": new - old, "level": self.after.level}


def player_key(chair: Seat) -> str | None:
    """The rated name a seat plays under: its person's, or its bot level's."""
    if chair.user is not None:
        return f"u:{chair.user}"
    return f"b:{chair.bot}" if chair.bot is not None else None


def rated_seats(seats: Sequence[Seat | None], result: GameResult) -> dict[int, str]:
    """Seat → rated name for a game scored with ``result`` (nobody when no person played)."""
    if not any(chair is not None and chair.user is not None for chair in seats):
        return {}
    if result.outcome == "escape":  # R10.4: the escaper alone
        assert result.escaped is not None
        chair = seats[result.escaped]
        key = None if chair is None else player_key(chair)
        return {} if key is None else {result.escaped: key}
    return {
        s: key for s, chair in enumerate(seats) if chair is not None and (key := player_key(chair))
    }


def rate(
    result: GameResult, players: Mapping[int, str], skills: Mapping[str, Skill]
) -> list[Change]:
    """Each rated seat's step (in seat order), from the skills its players had before the
    game (the default for those never rated)."""
    if not players:
        return []
    seats = range(len(result.scores))
    if result.outcome == "escape":  # the escaper alone, losing to the others
        mine = list(players)
        ranks = [2.0, 1.0]
    else:  # the emperor's side against the rebels; a draw ranks them level
        mine = [s for s in seats if result.role(s) != "rebel"]
        ranks = {"emperor": [1.0, 2.0], "rebels": [2.0, 1.0]}.get(result.outcome, [1.0, 1.0])
    sides = (mine, [s for s in seats if s not in mine])
    size = max(len(side) for side in sides)
    teams = [_team([skills.get(players.get(s, ""), Skill()) for s in side], size) for side in sides]
    changes = []
    for side, rank, team in zip(sides, ranks, MODEL.rate(teams, ranks=ranks), strict=False):
        for seat, after in zip(side, team, strict=False):
            if seat in players:
                key = players[seat]
                before = skills.get(key, Skill())
                won = rank < max(ranks)
                changes.append(Change(seat, key, before, Skill(after.mu, after.sigma), won))
    return sorted(changes, key=lambda change: change.seat)


def _team(members: list[Skill], size: int) -> list[PlackettLuceRating]:
    """A side as the model rates it: filled up to ``size`` with stand-ins of its mean."""
    stand_in = Skill(
        sum(m.mu for m in members) / len(members),
        math.sqrt(sum(m.sigma**2 for m in members) / len(members)),
    )
    return [MODEL.rating(m.mu, m.sigma) for m in members + [stand_in] * (size - len(members))]


async def skills(store: Store, players: Sequence[str], preset: str) -> dict[str, Skill]:
    """The players' current skills in ``preset`` (those never rated are left out)."""
    if not players:
        return {}
    async with store.sessions() as session:
        rows = await session.scalars(
            select(RatingRow).where(RatingRow.preset == preset, RatingRow.player.in_(players))
        )
        return {row.player: Skill(row.mu, row.sigma) for row in rows}


def save(session: Session, preset: str, game_id: str, at: float, changes: Sequence[Change]) -> None:
    """Write the steps of a game (inside its storing transaction). Each step moves the stored
    skill by the step's change, so that two games of one player finishing at once at two
    tables both count: the players' rows are read locked, moved in order (a bot level may
    have several seats), and written back, with a statement or two each way."""
    if not changes:
        return
    table = RATINGS
    locked = session.execute(
        select(table)
        .where(table.c.preset == preset, table.c.player.in_(sorted({c.player for c in changes})))
        .with_for_update()
    )
    rows = {row.player: dict(row._mapping) for row in locked}
    new: list[str] = []
    steps = []
    for change in changes:
        row = rows.get(change.player)
        if row is None:
            kind, _, name = change.player.partition(":")
            new.append(change.player)
            row = rows[change.player] = {
                "player": change.player,
                "preset": preset,
                "user_id": int(name) if kind == "u" else None,
                "bot": name if kind == "b" else None,
                "mu": Skill().mu,
                "sigma": Skill().sigma,
                "games": 0,
                "wins": 0,
            }
        row["mu"] += change.after.mu - change.before.mu
        row["sigma"] *= change.after.sigma / change.before.sigma
        row["games"] += 1
        row["wins"] += change.won
        row["updated"] = at
        step = {"player": change.player, "preset": preset, "game_id": game_id, "at": at}
        steps.append(step | {"mu": row["mu"], "sigma": row["sigma"]})
    if new:
        session.execute(insert(table), [rows[player] for player in new])
    if old := [row for player, row in rows.items() if player not in new]:
        keys = {"key_player": table.c.player, "key_preset": table.c.preset}
        moved = (
            update(table)
            .where(*(column == bindparam(key) for key, column in keys.items()))
            .values({name: bindparam(name) for name in ("mu", "sigma", "games", "wins", "updated")})
        )
        session.execute(
            moved, [row | {"key_player": row["player"], "key_preset": preset} for row in old]
        )
    session.execute(insert(RATING_STEPS), steps)
