"""HTTP refusals (拒绝): an error with a status, a code and a message in both languages."""

from __future__ import annotations


class AccountError(Exception):
    """Refused with an HTTP status and a message in both languages."""

    def __init__(self, status: int, code: str, message: str, zh: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.zh = status, code, message, zh
