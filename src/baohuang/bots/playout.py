"""Playouts for the ``search`` bot: a rank-count simulator of the play phase (R6) and the
heuristic bot's own play policy on it.

:class:`Position` holds one determinization: every hand as rank counts, the round in progress,
the places, and what each seat believes about the sides (R14): the emperor is public, the guard
knows itself, the others weigh the seats that may be the guard as
:class:`~baohuang.bots.heuristic.HeuristicBot` does (:mod:`~baohuang.bots.suspicion`, updated
from the plays), until the guard reveals itself by playing its last copy of the revealing rank
(the engine plays the called card last, R8.8; B*, R9.4). :class:`Policy` plays a seat of a
position exactly as the heuristic bot would play it from that seat's view, so a playout
predicts heuristic opponents.
Suits are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.cards import BIG_JOKER, SMALL_JOKER, TWO
from ..engine.game import Game
from ..engine.movegen import plays_for
from ..engine.plays import Play
from ..engine.rounds import game_over, going_out, next_holder, next_leader, round_over
from ..engine.rules import Rules
from ..engine.state import SEATS
from .handsplit import CardCounter
from .heuristic import HeuristicBot
from .suspicion import OVERTAKE_EMPEROR, PASS_ON_EMPEROR, partners


@dataclass(slots=True)
class Position:
    """A play-phase position on rank counts (R6) with the seats' beliefs about the sides."""

    hands: list[list[int]]
    turn: int
    lead: Play | None
    #: The seat that made the current play (meaningless while ``lead`` is None).
    last: int
    passes: int
    places: list[int]
    emperor: int
    #: The guard of this determinization (``None``: the emperor plays alone).
    guard: int | None
    #: Whether every seat knows the sides (the guard revealed, an open solo; the heuristic
    #: keeps weighing the seats after a dark solo is revealed).
    known: bool = True
    #: Per seat, the public weight for being the guard (the heuristic's suspicion).
    suspect: list[float] = field(default_factory=lambda: [1.0] * SEATS)
    #: The rank whose last copy, played by ``revealer``, reveals the sides (R8.8, R9.4).
    reveal: int | None = None
    revealer: int | None = None
    #: Per seat, its card count; the rank counts of all hands together.
    sizes: list[int] = field(init=False)
    pool: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.sizes = [sum(h) for h in self.hands]
        self.pool = [sum(col) for col in zip(*self.hands, strict=True)]
        self.suspect = list(self.suspect)  # the caller's list stays as it was

    @property
    def over(self) -> bool:
        """R6.6: the game ends when one seat alone holds cards (every place is known)."""
        return game_over(self.places)

    def step(self, play: Play | None) -> None:
        """The seat to act plays ``play``, or passes (``None``)."""
        seat = self.turn
        if self.lead is not None and self.last == self.emperor and seat != self.emperor:
            self.suspect[seat] *= PASS_ON_EMPEROR if play is None else OVERTAKE_EMPEROR
        if play is None:
            self._pass()
            return
        hand, pool = self.hands[seat], self.pool
        if play.count:
            hand[play.rank] -= play.count
            pool[play.rank] -= play.count
        if play.twos:
            hand[TWO] -= play.twos
            pool[TWO] -= play.twos
        if play.jokers:
            hand[SMALL_JOKER] -= play.small
            hand[BIG_JOKER] -= play.big
            pool[SMALL_JOKER] -= play.small
            pool[BIG_JOKER] -= play.big
        self.sizes[seat] -= play.size
        if seat == self.revealer and self.reveal is not None and not hand[self.reveal]:
            self.known = True
        self.lead, self.last, self.passes = play, seat, 0
        if not self.sizes[seat]:  # R6.4: out
            self.places.extend(going_out(self.places, seat))
            if game_over(self.places):
                return
        self.turn = next_holder(self.sizes, seat)

    def _pass(self) -> None:
        """A pass: the next holder acts (R6.2), or the round ends (R6.3, R6.5 接风)."""
        self.passes += 1
        sizes, last = self.sizes, self.last
        if round_over(sizes, last, self.passes, self.places):
            self.turn = next_leader(sizes, last)
            self.lead, self.passes = None, 0
        else:
            self.turn = next_holder(sizes, self.turn)

    def partners(self, me: int) -> list[float]:
        """Per seat, the chance of being on ``me``'s side as ``me`` sees it (the heuristic's
        :func:`~baohuang.bots.suspicion.partners`): the emperor knows whether it plays alone,
        the guard knows itself."""
        emperor, guard = self.emperor, self.guard
        known = self.known or me == guard or (me == emperor and guard is None)
        return partners(me, emperor, guard, known=known, suspect=self.suspect, sizes=self.sizes)


