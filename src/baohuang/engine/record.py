"""Game records: a versioned JSON file from which a game replays exactly.

Format ``baohuang-record`` version 2 (see ``docs/record-format.md``)::

    {
      "format": "baohuang-record", "version": 2,
      "rules_version": 2,                                    # RULES_VERSION when recorded
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
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "deals": game.dealt,
        "previous": game.previous.to_dict() if game.previous else None,
        "match": match,
        "actions": [{"seat": seat, "action": str(action)} for seat, action in game.actions],
        "events": game.events_for(None),
        "result": game.result.to_dict() if game.result else None,
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
        raise RecordError(
            f"cannot read {path}: {exc.strerror}", zh=f"读不了 {path}：{exc.strerror}"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(
            f"{path} is not a JSON record: {exc}", zh=f"{path} 不是 JSON 牌谱：{exc}"
        ) from None
    check_record(data)
    return data  # type: ignore[no-any-return]


def check_record(data: Any) -> None:
    """Raise :class:`RecordError` unless ``data`` has the record's envelope."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(
            f'not a {FORMAT} file (no "format": "{FORMAT}")', zh=f"不是 {FORMAT} 牌谱文件"
        )
    version = data.get("version")
    if version not in VERSIONS:
        raise RecordError(
            f"record version {version!r} is not supported (want one of {VERSIONS})",
            zh=f"不支持牌谱版本 {version!r}（应为 {VERSIONS} 之一）",
        )
    dealt = ("deals", list) if version >= 2 else ("seed", (int, str))
    for key, kind in (("rules", dict), ("actions", list), dealt):
        if not isinstance(data.get(key), kind):
            raise RecordError(
                f"record field {key!r} is missing or has the wrong type",
                zh=f"牌谱缺少字段 {key!r} 或类型不对",
            )
    made = rules_version(data)
    if not 1 <= made <= RULES_VERSION:
        raise RecordError(
            f"the record's rules_version {made} is newer than this engine's ({RULES_VERSION})",
            zh=f"牌谱的规则版本 {made} 比本程序的（{RULES_VERSION}）还新",
        )


def rules_version(data: dict[str, Any]) -> int:
    """The reading of the rules a record was made under (1 before the field existed)."""
    made = data.get("rules_version", 1)
    if not isinstance(made, int) or isinstance(made, bool):
        raise RecordError(
            f"record field 'rules_version' must be a whole number, not {made!r}",
            zh=f"牌谱字段 'rules_version' 应为整数，不是 {made!r}",
        )
    return made


def _check_events(game: Game, recorded: Any) -> None:
    """The replayed public event log must be the recorded one (when the record has one)."""
    if recorded is None:
        return
    replayed = game.events_for(None)
    if not isinstance(recorded, list):
        raise RecordError("record field 'events' must be a list", zh="牌谱字段 'events' 应为列表")
    for seq, (mine, theirs) in enumerate(zip(replayed, recorded, strict=False)):
        if mine != theirs:
            raise RecordError(
                f"event {seq} differs: replayed {mine}, recorded {theirs}",
                zh=f"第 {seq} 个事件不符：重放为 {mine}，牌谱为 {theirs}",
            )
    if len(replayed) != len(recorded):
        raise RecordError(
            f"the record has {len(recorded)} events, the replay {len(replayed)}",
            zh=f"牌谱有 {len(recorded)} 个事件，重放得到 {len(replayed)} 个",
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
            f"this record predates a rules change (made under rules version {made}, this engine "
            f"plays version {RULES_VERSION}; docs/rules.md lists the changes) and does not "
            f"replay: {exc}",
            zh=f"这份牌谱早于规则修订（记录时规则版本 {made}，本程序为版本 {RULES_VERSION}；"
            f"修订见 docs/rules.md），无法重放：{exc.text('zh')}",
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
        raise RecordError(
            f"bad rules or previous result: {exc}", zh=f"规则或上一局结果有误：{exc}"
        ) from None
    game = start_game(data, rules, previous)
    for index, entry in enumerate(data["actions"]):
        if not isinstance(entry, dict) or "action" not in entry or "seat" not in entry:
            raise RecordError("entry needs a seat and an action", index, "需要座位和动作")
        try:
            action = parse_action(str(entry["action"]))
            actor = action.seat if isinstance(action, Escape) else game.current_seat
            if entry["seat"] != actor:
                raise IllegalActionError(
                    f"recorded for seat {entry['seat']}, but seat {actor} is to act",
                    f"记的是座位{entry['seat']}，但该座位{actor}行动",
                )
            game.apply(action)
        except (NotationError, IllegalActionError) as exc:
            seat, text = entry["seat"], entry["action"]
            raise RecordError(
                f"seat {seat}, {text!r}: {exc}", index, f"座位{seat} {text!r}：{exc.text('zh')}"
            ) from None
    recorded = data.get("result")
    if recorded is not None:
        if game.result is None:
            raise RecordError(
                "the record has a result, but its actions do not finish the game",
                zh="牌谱有结果，但动作没有打完这一局",
            )
        if game.result.to_dict() != recorded:
            replayed = game.result.to_dict()
            raise RecordError(
                f"replayed result {replayed} differs from the recorded {recorded}",
                zh=f"重放结果 {replayed} 与牌谱记录 {recorded} 不符",
            )
    _check_events(game, data.get("events"))
    return game
