"""Bots (机器人): given a seat's view and its legal actions, choose an action.

A bot sees only what its seat may know (R14): ``game.view(seat)`` and ``game.legal_actions()``,
never the :class:`~baohuang.engine.game.Game` itself. The rules are public, so a bot may be
built for them (:data:`BOTS`, :func:`make_bot`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ..engine.actions import ACCEPT, PASS, Action, Call, Escape, Tribute, parse_action
from ..engine.game import Game
from ..engine.plays import Play
from ..engine.record import start_game
from ..engine.rules import Rules
from ..engine.scoring import GameResult
from ..engine.views import View
from .heuristic import HeuristicBot
from .learned import LearnedBot, QModel, has_shipped_model
from .search import SearchBot, strong_bot


class Bot(Protocol):
    """Anything that picks one of the legal actions from a seat's view."""

    def choose(self, view: View, legal: list[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


def play_power(play: Play) -> tuple[int, int]:
    """A play's size, then its top card's power (R2: 3 < … < 2 < B < R)."""
    top = 14 if play.big else 13 if play.small and not play.count else play.rank
    return play.size, top


class AutoBot:
    """托管, the seeds' minimal auto-play policy (R13), deterministic.

    - Role phase, "default answers": accept the emperor card whenever that is an option (登基,
      so that an all-``auto`` table never voids deals forever, R8.6, R9.3, R11.2), call the
      first callable triple offered (never 明独), answer ``pass`` in every poll (no 明独, 抢独,
      明保, 造反 or 踢), pay the first tribute card offered.
    - Leading: the lowest single card (the smallest play when no single is legal, R6.7, R6.8).
    - Following: pass.
    """

    def choose(self, view: View, legal: list[Action]) -> Action:
        if PASS in legal:
            return PASS
        if ACCEPT in legal:
            return ACCEPT
        for kind in (Call, Tribute):
            found = next((a for a in legal if isinstance(a, kind)), None)
            if found is not None:
                return found
        plays = [a for a in legal if isinstance(a, Play)]
        return min(plays, key=play_power) if plays else legal[0]


#: Builds a bot for a seat from the rules and a seed.
BotFactory = Callable[[Rules, str], Bot]

#: The bots by name, weakest first: ``search`` (the heuristic with endgame and role-phase
#: search; in weihai the whole play) leads ``heuristic`` by 0.23 points/game in classic (against
#: an earlier heuristic) and 1.20 in weihai over 500 duplicate deals (bench/search.md);
#: ``strong`` is ``search`` reading the hands from the play (``read=4``, :mod:`.handreader`;
#: in classic searching the whole play when sure, :func:`.search.strong_bot`) for 0.78 in
#: classic over 60 deals;
#: ``learned`` plays the shipped model for the game's rules (bench/learned.md): weihai's role
#: answers learned where the model prefers them by a point, the heuristic's play (0.27 in
#: weihai); in classic the whole game, a network reading the heuristic's choice.
BOTS: dict[str, BotFactory] = {
    "random": lambda rules, seed: RandomBot(seed),
    "auto": lambda rules, seed: AutoBot(),
    "heuristic": lambda rules, seed: HeuristicBot(rules),
    "search": lambda rules, seed: SearchBot(rules, seed),
    "strong": strong_bot,
}
if has_shipped_model():  # the learned bot, when a model earned its place (bench/learned.md)
    BOTS["learned"] = lambda rules, seed: LearnedBot(rules)
#: ``learned:PATH``: the learned bot with the model at PATH (``baohuang train``'s model.npz);
#: ``learned:PATH@M``: the heuristic's choice unless the model prefers another by M points.
MODEL_PREFIX = "learned:"


def is_bot(name: str) -> bool:
    """Whether :func:`make_bot` knows ``name``: a bot of :data:`BOTS`, or ``learned:PATH``."""
    return name in BOTS or (name.startswith(MODEL_PREFIX) and len(name) > len(MODEL_PREFIX))


def make_bot(name: str, rules: Rules, seed: str = "0") -> Bot:
    """The bot called ``name`` (see :data:`BOTS`, or ``learned:PATH``) for a game under
    ``rules``."""
    if name.startswith(MODEL_PREFIX):
        path, _, margin = name.removeprefix(MODEL_PREFIX).partition("@")
        return LearnedBot(rules, QModel.load(path), float(margin) if margin else None)
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: bots are {', '.join(BOTS)}")
    return factory(rules, seed)


def catch_up(bot: Bot, history: Mapping[str, Any], seat: int) -> None:
    """Show ``bot``, taking ``seat`` mid-game (托管, a leaver's seat), each of that seat's turns
    so far as the seat saw it and what was played there, as if it had played from the start.
    ``history`` is :func:`~baohuang.engine.record.history` (or a record); the bot is shown the
    seat's views only (R14). A bot without ``observe`` keeps nothing between turns."""
    observe = getattr(bot, "observe", None)
    if observe is None or not history["actions"]:
        return
    game = start_game(dict(history))
    for entry in history["actions"]:
        action = parse_action(entry["action"])
        if entry["seat"] == seat and seat in game.to_act and not isinstance(action, Escape):
            observe(game.view(seat), action)
        game.apply(action, entry["seat"])


def bot_step(game: Game, bot: Bot) -> Action:
    """Let ``bot`` act for the seat to act: show it that seat's view only, apply its choice."""
    seat = game.current_seat
    if seat is None:
        raise ValueError("the game is over: no seat to act")
    action = bot.choose(game.view(seat), game.legal_actions())
    game.apply(action)
    return action


def play_out(game: Game, bots: Sequence[Bot]) -> GameResult:
    """Run ``game`` to the end, seat ``s`` played by ``bots[s]``; the game's result."""
    if len(bots) != 5:
        raise ValueError(f"a game needs five bots, one per seat, not {len(bots)}")
    while (seat := game.current_seat) is not None:
        bot_step(game, bots[seat])
    assert game.result is not None
    return game.result
