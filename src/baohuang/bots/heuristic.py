"""The ``heuristic`` bot (启发式机器人): a hand-written strategy on a seat's view alone (R14).

Playing (R6):

- **Leading**: go out when one play empties the hand; when every play but the last is a winner
  (nothing unseen beats it, :func:`~baohuang.bots.handsplit.finishing_lead`), lead the winners and
  go out; otherwise lead the lowest whole set (2s and jokers last; 6s and 3s wait for the end
  under R6.7/R6.8), and not a size an opponent about to go out could answer with its last
  cards.
- **Following**: a play that wins the round and lets the hand go out, even over a partner;
  otherwise never over a partner; over an opponent the lowest play that uses a whole set (one
  play fewer), else the lowest part of a plain set, and 2s and jokers (control) only against an
  opponent nearing the end, the last of them only against one about to go out.
- **记牌器**: the unseen cards are the pack less the cards played and held
  (:class:`~baohuang.bots.handsplit.CardCounter`); they decide which plays are winners.
- **Who is the guard**: until it is revealed (R8.8, R9.4, R9.5), every other seat that may be
  the guard is weighted (:mod:`~baohuang.bots.suspicion`): overtaking the emperor makes it less
  likely, passing on the emperor more; a seat that went out unrevealed was not it. Partners are
  never overtaken, a likely one only with a whole set. The guard stays hidden in play (the
  engine plays the called card last); revealing it when playing the called rank measured no
  better.

Roles (R8, R9, R11) by hand strength (:func:`strength`: the place points a hand is worth above
an average one, fitted on games between heuristic bots). The thresholds (class attributes)
were measured in duplicate arenas against variants of this bot. The emperor leads first and
holds the emperor card, so taking it pays with all but the weakest few percent of hands
(declining below 0 lost 0.2 points a game; below -0.2 measured the same as never declining).
暗独 (all four called cards, or R* and B* together) pays 4× the own place points and is taken
unless the hand is weak; the emperor's own open solo at the call (明独 showing four, R8.7;
明独保, R11.3) pays from an average hand (kk_classic +1.50 points a game at 0.0 against 2.0,
qq +0.09, classic +0.02: bench/search.md); 明独 by anyone (R9.2), 独保 and 抢独 need an
overwhelming hand; 明保 (R9.4, QQ
R8.10) doubles a score the emperor's side usually wins, so the guard shows unless weak; 造反 and
踢 only with a strong hand. In play, breaking any plain set to follow an opponent beat breaking
only low ones; 2s and jokers go against an opponent with at most 20 cards, the last of them
only against one with at most 2 (keeping the last control and 20 cards instead of 12 gained
+0.14 to +0.64 points a game in classic, weihai, kk_classic and qq: bench/search.md). The
rules are in ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..engine.actions import (
    ACCEPT,
    DECLINE,
    GRAB,
    KICK,
    PASS,
    REBEL,
    SHOW,
    SOLO,
    TRANSFER,
    Action,
    Call,
    OpenSolo,
    Pass,
)
from ..engine.cards import B_MARKED, BIG_JOKER, SMALL_JOKER, TWO
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..engine.trick import TrickEntry
from ..engine.views import View
from .handsplit import (
    CardCounter,
    beyond_finishing,
    cards_of,
    finishing_lead,
    held_ranks,
    is_control,
    rank_counts_of,
    strength_features,
    unseen_counts,
)
from .suspicion import guard_odds, partners, watch_round

#: Linear weights of :func:`~baohuang.bots.handsplit.strength_features`: the place points (R10:
#: +4 … −4) a hand is worth above an average one, fitted on games between heuristic bots.
WEIGHTS = (0.97, 0.25, 0.13, -0.25, -0.12, -0.35)


def strength(counts: list[int], rules: Rules) -> float:
    """The expected place points of a hand (linear in its features)."""
    return sum(w * f for w, f in zip(WEIGHTS, strength_features(counts, rules), strict=True))


@dataclass(slots=True)
class Memory:
    """What the bot keeps from one game's successive views: the guard suspicion."""

    deal: int = -1
    seq: int = -1
    #: Per seat, a weight for being the (unrevealed) guard.
    suspect: list[float] | None = None
    trick: tuple[TrickEntry, ...] = ()
    #: The seat's turns as the candidate so far (R8.5: a second lap; the search reads it).
    asked: int = 0


