"""The ``search`` bot (搜索机器人): the heuristic bot, with information-set search (PIMC) in the
endgame.

It sees what a seat sees (R14: the view and the legal actions) and answers as
:class:`~baohuang.bots.heuristic.HeuristicBot` everywhere but at play decisions (R6) of the endgame
(:meth:`SearchBot.worth`). There a few candidate actions (:func:`candidates`) are scored on
*determinizations*: hands for the other seats dealt at random from the unseen cards (the pack
less the cards played and its own hand, R7) sized as the view's counts, the unrevealed guard
drawn by the heuristic's suspicion among the seats that may be it and given a copy of the rank
that reveals it (R8.8, R9.4). Only hard facts constrain a deal: passing is voluntary (R6.2), so
a pass shows no void. Each candidate is played out on the same deals by the heuristic's own
policy (:mod:`baohuang.bots.playout`), which predicts heuristic opponents exactly when the deal is
right, and scored with R10 for the bot's seat. The best mean replaces the heuristic's choice
only when ahead of it by ``margin`` points (and, with ``sure``, by that many standard errors of
the deal-by-deal lead: a whole-game playout varies by several points, so a few deals of it
prove little); after ``prune`` deals only the candidates ahead of the heuristic's choice are
played on.

With ``read`` the deals also follow from how the seats played (:mod:`baohuang.bots.handreader`):
``read`` Markov chains over the deals weighted by how many of the other seats' decisions in the
play phase so far the heuristic's policy reproduces on them (``miss`` per decision it does not),
each chain taking ``steps`` steps at every search after its first.

Measured in duplicate arenas against ``heuristic`` (bench/search.md): searching more of the
game paid (following with at most 60, 90 or 120 cards left in all hands, in that order), more
than more samples (32 for 16), more candidates (6 for 4) or another margin (0.25, 1); leading
searched from 60 cards on instead of 90 cost a third less time for the same points. 120 cards
gained a little more at 2.8 times the time, so the default stops at 90 (:func:`search_reach`). In
weihai, whose 165 cards make shorter playouts and whose open solos swing ±32, searching every
follow (165 cards) and every lead once 45 cards are out (120) gained most.

With ``roles`` the answers before the first play are searched too (:mod:`baohuang.bots.rolesearch`:
accept or decline, the call, 明独 / 独保 / 暗独, 转让, 抢独, 明保, 造反, 踢): each answer is
made on ``roles`` determinizations of the whole deal, the rest of the role phase answered and
the game played out by the heuristic, and scored with R10; the same margins decide.

Sampling stops after ``samples`` deals or when ``budget_s`` seconds are spent (at least two
deals are always played), so the bot is deterministic for a seed only when the budget does not
run out (``budget_s=None``: no time limit).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..engine.actions import PASS, Action, Pass, PlayCards
from ..engine.determinize import ROLE_PHASES, determinize
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.scoring import score
from ..engine.state import SEATS
from ..engine.views import View
from .handreader import Deal, HandReader
from .handsplit import is_control, rank_counts_of, reveal_rank, unseen_counts
from .heuristic import HeuristicBot
from .playout import Policy, Position
from .rolesearch import role_answers, sample_cards, settle, settled_value


def guard_candidates(view: View, odds: list[float]) -> list[tuple[int | None, float]]:
    """The guards a deal may give (``None``: no guard) as the view's seat knows them, with
    their weights; ``odds`` are the heuristic's (:func:`.suspicion.guard_odds`), used while
    the guard is unknown."""
    if view.solo is not None:
        return [(None, 1.0)]
    if view.guard is not None:
        return [(view.guard, 1.0)]
    seats: list[tuple[int | None, float]] = [
        (s, odds[s]) for s in range(SEATS) if odds[s] > 0 and view.counts[s]
    ]
    return seats or [(None, 1.0)]


def sample_hands(
    view: View, rules: Rules, guard: int | None, rng: random.Random
) -> list[list[int]]:
    """Rank counts for every seat: the own hand, the unseen cards dealt at random to the others
    by their counts; an unrevealed ``guard`` gets a copy of :func:`reveal_rank` first."""
    me, sizes = view.seat, view.counts
    assert me is not None and view.hand is not None, "a seat's view"
    mine = rank_counts_of(view.hand)
    unseen = unseen_counts(view, mine, rules)
    hands = [[0] * len(mine) for _ in range(SEATS)]
    hands[me] = mine
    need = list(sizes)
    rank = reveal_rank(view.called, rules)
    hidden = not view.guard_revealed
    if guard is not None and guard != me and hidden and rank is not None and unseen[rank]:
        unseen[rank] -= 1
        hands[guard][rank] += 1
        need[guard] -= 1
    pool = [r for r, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    at = 0
    for seat in range(SEATS):
        if seat != me:
            for r in pool[at : at + need[seat]]:
                hands[seat][r] += 1
            at += need[seat]
    return hands


def root_position(
    view: View,
    rules: Rules,
    hands: list[list[int]],
    guard: int | None,
    suspect: list[float],
) -> Position:
    """The view's position on ``hands`` with ``guard``, the view's seat to act."""
    me, lead, emperor = view.seat, view.lead, view.emperor
    assert me is not None and emperor is not None, "a seat's view in the play phase"
    passes = 0
    for entry in reversed(view.trick):
        if not isinstance(entry.action, Pass):
            break
        passes += 1
    known = view.guard_revealed or view.solo == "open"
    return Position(
        hands=hands,
        turn=me,
        lead=lead.play if lead else None,
        last=lead.seat if lead else me,
        passes=passes,
        places=list(view.places),
        emperor=emperor,
        guard=guard,
        known=known,
        suspect=suspect,
        reveal=None if known else reveal_rank(view.called, rules),
        revealer=guard,
    )


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How :class:`SearchBot` searches (the module docstring); the named profiles below."""

    #: Deals a decision at most, and seconds (``None``: no time limit, deterministic).
    samples: int = 16
    budget_s: float | None = 1.0
    #: Points a candidate must lead the heuristic's choice by, and (``sure``) standard errors
    #: of its deal-by-deal lead (0: the margin alone). (Counting only the distinct deals in
    #: that error lost 0.29 points, bench/search.md: it is gone.)
    margin: float = 0.5
    sure: float = 0.0
    #: The play searched with at most this many cards left in all hands, following and
    #: leading (``None``: :func:`search_reach`'s for the rules).
    endgame: int | None = None
    lead_endgame: int | None = None
    #: Candidates a decision; after ``prune`` deals only those ahead of the heuristic's.
    limit: int = 4
    prune: int = 2
    #: Reading the hands (:mod:`.handreader`): chains (0: deals from the view alone), the
    #: weight of each decision the heuristic's policy does not reproduce, steps a search.
    read: int = 0
    miss: float = 0.002
    steps: int = 100
    #: Deals drawn again, at most, in place of one the search has played already.
    redraw: int = 0
    #: Role-phase search (:mod:`.rolesearch`): deals an answer (0: the heuristic's answers),
    #: after ``role_prune`` deals only the answers ahead of the heuristic's.
    roles: int = 32
    role_prune: int = 4


