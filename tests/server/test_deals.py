"""R14 through what is published: no record, id or message lets anyone compute a deal that is
still to be played (each game is dealt from a secret of its own)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from baohuang.engine.game import new_game
from baohuang.engine.match import game_seed
from baohuang.engine.scoring import GameResult
from baohuang.server.store import GameRow
from helpers.tables import Harness


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    kit = Harness(tmp_path)
    yield kit
    kit.close()


def strings(value: Any) -> Iterator[str]:
    """Every string (and number, as text) anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif value is not None:
        yield str(value)


def candidates(text: str) -> set[str]:
    """Seeds someone might derive from a published string: itself, and its next games."""
    base = text.rsplit("/", 1)[0]
    return {text, game_seed(text, 1), game_seed(base, 1), f"{base}/1", f"{text}/1/1"}


def test_r14_no_published_record_predicts_the_next_games_hands(harness: Harness) -> None:
    harness.create(games=2, timer=1, pause=5)
    while harness.actor.state.game_index == 0:  # the timer puts me on 托管; the bots play game 1
        harness.step()
    table = harness.actor
    assert table.state.game_index == 1, "the second game has been dealt"

    async def first_record() -> dict[str, Any]:
        async with harness.store.sessions() as session:
            row = await session.scalar(select(GameRow).where(GameRow.index == 0))
            assert row is not None
            return row.record

    record = harness.run(first_record())
    previous = GameResult.from_dict(record["result"])
    rules = table.state.rules
    dealt = new_game(rules, table.state.deal_seeds[1], previous)
    actual = [dealt.hand_text(seat) for seat in range(5)]
    published = [*strings(record), *strings([m for c in harness.clients for m in c.messages])]
    for text in set(published):
        for seed in candidates(text):
            guess = new_game(rules, seed, previous)
            assert [guess.hand_text(s) for s in range(5)] != actual, f"{seed!r} deals game 2"
    # The table's own secret is nowhere in what was published.
    assert table.state.seed not in json.dumps(record) + "".join(published)
    assert table.state.deal_seeds[1] not in "".join(published)
