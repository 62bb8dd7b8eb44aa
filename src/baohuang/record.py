"""Game records: a versioned JSON file from which a game replays exactly.

Format ``baohuang-record`` version 1 (see ``docs/record-format.md``)::

    {
      "format": "baohuang-record", "version": 1,
      "rules": {...every Rules field...},
      "seed": "42/0",
      "tribute_from": null | {"emperor", "guard", "places", "scores", "outcome", "open_solo"},
      "match": null | {"seed", "game", "games"},
      "actions": [{"seat": 3, "action": "accept"}, {"seat": 3, "action": "call 9h"}, ...],
      "events": [{"seq": 0, "kind": "deal", ...}, ...],      # public events
      "result": null | {"emperor", "guard", "places", "scores", "outcome", "open_solo"}
    }

Same rules, seed, tribute and actions give the same game on every machine: the deal's
randomness comes only from ``random.Random(f"{seed}:{deal}")``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import parse_action
from .cards import NotationError
from .game import Game, IllegalActionError, new_game
from .rules import Rules, RulesError
from .scoring import GameResult

FORMAT = "baohuang-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; names the action index when it can."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message if index is None else f"action {index}: {message}")
        self.index = index


def to_record(game: Game, match: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game`` (finished or not)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "tribute_from": game.tribute_from.to_dict() if game.tribute_from else None,
        "match": match,
        "actions": [{"seat": seat, "action": str(action)} for seat, action in game.actions],
        "events": game.events_for(None),
        "result": game.result.to_dict() if game.result else None,
    }


def write_record(game: Game, path: str | Path, match: dict[str, Any] | None = None) -> None:
    Path(path).write_text(
        json.dumps(to_record(game, match), ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )


def read_record(path: str | Path) -> dict[str, Any]:
    """Load and check a record file's envelope; raises :class:`RecordError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path} is not a JSON record: {exc}") from None
    check_record(data)
    return data  # type: ignore[no-any-return]


def check_record(data: Any) -> None:
    """Raise :class:`RecordError` unless ``data`` has the record's envelope."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a {FORMAT} file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise RecordError(
            f"record version {data.get('version')!r} is not supported (want {VERSION})"
        )
    for key, kind in (("rules", dict), ("actions", list), ("seed", (int, str))):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"record field {key!r} is missing or has the wrong type")


def replay(data: dict[str, Any]) -> Game:
    """Re-apply every action of a record through the engine and check its result."""
    check_record(data)
    try:
        rules = Rules.from_dict(data["rules"])
        tribute = data.get("tribute_from")
        tribute_from = GameResult.from_dict(tribute) if tribute else None
    except (RulesError, ValueError, TypeError) as exc:
        raise RecordError(f"bad rules or tribute: {exc}") from None
    game = new_game(rules, data["seed"], tribute_from)
    for index, entry in enumerate(data["actions"]):
        if not isinstance(entry, dict) or "action" not in entry or "seat" not in entry:
            raise RecordError("entry needs a seat and an action", index)
        if entry["seat"] != game.current_seat:
            raise RecordError(
                f"recorded for seat {entry['seat']}, but seat {game.current_seat} is to act", index
            )
        try:
            game.apply(parse_action(str(entry["action"])))
        except (NotationError, IllegalActionError) as exc:
            raise RecordError(f"{entry['action']!r}: {exc}", index) from None
    recorded = data.get("result")
    if recorded is not None:
        if game.result is None:
            raise RecordError("the record has a result, but its actions do not finish the game")
        if game.result.to_dict() != recorded:
            raise RecordError(
                f"replayed result {game.result.to_dict()} differs from the recorded {recorded}"
            )
    return game
