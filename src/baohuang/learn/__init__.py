"""Learning to play (PyTorch, the ``learn`` extra): deep Monte-Carlo self-play training of the
Q-network the learned bot plays with (:mod:`.dmc`, ``baohuang train``)."""

from .dmc import Config, Trainer

__all__ = ["Config", "Trainer"]
