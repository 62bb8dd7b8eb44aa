"""A reinforcement-learning environment for Baohuang: PettingZoo's AEC API (``docs/env.md``).

::

    from baohuang import env as bh
    e = bh.env("classic")            # wrapped, as PettingZoo's classic games; bh.raw_env: bare
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo); the engine itself imports none of them.
The observation and the action table are :mod:`baohuang.features` (shared with the trainer and
the learned bot).
"""

from ..features import (
    HIGH,
    LAYOUT,
    NUM_ACTIONS,
    NUM_ACTIONS_TWOS_WILD,
    SIZE,
    ActionTable,
    Encoder,
    PublicHistory,
    action_table,
    num_actions,
)
from .aec import AGENTS, BaohuangEnv, env, raw_env

__all__ = [
    "AGENTS",
    "HIGH",
    "LAYOUT",
    "NUM_ACTIONS",
    "NUM_ACTIONS_TWOS_WILD",
    "SIZE",
    "ActionTable",
    "BaohuangEnv",
    "Encoder",
    "PublicHistory",
    "action_table",
    "env",
    "num_actions",
    "raw_env",
]