#: The ``search`` level (高手's endgame and role search).
SEARCH = SearchSettings()
#: The ``strong`` level (大师): the search reading the hands.
STRONG = SearchSettings(read=4)
#: ``strong`` with a full pack and a called guard (classic): it also searches the whole play
#: (every follow, every lead once 55 cards are out) on 32 deals, draws up to three other deals
#: in place of one it has played already, and overrules the heuristic only two standard errors
#: clear of it: +0.813 [+0.733, +0.893] over the heuristic on the 500 deals of seed c2 at about
#: 75 ms a decision (bench/search.md, "Classic: deals that differ").
STRONG_CLASSIC = replace(STRONG, samples=32, sure=2.0, endgame=215, lead_endgame=160, redraw=3)
#: Where the play search starts (:func:`search_reach`) unless the rules call for more.
ENDGAME = (90, 60)


def search_reach(rules: Rules) -> tuple[int, int]:
    """The cards left in all hands, at most, from which the play is searched, following and
    leading: with weihai's scoring (open solos swing ±32, and its 165 cards make short
    playouts) every follow and every lead once 45 cards are out; else :data:`ENDGAME`."""
    return (165, 120) if rules.scoring == "weihai" else ENDGAME


def strong_settings(rules: Rules) -> SearchSettings:
    """``strong``'s profile under ``rules``: :data:`STRONG_CLASSIC` with a full pack of 216
    cards and a called guard, else :data:`STRONG`."""
    full = rules.ranks_from == "3" and not rules.removed_sixes
    return STRONG_CLASSIC if full and rules.selection == "called" else STRONG


