"""The ``baohuang`` command line: play, simulate, arena, rules, replay, and the server's
commands (loaded only when one of them runs)."""

from .main import app

__all__ = ["app"]
