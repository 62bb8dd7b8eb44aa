"""Per-seat views (R14): the only way a game's state leaves the engine.

A :class:`View` holds what one seat may know, as domain values (cards, plays, actions): its
own hand and role, and the public state. A spectator's view (seat ``None``) holds the public
state alone. :meth:`View.to_json` is its wire form, :data:`ViewData` (the table protocol's
``view``, the browser reads it), :meth:`View.from_json` the way back (a remote bot gets views
as JSON). Notation appears only there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from .actions import Action, PlayCards, parse_action
from .cards import CARD_TEXT, RANK_SYMBOLS, Card, card_texts, parse_cards
from .events import Poll
from .plays import Play
from .scoring import GameResult
from .state import Phase
from .trick import Lead, LeadData, TrickEntry, TrickEntryData

if TYPE_CHECKING:
    from .game import Game

#: A role as its seat (or, once known, everyone) knows it.
Role = Literal["emperor", "guard", "rebel"]
#: 明独 (``open``, public) or 暗独 (``dark``, known to the emperor until revealed).
Solo = Literal["open", "dark"]


class ViewData(TypedDict):
    """Everything one seat may know now (R14), as the protocol sends it."""

    seat: int | None
    """The seat this view is for; null: a spectator."""
    phase: Phase
    """The game's phase."""
    deal: int
    """The deal's number in this game (0 first; a void deal, R8.6, deals again)."""
    turn: int | None
    """The seat to act; null once the game is over. In a sealed poll (``asked``) the view's
    own seat while it has yet to answer, else null: nobody learns who has answered (R14)."""
    hand: list[str] | None
    """The seat's own cards, high first; null for a spectator."""
    role: Role | None
    """The seat's role as it knows it; null while unknown."""
    counts: list[int]
    """Cards held, per seat."""
    candidate: int | None
    """The candidate asked to take the emperor card (R8.5), in the candidate phase."""
    pile: list[str]
    """The emperor pile handed along the candidates (R8.9)."""
    tribute_due: list[int]
    """The seats still to pay a tribute card (R12), in order."""
    emperor: int | None
    """The emperor's seat, once someone took the emperor card (R8.5)."""
    called: str | None
    """The called card (R8.7, R11.3)."""
    solo: Solo | None
    """The emperor plays alone, as far as this seat may know it."""
    guard: int | None
    """The guard, as far as this seat may know it (R8.8: once revealed; the guard itself)."""
    lead: LeadData | None
    """The play to beat; null when the seat to act leads."""
    trick: list[TrickEntryData]
    """The round in progress, turn by turn."""
    played: dict[str, int]
    """记牌器: cards played so far by rank symbol (ranks not played are left out)."""
    places: list[int]
    """The seats out so far, first place first (R6.4)."""
    marked: str
    """The marked jokers in the pack: ``RB``, ``R`` or empty (R7)."""
    poll: Poll | None
    """The poll in progress, in the poll phase."""
    asked: list[int]
    """In a sealed poll (明保, 造反; R14): every seat asked, in the poll's order. They answer at
    once, none seeing another's answer, and the answers are published together when the last
    is in; until then nothing public tells who has answered. Empty otherwise."""
    open_guard: bool
    """明保 was declared (R9.4, R8.10)."""
    guard_revealed: bool
    """Everyone knows the guard (R8.8, R9.3, R9.4, R9.5)."""
    rebellion: bool
    """造反 succeeded (R9.5)."""
    kicked: bool
    """踢 was declared (R9.6)."""
    escaped: int | None
    """The seat that escaped (逃跑, R10.4), ending the game."""
    result: GameResult | None
    """The game's result once it is over."""
    legal: list[str]
    """The seat's legal actions in notation, when it is to act; else empty."""
    answer: str | None
    """The seat's own answer to the sealed poll in progress, until the answers are published
    (R14); else null."""
    seq: int
    """The number of engine events so far."""


