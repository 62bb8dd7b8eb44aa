"""Numbers for learning (numpy): a seat's observation built from its view and the public history
(R14), and the fixed action table with every action of every phase. Shared by the
reinforcement-learning environment (:mod:`baohuang.env`), the trainer (:mod:`baohuang.learn`)
and the learned bot (:mod:`baohuang.bots.learned`); ``docs/env.md`` documents both layouts.
Needs numpy (the ``rl`` extra); the engine itself never imports it."""

from .actions import NUM_ACTIONS, NUM_ACTIONS_TWOS_WILD, ActionTable, action_table, num_actions
from .history import PublicHistory
from .observation import HIGH, LAYOUT, SIZE, Encoder

__all__ = [
    "HIGH",
    "LAYOUT",
    "NUM_ACTIONS",
    "NUM_ACTIONS_TWOS_WILD",
    "SIZE",
    "ActionTable",
    "Encoder",
    "PublicHistory",
    "action_table",
    "num_actions",
]
