"""Accounts (账号): guests with a nickname, registered users with an argon2 password hash,
cookie sessions, and a login rate limit.

Passwords are never stored or logged in clear; a session cookie holds a random token whose
sha256 is what the database keeps.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import unicodedata
from collections import defaultdict, deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .store import SessionRow, Store, UserRow

COOKIE = "bh_session"
#: A session lasts 30 days.
SESSION_SECONDS = 30 * 24 * 3600
#: Failed logins allowed per (address, name) in a window before 429.
LOGIN_FAILURES = 5
LOGIN_WINDOW = 60.0
_hasher = PasswordHasher()


class AccountError(Exception):
    """Refused with an HTTP status and a message in both languages."""

    def __init__(self, status: int, code: str, message: str, zh: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.zh = status, code, message, zh


def clean_name(name: str) -> str:
    """A nickname: 1–20 printable characters, spaces trimmed."""
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= 20 or any(unicodedata.category(c)[0] == "C" for c in name):
        raise AccountError(
            422, "bad_name", "a name has 1 to 20 printable characters", "名字要 1 到 20 个可见字符"
        )
    return name


def check_password(password: str) -> None:
    if not 8 <= len(password) <= 200:
        raise AccountError(
            422, "bad_password", "a password has 8 to 200 characters", "密码要 8 到 200 个字符"
        )


class RateLimit:
    """At most ``LOGIN_FAILURES`` failures per key in ``LOGIN_WINDOW`` seconds."""

    def __init__(self) -> None:
        self.failures: defaultdict[str, deque[float]] = defaultdict(deque)

    def check(self, key: str) -> None:
        window = self.failures[key]
        now = time.monotonic()
        while window and now - window[0] > LOGIN_WINDOW:
            window.popleft()
        if len(window) >= LOGIN_FAILURES:
            wait = int(LOGIN_WINDOW - (now - window[0])) + 1
            raise AccountError(
                429,
                "rate_limited",
                f"too many failed logins: try again in {wait} s",
                f"登录失败次数太多：请 {wait} 秒后再试",
            )

    def fail(self, key: str) -> None:
        self.failures[key].append(time.monotonic())


class Accounts:
    """Users and sessions in the :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.limit = RateLimit()

    async def guest(self, name: str) -> tuple[UserRow, str]:
        user = UserRow(name=clean_name(name), password_hash=None, created=time.time())
        return user, await self._open(user)

    async def register(self, name: str, password: str) -> tuple[UserRow, str]:
        name = clean_name(name)
        check_password(password)
        digest = await asyncio.to_thread(_hasher.hash, password)
        if await self._registered(name) is not None:
            raise AccountError(409, "name_taken", f"{name!r} is taken", f"{name} 已被注册")
        user = UserRow(name=name, password_hash=digest, created=time.time())
        return user, await self._open(user)

    async def login(self, name: str, password: str, address: str) -> tuple[UserRow, str]:
        key = f"{address}|{name.strip().casefold()}"
        self.limit.check(key)
        user = await self._registered(name.strip())
        ok = False
        if user is not None and user.password_hash:
            try:
                ok = await asyncio.to_thread(_hasher.verify, user.password_hash, password)
            except (VerificationError, InvalidHashError):
                ok = False
        if user is None or not ok:
            self.limit.fail(key)
            raise AccountError(401, "bad_login", "wrong name or password", "用户名或密码不对")
        return user, await self._open(user, existing=True)

    async def user_for(self, token: str | None) -> UserRow | None:
        """The user of a session cookie, if it is a live session."""
        if not token:
            return None
        async with self.store.sessions() as session:
            row = await session.get(SessionRow, _digest(token))
            if row is None or time.time() - row.created > SESSION_SECONDS:
                return None
            return await session.get(UserRow, row.user_id)

    async def logout(self, token: str | None) -> None:
        if not token:
            return

        def work(session: Session) -> None:
            row = session.get(SessionRow, _digest(token))
            if row is not None:
                session.delete(row)

        await self.store.write(work)

    async def _registered(self, name: str) -> UserRow | None:
        async with self.store.sessions() as session:
            found = await session.scalars(
                select(UserRow).where(
                    func.lower(UserRow.name) == name.lower(), UserRow.password_hash.is_not(None)
                )
            )
            return found.first()

    async def _open(self, user: UserRow, existing: bool = False) -> str:
        """Store the user (unless ``existing``) and a new session; the cookie's token."""
        token = secrets.token_urlsafe(32)

        def work(session: Session) -> None:
            if not existing:
                session.add(user)
                session.flush()
            session.add(SessionRow(token_hash=_digest(token), user_id=user.id, created=time.time()))

        await self.store.write(work)
        return token


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