def game_position(game: Game, suspect: list[float] | None = None) -> Position:
    """A play-phase ``game``'s position on its true hands (rank counts), the seat to act to
    move; ``suspect``: the seats' guard weights (1 each by default)."""
    assert game.current_seat is not None and game.emperor is not None
    known = game.guard_revealed or game.open_solo
    reveal = game.reveal_card
    return Position(
        hands=[list(c) for c in game.counts],
        turn=game.current_seat,
        lead=game.lead,
        last=game.last_player if game.lead else game.current_seat,
        passes=game.passes,
        places=list(game.places),
        emperor=game.emperor,
        guard=game.guard,
        known=known,
        suspect=suspect if suspect is not None else [1.0] * SEATS,
        reveal=None if known or reveal is None else reveal.rank,
        revealer=game.guard,
    )


class R4Counter(CardCounter):
    """:class:`~baohuang.bots.handsplit.CardCounter` with a direct test for the R4 rule alone (no
    R5 option): the same answers, without listing the answers."""

    def beatable(self, play: Play) -> bool:
        """R4: an answer has ``play``'s size, at least one R per B of ``play`` (none beats R),
        and a higher card for each other card: spare jokers, then one higher rank. With one
        unseen R set against each B of ``play``, what is left is :meth:`beatable_set` for a
        set of its other cards and its B's."""
        return (
            not play.big
            and play.small <= self.pool[BIG_JOKER]
            and self.beatable_set(play.rank, play.count + play.small)
        )

    def beatable_set(self, rank: int, count: int) -> bool:
        """:meth:`beatable` for ``count`` cards of ``rank`` without jokers."""
        pool = self.pool
        if count > self.cap:
            return False
        need = count - pool[BIG_JOKER] - pool[SMALL_JOKER]
        return need <= 0 or max(pool[rank + 1 : SMALL_JOKER], default=0) >= need


def plain_r4(rules: Rules) -> bool:
    """Whether beating follows R4 alone (no 烤牌, QQ jokers or wild 2s, R5)."""
    return not (rules.roast or rules.qq_jokers or rules.twos_wild)


class Policy(HeuristicBot):
    """The heuristic bot's play (R6) for the seat to act on a :class:`Position`."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.plain = plain_r4(rules)

    def act(self, position: Position, partners: list[float] | None = None) -> Play | None:
        """The play the heuristic bot would make at ``position`` (``None``: pass);
        ``partners``: :meth:`Position.partners` for the seat to act, when known already."""
        seat, sizes = position.turn, position.sizes
        counts = position.hands[seat]
        plays = plays_for(counts, position.lead, self.rules)
        size = sizes[seat]
        for play in plays:
            if play.size == size:
                return play
        if not plays:
            return None
        pool = position.pool
        unseen = [p - c for p, c in zip(pool, counts, strict=True)]
        cap = max(sizes[:seat] + sizes[seat + 1 :])
        counter = (R4Counter if self.plain else CardCounter)(unseen, cap, self.rules)
        if partners is None:
            partners = position.partners(seat)
        if position.lead is None:
            action = self._lead(plays, counts, counter, partners, seat, sizes)
        else:
            action = self._follow(plays, counts, counter, partners, position.last, sizes)
        return action if isinstance(action, Play) else None

    def playout(self, position: Position) -> list[int]:
        """Play ``position`` by :meth:`act` until the emperor's side is out; the places (R6.4),
        the seats still holding cards after them in any order (R10 needs no more)."""
        side = [s for s in (position.emperor, position.guard) if s is not None]
        while not all(s in position.places for s in side):
            position.step(self.act(position))
        return [*position.places, *(s for s in range(SEATS) if s not in position.places)]
