"""The protocol's documentation, generated: ``docs/protocol.schema.json`` (JSON Schema of
every message, from the pydantic models and the engine's view and event types) and
``docs/protocol.md`` (the same, readable)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from pathlib import Path
from types import EllipsisType, UnionType
from typing import Annotated, Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, TypeAdapter

from ..engine import events
from ..engine.scoring import GameResult
from ..engine.trick import LeadData, TrickEntryData
from ..engine.views import ViewData
from ..text.catalog import MESSAGES
from . import messages as protocol
from .messages import ClientMessage, SeatEvent, ServerMessage

#: The engine's types in a ``view`` and in ``events``, documented after the models.
VIEW_TYPES = (ViewData, LeadData, TrickEntryData, GameResult)
EVENT_TYPES = (*get_args(events.SeatEvent), events.Transfer, events.TributeCard)

#: The envelopes in the order the docs list them, with one example each.
EXAMPLES: dict[str, dict[str, Any]] = {
    "hello": {"t": "hello", "v": None, "d": {"token": None, "since": None}},
    "cmd": {"t": "cmd", "v": 41, "d": {"id": "c7", "op": "act", "action": "9h 9s"}},
    "ping": {"t": "ping", "v": None, "d": {}},
    "welcome": {"t": "welcome", "v": 41, "d": {"table": "…TableInfo…", "seat": 0, "user": 3}},
    "event": {
        "t": "event",
        "v": 42,
        "d": {"kind": "game", "game": 0, "events": [{"seq": 57, "kind": "pass", "seat": 1}]},
    },
    "snapshot": {"t": "snapshot", "v": 42, "d": {"table": "…", "seat": 0, "view": "…"}},
    "view": {"t": "view", "v": 42, "d": {"view": "…View…", "clock": None}},
    "ack": {"t": "ack", "v": 43, "d": {"id": "c7"}},
    "error": {
        "t": "error",
        "v": 43,
        "d": {
            "id": "c8",
            "code": "not_your_turn",
            "key": "error.server.turn_of",
            "params": {"seat": 2},
            "message": "it is seat 2's turn",
            "zh": "现在轮到座位2",
        },
    },
    "pong": {"t": "pong", "v": 43, "d": {}},
}


def schema() -> dict[str, Any]:
    """One JSON Schema document: client messages, server messages, their definitions."""
    client = TypeAdapter(ClientMessage).json_schema(ref_template="#/$defs/{model}")
    server = TypeAdapter(ServerMessage).json_schema(ref_template="#/$defs/{model}")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Baohuang table protocol v{protocol.VERSION}",
        "description": (protocol.__doc__ or "").strip(),
        "$defs": defs,
        "properties": {"client": client, "server": server},
    }


def markdown() -> str:
    """``docs/protocol.md``: the module docstring, every message and model with its fields."""
    lines = [
        f"# Baohuang table protocol, version {protocol.VERSION}",
        "",
        "Generated from `src/baohuang/protocol/messages.py` by `baohuang protocol --out docs`;",
        "the JSON Schema of every message is `protocol.schema.json` beside this file.",
        "",
        (protocol.__doc__ or "").strip(),
        "",
        "## Messages",
        "",
        "| `t` | direction | example |",
        "|---|---|---|",
    ]
    client = {"hello", "cmd", "ping"}
    for name, example in EXAMPLES.items():
        way = "client → server" if name in client else "server → client"
        text = json.dumps(example, ensure_ascii=False)
        lines.append(f"| `{name}` | {way} | `{text}` |")
    lines += ["", "## Models", ""]
    models = [
        value
        for value in vars(protocol).values()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == protocol.__name__
    ]
    for model in models:
        if model.__name__ in ("Model", "CommandBase") or model.__name__.startswith(
            ("Client", "Server")
        ):
            continue
        lines += [f"### {model.__name__}", "", inspect.cleandoc(model.__doc__ or ""), ""]
        lines += ["| field | type | default | meaning |", "|---|---|---|---|"]
        for field_name, field in model.model_fields.items():
            kind = _type_text(field.annotation)
            default = (
                "required"
                if field.is_required()
                else f"`{field.get_default(call_default_factory=True)!r}`"
            )
            lines.append(f"| `{field_name}` | {kind} | {default} | {field.description or ''} |")
        lines.append("")
    defs = schema()["$defs"]
    lines += ["## The view", ""]
    for engine_type in VIEW_TYPES:
        lines += _engine_type(engine_type, defs[engine_type.__name__])
    lines += [
        "## Engine events",
        "",
        "The ``events`` of a ``start`` or ``game`` event, as this seat sees them: the public",
        "fields, and the seat's private ones (optional below) merged in (R14). ``seq`` is the",
        "event's position in its game's log (from 0), ``kind`` its kind.",
        "",
    ]
    for engine_type in EVENT_TYPES:
        lines += _engine_type(engine_type, defs[engine_type.__name__])
    lines += ["## Quick signals (心战)", "", "| id | 中文 | English |", "|---|---|---|"]
    signals = ((key, *MESSAGES[f"signal.{key}"]) for key in protocol.SIGNALS)
    lines += [f"| `{key}` | {zh} | {en} |" for key, zh, en in signals]
    return "\n".join(lines) + "\n"


def _engine_type(kind: type, definition: dict[str, Any]) -> list[str]:
    """The section of an engine dataclass or ``TypedDict``: its fields, their types (an
    optional one marked) and meanings (from its JSON Schema ``definition``)."""
    lines = [f"### {kind.__name__}", "", inspect.cleandoc(kind.__doc__ or ""), ""]
    lines += ["| field | type | meaning |", "|---|---|---|"]
    described = definition["properties"]
    for name, hint in get_type_hints(kind, include_extras=True).items():
        optional = get_origin(hint) is NotRequired
        kind_text = _type_text(get_args(hint)[0] if optional else hint)
        meaning = described[name].get("description", "")
        lines.append(f"| `{name}` | {kind_text}{' (optional)' if optional else ''} | {meaning} |")
    return [*lines, ""]


def _type_text(annotation: Any) -> str:
    """A field's type for a Markdown cell: ``int \\| None``, ``'auto' \\| 'random'``."""
    return "`" + _type_name(annotation).replace("|", "\\|") + "`"


def _type_name(annotation: Any) -> str:
    """A type as the docs name it; sequences and mappings by their JSON form (list, dict)."""
    if annotation is SeatEvent:
        return "SeatEvent"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is tuple and len(args) == 2 and isinstance(args[1], EllipsisType):
        return f"list[{_type_name(args[0])}]"
    if origin is Mapping:
        return f"dict[{', '.join(_type_name(arg) for arg in args)}]"
    if origin is Literal:
        return " | ".join(repr(arg) for arg in args)
    if origin is Annotated:
        return _type_name(args[0])
    if origin in (Union, UnionType):
        return " | ".join(_type_name(arg) for arg in args)
    if origin is not None:
        return f"{origin.__name__}[{', '.join(_type_name(arg) for arg in args)}]"
    return "None" if annotation is type(None) else getattr(annotation, "__name__", str(annotation))


def write(folder: Path) -> list[Path]:
    """Write both files into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    schema_path, md_path = folder / "protocol.schema.json", folder / "protocol.md"
    schema_path.write_text(json.dumps(schema(), ensure_ascii=False, indent=2) + "\n", "utf-8")
    md_path.write_text(markdown(), "utf-8")
    return [schema_path, md_path]
