"""The game: one deal to the last card, under any preset's rules.

A :class:`Game` is driven by :meth:`Game.legal_actions` and :meth:`Game.apply`. Role-phase
decisions (roles.py) are actions just like plays; the rules they follow are in ``docs/rules.md``.
Steps with no choice (a candidate without a callable triple declining, R8.4; the 登基 forced by
a 转让, R9.3; a tribute or call with a single option) are applied by the engine itself and
appear in the event log, not in the action log. Polls (明独, 抢独, 明保, 造反, 踢) always ask
every seat, even one whose only answer is ``pass``, and a candidate who may only accept is asked
too (R9.3, R11.2), so that nobody learns a role or a hand from who is asked.

**Who may act.** One seat at a time, :attr:`Game.current_seat`, but in a sealed poll (明保,
造反: R14, ``roles.py``) every asked seat that has not answered may (:attr:`Game.to_act`), in
any order: name the seat, ``game.legal_actions(seat)`` and ``game.apply(action, seat)``. The
current seat is then the first of them in the poll's order, so a caller that plays one seat at
a time (the environment, bots playing a game out, records) goes on as before.

**Cards for a rank-only play.** When a :class:`~baohuang.engine.plays.Play` is applied, the engine
takes the cards of the rank in suit order ``s h d c`` with the card that would reveal the
guard (the called card, R8.8) last, and plain jokers before marked ones (``B*`` reveals its
holder, R9.4), so that nobody reveals themself by accident. To play particular cards, apply
a :class:`~baohuang.engine.actions.PlayCards`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from .actions import (
    ACCEPT,
    PASS,
    TRANSFER,
    Accept,
    Action,
    Call,
    Decline,
    Escape,
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
    CARDS,
    R_CARD,
    R_MARKED,
    SMALL_JOKER,
    TWO,
    Card,
)
from .errors import BaohuangError
from .errors import IllegalActionError as IllegalActionError
from .events import (
    ClearedEvent,
    EscapeEvent,
    Event,
    GameOverEvent,
    OutEvent,
    PassEvent,
    PlayEvent,
    RevealEvent,
)
from .movegen import SIX, THREE, plays_for
from .plays import Play, allowed, beats, must_empty_hand
from .roles import SEALED_POLLS, RolePhases
from .rounds import game_over, going_out, next_holder, next_leader, round_over
from .rules import Rules
from .scoring import GameResult, Outcome, escape_scores, outcome, score
from .state import SEATS, GameState
from .trick import TrickEntry
from .views import View, actions_json, build_view

#: The flat lists a clone copies (the rest are immutable values or nested, see clone()).
_LIST_SLOTS = (
    "_hands",
    "dealt",
    "sizes",
    "played",
    "events",
    "actions",
    "tribute_due",
    "tribute_paid",
    "pile",
    "poll_queue",
    "poll_sealed",
    "poll_yes",
    "trick",
    "places",
    "cleared",
)


#: A pass in the trick, per seat: entries are immutable, so every pass of a seat shares one.
_PASSES = tuple(TrickEntry(seat, PASS) for seat in range(SEATS))
#: The phases with steps the engine may take itself (:meth:`Game._auto`).
_AUTO_PHASES = ("candidate", "call", "tribute")
#: The card ids of each suited rank in suit order ``s h d c``.
_SUITS = tuple(tuple(range(rank * 4, rank * 4 + 4)) for rank in range(TWO + 1))


def _take_in_order(row: list[int], ids: Sequence[int], need: int, chosen: list[Card]) -> None:
    """Add ``need`` cards held in ``row`` to ``chosen``, the first of ``ids`` first."""
    for cid in ids:
        have = row[cid]
        if have:
            take = need if need < have else have
            chosen += [CARDS[cid]] * take
            need -= take
            if not need:
                return


@lru_cache(maxsize=32)
def _validate(rules: Rules) -> None:
    """``rules.validate()``, once per rule set (a :class:`Rules` is frozen, and validating it
    costs more than dealing a game of a match or an environment's episode); a rule set that
    fails is not remembered, so it fails every time."""
    rules.validate()


class Game(RolePhases):
    """One game of Baohuang; see the module docstring. Create with :func:`new_game`."""

    __slots__ = ()

    def __init__(
        self,
        rules: Rules,
        seed: int | str,
        previous: GameResult | None = None,
        deals: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        _validate(rules)
        self.rules = rules
        self.marked = rules.marked
        self.seed = seed
        self.previous = previous
        self.given = deals
        self.dealt = []
        # R9.1: the first game is dealt from seat 0, later ones from the previous emperor.
        self.dealer = previous.emperor if previous and previous.emperor is not None else 0
        self.deal_no = 0
        self.events = []
        self.actions = []
        self.result = None
        self.escaped = None
        self._legal = self._texts = None
        self._deal()
        self._auto()

    # ------------------------------------------------------------------ public interface

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int] | None:
        """Points per seat once the game is over (R10), else ``None``."""
        return list(self.result.scores) if self.result else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: :attr:`current_seat`, or in a sealed poll every asked
        seat yet to answer, in the poll's order (R14); empty once the game is over.
        ``escape N`` (R10.4) is open to every seat at any time and not counted here."""
        seat = self.current_seat
        if seat is None:
            return ()
        if self.phase == "poll" and self.poll in SEALED_POLLS:
            return tuple(self.poll_queue)
        return (seat,)

    @property
    def sealed(self) -> bool:
        """A sealed poll is in progress (R14): its answers are published together."""
        return self.phase == "poll" and self.poll in SEALED_POLLS

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (by default the seat to act) may take now; empty when it may
        not act (:attr:`to_act`) or the game is over.

        ``escape N`` (R10.4) is always open to every seat and is not listed.
        """
        if seat is None or seat == self.current_seat:
            return list(self._legal_now())
        return self._poll_options(seat) if seat in self.to_act else []

    def legal_texts(self, seat: int | None = None) -> tuple[str, ...]:
        """:meth:`legal_actions` in notation (a view's ``legal``)."""
        if seat is not None and seat != self.current_seat:
            return tuple(actions_json(self.legal_actions(seat)))
        if self._texts is None:  # kept until the next action
            self._texts = tuple(actions_json(self._legal_now()))
        return self._texts

    def apply(self, action: Action | str, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat``: by default :attr:`current_seat`, or any seat of
        :attr:`to_act` (an escape is for its own seat); the events it added (none for an
        answer to a sealed poll until the last is in, R14). Raises
        :class:`IllegalActionError` or :class:`NotationError` (see :meth:`check`) and leaves
        the game unchanged."""
        seat, action = self._validated(action, seat)
        before = len(self.events)
        self.actions.append((seat, action))
        self._dispatch(seat, action)
        if self.phase in _AUTO_PHASES:
            self._auto()
        return tuple(self.events[before:])

    def check(self, action: Action | str, seat: int | None = None) -> Action:
        """The action :meth:`apply` would take for ``action`` (a rank-only play as the cards
        it takes), without applying it; raises :class:`IllegalActionError` or
        :class:`NotationError` naming what is wrong."""
        return self._validated(action, seat)[1]

    def is_legal(self, action: Action | str, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` for ``seat`` (python-chess's
        ``is_legal``); a string that is not notation is not legal."""
        try:
            self._validated(action, seat)
        except BaohuangError:
            return False
        return True

    def _validated(self, action: Action | str, seat: int | None) -> tuple[int, Action]:
        """The seat that acts and the action as applied, or the error that refuses it."""
        if isinstance(action, str):
            action = parse_action(action)
        if self.current_seat is None:
            raise IllegalActionError("error.game.over")
        if isinstance(action, Escape):
            if action.seat not in range(SEATS):
                raise IllegalActionError("error.game.no_seat", seat=action.seat)
            if seat is not None and seat != action.seat:
                raise IllegalActionError("error.game.escape_self")
            return action.seat, action
        if seat is None or seat == self.current_seat:
            return self.current_seat, self._checked(self.current_seat, action)
        if seat not in self.to_act:
            raise IllegalActionError("error.game.not_to_act", seat=seat)
        if action not in self._poll_options(seat):
            options = ", ".join(str(a) for a in self._poll_options(seat))
            raise IllegalActionError("error.game.phase.poll", action=str(action), options=options)
        return seat, action

    def _checked(self, seat: int, action: Action) -> Action:
        """``action`` of the seat to act, checked (a rank-only play as the cards it takes)."""
        if self.phase == "play":
            if isinstance(action, Pass):
                if self.lead is None:
                    raise IllegalActionError("error.game.must_lead")
            elif isinstance(action, Play):
                legal = self._legal  # plays are interned: one listed as legal needs no check
                if legal is None or action not in legal:
                    self._check_play(seat, action)
                return PlayCards(tuple(self.cards_for(seat, action)))
            elif isinstance(action, PlayCards):
                self._check_play(seat, action.play, action.cards)
            else:
                raise IllegalActionError("error.game.not_a_play", action=str(action))
        elif action not in self._legal_now():
            options = ", ".join(str(a) for a in self._legal_now())
            raise IllegalActionError(
                f"error.game.phase.{self.phase}", action=str(action), options=options
            )
        return action

    def clone(self) -> Game:
        """An independent copy, cheap enough for search."""
        other = Game.__new__(Game)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.cards = [list(c) for c in self.cards]
        other.counts = [list(c) for c in self.counts]
        for name in _LIST_SLOTS:
            setattr(other, name, list(getattr(self, name)))
        return other

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events after sequence number ``since`` as ``seat`` may see them (R14)."""
        return [e.to_json(seat) for e in self.events[since:]]

    def view(self, seat: int | None) -> View:
        """Everything ``seat`` may know now (R14); ``None`` for a spectator."""
        return build_view(self, seat)

    # ------------------------------------------------------------------ play phase (R6)

    def _check_play(self, seat: int, play: Play, cards: Iterable[Card] | None = None) -> Play:
        """Raise unless ``seat`` may make ``play`` now (with exactly ``cards``, if given)."""
        if not allowed(play, self.rules):
            raise IllegalActionError("error.game.twos_wild", play=str(play))
        if cards is not None:
            row = self.cards[seat]
            for card, n in Counter(cards).items():
                if row[card.id] < n:
                    raise IllegalActionError(
                        "error.game.too_few", held=row[card.id], card=str(card), n=n
                    )
        elif not play.fits(self.counts[seat]):
            raise IllegalActionError("error.game.not_held", play=str(play))
        if self.lead is not None and not beats(play, self.lead, self.rules):
            raise IllegalActionError("error.game.not_beat", play=str(play), lead=str(self.lead))
        if must_empty_hand(play, self.rules) and play.size != self.sizes[seat]:
            rank, rule = ("6", "R6.7 憋6") if play.has_rank(SIX) else ("3", "R6.8 清3")
            raise IllegalActionError("error.game.final_play", play=str(play), rank=rank, rule=rule)
        return play

    def cards_for(self, seat: int, play: Play) -> list[Card]:
        """The documented choice of cards for a rank-only play (module docstring)."""
        row = self.cards[seat]
        chosen: list[Card] = []
        if play.count:
            ids = _SUITS[play.rank]
            hidden = self.reveal_card
            if hidden is not None and hidden.id in ids:
                ids = (*(cid for cid in ids if cid != hidden.id), hidden.id)
            _take_in_order(row, ids, play.count, chosen)
        if play.twos:  # R5.2 filler 2s, in suit order (a 2 is never called, R8.4)
            _take_in_order(row, _SUITS[TWO], play.twos, chosen)
        for plain, marked, n in ((R_CARD, R_MARKED, play.big), (B_CARD, B_MARKED, play.small)):
            if n:
                take = min(n, row[plain.id])
                chosen += [plain] * take + [marked] * (n - take)
        return chosen

    def _play(self, seat: int, action: PlayCards) -> None:
        play = action.play
        self._take_cards(seat, action.cards)
        played = self.played
        played[play.rank] += play.count
        played[TWO] += play.twos
        played[SMALL_JOKER] += play.small
        played[BIG_JOKER] += play.big
        self._emit(PlayEvent, seat, play, action.cards, self.sizes[seat])
        self.trick.append(TrickEntry(seat, action))
        if self.reveal_card in action.cards:
            self._reveal_by_play(seat)
        if self.clear_watch is not None and self.clear_watch != seat:
            # R6.8 清3: the play before the 3s' final play was beaten.
            self.cleared.append((self.clear_watch, seat))
            self._emit(ClearedEvent, self.clear_watch, seat)
        self.clear_watch = seat if self._threes_go_next(seat) else None
        self.lead = play
        self.last_player = seat
        self.passes = 0
        if not self.sizes[seat]:
            self._go_out(seat)
            if self.phase == "over":
                return
        self.current_seat = next_holder(self.sizes, seat)

    def _reveal_by_play(self, seat: int) -> None:
        """R8.8 / R9.4: the guard plays the called card or B*; R9.4: a dark solo plays B*."""
        if seat == self.guard and not self.guard_revealed:
            self.guard_revealed = True
            self._emit(RevealEvent, seat, "guard")
        elif (
            seat == self.emperor
            and self.guard is None
            and self.reveal_card is B_MARKED
            and not (self.open_solo or self.solo_revealed)
        ):
            self.solo_revealed = True
            self._emit(RevealEvent, seat, "solo")

    def _threes_go_next(self, seat: int) -> bool:
        """R6.8: the hand holds 3s and could go out in one play with them: nothing else but
        jokers, and 2s under ``twos_wild`` (R5.2 fillers)."""
        rules, counts = self.rules, self.counts[seat]
        if not (rules.hold_threes and counts[THREE]):
            return False
        rest = counts[SMALL_JOKER] + counts[BIG_JOKER] + (counts[TWO] if rules.twos_wild else 0)
        return counts[THREE] + rest == self.sizes[seat]

    def _go_out(self, seat: int) -> None:
        """R6.4: an empty hand is out; R6.6: one seat left with cards ends the game (大落)."""
        for out in going_out(self.places, seat):
            self.places.append(out)
            self._emit(OutEvent, out, len(self.places))
        if game_over(self.places):
            self._finish()

    def _pass(self, seat: int) -> None:
        """A pass: the next holder acts (R6.2), or the round ends (R6.3, R6.5 接风)."""
        self.passes += 1
        self._emit(PassEvent, seat)
        self.trick.append(_PASSES[seat])
        sizes, last = self.sizes, self.last_player
        if round_over(sizes, last, self.passes, self.places):
            leader = next_leader(sizes, last)
            self._start_round(leader, jiefeng=leader != last)  # R6.5: the lead moved on
        else:
            self.current_seat = next_holder(sizes, seat)

    def _finish(self) -> None:
        """R10 scores; the game's result."""
        assert self.emperor is not None
        self.phase = "over"
        self.current_seat = None
        emperor, guard, places = self.emperor, self.guard, self.places
        flags = {
            "open_solo": self.open_solo,
            "rebellion": self.rebellion,
            "open_guard": self.open_guard,
            "kicked": self.kicked,
        }
        scores = score(self.rules, emperor=emperor, guard=guard, places=places, **flags)
        won = outcome(self.rules, emperor=emperor, guard=guard, places=places, **flags)
        self._set_result(scores, won)

    def _set_result(self, scores: list[int], won: Outcome) -> None:
        self.result = GameResult(
            self.emperor,
            self.guard,
            tuple(self.places),
            tuple(scores),
            won,
            open_solo=self.open_solo,
            rebellion=self.rebellion,
            open_guard=self.open_guard,
            kicked=self.kicked,
            escaped=self.escaped,
            cleared=tuple(self.cleared),
        )
        self._emit(GameOverEvent, self.result)

    def _escape(self, seat: int) -> None:
        """R10.4 逃跑: −30 to the seat that leaves, the game over and unscored for the others."""
        self.escaped = seat
        self.phase = "over"
        self.current_seat = None
        self._emit(EscapeEvent, seat)
        self._set_result(escape_scores(seat), "escape")

    # ------------------------------------------------------------------ dispatch

    def _legal_now(self) -> list[Action]:
        """The cached legal actions (not a copy: never hand it out)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

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
            return self._candidate_options(seat)
        if phase == "call":
            return self._call_options(seat)
        if phase == "poll":
            return self._poll_options(seat)
        return self._tribute_options(seat)

    def _dispatch(self, seat: int, action: Action, auto: bool = False) -> None:
        phase = self.phase
        if isinstance(action, Escape):
            self._escape(seat)
        elif phase == "play":
            if isinstance(action, PlayCards):
                self._play(seat, action)
            else:
                self._pass(seat)
        elif phase == "poll":
            self._answer(seat, action)
        elif isinstance(action, Tribute):
            self._pay_tribute(seat, action.card)
        elif isinstance(action, Call):
            self._call(seat, action.card, forced=auto)
        elif isinstance(action, OpenSolo) and phase == "call":
            self._declare_open_solo(seat, action.card, "shown" if action.card else "declared")
            self._roles_settled()
        elif isinstance(action, Accept | OpenSolo):
            self._accept(seat, open_solo=isinstance(action, OpenSolo))
        elif isinstance(action, Decline) or action == TRANSFER:
            self._pass_pile(seat, "decline" if isinstance(action, Decline) else "transfer", auto)
        self._legal = self._texts = None

    def _auto(self) -> None:
        """Apply the steps that leave no choice (R8.4, R11.2 automatic yields, the 登基 forced by
        a 转让, single options); never a poll, nor any other 登基 that is the only option (R9.3's
        R* holder, R11.2 after a lap): whether the seat had a choice would tell what it holds
        (B*, four of a card)."""
        while self.phase in _AUTO_PHASES:
            options = self._legal_now()
            asked = self.phase == "candidate" and options[0] is ACCEPT and not self.forced
            if len(options) != 1 or asked:
                return
            seat = self.current_seat
            assert seat is not None
            self._dispatch(seat, options[0], auto=True)


def new_game(
    rules: Rules | None = None,
    seed: int | str = 0,
    previous: GameResult | None = None,
    deals: Sequence[dict[str, Any]] | None = None,
) -> Game:
    """A new game under ``rules`` (default `classic`), dealt from ``seed``.

    ``previous`` is the previous game's result in a match: tribute (R12) and dealer (R9.1).
    ``deals`` lays out each deal's hands instead (:attr:`Game.dealt` of a recorded game: a
    replay that needs no seed).
    """
    return Game(rules or Rules(), seed, previous, deals)
