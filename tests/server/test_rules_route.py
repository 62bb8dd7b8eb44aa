"""GET /api/rules: a preset's rules in words for the browser's 规则 page (#/rules/P), the
sentences of ``baohuang rules`` (describe), section by section, in Chinese or English."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from baohuang.engine.describe import describe
from baohuang.engine.rules import PRESETS, Rules
from baohuang.server.app import create_app

SECTIONS = ["cards", "play", "roles", "scoring"]


def get_rules(tmp_path: Path, *queries: dict[str, object]) -> list[httpx.Response]:
    """``GET /api/rules`` with each of ``queries``, from an app in process (no database)."""
    app = create_app(f"sqlite:///{tmp_path / 'rules.db'}")

    async def fetch() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.get("/api/rules", params=q) for q in queries]  # type: ignore[arg-type]

    return asyncio.run(fetch())


def test_every_preset_in_both_languages_is_describe_section_by_section(tmp_path: Path) -> None:
    queries = [{"preset": name, "lang": lang} for name in PRESETS for lang in ("zh", "en")]
    for query, answer in zip(queries, get_rules(tmp_path, *queries), strict=True):
        assert answer.status_code == 200, answer.text
        body = answer.json()
        rules = Rules.preset(str(query["preset"]))
        said = describe(rules, str(query["lang"]))
        assert [(s["heading"], s["lines"]) for s in body["sections"]] == [
            (heading, lines) for heading, lines in said
        ]
        assert [s["id"] for s in body["sections"]] == SECTIONS + ["tribute"] * rules.tribute
        assert body["preset"] == query["preset"] and body["lang"] == query["lang"]
        assert [p["key"] for p in body["presets"]] == list(PRESETS)
        assert str(query["preset"]) in body["title"] and body["summary"]
    zh, en = (
        r.json() for r in get_rules(tmp_path, {"preset": "qq"}, {"preset": "qq", "lang": "en"})
    )
    assert zh["title"] == "保皇规则：QQ（qq）" and en["title"] == "Baohuang rules: QQ (qq)"


def test_options_change_the_words_and_the_title(tmp_path: Path) -> None:
    plain, roast = get_rules(
        tmp_path, {"preset": "classic"}, {"preset": "classic", "option": ["roast=true"]}
    )
    assert roast.status_code == 200, roast.text
    assert roast.json()["options"] == ["roast=true"]
    assert roast.json()["title"] == "保皇规则：经典（classic） roast=true"
    play = {s["id"]: s["lines"] for s in roast.json()["sections"]}["play"]
    assert any(line.startswith("烤牌（R5.1）") for line in play)
    assert "烤牌" not in plain.text


@pytest.mark.parametrize(
    ("query", "code", "words"),
    [
        ({"preset": "nope"}, "bad_preset", ["'nope'", *PRESETS]),
        ({"preset": "classic", "option": ["roast=maybe"]}, "bad_rules", ["roast"]),
        ({"preset": "classic", "option": ["sevens=true"]}, "bad_rules", ["sevens", "roast"]),
        ({"preset": "classic", "option": ["roast"]}, "bad_rules", ["roast"]),
    ],
)
def test_a_bad_preset_or_option_is_a_400_that_says_why(
    tmp_path: Path, query: dict[str, object], code: str, words: list[str]
) -> None:
    (answer,) = get_rules(tmp_path, query)
    assert answer.status_code == 400, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == code
    for word in words:
        assert word in detail["message"] and word in detail["zh"], (word, detail)


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    (answer,) = get_rules(tmp_path, {"preset": "classic", "lang": "fr"})
    assert answer.status_code == 422
