"""The protocol's documentation in docs/ is generated from the models and kept current."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from baohuang.protocol import schema
from baohuang.protocol.messages import ClientMessage, ServerMessage

DOCS = Path(__file__).parents[2] / "docs"


def test_docs_are_generated_from_the_models() -> None:
    stale = "docs/ is out of date: run `baohuang protocol --out docs`"
    assert (DOCS / "protocol.md").read_text("utf-8") == schema.markdown(), stale
    assert json.loads((DOCS / "protocol.schema.json").read_text("utf-8")) == schema.schema(), stale


def test_every_documented_example_is_a_valid_message() -> None:
    client, server = TypeAdapter(ClientMessage), TypeAdapter(ServerMessage)
    for name, example in schema.EXAMPLES.items():
        if "…" in json.dumps(example, ensure_ascii=False):
            continue  # abbreviated: a TableInfo or view stands in
        adapter = client if name in ("hello", "cmd", "ping") else server
        assert adapter.validate_python(example).t == name