class HeuristicBot:
    """See the module docstring. One instance may play many games in a row (a match)."""

    #: Strength needed: to take the emperor card (the emperor leads and holds R: it places
    #: about two points better than its hand alone), to play alone in the dark (暗独: 4× the
    #: own place points beat 2× the pair's), to play alone openly (明独, 独保, 抢独), to do so
    #: as the emperor at the call (明独 showing four, 明独保), to declare 造反, to show the guard
    #: (明保 doubles a score the emperor's side usually wins), to kick. In KK/联众 an open solo
    #: (明独保, 独保, 抢独) is 1st or lose, ±32 (R10.1 revised turn 3): ``kk_solo_at`` for all of
    #: them, the best threshold of bench/solo_decisions.py against rebels that spend their
    #: control on a lone emperor (bench/solo.md).
    accept_at: ClassVar[float] = -0.2
    dark_solo_at: ClassVar[float] = -1.0
    open_solo_at: ClassVar[float] = 2.0
    call_solo_at: ClassVar[float] = 0.0
    kk_solo_at: ClassVar[float] = 1.5
    rebel_at: ClassVar[float] = 2.0
    show_at: ClassVar[float] = -1.0
    kick_at: ClassVar[float] = 2.5
    #: An opponent with at most this many cards is worth stopping with control (2s, jokers);
    #: with at most ``last_cards`` it may go out on the next lead.
    urgent: ClassVar[int] = 20
    last_cards: ClassVar[int] = 4
    #: The last control is spent on a trick that does not lead out only against an opponent
    #: with at most this many cards.
    last_control_at: ClassVar[int] = 2
    #: A plain set is broken to follow only an opponent holding at most this many cards
    #: (bench/search.md: 16 beats "any" in classic, weihai and kk_classic, level in qq).
    break_at: ClassVar[int] = 16
    #: A seat is treated as a partner from this probability on; a likely one from the next.
    partner: ClassVar[float] = 0.75
    likely: ClassVar[float] = 0.7

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.held = held_ranks(rules)
        self.memory = Memory()

    # ------------------------------------------------------------------ interface

    def choose(self, view: View, legal: list[Action]) -> Action:
        self._observe(view)
        if len(legal) == 1:
            return legal[0]
        counts = rank_counts_of(view.hand or ())
        if view.phase == "play":
            return self._play(view, legal, counts)
        if view.poll:
            return self._answer(legal, counts)
        if view.phase == "candidate":
            return self._candidate(view, legal)
        if view.phase == "call":
            return self._call(view, legal, counts)
        return legal[0]  # R12 tribute: the copies offered are equal

    def observe(self, view: View, action: Action) -> None:
        """A turn of this seat played by someone else (its person, before 托管): keep what
        :meth:`choose` would have kept from it (:func:`~baohuang.bots.base.catch_up`)."""
        self._observe(view)

    # ------------------------------------------------------------------ roles (R8, R9, R11)

    def _candidate(self, view: View, legal: list[Action]) -> Action:
        """登基 with a good hand (the pile added), else decline; R9.3 double holder: 独保,
        登基 (暗独) or hand R* on (a yield, weihai's 转让) by strength."""
        hand = view.hand or ()
        power = strength(rank_counts_of([*hand, *view.pile]), self.rules)
        if SOLO in legal and power >= self._solo_at(call=False):
            return SOLO
        if B_MARKED in hand:  # 登基 holding both is a dark solo
            hand_on = next((a for a in (TRANSFER, DECLINE) if a in legal), ACCEPT)
            return ACCEPT if power >= self.dark_solo_at else hand_on
        if ACCEPT in legal and (power >= self.accept_at or DECLINE not in legal):
            return ACCEPT
        return DECLINE if DECLINE in legal else legal[0]

    def _call(self, view: View, legal: list[Action], counts: list[int]) -> Action:
        """R8.7, R11.3: the open solo (明独 showing four, 明独保) from an average hand, 暗独 (all
        four held) unless weak, else the triple of the lowest rank (its holder's fourth copy
        goes early and shows the guard)."""
        power = strength(counts, self.rules)
        solos = [a for a in legal if isinstance(a, OpenSolo)]  # 明独 showing four, 明独保
        if solos and power >= self._solo_at(call=True):
            return solos[0]
        calls = [a for a in legal if isinstance(a, Call)]
        if not calls:
            return legal[0]
        copies = Counter(view.hand)
        dark = power >= self.dark_solo_at
        return min(
            calls,
            key=lambda a: ((copies[a.card] >= 4) != dark, a.card.rank),
        )

    def _answer(self, legal: list[Action], counts: list[int]) -> Action:
        """Polls: 明独 (R9.2) and 抢独 (R11.4) overwhelming, 造反 (R9.5) strong, 明保 (R9.4,
        R8.10) unless weak, 踢 (R9.6) when the own side is strong."""
        power = strength(counts, self.rules)
        wanted = {
            SOLO: self._solo_at(call=False),
            GRAB: self._solo_at(call=False),
            REBEL: self.rebel_at,
            SHOW: self.show_at,
            KICK: self.kick_at,
        }
        for action, level in wanted.items():
            if action in legal and power >= level:
                return action
        return PASS

    def _solo_at(self, call: bool) -> float:
        """The strength to play alone openly: at the ``call`` (明独, 明独保) or elsewhere."""
        if self.rules.scoring == "kk":
            return self.kk_solo_at
        return self.call_solo_at if call else self.open_solo_at

    # ------------------------------------------------------------------ memory (guard)

    def _observe(self, view: View) -> None:
        """Update the guard suspicion from the plays seen since the last view."""
        memory = self.memory
        if view.seq < memory.seq or view.deal != memory.deal:
            self.memory = memory = Memory(deal=view.deal)
        memory.seq = view.seq
        if view.phase != "play":
            return
        if memory.suspect is None:
            memory.suspect = [1.0] * SEATS
        trick, seen = view.trick, memory.trick
        fresh = trick[len(seen) :] if trick[: len(seen)] == seen else trick
        before = [(e.seat, isinstance(e.action, Pass)) for e in trick[: len(trick) - len(fresh)]]
        passes = ((e.seat, isinstance(e.action, Pass)) for e in fresh)
        watch_round(memory.suspect, view.emperor, before, passes)
        memory.trick = trick

    def _partners(self, view: View) -> list[float]:
        """Per seat, the chance of being on this seat's side (:func:`partners`)."""
        me, emperor, guard = view.seat, view.emperor, view.guard
        assert me is not None and emperor is not None, "a seat's view in the play phase"
        alone = view.solo == "open" or (view.role == "emperor" and view.solo == "dark")
        if view.role == "guard":
            guard = me
        return partners(
            me,
            emperor,
            guard,
            known=alone or guard is not None,
            suspect=self._suspicion(),
            sizes=view.counts,
        )

    def _suspicion(self) -> list[float]:
        """Per seat, the weight for being the unrevealed guard (1 each before any play)."""
        return self.memory.suspect or [1.0] * SEATS

    def _guard_odds(self, view: View) -> list[float]:
        """Per seat, the chance of being the unrevealed guard as ``view``'s seat sees it."""
        assert view.seat is not None and view.emperor is not None
        return guard_odds(view.seat, view.emperor, self._suspicion(), view.counts)

    # ------------------------------------------------------------------ play (R6)

    def _play(self, view: View, legal: list[Action], counts: list[int]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        size = sum(counts)
        out = [p for p in plays if p.size == size]
        if out:
            return out[0]
        me, sizes = view.seat, view.counts
        assert me is not None
        others = [sizes[s] for s in range(SEATS) if s != me]
        counter = CardCounter(unseen_counts(view, counts, self.rules), max(others), self.rules)
        partners = self._partners(view)
        if view.lead is None:
            return self._lead(plays, counts, counter, partners, me, sizes)
        return self._follow(plays, counts, counter, partners, view.lead.seat, sizes)

    def _lead(
        self,
        plays: list[Play],
        counts: list[int],
        counter: CardCounter,
        partners: list[float],
        me: int,
        sizes: Sequence[int],
    ) -> Action:
        """The lead of seat ``me`` (cards held per seat: ``sizes``)."""
        legal = set(plays)
        finish = finishing_lead(counts, counter, self.held)
        if finish is not None and finish in legal:
            return finish
        threats = {
            sizes[s]
            for s in range(SEATS)
            if s != me and 0 < sizes[s] <= self.last_cards and partners[s] < 0.5
        }
        sets = [Play.of(r, counts[r]) for r in range(SMALL_JOKER) if counts[r]]
        sets = [p for p in sets if p in legal]
        if sets:
            return min(sets, key=lambda p: (p.size in threats, p.rank))
        return min(plays, key=lambda p: (p.size in threats, p.size, p.big, p.small))

    def _follow(
        self,
        plays: list[Play],
        counts: list[int],
        counter: CardCounter,
        partners: list[float],
        winner: int,
        sizes: Sequence[int],
    ) -> Action:
        """The answer to seat ``winner``'s play (cards held per seat: ``sizes``). Against a
        known lone emperor (an open solo, a revealed dark one) the four others need only one
        of them out first, so each spends its control to take the lead from it, however many
        cards it holds (1st or lose: R10.1, R10.2)."""
        ally = partners[winner]
        alone = ally == 0.0 and sum(partners) == SEATS - 1
        if not plays:
            return PASS
        if not beyond_finishing(counts, counter, self.held):
            for play in sorted(plays, key=lambda p: (is_control(p), p.jokers, p.rank)):
                if not counter.beatable(play) and self._finishes_after(counts, play, counter):
                    return play
        if ally >= self.partner:
            return PASS
        whole = [
            p
            for p in plays
            if not is_control(p) and p.count == counts[p.rank] and p.rank not in self.held
        ]
        if whole and ally < self.likely:
            return min(whole, key=lambda p: p.rank)
        if ally >= 0.5:
            return PASS
        parts = [p for p in plays if not is_control(p)]
        if parts and sizes[winner] <= self.break_at:
            return min(parts, key=lambda p: (p.rank, p.size))
        if 0 < sizes[winner] <= self.urgent or alone:  # near going out: spend control on it
            play = min(plays, key=lambda p: (p.big, p.small, p.twos, p.rank))
            if alone or sizes[winner] <= self.last_control_at or _control_left(counts, play):
                return play
        return PASS

    def _finishes_after(self, counts: list[int], play: Play, counter: CardCounter) -> bool:
        """Whether the hand left after ``play`` goes out by :func:`finishing_lead`, or is one
        play (with its jokers)."""
        rest = _after(counts, play)
        if sum(1 for r in range(SMALL_JOKER) if rest[r]) <= 1:
            return True
        return finishing_lead(rest, counter, self.held) is not None


def _after(counts: list[int], play: Play) -> list[int]:
    """The rank counts of a hand of rank ``counts`` once ``play`` is made from it."""
    return [n - c for n, c in zip(counts, cards_of(play), strict=True)]


def _control_left(counts: list[int], play: Play) -> int:
    """The 2s and jokers a hand of rank ``counts`` keeps after ``play``."""
    rest = _after(counts, play)
    return rest[TWO] + rest[SMALL_JOKER] + rest[BIG_JOKER]
