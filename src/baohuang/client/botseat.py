"""A seat played by a bot over the protocol (机器人座位): the load tool's seats and
``baohuang bot``, a bot that joins a table on a running server.

A bot takes a view and its legal actions and chooses one (:mod:`baohuang.bots`); a view
arrives as JSON, and :func:`choose` is the one place where a received view reaches a bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..bots.base import Bot, make_bot
from ..engine.actions import parse_action
from ..engine.rules import Rules
from ..engine.views import View
from .connection import IDLE_TIMEOUT, Listener, TableClient
from .errors import ClientError
from .http import guest, presets, server_client

#: Seconds a remote bot keeps trying to come back after losing its connection, and between
#: two tries.
RECONNECT_FOR = 60.0
RECONNECT_EVERY = 1.0


def choose(bot: Bot, view: dict[str, Any]) -> str:
    """The action ``bot`` takes on ``view``, a seat's view as received (its ``legal`` actions
    in the engine's notation), in the engine's notation."""
    legal = [parse_action(text) for text in view["legal"]]
    return str(bot.choose(View.from_json(view), legal))


class BotSeat(TableClient):
    """A seat whose every move a bot makes: :meth:`join` (``hello``, ``sit``), :meth:`play`
    (``ready``, then act on each view that asks this seat to, until ``match_over``).

    An ``error`` while joining raises :class:`ClientError` (the seat cannot be had); later it
    changes nothing here (a stale command is followed by a snapshot, acted on in turn).
    :meth:`seen` is a hook for each event.
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
    ) -> None:
        super().__init__(server, table_id, cookie, timeout, listen)
        self.bot_name = bot
        #: The bot's seed is this, a slash and the seat.
        self.seed = seed
        #: Seconds the seat waits before acting, as a person would (0: as fast as it can).
        self.think = think
        self.bot: Bot | None = None
        #: Set once joined: from then on an ``error`` is not raised.
        self.playing = False

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
        """``ready``, then :meth:`follow` the match."""
        self.playing = True
        await self.send("ready")
        await self.follow()

    async def follow(self) -> None:
        """Act whenever the seat's view says so, until ``match_over``."""
        while True:
            msg = await self.recv()
            data = msg["d"]
            if msg["t"] == "event":
                self.seen(data)
                if data["kind"] == "match_over":
                    return
            if msg["t"] in ("event", "snapshot") and self.my_turn(data.get("view")):
                await self.act(data["view"])

    def seen(self, data: dict[str, Any]) -> None:
        """An event arrived (a hook)."""

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
) -> BotSeat:
    """Join table ``table_id`` on the server at ``url`` as a guest called ``name``, sit in a
    free seat and play with ``bot`` until the match is over; come back after a lost connection
    (for :data:`RECONNECT_FOR` s). ``listen`` is given every message received. Raise
    :class:`ClientError` if the server cannot be reached or refuses the seat."""
    async with server_client(url, IDLE_TIMEOUT) as http:
        await presets(http)
        cookie = await guest(http, name)
    # No time limit on silences: people may take long to ready; the socket's pings tell a
    # dead connection.
    seat = BotSeat(url, table_id, cookie, bot, str(seed), timeout=None, listen=listen)
    await seat.open()
    try:
        await seat.join()
        await seat.play()
    except ConnectionClosed:
        if not seat.playing:
            raise
        await come_back(seat)
    finally:
        await seat.close()
    return seat


async def come_back(seat: BotSeat) -> None:
    """Reconnect ``seat`` and follow the match to its end, again after each lost connection;
    raise the last failure when :data:`RECONNECT_FOR` s of tries did not bring it back."""
    deadline = time.monotonic() + RECONNECT_FOR
    while True:
        await asyncio.sleep(RECONNECT_EVERY)
        try:
            await seat.reconnect()
        except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
            if time.monotonic() > deadline:
                raise
            continue
        deadline = time.monotonic() + RECONNECT_FOR
        with contextlib.suppress(ConnectionClosed):
            await seat.follow()
            return
