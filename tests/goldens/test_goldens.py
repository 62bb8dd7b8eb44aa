"""Behaviour pinned by goldens (tests/goldens/goldens.json): a change to the engine or to a bot
that alters what they do shows here, however small, and says what changed.

- ``engine``: per preset, :data:`MATCHES` seeded two-game matches (tribute between the games)
  of uniformly random legal actions: the decisions, the legal actions summed over them, and the
  sha256 (first 16 hex digits) of every game's public events (what a spectator sees).
- ``bots``: per bot and preset, :data:`DEALS` seeded deals, the bot at seat ``deal % 5`` and the
  heuristic at the others: the bot's decisions, and the sha256 of every game's actions. The
  search bots think without a time limit (``budget_s=None``: their samples, not the clock,
  bound them), so that their choices are the same on any machine, however busy.

A change that alters a golden says so in its commit body (which goldens, and why); regenerate
them with ``.venv/bin/pytest tests/goldens --update-goldens`` (docs/testing.md). ``strong`` is
slow (about 11 s of one core): the fast lane leaves it to the full run.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from baohuang.bots.base import BOTS, Bot, play_out
from baohuang.bots.search import SearchBot
from baohuang.engine.game import Game, new_game
from baohuang.engine.match import Match
from baohuang.engine.rules import PRESETS, Rules
from baohuang.engine.state import SEATS

GOLDENS = Path(__file__).with_name("goldens.json")
UPDATE = ".venv/bin/pytest tests/goldens --update-goldens"
ABOUT = (
    f"Counts and hashes that pin the engine's and the bots' behaviour (tests/goldens/"
    f"test_goldens.py). Regenerate: {UPDATE}; a change that alters them says so in its commit."
)
#: Two-game matches per preset for the engine's goldens.
MATCHES = 40
#: Deals per preset for each bot's goldens: a few, the search bots being dear.
DEALS = {"heuristic": 5, "search": 3, "strong": 1}


def digest(lines: list[str]) -> str:
    """The first 16 hex digits of the sha256 of ``lines``, one a line."""
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode()).hexdigest()[:16]


def public_events(game: Game) -> list[str]:
    return [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in game.events_for(None)]


def engine_goldens(rules: Rules) -> dict[str, Any]:
    """:data:`MATCHES` random two-game matches under ``rules``: their counts and events."""
    decisions = legal = 0
    events: list[str] = []
    for number in range(MATCHES):
        rng = random.Random(f"golden/{rules.name}/{number}")
        match = Match(rules, games=2, seed=f"golden/{number}")
        game: Game | None = match.game
        while game is not None:
            while not game.is_over:
                options = game.legal_actions()
                decisions += 1
                legal += len(options)
                game.apply(rng.choice(options))
            events += public_events(game)
            game = match.next_game()
    return {"games": 2 * MATCHES, "decisions": decisions, "legal": legal, "events": digest(events)}


def golden_bot(level: str, rules: Rules, seed: str) -> Bot:
    """The bot ``level``, a search bot without its time limit (the same choices anywhere)."""
    bot = BOTS[level](rules, seed)
    if isinstance(bot, SearchBot):
        bot.settings = replace(bot.settings, budget_s=None)
    return bot


def bot_goldens(level: str, rules: Rules) -> dict[str, Any]:
    """:data:`DEALS` deals of ``level`` at one seat, the heuristic at the others."""
    decisions = 0
    actions: list[str] = []
    for deal in range(DEALS[level]):
        seed, seat = f"golden/{deal}", deal % SEATS
        bots = [golden_bot("heuristic", rules, f"{seed}/{s}") for s in range(SEATS)]
        bots[seat] = golden_bot(level, rules, f"{seed}/{seat}")
        game = new_game(rules, seed)
        play_out(game, bots)
        decisions += sum(1 for s, _ in game.actions if s == seat)
        actions += [f"{s} {action}" for s, action in game.actions]
    return {"deals": DEALS[level], "decisions": decisions, "actions": digest(actions)}


# ------------------------------------------------------------------------------ the checks


def differences(stored: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """A line per preset whose goldens differ: each value that changed, old → new."""
    lines = []
    for name in dict.fromkeys([*stored, *now]):
        old, new = stored.get(name), now.get(name)
        if old == new:
            continue
        if old is None or new is None:
            lines.append(f"  {name}: {'not in the goldens' if old is None else 'no longer played'}")
            continue
        changed = [f"{k} {old.get(k)} → {new.get(k)}" for k in new if old.get(k) != new.get(k)]
        lines.append(f"  {name}: {', '.join(changed)}")
    return lines


def check(section: list[str], now: dict[str, Any], update: bool, what: str) -> None:
    """Compare ``now`` with ``what``'s goldens at ``section`` (keys into goldens.json), or
    with ``--update-goldens`` store it there."""
    if update:
        store(section, now)
        return
    stored = json.loads(GOLDENS.read_text(encoding="utf-8")) if GOLDENS.exists() else {}
    for key in section:
        stored = stored.get(key, {})
    lines = differences(stored, now)
    if lines:
        pytest.fail(
            f"{what} goldens changed (tests/goldens/{GOLDENS.name}):\n" + "\n".join(lines) + "\n"
            f"If the change is meant: {UPDATE}, and say in the commit body which goldens "
            "changed and why (docs/testing.md).",
            pytrace=False,
        )


def store(section: list[str], now: dict[str, Any]) -> None:
    """Write ``now`` at ``section`` of goldens.json, under a lock (``-n``: tests side by side)."""
    GOLDENS.touch()
    with GOLDENS.open("r+", encoding="utf-8") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        text = file.read()
        data = json.loads(text) if text.strip() else {}
        *outer, last = section
        place = data
        for key in outer:
            place = place.setdefault(key, {})
        place[last] = now
        data["about"] = ABOUT
        file.seek(0)
        file.truncate()
        file.write(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


@pytest.fixture
def update(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def test_the_engine_matches_its_goldens(update: bool) -> None:
    now = {name: engine_goldens(rules) for name, rules in PRESETS.items()}
    check(["engine"], now, update, "The engine's")


@pytest.mark.parametrize(
    "level", ["heuristic", "search", pytest.param("strong", marks=pytest.mark.slow)]
)
def test_each_bot_matches_its_goldens(level: str, update: bool) -> None:
    now = {name: bot_goldens(level, rules) for name, rules in PRESETS.items()}
    check(["bots", level], now, update, f"The {level} bot's")
