"""Errors a user can cause: each names what was wrong, in English (``str``) and Chinese.

All are :class:`ValueError` subclasses; the state they were raised from is left unchanged.
"""

from __future__ import annotations


class BaohuangError(ValueError):
    """A user-caused error; ``str(err)`` is English, ``err.text("zh")`` Chinese."""

    def __init__(self, message: str, zh: str | None = None) -> None:
        super().__init__(message)
        self.zh = zh

    def text(self, lang: str = "zh") -> str:
        """The message in ``lang`` (``"zh"`` or ``"en"``)."""
        return self.zh if lang == "zh" and self.zh else str(self)


class NotationError(BaohuangError):
    """A card, hand, play or action string that does not follow the notation (R2)."""


class IllegalActionError(BaohuangError):
    """An action that is not legal now; the game is unchanged."""


class RulesError(BaohuangError):
    """An unknown preset or option, a bad option value, or a contradictory combination."""


class RecordError(BaohuangError):
    """A record that cannot be read or does not replay; names the action index when it can."""

    def __init__(self, message: str, index: int | None = None, zh: str | None = None) -> None:
        if index is not None:
            zh = f"第 {index} 个动作：{zh or message}"
            message = f"action {index}: {message}"
        super().__init__(message, zh)
        self.index = index
