"""Reading the other seats' hands from how they played, for the ``search`` bot.

A determinization drawn from the view alone (:func:`~baohuang.bots.search.sample_hands`) honours
the hard facts: counts, cards played, the called card. How the seats played says more: a seat
that led the nines probably had nothing lower to lead, one that passed on a rebel's small play
probably had nothing small enough to beat it. The bot keeps every action of the play phase it
has seen (:class:`PlayLog`; R14: its own views, every other seat's play being in the round's
trick at its next turn, R6.2, R6.3) and replays them publicly: each other seat's decision is a
:class:`Frame`, the position as everyone saw it then. A seat's hand at each of its decisions
is its hand now plus what it played since, so a deal's *misses*, the decisions that the
heuristic's policy (:class:`~baohuang.bots.playout.Policy`) does not reproduce on it, add up
seat by seat.

:class:`HandReader` samples deals in proportion to ``miss`` to the power of their misses by
Markov chain Monte Carlo: a step swaps cards between two other seats, one or more of one rank
for as many of another, so that a pair or a triple moves whole (the unrevealed guard's called
card, when it moves, taking the guard with it), and is kept with the Metropolis-Hastings
chance, only the two seats' decisions being replayed. The chains persist through the game: at
each search the cards played since are given to the seats that played them, a few steps are
taken, and the deals are read off the chains. Against heuristic opponents (and against people
who play alike) the deals that explain their actions are the likely ones;
``miss`` above 0 keeps every deal possible, so that a seat that plays otherwise only weakens
the reading.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..engine.actions import PlayCards
from ..engine.cards import NUM_RANKS
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.state import SEATS
from ..engine.trick import TrickEntry
from ..engine.views import View
from .handsplit import cards_of, rank_counts_of, reveal_rank, unseen_counts
from .playout import Policy, Position
from .suspicion import watch_round

#: A determinization: the guard drawn and every seat's rank counts.
Deal = tuple[int | None, list[list[int]]]
#: An action of the play phase: the seat and its play (``None``: a pass).
Act = tuple[int, Play | None]


def exchange(give: list[int], take: list[int], x: int, y: int, n: int = 1) -> None:
    """``give`` hands ``n`` cards of rank ``x`` to ``take`` for ``n`` of rank ``y``."""
    give[x] -= n
    take[x] += n
    take[y] -= n
    give[y] += n


def placed_right(seat: int, hands: Sequence[Sequence[int]], true: Sequence[Sequence[int]]) -> float:
    """The share of the cards of the seats other than ``seat`` that the deal ``hands`` places
    where the deal ``true`` has them (by rank): how well a deal was read."""
    others = [s for s in range(SEATS) if s != seat]
    right = sum(min(a, b) for s in others for a, b in zip(hands[s], true[s], strict=True))
    return right / max(1, sum(sum(true[s]) for s in others))


@dataclass(slots=True)
class Frame:
    """One decision of another seat: the public position then (``position.hands`` is scratch
    space), what it did, and the cards it had played before it."""

    seat: int
    play: Play | None
    position: Position
    before: list[int]
    #: The index in :attr:`PlayLog.actions` of the action the frame precedes.
    at: int
    #: The guard drawn -> the seat's :meth:`Position.partners` (its hand does not change them).
    partners: dict[int | None, list[float]] = field(default_factory=dict)


@dataclass(slots=True)
class PlayLog:
    """Every action of the play phase the bot has seen, and its public replay."""

    actions: list[Act] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    #: Per seat, the rank counts it has played in the frames replayed so far (a row is
    #: replaced, never changed, so frames keep the row of their time; so are ``suspects``).
    played: list[list[int]] = field(default_factory=lambda: [[0] * NUM_RANKS] * SEATS)
    deal: int = -1
    seq: int = -1
    trick: tuple[TrickEntry, ...] | None = None
    replay: Position | None = None
    replayed: int = 0
    #: The replayed round's actions so far; per seat, the round as it saw it at its last turn
    #: and its guard suspicion then (each heuristic seat reads only its own views, R14).
    round: list[Act] = field(default_factory=list)
    seen: list[list[Act]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    suspects: list[list[float]] = field(default_factory=lambda: [[1.0] * SEATS] * SEATS)
    #: The replay stopped following the log (a turn it could not place): no more frames.
    lost: bool = False

    def see(self, view: View) -> bool:
        """A turn of the bot's in the play phase: read the others' actions since its last
        turn from ``view``'s trick (all of it at the first). Whether a new deal began."""
        fresh = view.deal != self.deal or view.seq < self.seq
        if fresh:
            self.__init__()  # type: ignore[misc]
            self.deal = view.deal
        self.seq = view.seq
        if self.trick is None:
            seen = _acts(view.trick)
        else:
            seen = _since(self.trick, view.trick, view.seat)
        self.actions.extend(seen)
        self.trick = view.trick
        return fresh

    def acted(self, seat: int, play: Play | None) -> None:
        """What the bot did at the turn it :meth:`see`-ed last."""
        self.actions.append((seat, play))

    def update(self, view: View, rules: Rules) -> bool:
        """Replay the actions not yet replayed, keeping a :class:`Frame` for each decision of
        another seat; a pass that ended a round, seen only as the round's end, is one too.
        Whether frames kept before changed (the guard's reveal seen only now)."""
        acts, me = self.actions, view.seat
        if not acts or self.lost:
            return False
        position = self.replay or self._start(view, rules)
        reveal_at = self._reveal_index(view, rules, position)
        changed = False
        if reveal_at is not None and reveal_at < self.replayed:  # replayed before it showed
            changed = position.known = True
            for frame in self.frames:
                if frame.at > reveal_at and not frame.position.known:
                    frame.position.known = True
                    frame.partners.clear()
        for i in range(self.replayed, len(acts)):
            seat, play = acts[i]
            while position.turn != seat and position.lead is not None and not position.over:
                if position.turn != me:
                    self._keep(position, position.turn, None, i)
                self._step(position, position.turn, None)
            if position.over or position.turn != seat:
                self.lost = True
                return changed
            if seat != me:
                self._keep(position, seat, play, i)
            if play is not None:
                row = self.played[seat] = list(self.played[seat])
                for r, n in enumerate(cards_of(play)):
                    row[r] += n
            self._step(position, seat, play)
            if i == reveal_at:
                position.known = True
        self.replayed = len(acts)
        return changed

    def _start(self, view: View, rules: Rules) -> Position:
        """The public position at the first action: sizes and the cards not yet played, the
        hands themselves left empty (a replay reads only a frame's own seat's hand)."""
        sizes = list(view.counts)
        for seat, play in self.actions:
            if play is not None:
                sizes[seat] += play.size
        first = self.actions[0][0]
        assert view.emperor is not None
        self.replay = Position(
            hands=[[0] * NUM_RANKS for _ in range(SEATS)],
            turn=first,
            lead=None,
            last=first,
            passes=0,
            places=[],
            emperor=view.emperor,
            guard=None,
            known=view.solo == "open" or view.open_guard,
        )
        self.replay.sizes = sizes
        mine = rank_counts_of(view.hand or ())
        unseen = unseen_counts(view, mine, rules)
        self.replay.pool = pool = [u + m for u, m in zip(unseen, mine, strict=True)]
        for _, play in self.actions:  # every card not played before the first action
            if play is not None:
                for r, n in enumerate(cards_of(play)):
                    pool[r] += n
        return self.replay

    def _reveal_index(self, view: View, rules: Rules, position: Position) -> int | None:
        """The action that revealed the guard (its last play of the revealing rank, R8.8,
        R9.4), when the view shows it revealed and the replay does not yet."""
        rank = reveal_rank(view.called, rules)
        if position.known or not view.guard_revealed or view.guard is None or rank is None:
            return None
        shown = [
            i
            for i, (seat, play) in enumerate(self.actions)
            if seat == view.guard and play is not None and cards_of(play)[rank]
        ]
        return shown[-1] if shown else None

    def _step(self, position: Position, seat: int, play: Play | None) -> None:
        position.step(play)
        if position.lead is None:  # the round ended: the trick is cleared
            self.round = []
        else:
            self.round.append((seat, play))

    def _keep(self, position: Position, seat: int, play: Play | None, at: int) -> None:
        """A frame for ``seat`` about to act, with the suspicion it holds then."""
        snap = copy.copy(position)
        snap.sizes, snap.pool = list(position.sizes), list(position.pool)
        snap.places, snap.suspect = list(position.places), self._suspicion(seat, position)
        self.frames.append(Frame(seat, play, snap, self.played[seat], at))

    def _suspicion(self, seat: int, position: Position) -> list[float]:
        """``seat``'s guard suspicion at its turn now, updated as the heuristic bot updates
        it from the round it sees (:meth:`HeuristicBot._observe`)."""
        trick, seen = self.round, self.seen[seat]
        fresh = trick[len(seen) :] if trick[: len(seen)] == seen else trick
        before = [(s, p is None) for s, p in trick[: len(trick) - len(fresh)]]
        suspect = self.suspects[seat] = list(self.suspects[seat])
        watch_round(suspect, position.emperor, before, ((s, p is None) for s, p in fresh))
        self.seen[seat] = list(trick)
        return list(suspect)


