"""What a seat is asked (提示, :mod:`baohuang.text.prompts`): every role-phase decision of every
preset gets a question and words on each answer from the catalog; a sealed poll (R14) offers
every seat asked the same answers."""

from __future__ import annotations

import random
import re

import pytest

from baohuang.engine.match import Match
from baohuang.engine.rules import PRESETS, Rules
from baohuang.text.catalog import MESSAGES, t
from baohuang.text.prompts import SEALED_ANSWERS, prompt


@pytest.mark.parametrize("preset", PRESETS)
def test_every_role_decision_is_asked_and_every_answer_has_words(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    asked: set[str] = set()
    for n in range(6):
        match = Match(rules, 2, seed=f"prompts/{preset}/{n}")
        for _ in range(2):
            game = match.game
            while not game.is_over:
                seats = list(game.to_act)
                for seat in range(5):
                    view = game.view(seat).to_json()
                    said = prompt(view, rules.selection)
                    if view["phase"] == "play" or not (view["legal"] or view["answer"]):
                        assert said is None
                        continue
                    assert said is not None and said["ask"] in MESSAGES
                    asked.add(said["ask"])
                    assert set(view["legal"]) <= set(said["answers"]) <= set(said["labels"])
                    for key, fields in said["labels"].values():
                        assert key in MESSAGES, key
                        for lang in ("zh", "en"):
                            assert not re.search(r"\{\w+\}", t(key, lang, **fields)), key
                    if view["asked"]:  # R14: the same two answers for every seat asked
                        assert said["answers"] == list(SEALED_ANSWERS[view["poll"]])
                seat = rng.choice(seats)
                game.apply(rng.choice(game.legal_actions(seat)), seat)
            if match.is_over:
                break
            match.next_game()
    assert asked, "no role decision met"