# Read-only by convention, not frozen: a frozen dataclass sets each of its 30 fields through
# object.__setattr__, and a view is built at every decision (a tenth of an environment step).
@dataclass(slots=True)
class View:
    """Everything one seat may know now (R14): :data:`ViewData`'s fields, in domain values
    where it has notation (the cards, the play to beat, the trick, the actions) and the
    记牌器 as counts by rank index."""

    seat: int | None
    phase: Phase
    deal: int
    turn: int | None
    hand: tuple[Card, ...] | None
    role: Role | None
    counts: tuple[int, ...]
    candidate: int | None
    pile: tuple[Card, ...]
    tribute_due: tuple[int, ...]
    emperor: int | None
    called: Card | None
    solo: Solo | None
    guard: int | None
    lead: Lead | None
    trick: tuple[TrickEntry, ...]
    #: 记牌器: cards played so far per rank index (15, jokers last).
    played: tuple[int, ...]
    places: tuple[int, ...]
    marked: str
    poll: Poll | None
    asked: tuple[int, ...]
    open_guard: bool
    guard_revealed: bool
    rebellion: bool
    kicked: bool
    escaped: int | None
    result: GameResult | None
    legal: tuple[Action, ...]
    answer: Action | None
    seq: int

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-serialisable data (:data:`ViewData`, the protocol's ``view``)."""
        hand, called, answer = self.hand, self.called, self.answer
        return {
            "seat": self.seat,
            "phase": self.phase,
            "deal": self.deal,
            "turn": self.turn,
            "hand": card_texts(hand) if hand is not None else None,
            "role": self.role,
            "counts": list(self.counts),
            "candidate": self.candidate,
            "pile": card_texts(self.pile),
            "tribute_due": list(self.tribute_due),
            "emperor": self.emperor,
            "called": CARD_TEXT[called.id] if called is not None else None,
            "solo": self.solo,
            "guard": self.guard,
            "lead": self.lead.to_json() if self.lead is not None else None,
            "trick": [entry.to_json() for entry in self.trick],
            "played": played_json(self.played),
            "places": list(self.places),
            "marked": self.marked,
            "poll": self.poll,
            "asked": list(self.asked),
            "open_guard": self.open_guard,
            "guard_revealed": self.guard_revealed,
            "rebellion": self.rebellion,
            "kicked": self.kicked,
            "escaped": self.escaped,
            "result": self.result.to_dict() if self.result is not None else None,
            "legal": actions_json(self.legal),
            "answer": str(answer) if answer is not None else None,
            "seq": self.seq,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> View:
        """The view whose :meth:`to_json` is ``data``; raises
        :class:`~baohuang.engine.errors.NotationError` on a card or action it cannot read."""
        hand, lead, result = data["hand"], data["lead"], data["result"]
        called, answer, played = data["called"], data.get("answer"), data["played"]
        return View(
            seat=data["seat"],
            phase=data["phase"],
            deal=data["deal"],
            turn=data["turn"],
            hand=tuple(parse_cards(hand)) if hand is not None else None,
            role=data["role"],
            counts=tuple(data["counts"]),
            candidate=data["candidate"],
            pile=tuple(parse_cards(data["pile"])),
            tribute_due=tuple(data["tribute_due"]),
            emperor=data["emperor"],
            called=Card.parse(called) if called is not None else None,
            solo=data["solo"],
            guard=data["guard"],
            lead=Lead.from_json(lead) if lead is not None else None,
            trick=tuple(TrickEntry.from_json(entry) for entry in data["trick"]),
            played=tuple(played.get(symbol, 0) for symbol in RANK_SYMBOLS),
            places=tuple(data["places"]),
            marked=data["marked"],
            poll=data["poll"],
            asked=tuple(data.get("asked", ())),
            open_guard=data["open_guard"],
            guard_revealed=data["guard_revealed"],
            rebellion=data["rebellion"],
            kicked=data["kicked"],
            escaped=data["escaped"],
            result=GameResult.from_dict(result) if result is not None else None,
            legal=tuple(parse_action(text) for text in data["legal"]),
            answer=parse_action(answer) if answer is not None else None,
            seq=data["seq"],
        )


def played_json(played: Sequence[int]) -> dict[str, int]:
    """记牌器 counts by rank index as the wire shows them: by rank symbol, ranks not played
    left out."""
    return {RANK_SYMBOLS[rank]: n for rank, n in enumerate(played) if n}


def actions_json(actions: Sequence[Action]) -> list[str]:
    """Actions in notation (a play its rank notation, kept on it)."""
    return [a.text if type(a) is Play else str(a) for a in actions]


def known_role(game: Game, seat: int | None) -> Role | None:
    """The role as ``seat`` knows it: emperor, guard, rebel, or ``None`` while unknown."""
    if seat is None or game.emperor is None:
        return None
    if seat == game.emperor:
        return "emperor"
    if not game.teams_set:
        return None
    return "guard" if seat == game.guard else "rebel"


def known_guard(game: Game, seat: int | None) -> int | None:
    """The guard's seat if ``seat`` may know it: revealed (R8.8), itself, or the game is over."""
    if game.guard is None:
        return None
    if game.guard_revealed or game.is_over or seat == game.guard:
        return game.guard
    return None


def known_solo(game: Game, seat: int | None) -> Solo | None:
    """``"open"`` for 明独 (public); ``"dark"`` for 暗独, to the emperor alone until revealed."""
    if game.open_solo:
        return "open"
    known = seat == game.emperor or game.solo_revealed or game.is_over
    if game.teams_set and game.guard is None and game.emperor is not None and known:
        return "dark"
    return None


def build_view(game: Game, seat: int | None) -> View:
    """The view of ``game`` for ``seat`` (see the module docstring)."""
    hand, role, solo, guard, legal, turn, answer = _own(game, seat)
    phase, due = game.phase, game.tribute_due
    # Positional, in field order: a view is built at every decision, and CPython matching 30
    # keyword arguments by name costs more than building the rest of it. Lists then tuples:
    # faster than tuple(generator).
    return View(
        seat,
        phase,
        game.deal_no,  # deal
        turn,
        hand,
        role,
        tuple(game.sizes),  # counts
        turn if phase == "candidate" else None,  # candidate
        tuple(game.pile),
        tuple([payer for payer, _ in due]) if due else (),  # tribute_due
        game.emperor,
        game.called,
        solo,
        guard,
        _lead(game),
        tuple(game.trick),
        tuple(game.played),
        tuple(game.places),
        game.marked,
        game.poll,
        _asked(game),
        game.open_guard,
        game.guard_revealed,
        game.rebellion,
        game.kicked,
        game.escaped,
        game.result,
        legal,
        answer,
        len(game.events),  # seq
    )


def _asked(game: Game) -> tuple[int, ...]:
    """The seats a sealed poll asks (R14), in its order; empty outside one."""
    if game.sealed and game.poll is not None:
        return tuple(game._poll_seats(game.poll))
    return ()


def _lead(game: Game) -> Lead | None:
    """The play to beat, with the cards of the trick's last play (R6.2); ``None`` to lead."""
    play = game.lead
    if play is None:
        return None
    for made in reversed(game.trick):  # the last entry that is not a pass
        action = made.action
        if type(action) is PlayCards:
            return Lead(made.seat, play, action.cards)
    raise AssertionError("a play to beat with no play in the trick")


_Own = tuple[
    tuple[Card, ...] | None,
    Role | None,
    Solo | None,
    int | None,
    tuple[Action, ...],
    int | None,
    Action | None,
]


def _own(game: Game, seat: int | None) -> _Own:
    """What only ``seat`` may know: its hand, role, the solo and guard as it knows them, its
    legal actions (when it may act), the seat to act as it may know it (in a sealed poll
    itself or nobody, R14) and its sealed answer."""
    hand = game.hand_cards(seat) if seat is not None else None
    turn, answer = game.current_seat, None
    if game.sealed:
        turn = seat if seat is not None and seat in game.poll_queue else None
        answer = next((a for s, a in game.poll_sealed if s == seat), None)
    acting = seat is not None and seat == turn
    legal = tuple(game.legal_actions(seat)) if acting else ()
    solo, guard = known_solo(game, seat), known_guard(game, seat)
    return hand, known_role(game, seat), solo, guard, legal, turn, answer


def views_json(game: Game, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``{seat: game.view(seat).to_json()}`` for several seats at once: the public part is
    built once and shared (a server sends every seat a view after every event)."""
    out: dict[int | None, dict[str, Any]] = {}
    public: dict[str, Any] | None = None
    for seat in seats:
        if public is None:
            out[seat] = public = build_view(game, seat).to_json()
            continue
        hand, role, solo, guard, legal, turn, answer = _own(game, seat)
        data = public.copy()  # the shared values are never changed: safe to share
        own = card_texts(hand) if hand is not None else None
        data.update(seat=seat, turn=turn, hand=own, role=role, solo=solo, guard=guard)
        legal_json = list(game.legal_texts(seat)) if legal else []  # kept by the game
        data.update(legal=legal_json, answer=str(answer) if answer is not None else None)
        out[seat] = data
    return out
