"""Game records: a versioned JSON file from which a game replays exactly.

Format ``baohuang-record`` version 2 (see ``docs/record-format.md``)::

    {
      "format": "baohuang-record", "version": 2,
      "rules_version": 3,                                    # RULES_VERSION when recorded
      "rules": {...every Rules field...},
      "seed": "42/0",
      "deals": [{"start": 3, "first": 1, "hands": [["R", "B", "2h", ...], ...5]}, ...],
      "previous": null | {...the previous game's result in a match: tribute, dealer...},
      "match": null | {"seed", "game", "games"},
      "actions": [{"seat": 3, "action": "accept"}, {"seat": 3, "action": "call 9h"}, ...],
      "events": [{"seq": 0, "kind": "deal", ...}, ...],      # public events
      "result": null | {"emperor", "guard", "places", "scores", "outcome", "open_solo", ...}
    }

Each deal (a void deal is dealt again) is stored as the hands it gave, who was dealt first and
the first candidate, so a replay lays the hands out and needs no seed, nor CPython's random
generator. Version 1 records had no ``deals``: they replay from their seed, whose randomness
comes only from ``random.Random(f"{seed}:{deal}")``. A record made under an older
reading of the rules (``rules_version``, absent before version 2) replays when the revision did
not touch it; when it did, the replay says that the record predates the rules change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import Escape, parse_action
from .errors import IllegalActionError, NotationError, RulesError
from .errors import RecordError as RecordError
from .game import Game, new_game
from .rules import RULES_VERSION, Rules
from .scoring import GameResult

FORMAT = "baohuang-record"
VERSION = 2
#: Versions this engine replays (1: dealt from the seed; 2: the deals laid out).
VERSIONS = (1, 2)


def to_record(game: Game, match: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game`` (finished or not)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": RULES_VERSION,
        **history(game),
        "match": match,
        "events": game.events_for(None),
        "result": game.result.to_dict() if game.result else None,
    }


def history(game: Game) -> dict[str, Any]:
    """What rebuilds ``game`` so far (:func:`start_game`, then its ``actions``): the part of
    its record a bot that takes a seat mid-game replays (hands included: only the server's
    own code may hold it)."""
    return {
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "deals": game.dealt,
        "previous": game.previous.to_dict() if game.previous else None,
        "actions": [{"seat": seat, "action": str(action)} for seat, action in game.actions],
    }


def write_record(game: Game, path: str | Path, match: dict[str, Any] | None = None) -> None:
    """Write :func:`to_record` of ``game`` to ``path`` as compact UTF-8 JSON."""
    Path(path).write_text(
        json.dumps(to_record(game, match), ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )


def read_record(path: str | Path) -> dict[str, Any]:
    """Load and check a record file's envelope; raises :class:`RecordError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        reason = str(exc.strerror)
        raise RecordError("error.record.unreadable", path=str(path), reason=reason) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError("error.record.not_json", path=str(path), reason=str(exc)) from None
    check_record(data)
    return data  # type: ignore[no-any-return]


def check_record(data: Any) -> None:
    """Raise :class:`RecordError` unless ``data`` has the record's envelope."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("error.record.format", format=FORMAT)
    version = data.get("version")
    if version not in VERSIONS:
        raise RecordError("error.record.version", version=repr(version), versions=str(VERSIONS))
    dealt = ("deals", list) if version >= 2 else ("seed", (int, str))
    for key, kind in (("rules", dict), ("actions", list), dealt):
        if not isinstance(data.get(key), kind):
            raise RecordError("error.record.field", field=key)
    made = rules_version(data)
    if not 1 <= made <= RULES_VERSION:
        raise RecordError("error.record.newer", made=made, engine=RULES_VERSION)


def rules_version(data: dict[str, Any]) -> int:
    """The reading of the rules a record was made under (1 before the field existed)."""
    made = data.get("rules_version", 1)
    if not isinstance(made, int) or isinstance(made, bool):
        raise RecordError("error.record.rules_version", value=repr(made))
    return made


def _check_events(game: Game, recorded: Any) -> None:
    """The replayed public event log must be the recorded one (when the record has one)."""
    if recorded is None:
        return
    replayed = game.events_for(None)
    if not isinstance(recorded, list):
        raise RecordError("error.record.events")
    for seq, (mine, theirs) in enumerate(zip(replayed, recorded, strict=False)):
        if mine != theirs:
            raise RecordError(
                "error.record.event_differs", seq=seq, replayed=str(mine), recorded=str(theirs)
            )
    if len(replayed) != len(recorded):
        raise RecordError(
            "error.record.event_count", recorded=len(recorded), replayed=len(replayed)
        )


def replay(data: dict[str, Any]) -> Game:
    """Re-apply every action of a record through the engine and check its result.

    A record from an older reading of the rules that no longer replays raises a
    :class:`RecordError` saying so (docs/rules.md, "Rules versions").
    """
    check_record(data)
    try:
        return _replay(data)
    except RecordError as exc:
        made = rules_version(data)
        if made == RULES_VERSION:
            raise
        raise RecordError(
            "error.record.predates", made=made, engine=RULES_VERSION, reason=exc
        ) from None


def start_game(
    data: dict[str, Any], rules: Rules | None = None, previous: GameResult | None = None
) -> Game:
    """The recorded game before its first action: its deals laid out (version 2) or dealt
    from its seed (version 1)."""
    if rules is None:
        rules = Rules.from_dict(data["rules"])
        before = data.get("previous")
        previous = GameResult.from_dict(before) if before else None
    return new_game(rules, data.get("seed", ""), previous, data.get("deals"))


def _replay(data: dict[str, Any]) -> Game:
    try:
        rules = Rules.from_dict(data["rules"])
        before = data.get("previous")
        previous = GameResult.from_dict(before) if before else None
    except (RulesError, ValueError, TypeError) as exc:
        raise RecordError("error.record.setup", reason=str(exc)) from None
    game = start_game(data, rules, previous)
    for index, entry in enumerate(data["actions"]):
        if not isinstance(entry, dict) or "action" not in entry or "seat" not in entry:
            raise RecordError("error.record.entry", index)
        try:
            action = parse_action(str(entry["action"]))
            seat = entry["seat"]
            # R14: any seat yet to answer a sealed poll may act (records keep the poll's order)
            actors = (action.seat,) if isinstance(action, Escape) else game.to_act
            if seat not in actors:
                actor = actors[0] if actors else None
                raise IllegalActionError(
                    "error.record.wrong_seat", recorded=str(seat), actor=str(actor)
                )
            game.apply(action, seat)
        except (NotationError, IllegalActionError) as exc:
            seat, text = entry["seat"], entry["action"]
            raise RecordError(
                "error.record.action", index, seat=str(seat), action=str(text), reason=exc
            ) from None
    recorded = data.get("result")
    if recorded is not None:
        if game.result is None:
            raise RecordError("error.record.unfinished")
        if game.result.to_dict() != recorded:
            replayed = game.result.to_dict()
            raise RecordError("error.record.result", replayed=str(replayed), recorded=str(recorded))
    _check_events(game, data.get("events"))
    return game
