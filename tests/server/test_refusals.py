"""Refusals over the protocol carry the message id and params besides both texts: a page
words them from its catalog, an older client shows ``message`` / ``zh``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from baohuang.engine.errors import NotationError
from baohuang.protocol.messages import ServerMessage
from baohuang.server.connection import Refused
from baohuang.server.refusals import AccountError
from baohuang.text.catalog import t
from helpers.tables import Harness

SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def worded(data: dict[str, Any]) -> None:
    """``message`` and ``zh`` are the catalog's words for ``key`` with ``params``."""
    assert data["message"] == t(data["key"], "en", **data["params"])
    assert data["zh"] == t(data["key"], "zh", **data["params"])


def test_an_illegal_command_answers_the_engine_errors_key_and_params(harness: Harness) -> None:
    (player,) = harness.create(people=1)
    for _ in range(400):
        if player.my_turn():
            break
        harness.step()
    answer = harness.send(player, "act", action="9z 9h")
    SERVER.validate_python(answer)
    data = answer["d"]
    assert data["code"] == "illegal" and data["key"] == "error.card.bad_in"
    assert data["params"] == {"card": "9z", "text": "9z 9h"}
    worded(data)
    assert data["message"].startswith("bad card '9z'") and "写法有误" in data["zh"]


def test_a_server_refusal_answers_its_key_and_params(harness: Harness) -> None:
    (player,) = harness.create(people=1)
    answer = harness.send(player, "sit")
    SERVER.validate_python(answer)
    data = answer["d"]
    assert (data["code"], data["key"], data["params"]) == (
        "not_allowed",
        "error.server.seated",
        {"seat": 0},
    )
    worded(data)


def test_a_nested_error_is_left_out_of_params_but_worded_in_the_texts() -> None:
    """A page cannot word a nested error from ``params``: it falls back on the texts."""
    inner = NotationError("error.card.rank", rank="x", ranks="3 4 5")
    data = Refused("illegal", "error.rules.ranks_from_option", reason=inner).data("c1")
    assert data["key"] == "error.rules.ranks_from_option" and data["params"] == {}
    assert data["message"] == "option ranks_from: unknown rank 'x': ranks are 3 4 5 (or 10)"
    assert data["zh"].startswith("选项 ranks_from：没有点数 'x'")


def test_an_http_refusal_has_the_same_detail() -> None:
    refused = AccountError(404, "not_found", "error.not_found.table", name="ab12")
    assert refused.status == 404 and refused.detail() == {
        "code": "not_found",
        "key": "error.not_found.table",
        "params": {"name": "ab12"},
        "message": "no table ab12",
        "zh": "没有牌桌 ab12",
    }


def test_a_burst_of_stale_commands_gets_one_snapshot(harness: Harness) -> None:
    """Each stale ``act`` is refused; the snapshot that resyncs the client (~17 KB) is sent
    once for a burst at the same state, not once per command (8 sockets of one's own seat
    sending stale commands had held 252–345 MB)."""
    (player,) = harness.create(people=1)
    for _ in range(400):
        if player.my_turn():
            break
        harness.step()
    before = len(player.messages)
    answers = [harness.send(player, "act", seen=0, action="pass") for _ in range(30)]
    assert all(a["d"]["code"] == "stale" for a in answers)
    sent = [m["t"] for m in player.messages[before:]]
    assert sent.count("error") == 30 and sent.count("snapshot") == 1