def strong_bot(rules: Rules, seed: int | str = 0) -> SearchBot:
    """The ``strong`` level (大师): :func:`strong_settings`."""
    return SearchBot(rules, seed, strong_settings(rules))


def candidates(base: Action, legal: list[Action], hand: list[int], limit: int) -> list[Action]:
    """The heuristic's choice first, then pass, the whole sets from the lowest, and the
    cheapest plays (no control first, then the lowest); at most ``limit``."""
    plays = [a for a in legal if isinstance(a, Play)]
    whole = sorted(
        (p for p in plays if p.count and p.count == hand[p.rank] and not p.jokers and not p.twos),
        key=lambda p: p.rank,
    )
    cheap = sorted(plays, key=lambda p: (is_control(p), p.jokers, p.rank, p.size))
    chosen = [base, *([PASS] if PASS in legal else []), *whole, *cheap]
    return list(dict.fromkeys(chosen))[:limit]


class SearchBot(HeuristicBot):
    """See the module docstring. One instance may play many games in a row (a match)."""

    def __init__(
        self, rules: Rules, seed: int | str = 0, settings: SearchSettings = SEARCH
    ) -> None:
        super().__init__(rules)
        self.settings = settings
        follow, lead = search_reach(rules)
        #: Where the play is searched from (:meth:`worth`): cards left following, leading.
        self.reach = (
            follow if settings.endgame is None else settings.endgame,
            lead if settings.lead_endgame is None else settings.lead_endgame,
        )
        self.rng = random.Random(seed)
        self.policy = Policy(rules)
        #: The last decision's searched options and their mean points over the deals each
        #: was played on (empty where it took the heuristic's answer unsearched): the
        #: labels expert iteration learns values from (:mod:`baohuang.learn.expert`).
        self.searched: dict[Action, float] = {}
        self.reader = (
            HandReader(
                self.policy,
                self.rng,
                chains=settings.read,
                steps=settings.steps,
                miss=settings.miss,
            )
            if settings.read
            else None
        )

    def choose(self, view: View, legal: list[Action]) -> Action:
        base = super().choose(view, legal)  # keeps the guard suspicion current
        self.searched = {}
        if view.phase in ROLE_PHASES:
            chosen = (
                self._role(view, legal, base) if self.settings.roles and len(legal) > 1 else base
            )
            if view.phase == "candidate":
                self.memory.asked += 1
            return chosen
        if view.phase != "play":
            return base
        hand = rank_counts_of(view.hand or ())
        if self.reader:
            self.reader.see(view)
        chosen = base
        if len(legal) > 1 and self.worth(view):
            options = candidates(base, legal, hand, self.settings.limit)
            chosen = options[self._best(view, options)] if len(options) > 1 else base
        if self.reader:
            assert view.seat is not None
            self.reader.acted(view.seat, chosen if isinstance(chosen, Play) else None)
        return chosen

    def observe(self, view: View, action: Action) -> None:
        """A turn of this seat played by someone else (:func:`~.base.catch_up`)."""
        self.look(view)
        self.acted(view, action)

    def look(self, view: View) -> None:
        """What a turn of this seat shows before it acts: the guard suspicion and, in the
        play, the others' actions for the reader (once per turn: the reader takes a trick it
        has seen as a new one)."""
        self._observe(view)
        if view.phase == "play" and self.reader:
            self.reader.see(view)

    def acted(self, view: View, action: Action) -> None:
        """What this seat did at the turn :meth:`look` saw."""
        if view.phase == "candidate":
            self.memory.asked += 1
        elif view.phase == "play" and self.reader:
            assert view.seat is not None
            play = action.play if isinstance(action, PlayCards) else action
            self.reader.acted(view.seat, play if isinstance(play, Play) else None)

    def worth(self, view: View) -> bool:
        """Whether to search: the endgame, at most ``endgame`` cards left in all hands when
        following, ``lead_endgame`` when leading (the playouts are short, the unseen cards
        few)."""
        follow, lead = self.reach
        return sum(view.counts) <= (follow if view.lead else lead)

    def _best(self, view: View, options: list[Action]) -> int:
        """The index of the play-phase option to take (:meth:`_pick`) over up to ``samples``
        determinizations (:meth:`_deals`), each option played out by the heuristic's policy."""
        known: dict[tuple[int | None, tuple[int, ...]], dict[int, int]] = {}
        scored = self._play_scores(view, options, known)
        return self._pick(options, self.settings.samples, self.settings.prune, scored)

    def _play_scores(
        self,
        view: View,
        options: list[Action],
        known: dict[tuple[int | None, tuple[int, ...]], dict[int, int]],
    ) -> Callable[[list[int]], list[int]]:
        """Each call deals one determinization and scores the options alive on it, played out
        by the heuristic's policy. The playouts are deterministic, so a deal drawn again (a
        chain that kept its deal between two reads) reuses its values (``known``)."""
        suspect = self._suspicion()
        deals = self._deals(view)

        def scored(alive: list[int]) -> list[int]:
            for _ in range(1 + self.settings.redraw):
                guard, hands = next(deals)
                key = (guard, tuple(itertools.chain(*hands)))
                if key not in known:
                    break
            values = known.setdefault(key, {})
            for k in alive:
                if k not in values:
                    position = self._position(view, [list(h) for h in hands], guard, suspect)
                    option = options[k]
                    position.step(option if isinstance(option, Play) else None)
                    values[k] = self._value(view, self.policy.playout(position), guard)
            return [values[k] for k in alive]

        return scored

    def _role(self, view: View, legal: list[Action], base: Action) -> Action:
        """The role-phase answer (:mod:`.rolesearch`, :meth:`_pick`) over ``roles``
        determinizations of the whole deal; ``base`` is the heuristic's."""
        answers = role_answers(base, legal, view.hand or ())
        scored = self._role_scores(view, answers)
        settings = self.settings
        return answers[self._pick(answers, settings.roles, settings.role_prune, scored)]

    def _role_scores(self, view: View, answers: list[Action]) -> Callable[[list[int]], list[int]]:
        """Each call deals the whole deal anew and scores the answers alive on it: the rest of
        the role phase answered and the game played out by the heuristic."""
        me = view.seat
        assert me is not None
        bot = HeuristicBot(self.rules)

        def scored(alive: list[int]) -> list[int]:
            hands, first, turns = sample_cards(view, self.rules, self.memory.asked, self.rng)
            root = determinize(view, self.rules, hands, first=first, turns=turns)
            values = []
            for k in alive:
                game = root.clone()
                played = settle(game, me, answers[k], bot)
                values.append(settled_value(game, me, self.policy) if played else 0)
            return values

        return scored

    def appraise(self, view: View, options: list[Action], deals: int) -> list[list[int]]:
        """Each of ``options``' points for ``view``'s seat on the same ``deals``
        determinizations (role phases: of the whole deal; the play: by the reading, as a
        search does), for analysis (复盘): nothing pruned, no time limit. The turn must have
        been :meth:`look`-ed at."""
        if view.phase in ROLE_PHASES:
            scored = self._role_scores(view, options)
        else:
            scored = self._play_scores(view, options, {})
        everyone = list(range(len(options)))
        rows = [scored(everyone) for _ in range(deals)]
        return [[row[k] for row in rows] for k in everyone]

    def _pick(
        self,
        options: list[Action],
        deals: int,
        prune: int,
        scored: Callable[[list[int]], list[int]],
    ) -> int:
        """The index of the option to take: the best mean score over up to ``deals``
        determinizations if :meth:`_ahead` of option 0's (the heuristic's choice), else 0.
        ``scored`` deals a new one and scores the options alive on it; after ``prune`` deals
        only the options ahead of option 0 stay alive. Sampling stops when ``budget_s`` is
        spent, after two deals at least. Every option's mean goes to :attr:`searched`."""
        budget_s = self.settings.budget_s
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        scores: list[list[int]] = [[] for _ in options]
        alive = list(range(len(options)))
        try:
            for done in range(deals):
                if done >= 2 and deadline is not None and time.perf_counter() > deadline:
                    break
                for k, value in zip(alive, scored(alive), strict=True):
                    scores[k].append(value)
                if done + 1 == prune:
                    alive = [0, *(k for k in alive[1:] if sum(scores[k]) > sum(scores[0]))]
                    if len(alive) == 1:
                        return 0
            best = max(alive, key=lambda k: sum(scores[k]))
            return best if self._ahead(scores[best], scores[0]) else 0
        finally:
            self.searched = {
                option: statistics.fmean(values)
                for option, values in zip(options, scores, strict=True)
                if values
            }

    def _ahead(self, option: list[int], base: list[int]) -> bool:
        """Whether ``option``'s scores lead ``base``'s, deal by deal, by more than ``margin``
        on average and by ``sure`` standard errors of that mean."""
        leads = [a - b for a, b in zip(option, base, strict=True)]
        mean = statistics.fmean(leads)
        if mean <= self.settings.margin:
            return False
        deals = len(leads)
        if self.settings.sure <= 0 or deals < 2:
            return True
        return mean > self.settings.sure * statistics.stdev(leads) / math.sqrt(deals)

    def _deals(self, view: View) -> Iterator[Deal]:
        """Determinizations for ``view``: the guard drawn by the suspicion, the unseen cards
        at random; with a reader, deals that explain the other seats' play
        (:meth:`HandReader.deals`, its steps given half the time budget)."""
        seats, odds = zip(*guard_candidates(view, self._guard_odds(view)), strict=True)

        def drawn() -> Iterator[Deal]:
            while True:
                guard = self.rng.choices(seats, odds)[0]
                yield guard, sample_hands(view, self.rules, guard, self.rng)

        if self.reader is None:
            return drawn()
        budget_s = self.settings.budget_s
        budget = None if budget_s is None else time.perf_counter() + budget_s / 2
        return self.reader.deals(view, drawn(), budget)

    def _position(
        self, view: View, hands: list[list[int]], guard: int | None, suspect: list[float]
    ) -> Position:
        return root_position(view, self.rules, hands, guard, suspect)

    def _value(self, view: View, places: list[int], guard: int | None) -> int:
        """The view's seat's R10 score for the finishing ``places``."""
        assert view.seat is not None and view.emperor is not None
        return score(
            self.rules,
            emperor=view.emperor,
            guard=guard,
            places=places,
            open_solo=view.solo == "open",
            rebellion=view.rebellion,
            open_guard=view.open_guard,
            kicked=view.kicked,
        )[view.seat]
