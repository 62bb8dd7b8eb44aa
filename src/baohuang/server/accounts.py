"""Accounts (账号): guests with a nickname, registered users with an argon2 password hash,
cookie sessions, and a login rate limit.

Passwords are never stored or logged in clear; a session cookie holds a random token whose
sha256 is what the database keeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .names import name_key
from .ratelimits import (
    GUESTS,
    HASHES_AT_ONCE,
    HASHES_WAITING,
    LOGIN_FAILURES,
    NAME_FAILURES,
    REGISTRATIONS,
    SPRAY_FAILURES,
    Limits,
)
from .refusals import AccountError
from .store import LoginRow, Store, UserRow
from .tokens import hash_token

COOKIE = "bh_session"
#: A session lasts 30 days.
SESSION_SECONDS = 30 * 24 * 3600
_hasher = PasswordHasher()


@functools.cache
def _decoy() -> str:
    """A hash to check unknown names against, so they take as long as known ones."""
    return _hasher.hash(secrets.token_urlsafe(16))


def clean_name(name: str) -> str:
    """A nickname: 1–20 printable characters, spaces trimmed, compatibility forms folded
    (ｚｈａｎｇ is zhang), so that no name can pass for another."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(name) <= 20 or any(unicodedata.category(c)[0] == "C" for c in name):
        raise AccountError(422, "bad_name", "error.account.name")
    return name


def check_password(password: str) -> None:
    if not 8 <= len(password) <= 200:
        raise AccountError(422, "bad_password", "error.account.password")


class Accounts:
    """Users and sessions in the :class:`Store`, within the server's :class:`Limits`."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self._hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        self._waiting = 0

    async def guest(self, name: str, address: str) -> tuple[UserRow, str]:
        self.limits.check(GUESTS, "error.rate.guests", "guest", address)
        name = clean_name(name)
        if await self._registered(name) is not None:  # a guest cannot pass for a member
            raise AccountError(409, "name_taken", "error.account.registered", name=name)
        user = UserRow(name=name, name_key=name_key(name), password_hash=None, created=time.time())
        return user, await self._open(user)

    async def register(self, name: str, password: str, address: str) -> tuple[UserRow, str]:
        name = clean_name(name)
        check_password(password)
        self.limits.check(REGISTRATIONS, "error.rate.registrations", "register", address)
        taken = AccountError(409, "name_taken", "error.account.name_taken", name=name)
        if await self._registered(name) is not None:
            raise taken
        async with self._turn():
            digest = await asyncio.to_thread(_hasher.hash, password)
        user = UserRow(
            name=name, name_key=name_key(name), password_hash=digest, created=time.time()
        )
        try:
            return user, await self._open(user)
        except IntegrityError:  # registered at the same moment by someone else
            raise taken from None

    async def login(self, name: str, password: str, address: str) -> tuple[UserRow, str]:
        """The same answer, after the same work, for an unknown name and a wrong password;
        failures are limited per address and name, per address (spraying) and per name, each
        attempt holding its place under every limit before its hash (a burst cannot pass
        them all at once)."""
        key = name_key(name)
        limits = [
            (LOGIN_FAILURES, (address, key)),
            (SPRAY_FAILURES, (address,)),
            (NAME_FAILURES, ("name", key)),
        ]
        held: list[tuple[RateLimitItem, tuple[str, ...]]] = []
        failed = True
        try:
            for item, keys in limits:
                if not self.limits.reserve(item, *keys):
                    failed = False  # refused before any work: nothing to count
                    raise AccountError(429, "rate_limited", "error.account.login_limit")
                held.append((item, keys))
            user = await self._registered(name)
            known = user is not None and user.password_hash is not None
            digest = user.password_hash if user is not None and user.password_hash else _decoy()
            ok = await self._verify(digest, password)
            if user is None or not (ok and known):
                raise AccountError(401, "bad_login", "error.account.bad_login")
            failed = False
        finally:
            for item, keys in held:
                self.limits.release(item, *keys, count=failed)
        return user, await self._open(user, existing=True)

    async def _verify(self, digest: str, password: str) -> bool:
        """Whether ``password`` matches ``digest``, in turn with the other hashes (each takes
        64 MiB); refused when too many wait already."""
        async with self._turn():
            try:
                return await asyncio.to_thread(_hasher.verify, digest, password)
            except (VerificationError, InvalidHashError):
                return False

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """A turn to hash: ``HASHES_AT_ONCE`` at once, at most ``HASHES_WAITING`` waiting
        (a 503 past that, before any work)."""
        if self._waiting >= HASHES_WAITING:
            raise AccountError(503, "busy", "error.account.busy")
        self._waiting += 1
        try:
            await self._hashing.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._hashing.release()

    async def user_for(self, token: str | None) -> UserRow | None:
        """The user of a session cookie, if it is a live session."""
        if not token:
            return None
        async with self.store.sessions() as session:
            row = await session.get(LoginRow, hash_token(token))
            if row is None or time.time() - row.created > SESSION_SECONDS:
                return None
            return await session.get(UserRow, row.user_id)

    async def logout(self, token: str | None) -> None:
        if not token:
            return

        def work(session: Session) -> None:
            row = session.get(LoginRow, hash_token(token))
            if row is not None:
                session.delete(row)

        await self.store.write(work)

    async def _registered(self, name: str) -> UserRow | None:
        """The member whose name is the same as ``name`` (:func:`name_key`), if any."""
        async with self.store.sessions() as session:
            found = await session.scalars(
                select(UserRow).where(
                    UserRow.name_key == name_key(name), UserRow.password_hash.is_not(None)
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
            login = LoginRow(token_hash=hash_token(token), user_id=user.id, created=time.time())
            session.add(login)

        await self.store.write(work)
        return token
