"""保皇 Baohuang: an exact rules engine for the 5-player, 4-deck Shandong card game.

The rules, section by section (R1–R14), are in ``docs/rules.md``. The public API::

    Rules.preset(name, **options)       frozen rules (R7)
    Play.parse(text), str(play)         plays in R2 notation
    beats(response, current, rules)     R4 / R5.1 / R5.2
    legal_plays(hand, current, rules)   every distinct legal play
    score(rules, emperor=, guard=, places=, ...)   R10
    new_game(rules, seed=...)           a game: legal_actions(), apply(), view(seat), clone()
    Match(rules, games=N, seed=...)     games chained with tribute (R12)
"""

from .engine.actions import (
    ACCEPT,
    DECLINE,
    PASS,
    Accept,
    Action,
    Call,
    Declare,
    Decline,
    Escape,
    OpenSolo,
    Pass,
    PlayCards,
    Tribute,
    parse_action,
)
from .engine.cards import Card, format_cards, parse_cards
from .engine.errors import BaohuangError, IllegalActionError, NotationError, RecordError, RulesError
from .engine.game import Game, new_game
from .engine.match import Match
from .engine.movegen import legal_plays
from .engine.plays import Play, beats
from .engine.record import read_record, replay, to_record, write_record
from .engine.rules import RULES_VERSION, Rules
from .engine.scoring import GameResult, score

__version__ = "0.1.0"

__all__ = [
    "ACCEPT",
    "DECLINE",
    "PASS",
    "RULES_VERSION",
    "Accept",
    "Action",
    "BaohuangError",
    "Call",
    "Card",
    "Declare",
    "Decline",
    "Escape",
    "Game",
    "GameResult",
    "IllegalActionError",
    "Match",
    "NotationError",
    "OpenSolo",
    "Pass",
    "Play",
    "PlayCards",
    "RecordError",
    "Rules",
    "RulesError",
    "Tribute",
    "beats",
    "format_cards",
    "legal_plays",
    "new_game",
    "parse_action",
    "parse_cards",
    "read_record",
    "replay",
    "score",
    "to_record",
    "write_record",
]
