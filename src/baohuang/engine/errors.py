"""Errors a user can cause: each carries a message id (``code``, ``error.…``) and its
``params``, worded by the one catalog (:mod:`baohuang.text`): English ``str(err)``, Chinese
``err.text("zh")``.

All are :class:`ValueError` subclasses; the state they were raised from is left unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from ..text.catalog import t

#: A message parameter: shown as it is, or (another error, the cause) worded in the same
#: language as the message around it.
Param: TypeAlias = "str | int | float | BaohuangError"


def render(code: str, params: Mapping[str, Param], lang: str = "zh") -> str:
    """Message ``code`` in ``lang`` with ``params`` filled in, nested errors worded in ``lang``."""
    filled = {k: v.text(lang) if isinstance(v, BaohuangError) else v for k, v in params.items()}
    return t(code, lang, **filled)


class BaohuangError(ValueError):
    """A user-caused error: ``BaohuangError("error.game.over")``, ``…("error.game.no_seat",
    seat=7)``; ``str(err)`` is English, ``err.text("zh")`` Chinese."""

    def __init__(self, code: str, /, **params: Param) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str = "zh") -> str:
        """The message in ``lang`` (``"zh"`` or ``"en"``)."""
        return render(self.code, self.params, lang)


class NotationError(BaohuangError):
    """A card, hand, play or action string that does not follow the notation (R2)."""


class IllegalActionError(BaohuangError):
    """An action that is not legal now; the game is unchanged."""


class RulesError(BaohuangError):
    """An unknown preset or option, a bad option value, or a contradictory combination."""


class RecordError(BaohuangError):
    """A record that cannot be read or does not replay; names the action index when it can."""

    def __init__(self, code: str, /, index: int | None = None, **params: Param) -> None:
        super().__init__(code, **params)
        self.index = index

    def text(self, lang: str = "zh") -> str:
        said = super().text(lang)
        if self.index is None:
            return said
        return t("error.record.at", lang, index=self.index, reason=said)
