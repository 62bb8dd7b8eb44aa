"""复盘 (analysis): one seat's decisions in a recorded game, each weighed by the search.

At each decision of the seat that had a choice, in the role phase (R8, R9, R11) or the play
(R6), the analyst — the ``strong`` search, without a time limit — deals ``deals`` hands for the
other seats **from what the seat could see then** (its view and the play so far, R14: never the
other hands of the record) and plays out each of a few moves on the same deals: the heuristic's
choice, the cheapest plays and whole sets (:func:`~.search.candidates`; in the role phase every
answer, :func:`~.rolesearch.role_answers`) and the move played. Each move's expected points for
the seat is its mean; the **loss** of a decision is the best move's mean less the played one's
(0 when the played move is the best), a **mistake** a loss of :data:`MISTAKE` points or more
and more than two standard errors of the deal-by-deal difference (the deals are the same for
every move, so the difference is measured more closely than either mean).
The analyst follows the game as the seat did (:meth:`SearchBot.observe`), so its reading of the
hands and its guard suspicion are the seat's own.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..engine.actions import Action, Escape, PlayCards, parse_action
from ..engine.determinize import ROLE_PHASES
from ..engine.record import start_game
from ..engine.rules import Rules
from .handsplit import rank_counts_of
from .heuristic import HeuristicBot
from .rolesearch import role_answers
from .search import SearchBot, candidates, strong_settings

#: A loss of this many points or more is a mistake (失误).
MISTAKE = 1.0
#: Moves shown per decision, the best first (the played one is always shown).
TOP = 3
#: Deals per decision by default.
DEALS = 32


@dataclass(frozen=True, slots=True)
class Move:
    """One move weighed: its notation, its mean points for the seat and their standard error."""

    action: str
    mean: float
    error: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: its number among the game's actions (from 0), the phase, the
    move played, the moves weighed (best first, at most :data:`TOP` and the played one), the
    loss."""

    index: int
    phase: str
    played: str
    moves: tuple[Move, ...]
    loss: float
    #: The standard error of the loss, deal by deal.
    error: float = 0.0

    @property
    def best(self) -> str:
        return self.moves[0].action

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE and self.loss > 2 * self.error

    @property
    def expected(self) -> float:
        """The played move's expected points: the seat's outlook after it."""
        return next(m.mean for m in self.moves if m.action == self.played)


@dataclass(frozen=True, slots=True)
class Analysis:
    """A seat's decisions in one game, weighed; its points when the game ended."""

    seat: int
    preset: str
    deals: int
    decisions: tuple[Decision, ...]
    points: int | None

    @property
    def lost(self) -> float:
        """Points lost over the game: the sum of the decisions' losses."""
        return sum(d.loss for d in self.decisions)

    @property
    def best_share(self) -> float:
        """The share of decisions where the move played was the best weighed."""
        if not self.decisions:
            return 1.0
        return sum(d.loss == 0 for d in self.decisions) / len(self.decisions)

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.decisions if d.mistake]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "preset": self.preset,
            "deals": self.deals,
            "points": self.points,
            "lost": round(self.lost, 2),
            "best_share": round(self.best_share, 3),
            "mistakes": len(self.mistakes),
            "decisions": [
                {
                    **asdict(d),
                    "moves": [asdict(m) for m in d.moves],
                    "best": d.best,
                    "mistake": d.mistake,
                    "expected": d.expected,
                }
                for d in self.decisions
            ],
        }


def analyst(rules: Rules, seat: int) -> SearchBot:
    """The search that weighs the moves: ``strong``'s settings, no time limit."""
    return SearchBot(rules, f"analyse/{seat}", replace(strong_settings(rules), budget_s=None))


def turns_of(record: Mapping[str, Any], seat: int) -> int:
    """The actions of ``seat`` in ``record`` (an upper bound on its decisions)."""
    return sum(1 for entry in record["actions"] if entry["seat"] == seat)


def analyse(
    record: Mapping[str, Any],
    seat: int,
    deals: int = DEALS,
    done: Callable[[int], None] | None = None,
    only: Collection[int] | None = None,
) -> Analysis:
    """Weigh ``seat``'s decisions in the recorded game (see the module docstring), or those
    at the actions numbered ``only``; ``done(1)`` after each of the seat's actions."""
    game = start_game(dict(record))
    rules = game.rules
    search = analyst(rules, seat)
    decisions: list[Decision] = []
    for index, entry in enumerate(record["actions"]):
        action = parse_action(entry["action"])
        if entry["seat"] == seat and seat in game.to_act and not isinstance(action, Escape):
            view, legal = game.view(seat), game.legal_actions(seat)
            played = _as_legal(action, legal)
            search.look(view)
            weighed = only is None or index in only
            if weighed and len(legal) > 1 and (view.phase in ROLE_PHASES or view.phase == "play"):
                decisions.append(_weigh(search, index, view, legal, played, deals))
            search.acted(view, played)
            if done is not None:
                done(1)
        game.apply(action, entry["seat"])
    points = game.result.scores[seat] if game.result else None
    return Analysis(seat, rules.name, deals, tuple(decisions), points)


def _as_legal(action: Action, legal: list[Action]) -> Action:
    """The legal action ``action`` is (a play recorded by its cards is its play)."""
    wanted = str(action.play if isinstance(action, PlayCards) else action)
    return next((a for a in legal if str(a) == wanted), action)


def _weigh(
    search: SearchBot, index: int, view: Any, legal: list[Action], played: Action, deals: int
) -> Decision:
    base = HeuristicBot.choose(search, view, legal)  # the heuristic's choice, its memory kept
    if view.phase in ROLE_PHASES:
        options = role_answers(base, legal, view.hand or ())
    else:
        options = candidates(base, legal, rank_counts_of(view.hand or ()), search.settings.limit)
    options = list(dict.fromkeys([*options, played]))
    scores = search.appraise(view, options, deals)
    moves = sorted(
        (
            Move(str(option), statistics.fmean(s), _error(s))
            for option, s in zip(options, scores, strict=True)
        ),
        key=lambda m: -m.mean,
    )
    mine = next(m for m in moves if m.action == str(played))
    shown = [*moves[:TOP], *([mine] if mine not in moves[:TOP] else [])]
    loss = round(max(0.0, moves[0].mean - mine.mean), 3)
    return Decision(index, view.phase, str(played), tuple(shown), loss)


def _error(scores: list[int]) -> float:
    return statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
