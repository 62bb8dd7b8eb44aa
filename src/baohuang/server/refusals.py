"""Refusals (拒绝): a code (the table protocol's or the HTTP API's) and a message of the
catalog, sent as ``{"code", "key", "params", "message", "zh"}``."""

from __future__ import annotations

from typing import Any

from ..engine.errors import BaohuangError, Param, render


class Refusal(Exception):
    """Refused with ``code``; the message is catalog id ``key`` with ``params`` filled in."""

    def __init__(self, code: str, key: str, /, **params: Param) -> None:
        super().__init__(key)
        self.code, self.key, self.params = code, key, params

    def __str__(self) -> str:
        return render(self.key, self.params, "en")

    def detail(self) -> dict[str, Any]:
        """The code, the message id, its params and its texts: ``message`` English, ``zh``
        Chinese. A nested error among the params is left out of ``params`` (it is worded in
        the texts), so a page that words the message itself falls back on the texts."""
        params = {k: v for k, v in self.params.items() if not isinstance(v, BaohuangError)}
        return {
            "code": self.code,
            "key": self.key,
            "params": params,
            "message": str(self),
            "zh": render(self.key, self.params, "zh"),
        }


class AccountError(Refusal):
    """An HTTP request refused with ``status``: ``AccountError(401, "bad_login",
    "error.account.bad_login")``."""

    def __init__(self, status: int, code: str, key: str, /, **params: Param) -> None:
        super().__init__(code, key, **params)
        self.status = status
