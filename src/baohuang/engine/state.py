"""The data of a game and the small operations on it that every phase shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, Literal, ParamSpec

from .actions import Action
from .cards import CARDS, IDS_HIGH_FIRST, NUM_CARD_IDS, NUM_RANKS, Card, card_texts
from .events import Event, Poll
from .plays import Play
from .rules import Rules
from .scoring import GameResult

if TYPE_CHECKING:
    from .trick import TrickEntry

Phase = Literal["tribute", "candidate", "call", "poll", "play", "over"]
SEATS = 5
P = ParamSpec("P")


class GameState:
    """Everything a game holds; see :class:`~baohuang.engine.game.Game` for the interface."""

    __slots__ = (
        "_hands",
        "_legal",
        "_texts",
        "actions",
        "c0",
        "called",
        "cand_turn",
        "cards",
        "clear_watch",
        "cleared",
        "counts",
        "current_seat",
        "deal_no",
        "dealer",
        "dealt",
        "emperor",
        "escaped",
        "events",
        "forced",
        "given",
        "guard",
        "guard_revealed",
        "kicked",
        "last_player",
        "lead",
        "marked",
        "open_guard",
        "open_solo",
        "passes",
        "phase",
        "pile",
        "places",
        "played",
        "poll",
        "poll_queue",
        "poll_sealed",
        "poll_yes",
        "previous",
        "rebellion",
        "result",
        "reveal_card",
        "rules",
        "seed",
        "sizes",
        "solo_revealed",
        "teams_set",
        "tribute_due",
        "tribute_paid",
        "trick",
    )

    rules: Rules
    #: The marked jokers in the pack (:attr:`Rules.marked`, a view's ``marked``).
    marked: str
    seed: int | str
    #: Each deal so far as a record keeps it: {start, first, hands} (:mod:`baohuang.engine.record`).
    dealt: list[dict[str, Any]]
    #: Deals to lay out instead of shuffling (a record's), or ``None``.
    given: Sequence[dict[str, Any]] | None
    #: The previous game's result in a match: tribute (R12) and the dealer (R9.1).
    previous: GameResult | None
    deal_no: int
    dealer: int
    phase: Phase
    current_seat: int | None
    #: Per seat: how many of each card id, and of each rank index; hand sizes.
    cards: list[list[int]]
    counts: list[list[int]]
    sizes: list[int]
    #: Cards played so far, by rank index (the public 记牌器).
    played: list[int]
    events: list[Event]
    actions: list[tuple[int, Action]]
    #: R12: (payer, receiver or None when R12 hands the card out) per card still due.
    tribute_due: list[tuple[int, int | None]]
    tribute_paid: list[tuple[int, int | None, Card]]
    #: The candidate chain: its first seat, the number of turns taken, the emperor pile.
    c0: int
    cand_turn: int
    pile: list[Card]
    #: The next candidate must accept (R9.3 weihai's 转让).
    forced: bool
    emperor: int | None
    called: Card | None
    guard: int | None
    #: Roles are settled: every seat knows whether it is the guard.
    teams_set: bool
    #: The card whose play by the guard reveals it (R8.8 the called card, R9.4 B*).
    reveal_card: Card | None
    guard_revealed: bool
    solo_revealed: bool
    open_solo: bool
    open_guard: bool
    rebellion: bool
    kicked: bool
    poll: Poll | None
    #: The seats still to answer the poll in progress, in the poll's order.
    poll_queue: list[int]
    #: A sealed poll's answers given so far, unpublished (R14, roles.py), in the order given.
    poll_sealed: list[tuple[int, Action]]
    #: The seats that declared 造反 (R9.5).
    poll_yes: list[int]
    lead: Play | None
    last_player: int
    passes: int
    trick: list[TrickEntry]
    places: list[int]
    #: R6.8 清3: the seat whose last play left a hand that can go out with its 3s in one play,
    #: and the (cleared, clearer) pairs.
    clear_watch: int | None
    cleared: list[tuple[int, int]]
    escaped: int | None
    result: GameResult | None
    _legal: list[Action] | None
    #: The legal actions in notation, kept as long as ``_legal``.
    _texts: tuple[str, ...] | None
    #: Per seat, the hand high first, kept until the hand changes.
    _hands: list[tuple[Card, ...] | None]

    # ------------------------------------------------------------------ cards

    def lay_out(self, hands: Sequence[Sequence[Card]]) -> None:
        """Give each seat its hand: the cards, their rank counts and the sizes."""
        self.cards = [[0] * NUM_CARD_IDS for _ in range(SEATS)]
        self.counts = [[0] * NUM_RANKS for _ in range(SEATS)]
        for seat, hand in enumerate(hands):
            row, ranks = self.cards[seat], self.counts[seat]
            for card in hand:
                row[card.id] += 1
                ranks[card.rank] += 1
        self.sizes = [len(h) for h in hands]
        self._hands = [None] * SEATS

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, high first. Private: only for that seat's view."""
        return list(self.hand_cards(seat))

    def hand_text(self, seat: int) -> list[str]:
        """:meth:`hand` in notation."""
        return card_texts(self.hand_cards(seat))

    def hand_cards(self, seat: int) -> tuple[Card, ...]:
        """:meth:`hand` as a tuple, kept until the hand changes (a view's ``hand``)."""
        cached = self._hands[seat]
        if cached is None:
            row = self.cards[seat]
            cards: list[Card] = []
            for cid in IDS_HIGH_FIRST:
                if row[cid]:
                    cards += [CARDS[cid]] * row[cid]
            cached = self._hands[seat] = tuple(cards)
        return cached

    def _take_cards(self, seat: int, cards: Sequence[Card]) -> None:
        """Take ``cards`` from ``seat``. A kept hand loses them (cheaper than making it anew:
        the rest keep their order)."""
        hand = self._hands[seat]
        for card in cards:
            self._take(seat, card)
        if hand is not None:
            rest = list(hand)
            for card in cards:
                rest.remove(card)
            self._hands[seat] = tuple(rest)

    def _take(self, seat: int, card: Card) -> None:
        self.cards[seat][card.id] -= 1
        self.counts[seat][card.rank] -= 1
        self.sizes[seat] -= 1
        self._hands[seat] = None

    def _give(self, seat: int, card: Card) -> None:
        self.cards[seat][card.id] += 1
        self.counts[seat][card.rank] += 1
        self.sizes[seat] += 1
        self._hands[seat] = None

    def _holder(self, card: Card) -> int | None:
        """The seat holding a copy of ``card`` (the first, for cards with copies)."""
        return next((s for s in range(SEATS) if self.cards[s][card.id]), None)

    # ------------------------------------------------------------------ events

    def _emit(
        self, make: Callable[Concatenate[int, P], Event], *args: P.args, **kw: P.kwargs
    ) -> None:
        """Log the event ``make(seq, *args, **kw)``, numbered next."""
        self.events.append(make(len(self.events), *args, **kw))