def _since(
    before: tuple[TrickEntry, ...], now: tuple[TrickEntry, ...], me: int | None
) -> list[Act]:
    """The other seats' actions between the turn whose trick was ``before`` (the bot's own
    entry follows it) and the trick ``now``: the rest of the same round, or, when a new round
    began (the old one ended in passes after the bot's play, or with the bot's pass), the new
    round's entries."""
    mine = len(before)
    same = len(now) > mine and now[:mine] == before and now[mine].seat == me
    return _acts(now[mine + 1 :] if same else now)


def _acts(entries: Sequence[TrickEntry]) -> list[Act]:
    """Trick entries as actions."""
    return [(e.seat, e.action.play if type(e.action) is PlayCards else None) for e in entries]


@dataclass(slots=True)
class Chain:
    """One Markov chain's deal: the guard, every seat's rank counts now, each seat's misses."""

    guard: int | None
    hands: list[list[int]]
    misses: list[int]


class HandReader:
    """Deals for ``view``'s seat that explain the other seats' play (module docstring):
    ``chains`` Markov chains, ``burn`` steps each at the first search of a game and ``steps``
    at the later ones, ``thin`` steps between two deals read off one chain."""

    def __init__(
        self,
        policy: Policy,
        rng: random.Random,
        *,
        chains: int = 4,
        burn: int = 1000,
        steps: int = 100,
        thin: int = 5,
        miss: float = 0.002,
    ) -> None:
        self.policy, self.rules, self.rng = policy, policy.rules, rng
        self.size, self.burn, self.steps, self.thin = chains, burn, steps, thin
        self.log_miss = math.log(miss)
        self.log = PlayLog()
        self.chains: list[Chain] = []
        self.read = 0  # actions the chains have been brought up to
        #: (frame, the seat's hand at the first action of the log, whether it is the guard)
        #: -> the policy's action (the hand then is that less the cards played before it).
        self.cache: dict[tuple[int, tuple[int, ...], bool], Play | None] = {}
        self.by_seat: dict[int, list[int]] = {}

    def see(self, view: View) -> None:
        """A play-phase turn of the bot's (:meth:`PlayLog.see`)."""
        if self.log.see(view):
            self.chains, self.cache, self.read = [], {}, 0

    def acted(self, seat: int, play: Play | None) -> None:
        self.log.acted(seat, play)

    def misses(self, seat: int, hand: Sequence[int], guard: int | None, limit: int) -> int:
        """How many of ``seat``'s decisions the policy does not reproduce if it holds ``hand``
        now and ``guard`` is the guard; counting stops past ``limit``."""
        start = tuple([h + p for h, p in zip(hand, self.log.played[seat], strict=True)])
        frames, cache, act = self.log.frames, self.cache, self.policy.act
        guarding = seat == guard
        count = 0
        order = self.by_seat.get(seat, [])
        for n, i in enumerate(order):
            frame = frames[i]
            key = (i, start, guarding)
            if key in cache:
                chosen = cache[key]
            else:
                position = frame.position
                position.hands[seat] = [s - b for s, b in zip(start, frame.before, strict=True)]
                position.guard = guard
                partners = frame.partners.get(guard)
                if partners is None:
                    partners = frame.partners[guard] = position.partners(seat)
                chosen = cache[key] = act(position, partners)
            if chosen is not frame.play:
                count += 1
                if count > limit:  # this frame is asked first next time: it rejects early
                    order.insert(0, order.pop(n))
                    break
        return count

    def deals(
        self, view: View, draw: Iterator[Deal], deadline: float | None = None
    ) -> Iterator[Deal]:
        """Deals for ``view`` (its seat to play), endlessly; ``draw`` gives deals from the view
        alone to start chains from. Steps stop at ``deadline`` (``time.perf_counter``)."""
        self._update(view)
        me = view.seat
        assert me is not None
        if self.chains:
            self.chains = [self._catch_up(view, chain, draw) for chain in self.chains]
            steps = self.steps
        else:
            self.chains = [self._chain(view, *next(draw)) for _ in range(self.size)]
            steps = self.burn
        self.read = len(self.log.actions)
        others = [s for s in range(SEATS) if s != me and view.counts[s]]
        movable = len(others) > 1
        rank = None if view.guard_revealed else reveal_rank(view.called, self.rules)
        for chain in self.chains:
            for _ in range(steps if movable else 0):
                if deadline is not None and time.perf_counter() > deadline:
                    break
                self._step(view, chain, others, rank)
        for n in itertools.count():
            chain = self.chains[n % self.size]
            if n >= self.size and movable:
                for _ in range(self.thin):
                    self._step(view, chain, others, rank)
            yield chain.guard, [list(h) for h in chain.hands]

    def explain(self, view: View, guard: int | None, hands: list[list[int]]) -> list[int]:
        """Per seat, the misses of the deal ``hands`` with ``guard`` (0 for ``view``'s seat)
        over the play so far."""
        self._update(view)
        return self._chain(view, guard, hands).misses

    def _update(self, view: View) -> None:
        """Replay the log up to ``view`` and index the frames by seat, the latest first (a
        frame that ends a count past its limit moves to the front, :meth:`misses`)."""
        if self.log.update(view, self.rules):  # the policy's actions cached no longer hold
            self.cache = {}
        self.by_seat = {}
        for i in range(len(self.log.frames) - 1, -1, -1):
            self.by_seat.setdefault(self.log.frames[i].seat, []).append(i)

    def _chain(self, view: View, guard: int | None, hands: list[list[int]]) -> Chain:
        me = view.seat
        misses = [0 if s == me else self.misses(s, hands[s], guard, 1 << 30) for s in range(SEATS)]
        return Chain(guard, hands, misses)

    def _catch_up(self, view: View, chain: Chain, draw: Iterator[Deal]) -> Chain:
        """The chain's deal with the cards played since its last search given to the seats
        that played them (from another seat, in exchange for a card of theirs) and taken out;
        a new chain where that cannot be done."""
        me, hands, rng = view.seat, chain.hands, self.rng
        assert me is not None
        for seat, play in self.log.actions[self.read :]:
            if play is None or seat == me:
                continue
            hand, need = hands[seat], cards_of(play)
            for r, n in enumerate(need):
                while hand[r] < n:
                    donors = [t for t in range(SEATS) if t not in (me, seat) and hands[t][r]]
                    spare = [x for x in range(NUM_RANKS) if hand[x] > need[x]]
                    if not donors or not spare:
                        return self._chain(view, *next(draw))
                    exchange(hands[rng.choice(donors)], hand, r, rng.choice(spare))
            for r, n in enumerate(need):
                hand[r] -= n
        hands[me] = rank_counts_of(view.hand or ())
        if view.solo == "open" or view.guard is not None:
            chain.guard = view.guard
        rank = None if view.guard_revealed else reveal_rank(view.called, self.rules)
        guard = chain.guard
        if guard is not None and guard != me and rank is not None and not hands[guard][rank]:
            holders = [t for t in range(SEATS) if t not in (me, view.emperor) and hands[t][rank]]
            chain.guard = rng.choice(holders) if holders else guard
        return self._chain(view, chain.guard, hands)

    def _step(self, view: View, chain: Chain, others: list[int], rank: int | None) -> None:
        """One Metropolis-Hastings step: seat ``a`` gives ``n`` cards of a rank for ``n`` of one
        rank of seat ``b``'s, ``n`` drawn up to what both hold (a pair or a triple moves
        whole: single cards that keep a seat's combos apart mix slowly)."""
        rng, hands, guard = self.rng, chain.hands, chain.guard
        a, b = rng.sample(others, 2)
        hand_a, hand_b = hands[a], hands[b]
        x = rng.choices(range(NUM_RANKS), hand_a)[0]
        y = rng.choices(range(NUM_RANKS), hand_b)[0]
        if x == y:
            return
        n = rng.randint(1, min(hand_a[x], hand_b[y]))
        moved = guard
        if rank is not None and guard not in (None, view.seat):  # the called card may move
            if guard == a and x == rank and rng.random() * hand_a[x] < n:
                moved = b
            elif guard == b and y == rank and rng.random() * hand_b[y] < n:
                moved = a
            if moved == view.emperor:
                return
        # kept with chance ratio * miss ** (added misses): as many as a uniform draw permits
        ratio = swap_log_ratio(hand_a[x], hand_b[y], hand_a[y], hand_b[x], n)
        allowed = math.floor((math.log(1.0 - rng.random()) - ratio) / self.log_miss)
        limit = chain.misses[a] + chain.misses[b] + allowed
        if limit < 0:
            return
        exchange(hand_a, hand_b, x, y, n)
        new_a = self.misses(a, hand_a, moved, limit)
        new_b = self.misses(b, hand_b, moved, limit - new_a) if new_a <= limit else 0
        if new_a + new_b <= limit:
            chain.guard = moved
            chain.misses[a], chain.misses[b] = new_a, new_b
        else:
            exchange(hand_b, hand_a, x, y, n)


def swap_log_ratio(ax: int, by: int, ay: int, bx: int, n: int) -> float:
    """The log Hastings ratio of a :meth:`HandReader._step` that moves ``n`` cards of rank x
    from seat a (holding ``ax`` and ``ay`` of ranks x and y) for ``n`` of rank y from seat b
    (``by``, ``bx``): the two deals' weights when the cards are dealt at random (rank counts
    ``h`` weigh ``1 / prod h!``), times the reverse step's chance over the forward's (a card
    of each seat drawn, then ``n`` up to what both hold)."""
    lg = math.lgamma
    weight = (
        lg(ax + 1)
        - lg(ax - n + 1)
        + lg(by + 1)
        - lg(by - n + 1)
        - lg(ay + n + 1)
        + lg(ay + 1)
        - lg(bx + n + 1)
        + lg(bx + 1)
    )
    forward = math.log(ax * by) - math.log(min(ax, by))
    reverse = math.log((ay + n) * (bx + n)) - math.log(min(ay + n, bx + n))
    return weight + reverse - forward
