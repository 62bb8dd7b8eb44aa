"""Reading the other seats' hands from how they played, for the ``search`` bot.

A determinization (:func:`~baohuang.bots.search.sample_hands`) honours the hard facts of the
view: counts, cards played, the called card. How the seats played says more: a seat that led
the nines probably had nothing lower to lead, one that passed on a rebel's small play probably
had nothing small enough to beat it. :class:`PlayRecord` keeps what the bot saw of the play
phase since its last few turns (R14: its own views; every other seat's play is in the round's
trick at its next turn, R6.2, R6.3); :meth:`PlayRecord.weight` replays that stretch on a
sampled deal, the other seats played by the heuristic's policy
(:class:`~baohuang.bots.playout.Policy`), and scores the deal by how many of their actions the
policy reproduces: each action it does not reproduce multiplies the weight by ``miss``.
Against heuristic opponents (and against people who play alike) deals that explain their
actions are the likely ones; ``miss`` above 0 keeps every deal possible, so that a seat that
plays otherwise only weakens the reading.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine.cards import BIG_JOKER, SMALL_JOKER, TWO, parse_cards
from ..engine.plays import Play
from ..engine.views import TrickEntry, View
from .playout import Policy, Position


def play_of(cards: str) -> Play:
    """The play a trick entry's cards make (card notation, space-separated; not ``pass``)."""
    return Play.from_cards(parse_cards(cards))


def add_play(hand: list[int], play: Play) -> None:
    """Give ``play``'s cards back to ``hand`` (rank counts)."""
    if play.count:
        hand[play.rank] += play.count
    hand[TWO] += play.twos
    hand[SMALL_JOKER] += play.small
    hand[BIG_JOKER] += play.big


@dataclass(slots=True)
class Turn:
    """One of the bot's own play-phase turns: the view it acted on, its suspicion then, its
    hand (rank counts) and what it played (``None``: a pass)."""

    view: View
    suspect: list[float]
    hand: list[int]
    play: Play | None = None


@dataclass(slots=True)
class PlayRecord:
    """The bot's last ``turns`` play-phase turns and every action seen since the oldest."""

    turns: int = 2
    #: Kept turns, oldest first, and per kept turn the actions of the others that followed it
    #: up to the next kept turn (or now), as (seat, play or ``None`` for a pass).
    kept: list[Turn] = field(default_factory=list)
    after: list[list[tuple[int, Play | None]]] = field(default_factory=list)
    deal: int = -1
    seq: int = -1

    def see(self, view: View, suspect: Sequence[float], hand: list[int]) -> None:
        """A new turn of the bot's in the play phase: read the others' actions since its last
        turn from ``view``'s trick, and keep this turn."""
        if view.deal != self.deal or view.seq < self.seq:
            self.kept.clear()
            self.after.clear()
        self.deal, self.seq = view.deal, view.seq
        if self.kept:
            last = self.kept[-1]
            self.after[-1] = _since(last.view.trick, view.trick, last.view.seat)
        self.kept.append(Turn(view, list(suspect), list(hand)))
        self.after.append([])
        if len(self.kept) > self.turns:
            del self.kept[0], self.after[0]

    def acted(self, play: Play | None) -> None:
        """What the bot played at the turn it :meth:`see`-ed last."""
        if self.kept:
            self.kept[-1].play = play

    def weight(
        self,
        policy: Policy,
        hands: list[list[int]],
        guard: int | None,
        miss: float,
        position: Callable[[View, list[list[int]], int | None, list[float]], Position],
    ) -> float:
        """How well the deal ``hands`` (rank counts now) with ``guard`` explains the other
        seats' actions since the oldest kept turn: ``miss`` to the power of the actions the
        heuristic's policy would not have taken (passes that ended a round included). The
        record is replayed from the oldest kept turn on ``position(view, hands, guard,
        suspect)``; a replay that cannot follow the record (a seat out of turn) weighs 1."""
        if len(self.kept) < 2:
            return 1.0
        first, me = self.kept[0], self.kept[0].view.seat
        assert me is not None
        then = [list(h) for h in hands]  # the hands at the oldest kept turn
        then[me] = list(first.hand)
        for actions in self.after:
            for seat, play in actions:
                if play is not None:
                    add_play(then[seat], play)
        at = position(first.view, then, guard, first.suspect)
        weight = 1.0
        for turn, actions in zip(self.kept[:-1], self.after, strict=False):
            at.step(turn.play)
            for seat, play in [*actions, (me, None)]:
                while not at.over and at.turn != seat and at.lead is not None:
                    if policy.act(at) is not None:  # a pass seen only as the round's end
                        weight *= miss
                    at.step(None)
                if at.over or at.turn != seat:
                    return 1.0
                if seat == me:  # the bot's next kept turn
                    break
                if policy.act(at) is not play:
                    weight *= miss
                at.step(play)
        return weight


def _since(
    before: tuple[TrickEntry, ...], now: tuple[TrickEntry, ...], me: int | None
) -> list[tuple[int, Play | None]]:
    """The other seats' actions between the turn whose trick was ``before`` (the bot's own
    entry follows it) and the trick ``now``: the rest of the same round, or, when a new round
    began (the old one ended in passes after the bot's play, or with the bot's pass), the new
    round's entries."""
    mine = len(before)
    same = len(now) > mine and now[:mine] == before and now[mine].seat == me
    fresh = now[mine + 1 :] if same else now
    return [(e.seat, None if e.action == "pass" else play_of(e.action)) for e in fresh]
