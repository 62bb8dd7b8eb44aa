"""The observation: a float32 vector built from one seat's view and the public history (R14).

:func:`encode` reads a :class:`~baohuang.engine.views.View` (what the seat may know now) and a
:class:`~baohuang.features.history.PublicHistory` (what everyone saw happen) and nothing else, so
hidden cards of other seats cannot reach it. Seats are **relative**: row ``k`` of a per-seat
block is the seat ``k`` places after the observer in play order (0 itself, 1 its 下家, 4 its
上家). Counts are raw (not scaled); :data:`HIGH` bounds each element. :data:`LAYOUT` is the
layout, block by block (``docs/env.md`` lists it).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from operator import sub

import numpy as np
import numpy.typing as npt

from baohuang.engine.actions import Pass
from baohuang.engine.cards import (
    NUM_CARD_IDS,
    NUM_RANKS,
    RANK_SYMBOLS,
    Card,
    deck,
)
from baohuang.engine.plays import Play
from baohuang.engine.rules import Rules
from baohuang.engine.state import SEATS
from baohuang.engine.views import View

from .history import DECLINES, FACTS, PublicHistory, parts_of

Vector = npt.NDArray[np.float32]

#: Every pack holds at most this many cards (216 in four decks): bounds hand sizes.
MAX_CARDS = 216
#: Most copies of one rank (four decks × four suits), and of one card id.
MAX_RANK = 16
MAX_COPIES = 4
PHASES = ("tribute", "candidate", "call", "poll", "play", "over")
POLLS = ("solo", "grab", "show", "rebel", "kick")
ROLES = ("emperor", "guard", "rebel")
SOLOS = ("open", "dark")
#: Per-seat columns of the ``seats`` block.
SEAT_COLUMNS = ("cards", "place", "turn", "emperor", "guard", "tribute_due", "lead", "passed")
#: The rules block: options that change play, then the selection family (R7).
RULE_FLAGS = ("roast", "twos_wild", "qq_jokers", "hold_sixes", "hold_threes", "tribute")
SELECTIONS = ("called", "fixed", "kk_classic")


@dataclass(frozen=True, slots=True)
class Block:
    """One named part of the observation: ``rows`` × ``cols`` elements at ``offset``."""

    name: str
    rows: int
    cols: int
    high: float
    doc: str
    offset: int = 0

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def stop(self) -> int:
        return self.offset + self.size


def _layout(*blocks: Block) -> dict[str, Block]:
    out: dict[str, Block] = {}
    offset = 0
    for b in blocks:
        out[b.name] = Block(b.name, b.rows, b.cols, b.high, b.doc, offset)
        offset += b.size
    return out


_R = f"per rank {' '.join(RANK_SYMBOLS)}"
#: The observation, block by block, in order (``docs/env.md``).
LAYOUT = _layout(
    Block("hand_cards", 1, NUM_CARD_IDS, MAX_COPIES, "own cards per card id (R2 ids)"),
    Block("hand_ranks", 1, NUM_RANKS, MAX_RANK, f"own cards {_R}"),
    Block("played", 1, NUM_RANKS, MAX_RANK, f"cards played so far {_R} (记牌器)"),
    Block("unseen", 1, NUM_RANKS, MAX_RANK, f"cards neither own nor played {_R}"),
    Block("lead", 1, NUM_RANKS, MAX_RANK, f"the play to beat {_R} (filler 2s under 2)"),
    Block("pile", 1, NUM_RANKS, MAX_RANK, f"the emperor pile handed along {_R} (R8.5)"),
    Block("called", 1, NUM_CARD_IDS, 1, "one-hot: the called card (R8.7, R11.3)"),
    Block(
        "history",
        SEATS,
        NUM_RANKS + len(FACTS),
        MAX_CARDS,
        f"per seat: cards played {_R}; piles handed on (decline, 转让); 造反; 踢",
    ),
    Block("seats", SEATS, len(SEAT_COLUMNS), MAX_CARDS, "per seat: " + ", ".join(SEAT_COLUMNS)),
    Block("role", 1, len(ROLES), 1, "one-hot: own role as known (" + ", ".join(ROLES) + ")"),
    Block("solo", 1, len(SOLOS), 1, "the emperor plays alone: 明独 open, 暗独 dark (if known)"),
    Block("flags", 1, 4, 1, "明保 declared, guard revealed, 造反 succeeded, 踢 declared"),
    Block("phase", 1, len(PHASES), 1, "one-hot: " + ", ".join(PHASES)),
    Block("poll", 1, len(POLLS), 1, "one-hot: the poll asked (" + ", ".join(POLLS) + ")"),
    Block("has_lead", 1, 1, 1, "1 when following a play, 0 when leading"),
    Block("match", 1, 2, 1_000_000, "game index in the match, games in the match"),
    Block("rules", 1, len(RULE_FLAGS) + len(SELECTIONS), 1, "options, then selection one-hot"),
)
#: The observation's length.
SIZE = sum(b.size for b in LAYOUT.values())


def _high() -> Vector:
    high = np.zeros(SIZE, np.float32)
    for b in LAYOUT.values():
        high[b.offset : b.stop] = b.high
    seats = LAYOUT["seats"]
    rows = high[seats.offset : seats.stop].reshape(SEATS, -1)
    rows[:, 1:] = 1  # but for the card count, the place and tribute: flags
    rows[:, SEAT_COLUMNS.index("place")] = SEATS
    rows[:, SEAT_COLUMNS.index("tribute_due")] = MAX_RANK
    history = LAYOUT["history"]
    rows = high[history.offset : history.stop].reshape(SEATS, -1)
    rows[:, :NUM_RANKS] = MAX_RANK
    rows[:, NUM_RANKS:] = 1
    rows[:, DECLINES] = 2 * SEATS  # R8.6, R9.3, R11.2: two laps at most
    return high


#: The upper bound of each element (all lower bounds are 0).
HIGH = _high()

_PHASE = {p: i for i, p in enumerate(PHASES)}
_POLL = {p: i for i, p in enumerate(POLLS)}
_ROLE = {r: i for i, r in enumerate(ROLES)}
_SOLO = {s: i for i, s in enumerate(SOLOS)}
#: ROTATION[seat][k]: the seat k places after ``seat`` in play order.
ROTATION = [[(seat + k) % SEATS for k in range(SEATS)] for seat in range(SEATS)]
#: RELATIVE[seat][s]: the row of absolute seat ``s`` in ``seat``'s observation.
RELATIVE = [[(s - seat) % SEATS for s in range(SEATS)] for seat in range(SEATS)]
_HAND = NUM_CARD_IDS + NUM_RANKS
_NCOL = len(SEAT_COLUMNS)
#: _ROW_AT[seat][s]: where absolute seat ``s``'s row of the seats block starts in the tail.
_ROW_AT = [tuple(row * _NCOL for row in rows) for rows in RELATIVE]
#: The tail is the seats block and the small blocks after it, up to the rules block.
_TAIL = LAYOUT["seats"].offset
_ROLE_AT = LAYOUT["role"].offset - _TAIL
_SOLO_AT = LAYOUT["solo"].offset - _TAIL
_FLAGS = LAYOUT["flags"].offset - _TAIL
_PHASE_AT = LAYOUT["phase"].offset - _TAIL
_POLL_AT = LAYOUT["poll"].offset - _TAIL
_HAS_LEAD = LAYOUT["has_lead"].offset - _TAIL
_MATCH = LAYOUT["match"].offset - _TAIL
_TAIL_SIZE = LAYOUT["rules"].offset - _TAIL
_F32 = [struct.Struct(f"{n}f") for n in range(SIZE + 1)]


def _pack(values: list[float]) -> bytes:
    """``values`` as float32 bytes (one struct call: cheaper than numpy's per-call cost)."""
    return _F32[len(values)].pack(*values)


_ZERO_RANKS = _pack([0.0] * NUM_RANKS)
#: The packers of the blocks made at every observation, bound once.
_pack_ranks = _F32[NUM_RANKS].pack
_pack_tail = _F32[_TAIL_SIZE].pack


class Encoder:
    """Builds observations for one rule set (see the module docstring).

    The vector is assembled from float32 byte blocks: numpy's per-call cost would dominate
    dozens of small writes. A seat's hand block is kept while its hand is unchanged, the
    played block while 记牌器 is, a lead's and a called card's block for good, and the history
    packs its rows once per change. The engine keeps a view's hand and 记牌器 objects until
    they change, so identity tells them unchanged.
    """

    __slots__ = ("_called", "_hands", "_leads", "_pack", "_played", "_rules", "games")

    def __init__(self, rules: Rules, games: int = 1) -> None:
        self.games = games
        pack = deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes)
        #: Cards per rank in the whole pack (the emperor card set aside included, R8.1).
        self._pack = [0.0] * NUM_RANKS
        for card in pack:
            self._pack[card.rank] += 1
        flags = [float(getattr(rules, name)) for name in RULE_FLAGS]
        self._rules = _pack(flags + [float(rules.selection == s) for s in SELECTIONS])
        #: Per seat: the last hand seen, its hand_cards + hand_ranks block, the pack less it.
        self._hands: list[tuple[tuple[Card, ...] | None, bytes, list[float]]] = [
            (None, b"", []) for _ in range(SEATS)
        ]
        #: The last 记牌器 seen, its played block, its cards per rank.
        self._played: tuple[tuple[int, ...] | None, bytes, list[float]] = (None, b"", [])
        self._leads: dict[Play, bytes] = {}
        self._called: dict[Card | None, bytes] = {}

    def encode(self, view: View, history: PublicHistory, game: int = 0) -> Vector:
        """The observation of ``view``'s seat (a new array); ``game``: its index in the match."""
        me = view.seat
        assert me is not None, "observations are for seats, not spectators"
        last, hand, left = self._hands[me]
        if view.hand is not last:
            hand, left = self._hand(me, view.hand or ())
        seen, played, ranks = self._played
        if view.played != seen:
            played, ranks = self._count_played(view.played)
        lead = view.lead
        parts = [
            hand,
            played,
            _pack_ranks(*map(sub, left, ranks)),  # unseen
            _ZERO_RANKS if lead is None else self._leads.get(lead.play) or self._lead(lead.play),
            self._pile(view.pile) if view.pile else _ZERO_RANKS,
            self._called.get(view.called) or self._call(view.called),
            history.packed_rows(me),
            _pack_tail(*self._tail(view, me, game)),
            self._rules,
        ]
        return np.frombuffer(bytearray().join(parts), np.float32)

    def _hand(self, seat: int, hand: tuple[Card, ...]) -> tuple[bytes, list[float]]:
        """The hand_cards + hand_ranks block, and the pack's ranks less the hand's."""
        encoded = [0.0] * _HAND
        if hand:
            run, n = hand[0], 0
            for card in hand:  # copies of a card come together (high first): count runs
                if card is run:
                    n += 1
                else:
                    encoded[run.id] += n
                    encoded[NUM_CARD_IDS + run.rank] += n
                    run, n = card, 1
            encoded[run.id] += n
            encoded[NUM_CARD_IDS + run.rank] += n
        left = list(map(sub, self._pack, encoded[NUM_CARD_IDS:]))
        block = _pack(encoded)
        self._hands[seat] = (hand, block, left)
        return block, left

    def _count_played(self, played: tuple[int, ...]) -> tuple[bytes, list[float]]:
        """The played block of 记牌器 ``played`` (per rank index), and its cards per rank."""
        ranks = [float(n) for n in played]
        block = _pack(ranks)
        self._played = (played, block, ranks)
        return block, ranks

    def _lead(self, play: Play) -> bytes:
        """The lead block of ``play`` (filler 2s under 2), kept for good."""
        encoded = [0.0] * NUM_RANKS
        for rank, n in parts_of(play):
            encoded[rank] = n
        block = self._leads[play] = _pack(encoded)
        return block

    @staticmethod
    def _pile(pile: tuple[Card, ...]) -> bytes:
        ranks = [0.0] * NUM_RANKS
        for card in pile:
            ranks[card.rank] += 1
        return _pack(ranks)

    def _call(self, card: Card | None) -> bytes:
        called = [0.0] * NUM_CARD_IDS
        if card is not None:
            called[card.id] = 1.0
        block = self._called[card] = _pack(called)
        return block

    def _tail(self, view: View, me: int, game: int) -> list[float]:
        """The seats block (one row per seat, relative to ``me``) and the blocks after it."""
        out = [0.0] * _TAIL_SIZE
        counts = view.counts
        out[0 : SEATS * _NCOL : _NCOL] = counts[me:] + counts[:me]  # in relative order
        row_at = _ROW_AT[me]
        if view.places:
            for place, s in enumerate(view.places, 1):
                out[row_at[s] + 1] = place
        if view.turn is not None:
            out[row_at[view.turn] + 2] = 1.0
        if view.emperor is not None:
            out[row_at[view.emperor] + 3] = 1.0
        if view.guard is not None:
            out[row_at[view.guard] + 4] = 1.0
        for s in view.tribute_due:
            out[row_at[s] + 5] += 1
        lead = view.lead
        if lead is not None:
            out[row_at[lead.seat] + 6] = 1.0
            for entry in reversed(view.trick):  # R6.2: passes since the play to beat
                if type(entry.action) is not Pass:
                    break
                out[row_at[entry.seat] + 7] = 1.0
        if view.role is not None:
            out[_ROLE_AT + _ROLE[view.role]] = 1.0
        if view.solo is not None:
            out[_SOLO_AT + _SOLO[view.solo]] = 1.0
        out[_FLAGS : _FLAGS + 4] = view.open_guard, view.guard_revealed, view.rebellion, view.kicked
        out[_PHASE_AT + _PHASE[view.phase]] = 1.0
        if view.poll is not None:
            out[_POLL_AT + _POLL[view.poll]] = 1.0
        out[_HAS_LEAD] = lead is not None
        out[_MATCH] = game
        out[_MATCH + 1] = self.games
        return out
