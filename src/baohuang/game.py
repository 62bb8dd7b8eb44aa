"""The game state machine of the classic family: deal, tribute, emperor, guard, rounds, scores.

A :class:`Game` is driven by :meth:`Game.legal_actions` and :meth:`Game.apply`. Role-phase
decisions are actions just like plays. Steps with no choice (a candidate without a callable
triple declining, R8.4; a tribute or call with a single option) are applied by the engine
itself and appear in the event log, not in the action log.

**Cards for a rank-only play.** When a :class:`~baohuang.plays.Play` is applied, the engine
takes the cards of the rank in suit order ``s h d c`` with the called card last, and plain
jokers before marked ones, so that a guard never reveals itself by accident (R8.8). To play
particular cards, apply a :class:`~baohuang.actions.PlayCards`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

from .actions import (
    ACCEPT,
    DECLINE,
    PASS,
    Accept,
    Action,
    Call,
    Decline,
    OpenSolo,
    Pass,
    PlayCards,
    Tribute,
    parse_action,
)
from .cards import (
    B_CARD,
    B_MARKED,
    BIG_JOKER,
    CARD_TEXT,
    CARDS,
    IDS_HIGH_FIRST,
    NUM_CARD_IDS,
    NUM_RANKS,
    R_CARD,
    R_MARKED,
    SMALL_JOKER,
    TWO,
    Card,
    deck,
)
from .errors import IllegalActionError as IllegalActionError
from .events import Event
from .movegen import SIX, plays_for
from .plays import Play, beats
from .rules import Rules
from .scoring import GameResult, outcome, score, tribute_payments, tribute_transfers

Phase = Literal["tribute", "candidate", "call", "play", "over"]
SEATS = 5


PHASE_ZH = {
    "tribute": "进贡",
    "candidate": "选皇帝",
    "call": "叫牌",
    "play": "出牌",
    "over": "结束",
}


def _callable_ids(cards: list[int]) -> list[int]:
    """R8.4: suited cards (not 2s) held three or more times."""
    return [cid for cid in range(TWO * 4) if cards[cid] >= 3]


class Game:
    """One game of Baohuang; see the module docstring. Create with :func:`new_game`."""

    __slots__ = (
        "_legal",
        "actions",
        "c0",
        "called",
        "cand_turn",
        "cards",
        "counts",
        "current_seat",
        "deal_no",
        "emperor",
        "events",
        "guard",
        "guard_revealed",
        "last_player",
        "lead",
        "open_solo",
        "passes",
        "phase",
        "pile",
        "places",
        "played",
        "result",
        "rules",
        "seed",
        "sizes",
        "tribute_due",
        "tribute_from",
        "tribute_paid",
        "trick",
    )

    rules: Rules
    seed: int | str
    tribute_from: GameResult | None
    deal_no: int
    phase: Phase
    current_seat: int | None
    cards: list[list[int]]
    counts: list[list[int]]
    sizes: list[int]
    played: list[int]
    events: list[Event]
    actions: list[tuple[int, Action]]
    tribute_due: list[int]
    tribute_paid: list[tuple[int, Card]]
    c0: int
    cand_turn: int
    pile: list[Card]
    emperor: int | None
    called: Card | None
    guard: int | None
    guard_revealed: bool
    open_solo: bool
    lead: Play | None
    last_player: int
    passes: int
    trick: list[tuple[int, str]]
    places: list[int]
    result: GameResult | None
    _legal: list[Action] | None

    def __init__(
        self, rules: Rules, seed: int | str, tribute_from: GameResult | None = None
    ) -> None:
        rules.validate()
        self.rules = rules
        self.seed = seed
        self.tribute_from = tribute_from if rules.tribute else None
        self.deal_no = 0
        self.events = []
        self.actions = []
        self.result = None
        self._deal()

    # ------------------------------------------------------------------ public interface

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int] | None:
        """Points per seat once the game is over (R10), else ``None``."""
        return list(self.result.scores) if self.result else None

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (empty once the game is over)."""
        return list(self._legal_now())

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` for :attr:`current_seat`; raises :class:`IllegalActionError`."""
        if isinstance(action, str):
            action = parse_action(action)
        seat = self.current_seat
        if seat is None:
            raise IllegalActionError("the game is over: no more actions", "本局已结束，不能再行动")
        if self.phase == "play":
            if isinstance(action, Play):
                action = PlayCards(tuple(self._cards_for(seat, self._check_play(seat, action))))
            elif isinstance(action, PlayCards):
                self._check_play(seat, action.play, action.cards)
            elif not isinstance(action, Pass):
                raise IllegalActionError(
                    f"it is the play phase: {action} is not a play or pass",
                    f"现在是出牌阶段：{action} 不是出牌也不是过",
                )
            elif self.lead is None:
                raise IllegalActionError(
                    "you lead this round (发牌): you cannot pass", "这一轮由你发牌，不能过"
                )
        elif action not in self._legal_now():
            options = ", ".join(str(a) for a in self._legal_now())
            raise IllegalActionError(
                f"{action} is not legal for seat {seat} in the {self.phase} phase; "
                f"legal: {options}",
                f"{PHASE_ZH[self.phase]}阶段座位{seat}不能 {action}；可以：{options}",
            )
        self.actions.append((seat, action))
        self._apply(seat, action)

    def _legal_now(self) -> list[Action]:
        """The cached legal actions (not a copy: never hand it out)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def clone(self) -> Game:
        """An independent copy, cheap enough for search."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.cards = [list(c) for c in self.cards]
        other.counts = [list(c) for c in self.counts]
        other.sizes = list(self.sizes)
        other.played = list(self.played)
        other.events = list(self.events)
        other.actions = list(self.actions)
        other.tribute_due = list(self.tribute_due)
        other.tribute_paid = list(self.tribute_paid)
        other.pile = list(self.pile)
        other.trick = list(self.trick)
        other.places = list(self.places)
        return other

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, high first. Private: only for that seat's view."""
        row = self.cards[seat]
        return [CARDS[cid] for cid in IDS_HIGH_FIRST for _ in range(row[cid])]

    def hand_text(self, seat: int) -> list[str]:
        """:meth:`hand` in notation."""
        row = self.cards[seat]
        out: list[str] = []
        for cid in IDS_HIGH_FIRST:
            if row[cid]:
                out += [CARD_TEXT[cid]] * row[cid]
        return out

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events after sequence number ``since`` as ``seat`` may see them (R14)."""
        return [e.for_seat(seat) for e in self.events[since:]]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know now (R14), JSON-serialisable; ``None`` for a spectator."""
        from .views import build_view

        return build_view(self, seat)

    # ------------------------------------------------------------------ deal and tribute

    def _event(
        self, kind: str, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        self.events.append(Event(len(self.events), kind, public, private or {}))

    def _deal(self) -> None:
        """R8.1: shuffle, set one R aside, deal one by one in play order from a random seat."""
        rng = random.Random(f"{self.seed}:{self.deal_no}")
        pack = deck(self.rules.lowest_rank)
        if self.rules.emperor_card_aside:
            pack.remove(R_CARD)
        rng.shuffle(pack)
        start = rng.randrange(SEATS)
        self.cards = [[0] * NUM_CARD_IDS for _ in range(SEATS)]
        self.counts = [[0] * NUM_RANKS for _ in range(SEATS)]
        for i, card in enumerate(pack):
            seat = (start + i) % SEATS
            self.cards[seat][card.id] += 1
            self.counts[seat][card.rank] += 1
        self.sizes = [sum(c) for c in self.counts]
        self.played = [0] * NUM_RANKS
        self.c0 = rng.randrange(SEATS)
        self.pile = [R_CARD]
        self.cand_turn = 0
        self.emperor = self.called = self.guard = None
        self.guard_revealed = self.open_solo = False
        self.lead = None
        self.last_player = -1
        self.passes = 0
        self.trick = []
        self.places = []
        self.tribute_paid = []
        self._event(
            "deal",
            {"deal": self.deal_no, "counts": list(self.sizes)},
            {s: {"hand": self.hand_text(s)} for s in range(SEATS)},
        )
        # R12: tribute from the previous game, after the deal and before R8.3.
        due = tribute_payments(self.tribute_from) if self.tribute_from else []
        self.tribute_due = [seat for seat, n in due for _ in range(n)]
        if self.tribute_due:
            self.phase = "tribute"
            self.current_seat = self.tribute_due[0]
            self._event("tribute_due", {"payers": [[seat, n] for seat, n in due]})
        else:
            self._start_candidates()
        self._legal = None
        self._auto()

    def _take(self, seat: int, card: Card) -> None:
        self.cards[seat][card.id] -= 1
        self.counts[seat][card.rank] -= 1
        self.sizes[seat] -= 1

    def _give(self, seat: int, card: Card) -> None:
        self.cards[seat][card.id] += 1
        self.counts[seat][card.rank] += 1
        self.sizes[seat] += 1

    def _tribute_options(self, seat: int) -> list[Action]:
        """R12: the payer's highest card; a choice only between equal copies."""
        row = self.cards[seat]
        held = [CARDS[cid] for cid in range(NUM_CARD_IDS) if row[cid]]
        top = max(c.rank for c in held)
        return [Tribute(c) for c in held if c.rank == top]

    def _pay_tribute(self, seat: int, card: Card) -> None:
        assert self.tribute_from is not None
        self._take(seat, card)
        self.tribute_paid.append((seat, card))
        self.tribute_due.pop(0)
        self._event("tribute_paid", {"seat": seat}, {seat: {"card": str(card)}})
        if self.tribute_due:
            self.current_seat = self.tribute_due[0]
            return
        transfers = tribute_transfers(self.tribute_from, self.tribute_paid)
        private: dict[int, dict[str, Any]] = {}
        for payer, to, card in transfers:
            self._give(to, card)
            for s in {payer, to}:
                mine = private.setdefault(s, {"cards": []})
                mine["cards"].append({"from": payer, "to": to, "card": str(card)})
        self._event(
            "tribute",
            {
                "transfers": [{"from": p, "to": t} for p, t, _ in transfers],
                "counts": list(self.sizes),
            },
            private,
        )
        self._start_candidates()

    # ------------------------------------------------------------------ emperor and guard (R8)

    def _start_candidates(self) -> None:
        """R8.3: a random seat c0 is the first candidate and receives the emperor card."""
        self.phase = "candidate"
        self.current_seat = self.c0
        self._event("candidate", {"seat": self.c0, "pile": [str(c) for c in self.pile]})

    def _decline(self, seat: int, auto: bool) -> None:
        """R8.5: hand the pile, plus one own 2 (not c0's first turn), to the 上家."""
        added = None
        if 0 < self.cand_turn < SEATS:
            row = self.cards[seat]
            for cid in range(TWO * 4, TWO * 4 + 4):
                if row[cid]:
                    added = CARDS[cid]
                    self._take(seat, added)
                    self.pile.append(added)
                    break
        self._event(
            "decline",
            {"seat": seat, "added": str(added) if added else None, "counts": list(self.sizes)},
            {seat: {"auto": auto}},
        )
        if self.cand_turn == SEATS:
            # R8.6: c0 declined twice; the deal is void and dealt anew, tribute again.
            self._event("void", {"deal": self.deal_no})
            self.deal_no += 1
            self._deal()
            return
        self.cand_turn += 1
        self.current_seat = (self.c0 - self.cand_turn) % SEATS
        self._event("candidate", {"seat": self.current_seat, "pile": [str(c) for c in self.pile]})

    def _accept(self, seat: int) -> None:
        self.emperor = seat
        for card in self.pile:
            self._give(seat, card)
        self._event(
            "accept",
            {"seat": seat, "pile": [str(c) for c in self.pile], "counts": list(self.sizes)},
        )
        self.pile = []
        self.phase = "call"

    def _call(self, seat: int, card: Card, open_solo: bool) -> None:
        """R8.7: call a triple (the 4th copy's holder is the guard; all four: 暗独) or 明独."""
        self.called = card
        if open_solo:
            self.open_solo = True
            self._event("open_solo", {"seat": seat, "card": str(card), "shown": [str(card)] * 4})
        else:
            holders = [s for s in range(SEATS) if s != seat and self.cards[s][card.id]]
            self.guard = holders[0] if holders else None
            private: dict[int, dict[str, Any]] = {}
            if self.guard is None:
                private[seat] = {"solo": "dark"}
            else:
                private[self.guard] = {"guard": True}
            self._event("call", {"seat": seat, "card": str(card)}, private)
        self.phase = "play"
        self._start_round(seat, jiefeng=False)

    # ------------------------------------------------------------------ rounds (R6)

    def _start_round(self, leader: int, jiefeng: bool) -> None:
        self.lead = None
        self.passes = 0
        self.trick = []
        self.current_seat = leader
        self._event("round", {"leader": leader, "jiefeng": jiefeng})

    def _next_active(self, seat: int) -> int:
        sizes = self.sizes
        for i in range(1, SEATS + 1):
            nxt = (seat + i) % SEATS
            if sizes[nxt]:
                return nxt
        raise AssertionError("no seat holds cards")

    def _check_play(self, seat: int, play: Play, cards: Iterable[Card] | None = None) -> Play:
        """Raise unless ``seat`` may make ``play`` now (with exactly ``cards``, if given)."""
        counts = self.counts[seat]
        if cards is not None:
            row = self.cards[seat]
            for card, n in Counter(cards).items():
                if row[card.id] < n:
                    raise IllegalActionError(
                        f"seat {seat} holds {row[card.id]} × {card}, cannot play {n}",
                        f"座位{seat}只有 {row[card.id]} 张 {card}，出不了 {n} 张",
                    )
        elif (
            (play.count and counts[play.rank] < play.count)
            or counts[SMALL_JOKER] < play.small
            or counts[BIG_JOKER] < play.big
        ):
            raise IllegalActionError(
                f"seat {seat} does not hold the cards for {play}",
                f"座位{seat}手里没有 {play} 这些牌",
            )
        if self.lead is not None and not beats(play, self.lead, self.rules):
            raise IllegalActionError(
                f"{play} does not beat {self.lead} (R4: same size, every card higher)",
                f"{play} 管不上 {self.lead}（R4：张数相同，每张都要更大）",
            )
        if self.rules.hold_sixes and play.has_rank(SIX) and play.size != self.sizes[seat]:
            raise IllegalActionError(
                f"{play}: 6s must be the final play, all at once (R6.7 憋6)",
                f"{play}：6 必须留到最后一手一次出完（R6.7 憋6）",
            )
        return play

    def _cards_for(self, seat: int, play: Play) -> list[Card]:
        """The documented choice of cards for a rank-only play (module docstring)."""
        row = self.cards[seat]
        chosen: list[Card] = []
        if play.count:
            ids = list(range(play.rank * 4, play.rank * 4 + 4))
            if self.called is not None and self.called.id in ids:
                ids.remove(self.called.id)
                ids.append(self.called.id)
            need = play.count
            for cid in ids:
                take = min(need, row[cid])
                chosen += [CARDS[cid]] * take
                need -= take
        for plain, marked, n in ((R_CARD, R_MARKED, play.big), (B_CARD, B_MARKED, play.small)):
            take = min(n, row[plain.id])
            chosen += [plain] * take + [marked] * (n - take)
        return chosen

    def _play(self, seat: int, action: PlayCards) -> None:
        play = action.play
        for card in action.cards:
            self._take(seat, card)
        self.played[play.rank] += play.count
        self.played[SMALL_JOKER] += play.small
        self.played[BIG_JOKER] += play.big
        cards = [str(c) for c in action.cards]
        self._event(
            "play", {"seat": seat, "play": str(play), "cards": cards, "left": self.sizes[seat]}
        )
        self.trick.append((seat, " ".join(cards)))
        called = self.called
        if (
            called is not None
            and not self.guard_revealed
            and seat != self.emperor
            and called in action.cards
        ):
            self.guard_revealed = True  # R8.8
            self._event("reveal", {"seat": seat, "role": "guard"})
        self.lead = play
        self.last_player = seat
        self.passes = 0
        if not self.sizes[seat]:
            self._go_out(seat)
            if self.phase == "over":
                return
        self.current_seat = self._next_active(seat)

    def _go_out(self, seat: int) -> None:
        """R6.4: an empty hand is out; R6.6: one seat left with cards ends the game (大落)."""
        self.places.append(seat)
        self._event("out", {"seat": seat, "place": len(self.places)})
        if len(self.places) == SEATS - 1:
            last = next(s for s in range(SEATS) if s not in self.places)
            self.places.append(last)
            self._event("out", {"seat": last, "place": SEATS})
            self._finish()

    def _pass(self, seat: int) -> None:
        self.passes += 1
        self._event("pass", {"seat": seat})
        self.trick.append((seat, "pass"))
        last = self.last_player
        holding = SEATS - len(self.places)
        others = holding - (1 if self.sizes[last] else 0)
        if self.passes < others:
            self.current_seat = self._next_active(seat)
        elif self.sizes[last]:
            self._start_round(last, jiefeng=False)  # R6.3
        else:
            self._start_round(self._next_active(last), jiefeng=True)  # R6.5 接风

    def _finish(self) -> None:
        """R10.1 scores; the game's result."""
        assert self.emperor is not None
        self.phase = "over"
        self.current_seat = None
        emperor, guard = self.emperor, self.guard
        scores = score(
            self.rules, emperor=emperor, guard=guard, places=self.places, open_solo=self.open_solo
        )
        won = outcome(self.rules, emperor=emperor, guard=guard, places=self.places)
        self.result = GameResult(
            emperor, guard, tuple(self.places), tuple(scores), won, self.open_solo
        )
        self._event("game_over", self.result.to_dict())

    # ------------------------------------------------------------------ dispatch

    def _compute_legal(self) -> list[Action]:
        seat = self.current_seat
        if seat is None:
            return []
        phase = self.phase
        if phase == "play":
            plays: list[Action] = list(plays_for(self.counts[seat], self.lead, self.rules))
            if self.lead is not None:
                plays.append(PASS)
            return plays
        if phase == "candidate":
            return [ACCEPT, DECLINE] if _callable_ids(self.cards[seat]) else [DECLINE]
        if phase == "call":
            row = self.cards[seat]
            options: list[Action] = [Call(CARDS[cid]) for cid in _callable_ids(row)]
            options += [OpenSolo(CARDS[cid]) for cid in _callable_ids(row) if row[cid] >= 4]
            return options
        return self._tribute_options(seat)

    def _dispatch(self, seat: int, action: Action) -> None:
        self._legal = None
        if isinstance(action, PlayCards):
            self._play(seat, action)
        elif isinstance(action, Pass):
            self._pass(seat)
        elif isinstance(action, Accept):
            self._accept(seat)
        elif isinstance(action, Decline):
            self._decline(seat, auto=False)
        elif isinstance(action, Call | OpenSolo):
            self._call(seat, action.card, isinstance(action, OpenSolo))
        elif isinstance(action, Tribute):
            self._pay_tribute(seat, action.card)
        self._legal = None

    def _apply(self, seat: int, action: Action) -> None:
        self._dispatch(seat, action)
        self._auto()

    def _auto(self) -> None:
        """Apply the steps that leave no choice (R8.4 automatic declines, single options)."""
        while self.phase in ("candidate", "call", "tribute"):
            options = self._legal_now()
            if len(options) != 1:
                return
            seat = self.current_seat
            assert seat is not None
            if options[0] is DECLINE:
                self._legal = None
                self._decline(seat, auto=True)
                self._legal = None
            else:
                self._dispatch(seat, options[0])


def new_game(
    rules: Rules | None = None, seed: int | str = 0, tribute_from: GameResult | None = None
) -> Game:
    """A new game under ``rules`` (default `classic`), dealt from ``seed``.

    ``tribute_from`` is the previous game's result in a match (R12).
    """
    return Game(rules or Rules(), seed, tribute_from)
