"""A finished game's results (结算): what the ``game_over`` event says, and the rows stored.

R13 (revised turn 2): at the end of a game, if every person at the table is on 托管, the game
is not scored; with the rule ``dissolve_on_auto``, a person on 托管 at the end ends the match
there. Seats that a bot plays (from the start, or after an escape) are not people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from ...engine.rules import Rules
from ...engine.scoring import GameResult, qq_tribute
from .. import ratings
from ..store import GAMES, RESULTS, GameRow, Work
from .seats import Seat


@dataclass(frozen=True, slots=True)
class Scored:
    """A finished game as the table counts it."""

    result: GameResult
    #: The points that count, per seat (all 0 when R13 leaves the game unscored).
    scores: tuple[int, ...]
    #: ``"all_auto"`` when R13 leaves the game unscored.
    unscored: str | None
    #: R13 ``dissolve_on_auto``: the match ends after this game.
    dissolved: bool


def scored(rules: Rules, result: GameResult, seats: Sequence[Seat | None]) -> Scored:
    """R13 applied to ``result`` (an escape keeps its R10.4 scores)."""
    people = [chair for chair in seats if chair is not None and chair.person]
    on_auto = [chair for chair in people if chair.auto]
    if result.outcome == "escape" or not on_auto:
        return Scored(result, result.scores, None, False)
    if len(on_auto) == len(people):  # R13: every person on 托管
        return Scored(result, (0,) * len(result.scores), "all_auto", rules.dissolve_on_auto)
    return Scored(result, result.scores, None, rules.dissolve_on_auto)


def game_over_data(
    rules: Rules,
    game: Scored,
    index: int,
    players: list[str],
    totals: list[int],
    game_id: str,
    rated: Sequence[ratings.Change] = (),
) -> dict[str, Any]:
    """The public data of a ``game_over`` event: enough to show why each seat got what, and
    in QQ who pays tribute next (R10.3: its rule, not the winner) beside the emperor side's
    points; each rated seat's 段位 step."""
    result = game.result
    explained = result.multipliers(rules)
    return {
        "tribute": qq_note(rules, result),
        "game": index,
        "result": result.to_dict(),
        "scores": list(game.scores),
        "totals": totals,
        "record": game_id,
        "players": players,
        "roles": [None if result.emperor is None else result.role(s) for s in range(5)],
        "scoring": None if explained is None else explained.to_dict(),
        "unscored": game.unscored,
        "dissolved": game.dissolved,
        "ratings": {str(change.seat): change.to_json() for change in rated},
    }


def qq_note(rules: Rules, result: GameResult) -> dict[str, Any] | None:
    """:func:`~baohuang.engine.scoring.qq_tribute` as ``game_over`` data: ``{side, points}``."""
    note = qq_tribute(rules, result)
    return None if note is None else {"side": note[0], "points": note[1]}


def record_result(record: dict[str, Any], game_id: str) -> dict[str, Any] | None:
    """:func:`game_over_data` for a stored game from its record alone (its replay, when the
    table's ``game_over`` event is not there to tell it): R13's ``unscored`` and ``dissolved``
    as the record's ``match`` says (neither, if it does not), and the totals of this game
    alone. ``None`` for an unfinished game."""
    done = record.get("result")
    if not done:
        return None
    result = GameResult.from_dict(done)
    match = record.get("match") or {}
    unscored = match.get("unscored")
    scores = (0,) * len(result.scores) if unscored else result.scores
    game = Scored(result, scores, unscored, bool(match.get("dissolved")))
    players = list(match.get("players") or [""] * len(scores))
    rules = Rules.from_dict(record["rules"])
    return game_over_data(rules, game, match.get("game", 0), players, list(scores), game_id)


def store_game(
    row: GameRow,
    game: Scored,
    users: list[tuple[int, int]],
    rated: Sequence[ratings.Change] = (),
) -> Work:
    """Write work: the game's record, a result row per person unless it is unscored, and the
    rating steps ``rated``."""
    result = game.result

    def work(session: Session) -> None:
        # Core statements, a few per game: the ORM's unit of work had cost ~15 ms a game.
        if session.execute(select(GameRow.id).where(GameRow.id == row.id)).first():
            return  # stored already: a game is counted once, whatever recovery does
        columns = ("id", "table_id", "index", "preset", "finished", "record")
        session.execute(insert(GAMES), [{c: getattr(row, c) for c in columns}])
        if game.unscored:
            return
        results = [
            {
                "game_id": row.id,
                "user_id": user,
                "seat": seat,
                "role": result.role(seat),
                "points": game.scores[seat],
                "place": result.places.index(seat) + 1 if seat in result.places else None,
                "won": result.won(seat),
            }
            for seat, user in users
        ]
        if results:
            session.execute(insert(RESULTS), results)
        ratings.save(session, row.preset, row.id, row.finished, rated)

    return work
