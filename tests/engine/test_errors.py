"""Errors carry a message id and its params; the catalog words them (baohuang.text.errors).

Every ``error.…`` id named in the source is in the catalog with both languages, and every call
that names one supplies the fields its texts use.
"""

from __future__ import annotations

import ast
import pickle
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import baohuang
from baohuang import (
    Card,
    Escape,
    IllegalActionError,
    NotationError,
    RecordError,
    Rules,
    RulesError,
    new_game,
    parse_action,
)
from baohuang.engine.errors import BaohuangError
from baohuang.text.catalog import MESSAGES, t
from baohuang.text.errors import ERRORS

SRC = Path(baohuang.__file__).parent
#: An id as the source names it: ``"error.game.over"``, or the start of one (an f-string).
ID = re.compile(r"error\.[a-z_.]+")
#: Helpers that take an id and fill some of its fields themselves.
FILLED_BY = {"check": {"limit"}, "not_found": {"name"}}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_error_is_in_the_catalog_in_both_languages() -> None:
    assert ERRORS and all(key.startswith("error.") for key in ERRORS)
    for key, (zh, en) in ERRORS.items():
        assert MESSAGES[key] == (zh, en) and zh and en, key
        assert fields(zh) == fields(en), key


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_every_error_renders_with_plain_fields(key: str) -> None:
    """Fields are plain ``{name}`` (the browser fills them with the same regex)."""
    for lang, text in zip(("zh", "en"), ERRORS[key], strict=True):
        named = fields(text)
        assert named == set(re.findall(r"\{(\w+)\}", text)), (key, text)
        said = t(key, lang, **{name: f"<{name}>" for name in named})
        assert "{" not in said, (key, said)
        assert all(f"<{name}>" in said for name in named), (key, said)


def named_ids() -> Iterator[tuple[str, ast.AST, ast.Call | None, str]]:
    """Each id (or f-string start of one) in the source: (id, node, the call it is an argument
    of, where)."""
    for path in sorted(SRC.rglob("*.py")):
        if path.parent.name == "text":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = list(ast.walk(tree))
        calls = {id(arg): node for node in nodes if isinstance(node, ast.Call) for arg in node.args}
        parts = {
            id(part) for node in nodes if isinstance(node, ast.JoinedStr) for part in node.values
        }
        for node in nodes:
            if id(node) in parts:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
                text = str(node.values[0].value)
            else:
                continue
            if ID.fullmatch(text):
                where = f"{path.relative_to(SRC)}:{node.lineno}"
                yield text, node, calls.get(id(node)), where


def matching(named: str, node: ast.AST) -> list[str]:
    if isinstance(node, ast.JoinedStr):
        return [key for key in ERRORS if key.startswith(named)]
    return [named] if named in ERRORS else []


def test_every_id_in_the_source_is_in_the_catalog_with_its_fields_supplied() -> None:
    found, problems = set(), []
    for named, node, call, where in named_ids():
        keys = matching(named, node)
        if not keys:
            problems.append(f"{where}: no message {named}")
            continue
        found.update(keys)
        if call is None or any(k.arg is None for k in call.keywords):
            continue  # not named in a call (an example), or **params passed on
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        supplied = {k.arg for k in call.keywords if k.arg} | FILLED_BY.get(name, set())
        for key in keys:
            missing = fields(ERRORS[key][0]) - supplied
            if missing:
                problems.append(f"{where}: {key} needs {sorted(missing)}")
    assert not problems, problems
    assert len(found) > 100  # the scan sees the raise sites


# ---------------------------------------------------------------------------- the errors


def test_an_error_has_its_code_params_and_both_texts() -> None:
    with pytest.raises(NotationError) as info:
        Card.parse("9x")
    err = info.value
    assert err.code == "error.card.bad" and err.params == {"card": "9x"}
    assert str(err) == t("error.card.bad", "en", card="9x") and str(err).startswith("bad card")
    assert err.text("zh") == t("error.card.bad", "zh", card="9x") and "写法有误" in err.text("zh")
    assert err.text("en") == str(err) and isinstance(err, ValueError)


def test_an_illegal_action_names_its_id_and_params() -> None:
    game = new_game(Rules.preset("classic"), seed=1)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Escape(7))
    assert info.value.code == "error.game.no_seat" and info.value.params == {"seat": 7}
    assert (str(info.value), info.value.text("zh")) == ("no seat 7", "没有座位7")


@pytest.mark.parametrize("text", ["escape 12", "escape 34", "escape 01234", "逃跑 5", "escape"])
def test_r10_4_an_escape_names_one_seat_0_to_4(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.code == "error.action.escape_seat"


def test_a_nested_error_is_worded_in_the_language_around_it() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("classic", ranks_from="x")
    err = info.value
    assert err.code == "error.rules.ranks_from_option"
    assert isinstance(err.params["reason"], NotationError)
    assert str(err).startswith("option ranks_from: unknown rank 'x'")
    assert err.text("zh").startswith("选项 ranks_from：没有点数 'x'")


def test_a_record_error_names_the_action_index() -> None:
    err = RecordError("error.record.entry", 4)
    assert (err.code, err.params, err.index) == ("error.record.entry", {}, 4)
    assert str(err) == "action 4: entry needs a seat and an action"
    assert err.text("zh") == "第 4 个动作：需要座位和动作"


@pytest.mark.parametrize(
    "err",
    [
        BaohuangError("error.game.over"),
        IllegalActionError("error.game.no_seat", seat=7),
        RecordError("error.record.entry", 2),
        RulesError("error.rules.ranks_from_rank", reason=NotationError("error.play.empty")),
    ],
    ids=lambda err: err.code,
)
def test_errors_survive_pickling(err: BaohuangError) -> None:
    """A worker process's error reaches the parent whole (arena, the CLI's games)."""
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and again.code == err.code
    assert again.params.keys() == err.params.keys()
    assert (str(again), again.text("zh")) == (str(err), err.text("zh"))
