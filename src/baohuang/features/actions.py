"""The action space: one fixed id per engine action of every phase (see ``docs/env.md``).

Ids are stable across presets and options. The table, in id order:

======================  =====  ==========================================================
block                   size   actions
======================  =====  ==========================================================
``pass``                1      pass (R6.2), 暗保 / 不造反 / 不踢 / 不抢 in polls (R9.4–R11.4)
``accept`` ``decline``  2      take or refuse the emperor card (R8.5, R9.3, R11.2)
declarations            5      ``transfer`` ``show`` ``rebel`` ``kick`` ``grab`` (R9.3–R11.4)
``solo``                1      明独 / 独保 / 明独保 without showing cards (R9.2, R9.3, R11.3)
``solo <card>``         48     明独 by showing four copies of a callable card (R8.7)
``call <card>``         48     call a callable card's triple (R8.4, R8.7, R11.3)
``tribute <card>``      56     pay this card (R12; card ids 0–55, marked jokers included)
joker plays             24     ``R`` ``B`` ``RB`` … ``RRRRBBBB``: 1–4 B and/or 1–4 R (R3)
rank plays              5200   1–16 cards of one rank ``3``…``2`` with 0–4 B and 0–4 R (R3)
filled plays            76800  only with ``twos_wild``: 1–16 cards of ``3``…``A``, 1–16
                               filler 2s, 0–4 B, 0–4 R (R5.2)
======================  =====  ==========================================================

So :data:`NUM_ACTIONS` is 5,385, and 82,185 under ``twos_wild`` (:func:`num_actions`). Plays are
rank plays (:class:`~baohuang.engine.plays.Play`): the engine picks the cards by its documented
rule, which never reveals the guard by accident (R8.8, R9.4). ``escape`` (R10.4) is no action
here: it leaves the game rather than playing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from baohuang.engine.actions import (
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
    Tribute,
)
from baohuang.engine.cards import (
    BIG_JOKER,
    CARDS,
    NUM_CARD_IDS,
    NUM_RANKS,
    NUM_SUITED_RANKS,
    SMALL_JOKER,
    TWO,
)
from baohuang.engine.plays import MAX_JOKERS, MAX_RANK_COUNT, Play

#: R8.4: the cards whose triple may be called (and whose four copies make a 明独): suited, not 2.
CALLABLE = tuple(CARDS[: TWO * 4])
_JOKER_SPLITS = tuple(
    (small, big) for small in range(MAX_JOKERS + 1) for big in range(MAX_JOKERS + 1)
)
_COUNTS = range(1, MAX_RANK_COUNT + 1)


def _role_actions() -> list[Action]:
    """Passes, answers, declarations, solos, calls and tribute cards, in id order."""
    actions: list[Action] = [PASS, ACCEPT, DECLINE, TRANSFER, SHOW, REBEL, KICK, GRAB, SOLO]
    actions += [OpenSolo(card) for card in CALLABLE]
    actions += [Call(card) for card in CALLABLE]
    actions += [Tribute(card) for card in CARDS]
    return actions


def _plain_plays() -> list[Action]:
    """Every play without filler 2s (R3): the pure-joker plays, then by rank and count."""
    plays: list[Action] = [Play.of(-1, 0, s, b) for s, b in _JOKER_SPLITS if s + b]
    plays += [
        Play.of(rank, count, s, b)
        for rank in range(NUM_SUITED_RANKS)
        for count in _COUNTS
        for s, b in _JOKER_SPLITS
    ]
    return plays


def _filled_plays() -> list[Action]:
    """Every play with filler 2s (R5.2 ``twos_wild``), by rank, natural count, 2s."""
    return [
        Play.of(rank, count, s, b, twos)
        for rank in range(TWO)
        for count in _COUNTS
        for twos in _COUNTS
        for s, b in _JOKER_SPLITS
    ]


#: The first play id (the pure-joker plays, then the rank plays).
FIRST_PLAY = len(_role_actions())
#: Actions without ``twos_wild`` (every preset but ``qq``), and with it.
NUM_ACTIONS = FIRST_PLAY + 24 + NUM_SUITED_RANKS * MAX_RANK_COUNT * len(_JOKER_SPLITS)
NUM_ACTIONS_TWOS_WILD = NUM_ACTIONS + TWO * MAX_RANK_COUNT**2 * len(_JOKER_SPLITS)


@dataclass(frozen=True, slots=True)
class ActionTable:
    """Ids to engine actions and back; an action's key is its notation (``str(action)``),
    which is also how a view's JSON (:data:`~baohuang.engine.views.ViewData`) and
    :meth:`Game.legal_texts <baohuang.engine.game.Game.legal_texts>` list the legal actions."""

    actions: Sequence[Action]
    ids: Mapping[str, int]

    def __len__(self) -> int:
        return len(self.actions)

    def action(self, action_id: int) -> Action:
        """The engine action of ``action_id``."""
        return self.actions[action_id]

    def id_of(self, action: Action | str) -> int:
        """The id of an engine action, or of its notation; ``KeyError`` for none."""
        return self.ids[action if isinstance(action, str) else str(action)]

    def ids_of(self, legal: Iterable[str]) -> list[int]:
        """The ids of the actions in ``legal`` (in notation), in order."""
        ids = self.ids
        return [ids[key] for key in legal]

    def mask(self, legal: Iterable[str]) -> npt.NDArray[np.int8]:
        """1 at the id of each action in ``legal`` (in notation), else 0."""
        mask = bytearray(len(self.actions))
        for action_id in self.ids_of(legal):
            mask[action_id] = 1
        return np.frombuffer(mask, np.int8)


@cache
def action_table(twos_wild: bool = False) -> ActionTable:
    """The table for rules with or without ``twos_wild`` (built once each)."""
    actions = _role_actions() + _plain_plays() + (_filled_plays() if twos_wild else [])
    ids = {str(action): i for i, action in enumerate(actions)}
    assert len(ids) == len(actions) == num_actions(twos_wild), "action keys must be unique"
    return ActionTable(tuple(actions), ids)


def num_actions(twos_wild: bool = False) -> int:
    """The size of the action space: :data:`NUM_ACTIONS`, or :data:`NUM_ACTIONS_TWOS_WILD`."""
    return NUM_ACTIONS_TWOS_WILD if twos_wild else NUM_ACTIONS


#: The kinds of action, in order: the kind one-hot of :func:`action_features`.
KINDS = (
    "pass",
    "accept",
    "decline",
    "transfer",
    "show",
    "rebel",
    "kick",
    "grab",
    "solo",
    "solo_card",
    "call",
    "tribute",
    "play",
)
_BARE = dict(
    zip((PASS, ACCEPT, DECLINE, TRANSFER, SHOW, REBEL, KICK, GRAB, SOLO), KINDS[:9], strict=True)
)
#: An action's features: its cards per rank (scaled by 16, filler 2s under ``2``, jokers
#: under ``B`` ``R``), its size (scaled by 16), its kind one-hot, the card it names one-hot.
ACTION_FEATURES = NUM_RANKS + 1 + len(KINDS) + NUM_CARD_IDS
_KIND_AT = NUM_RANKS + 1
_CARD_AT = _KIND_AT + len(KINDS)


@cache
def action_features(twos_wild: bool = False) -> npt.NDArray[np.float32]:
    """One row of :data:`ACTION_FEATURES` per id of :func:`action_table` (built once each),
    read-only: the candidate actions a learned Q-function scores."""
    table = action_table(twos_wild)
    out = np.zeros((len(table), ACTION_FEATURES), np.float32)
    for i, action in enumerate(table.actions):
        row = out[i]
        if isinstance(action, Play):
            parts = ((action.rank, action.count), (TWO, action.twos))
            for rank, n in (*parts, (SMALL_JOKER, action.small), (BIG_JOKER, action.big)):
                if n and rank >= 0:
                    row[rank] += n / MAX_RANK_COUNT
            row[NUM_RANKS] = action.size / MAX_RANK_COUNT
            kind = "play"
        elif isinstance(action, Call | Tribute):
            row[_CARD_AT + action.card.id] = 1.0
            kind = "call" if isinstance(action, Call) else "tribute"
        elif isinstance(action, OpenSolo) and action.card is not None:
            row[_CARD_AT + action.card.id] = 1.0
            kind = "solo_card"
        else:
            kind = _BARE[action]
        row[_KIND_AT + KINDS.index(kind)] = 1.0
    out.setflags(write=False)
    return out
