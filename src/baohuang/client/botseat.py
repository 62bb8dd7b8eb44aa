"""A seat played by a bot over the protocol (机器人座位): the load tool's seats and
``baohuang bot``, a bot that joins a table on a running server.

A bot takes a view and its legal actions and chooses one (:mod:`baohuang.bots`); a view
arrives as JSON, and :func:`choose` is the one place where a received view reaches a bot.

A seat whose connection is lost during a match (the server closed it, or its node died) comes
back on the next of its servers (:attr:`~.connection.TableClient.urls`, round-robin), with
``hello`` {token, since: the last event seen}, and follows the match on from there; it keeps
trying for :data:`RECONNECT_FOR` s. A command lost with the connection (sent, never answered,
and nothing in the replay shows it applied) is sent again with the same id once the replay is
in: the server answers a repeated id once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..bots.base import Bot, make_bot
from ..engine.actions import parse_action
from ..engine.rules import Rules
from ..engine.views import View
from .connection import IDLE_TIMEOUT, Listener, TableClient
from .errors import ClientError, ConnectionLost
from .http import guest, presets, server_client

#: Seconds a seat keeps trying to come back after losing its connection, and between two
#: tries (the first try, on the next server, is at once).
RECONNECT_FOR = 60.0
RECONNECT_EVERY = 1.0
#: What a lost connection raises while a seat follows its match (but a TimeoutError: a
#: silence).
LOST = (ConnectionClosed, OSError)
#: What a failed try to come back raises.
NOT_BACK = (OSError, InvalidHandshake, TimeoutError, ConnectionClosed)


def choose(bot: Bot, view: dict[str, Any]) -> str:
    """The action ``bot`` takes on ``view``, a seat's view as received (its ``legal`` actions
    in the engine's notation), in the engine's notation."""
    legal = [parse_action(text) for text in view["legal"]]
    return str(bot.choose(View.from_json(view), legal))


class BotSeat(TableClient):
    """A seat whose every move a bot makes: :meth:`join` (``hello``, ``sit``), :meth:`play`
    (``ready``, then act on each view that asks this seat to, until ``match_over``, coming back
    after each lost connection: see the module docstring).

    An ``error`` while joining raises :class:`ClientError` (the seat cannot be had); later it
    changes nothing here (a stale command is followed by a snapshot, acted on in turn).
    :meth:`seen` (each event), :meth:`lost` (a connection lost) and :meth:`reconnected` (back)
    are hooks.
    """

    def __init__(
        self,
        server: str,
        table_id: str,
        cookie: str,
        bot: str,
        seed: str,
        timeout: float | None = IDLE_TIMEOUT,
        think: float = 0.0,
        listen: Listener | None = None,
        servers: Sequence[str] = (),
        reconnect_for: float | None = None,
    ) -> None:
        super().__init__(server, table_id, cookie, timeout, listen, servers)
        self.bot_name = bot
        #: The bot's seed is this, a slash and the seat.
        self.seed = seed
        #: Seconds the seat waits before acting, as a person would (0: as fast as it can).
        self.think = think
        self.bot: Bot | None = None
        #: Set once joined: from then on an ``error`` is not raised.
        self.playing = False
        #: Seconds to keep trying to come back after a lost connection (0: do not).
        self.reconnect_for = RECONNECT_FOR if reconnect_for is None else reconnect_for
        self.reconnect_every = RECONNECT_EVERY
        #: New connections opened after a lost one.
        self.reconnects = 0
        #: The latest command sent while playing and not known to be answered or applied:
        #: (id, data, the sequence number it was made at).
        self.pending: tuple[str, dict[str, Any], int] | None = None
        #: After a reconnect's welcome: the table's sequence number then, until the replay of
        #: what was missed has reached it.
        self.catch_up: int | None = None
        #: Whether the connection in use was welcomed (the server took the seat back).
        self.welcomed = False
        #: When the connection was lost that no welcomed connection followed since, the tries
        #: to come back since, and how the last went.
        self.lost_at: float | None = None
        self.tries = 0
        self.last_try = "-"

    async def join(self) -> None:
        """``hello`` and ``sit`` in the first free seat: this connection holds a seat, and its
        bot knows the table's rules."""
        with contextlib.suppress(ConnectionClosed):  # an error before hello tells why
            await self.hello()
        snapshot = await self.until("snapshot")
        await self.answer(await self.send("sit"))
        rules = Rules.from_dict(snapshot["d"]["table"]["rules"])
        self.bot = make_bot(self.bot_name, rules, f"{self.seed}/{self.seat}")

    async def play(self) -> None:
        """``ready``, then :meth:`follow` the match to its end, coming back after each lost
        connection (for :attr:`reconnect_for` s)."""
        self.playing = True
        with contextlib.suppress(*LOST):  # the ready is pending: sent again once back
            await self.send("ready")
        await self.follow_through()

    async def follow_through(self) -> None:
        """:meth:`follow` the match to its end, coming back after each lost connection; raise
        :class:`ConnectionLost` when no server took the seat back in time (or the lost
        connection's error, when :attr:`reconnect_for` is 0)."""
        while True:
            try:
                await self.follow()
                return
            except LOST as exc:
                # A silence is not a lost connection (TimeoutError is an OSError).
                if isinstance(exc, TimeoutError) or not self.reconnect_for:
                    raise
                lost: BaseException = exc
            await self.rejoin(lost)

    async def follow(self) -> None:
        """Act whenever the seat's view says so, until ``match_over``."""
        while True:
            msg = await self.recv()
            kind, data = msg["t"], msg["d"]
            if kind == "welcome":
                self.catch_up = msg["v"]
            if self.catch_up is not None and (kind == "snapshot" or self.seq >= self.catch_up):
                self.catch_up = None
                await self.resend()
            if kind == "event":
                self.seen(data)
                if data["kind"] == "match_over":
                    return
            if kind in ("event", "snapshot", "view") and self.my_turn(data.get("view")):
                await self.act(data["view"])

    async def rejoin(self, lost: BaseException) -> None:
        """Reconnect on the next server (at once after a welcomed connection), again every
        :attr:`reconnect_every` s, until one takes the connection; raise
        :class:`ConnectionLost` after :attr:`reconnect_for` s without a welcomed connection."""
        fresh = self.welcomed or self.lost_at is None
        if fresh or self.lost_at is None:
            self.lost_at, self.tries, self.last_try = time.monotonic(), 0, "-"
        since = self.lost_at
        self.welcomed = False
        self.catch_up = None
        self.lost()
        delay = 0.0 if fresh else self.reconnect_every
        while True:
            if delay:
                await asyncio.sleep(delay)
            delay = self.reconnect_every
            if self.tries and time.monotonic() - since >= self.reconnect_for:
                raise ConnectionLost(
                    f"connection closed unexpectedly ({lost}); no server took the seat back "
                    f"in {self.reconnect_for:g} s ({self.tries} tries, the last: "
                    f"{self.last_try})"
                )
            with contextlib.suppress(*NOT_BACK):
                await self.close()
            self.tries += 1
            try:
                await self.reconnect()
            except NOT_BACK as exc:
                self.last_try = f"{type(exc).__name__}: {exc}"
                continue
            self.last_try = "taken, then lost before the welcome"
            self.reconnects += 1
            self.reconnected()
            return

    async def resend(self) -> None:
        """Send the :attr:`pending` command again, with its id (the server answers it once)."""
        if self.pending is not None:
            _, data, seq = self.pending
            await super().send_command(data, seq)

    async def send_command(self, data: dict[str, Any], seq: int) -> None:
        if self.playing:
            self.pending = (data["id"], data, seq)
        await super().send_command(data, seq)

    def take(self, text: str | bytes | dict[str, Any]) -> dict[str, Any]:
        msg = super().take(text)
        if not self.repeat:
            if msg["t"] == "welcome":
                self.welcomed = True
            if self.pending is not None and self.settled(msg):
                self.pending = None
        return msg

    def settled(self, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` shows the :attr:`pending` command answered, applied or overtaken:
        its ``ack`` or ``error``; a game event (an ``act`` is applied or stale by then); for a
        ``ready``, this seat's ``ready`` event or a game under way; for an ``act``, a snapshot
        or the seat's own ``view`` (its view is acted on instead)."""
        assert self.pending is not None
        command_id, data, _ = self.pending
        kind, body = msg["t"], msg["d"]
        if kind in ("ack", "error"):
            return bool(body.get("id") == command_id)
        if kind == "event":
            event = body["kind"]
            mine = body.get("seat") == self.seat
            return event in ("start", "game") or (event == "ready" and mine)
        if kind == "snapshot":
            return bool(data["op"] == "act" or body["table"]["status"] == "playing")
        if kind == "view":  # R14: a sealed poll's answer kept, or the seat's view on its return
            return bool(data["op"] == "act")
        return False

    def seen(self, data: dict[str, Any]) -> None:
        """An event arrived (a hook)."""

    def lost(self) -> None:
        """The connection was lost during the match; coming back (a hook)."""

    def reconnected(self) -> None:
        """A new connection took the seat's ``hello`` (a hook)."""

    def my_turn(self, view: dict[str, Any] | None) -> bool:
        """Whether ``view`` asks this seat to act."""
        return bool(view and view["turn"] == self.seat and view["legal"])

    async def act(self, view: dict[str, Any]) -> None:
        if self.think:
            await asyncio.sleep(self.think)
        await self.send_act(view)

    async def send_act(self, view: dict[str, Any]) -> str:
        """Send the bot's choice on ``view``; the command's id."""
        assert self.bot is not None
        return await self.send("act", action=choose(self.bot, view))

    def refused(self, data: dict[str, Any]) -> None:
        if not self.playing:
            raise refusal(data)


def refusal(data: dict[str, Any]) -> ClientError:
    """An ``error`` message's data as an exception."""
    return ClientError("error.loadtest.refused", code=data["code"], message=data["message"])


async def remote_bot(
    url: str,
    table_id: str,
    bot: str,
    name: str,
    seed: int = 0,
    listen: Listener | None = None,
    servers: Sequence[str] = (),
) -> BotSeat:
    """Join table ``table_id`` on the server at ``url`` as a guest called ``name``, sit in a
    free seat and play with ``bot`` until the match is over; come back after a lost connection
    (for :data:`RECONNECT_FOR` s), on the next of ``servers`` if given (the nodes of a
    cluster). ``listen`` is given every message received. Raise :class:`ClientError` if the
    server cannot be reached or refuses the seat."""
    async with server_client(url, IDLE_TIMEOUT) as http:
        await presets(http)
        cookie = await guest(http, name)
    # No time limit on silences: people may take long to ready; the socket's pings tell a
    # dead connection.
    seat = BotSeat(
        url, table_id, cookie, bot, str(seed), timeout=None, listen=listen, servers=servers
    )
    await seat.open()
    try:
        await seat.join()
        await seat.play()
    finally:
        await seat.close()
    return seat
