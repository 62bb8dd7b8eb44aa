"""The table protocol (协议), version 1: pydantic models whose JSON Schema documents it.

Every WebSocket message is an envelope ``{"t": type, "v": seq, "d": data}`` on
``/ws/v1/tables/{table_id}``. ``v`` is the table's event sequence number: on an ``event`` the
number of that event (from 1, one sequence per table across every game of its match); on other
server messages the table's latest number; on a client command the latest number the client
had seen when it made the command.

Client → server: ``hello`` (first message: who I am and what I have seen), ``cmd`` (a command
with an id), ``ping``. Server → client: ``welcome``, ``event``, ``snapshot``, ``ack``,
``error``, ``pong``, and ``view`` (to one seat alone: its answer to a sealed poll was kept,
R14). A command that caused events is answered in the frame of the last of them, on the
connection that sent it: that ``event`` carries the ``ack`` as ``a`` (:func:`unfold` reads it
as the two messages it stands for). ``docs/protocol.md`` and ``docs/protocol.schema.json`` are
generated from this module (``baohuang protocol --out docs``).
"""

from __future__ import annotations

from functools import cache
from types import UnionType
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import typing_extensions
from pydantic import BaseModel, ConfigDict, Field, with_config

from ..engine import events, views
from ..engine.scoring import GameResult
from ..engine.state import SEATS

#: The protocol's major version, also in the WebSocket URL (``/ws/v1/...``).
VERSION = 1
#: The bot levels a table may fill empty seats with (and play 托管 with); ``learned`` only where
#: the server has the ``rl`` extra (``/api/presets`` lists the levels it has).
BotLevel = Literal["auto", "random", "heuristic", "search", "strong", "learned"]
SeatNo = Annotated[int, Field(ge=0, le=SEATS - 1)]
CommandId = Annotated[str, Field(min_length=1, max_length=64)]


#: Unknown fields are an error, not silently dropped; the docstrings of fields describe them.
STRICT = ConfigDict(extra="forbid", use_attribute_docstrings=True)
# The engine's result keeps this config wherever it appears (a lenient parent, such as
# EventData, would pass its own on to it).
with_config(STRICT)(GameResult)


class Model(BaseModel):
    """Strict models (:data:`STRICT`)."""

    model_config = STRICT


# ---------------------------------------------------------------------- tables (lobby)


class TableConfig(Model):
    """What the creator of a table chooses (建桌)."""

    name: str = Field("", max_length=40, description="A label for the lobby.")
    preset: str = Field("classic", description="A rule preset (R7), see GET /api/presets.")
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, description="Rule options overriding the preset (R7)."
    )
    games: int = Field(1, ge=1, le=50, description="Games in the match (一场), tribute between.")
    timer: int = Field(
        30, ge=0, le=600, description="Seconds a human has per turn before 托管; 0: no timer."
    )
    bot_level: BotLevel = Field("heuristic", description="The bot that fills seats and 托管.")
    bots: int = Field(0, ge=0, le=4, description="Seats (the last ones) filled by bots at once.")
    pause: float = Field(
        3.0, ge=0, le=30, description="Seconds between games, to read the results."
    )
    bot_delay: float = Field(
        0.8, ge=0, le=5, description="Seconds a bot waits before acting, so people can follow."
    )
    grace: float = Field(
        10.0,
        ge=0,
        le=120,
        description="Seconds a disconnected person has to come back before 托管 plays (R13).",
    )
    counter: bool = Field(
        True, description="记牌器 allowed: the page may show the cards still out."
    )
    private: bool = Field(
        False,
        description="A friends' table (好友房): not listed in the lobby; joined by its link or "
        "its room code (GET /api/rooms/{code}); its creator may start it with bots (``start``).",
    )


class SeatInfo(Model):
    """One seat as everyone sees it."""

    name: str
    user: int | None = Field(None, description="The user id of a person; null for a bot.")
    bot: BotLevel | None = Field(None, description="The bot playing this seat, if a bot.")
    ready: bool = False
    auto: bool = Field(False, description="托管: a bot plays for this person now.")
    connected: bool = False


class TableInfo(Model):
    """A table's public state: the lobby row and the header of a snapshot."""

    id: str
    config: TableConfig
    rules: dict[str, Any] = Field(description="Every rule option in force (Rules.to_dict).")
    pack: dict[str, int] = Field(
        description="R7: the pack's cards per rank symbol (3 … A 2 B R), what the 记牌器 "
        "counts down from."
    )
    status: Literal["waiting", "playing", "finished"]
    seats: list[SeatInfo | None] = Field(min_length=SEATS, max_length=SEATS)
    game: int | None = Field(None, description="The current game's index in the match, from 0.")
    totals: list[int] = Field(description="Points per seat over the finished games.")
    results: list[list[int]] = Field(description="Scores per seat of each finished game.")
    watching: int = Field(0, description="Connections without a seat.")
    seq: int = Field(description="The table's latest event sequence number.")
    code: str | None = Field(
        None,
        description="A friends' table's room code (房号), to share with friends; null for a "
        "public table.",
    )
    creator: int | None = Field(
        None,
        description="The user id of the table's creator (房主), who alone may send its bots "
        "away: a friends' table's always, a public table's while the node that made it runs "
        "it; null otherwise.",
    )


# ---------------------------------------------------------------------- client → server


class Hello(Model):
    """The first message on a connection. ``token`` claims a seat (issued by ``sit``);
    ``since`` asks for every event after that sequence number (a reconnect); ``code`` opens a
    friends' table to a user who is not one of its members."""

    token: str | None = Field(None, max_length=128)
    since: int | None = Field(None, ge=0)
    code: str | None = Field(
        None,
        max_length=16,
        description="A friends' table's room code (好友房): what admits a connection whose user "
        "neither created the table nor sits at it.",
    )


class CommandBase(Model):
    """A command: ``id`` is the client's, unique per seat; a repeat is answered with the first
    answer and not applied again."""

    id: CommandId


class Sit(CommandBase):
    """Take a seat (入座) while no match is in progress; the ack carries the seat token."""

    op: Literal["sit"]
    seat: SeatNo | None = Field(None, description="A free seat; null: the first free one.")


class Leave(CommandBase):
    """Give the seat up; during a game this is an escape (逃跑, R10.4)."""

    op: Literal["leave"]


class Ready(CommandBase):
    """Ready (准备) or not: the match starts once five seats are filled and all people ready.
    After a match (status ``finished``) it is 再来一场: everyone's ready is cleared by
    ``match_over``, and the next match starts when all people seated are ready again."""

    op: Literal["ready"]
    on: bool = True


class AddBot(CommandBase):
    """Put the table's bot in an empty seat."""

    op: Literal["add_bot"]
    seat: SeatNo


class RemoveBot(CommandBase):
    """Take a bot out of its seat."""

    op: Literal["remove_bot"]
    seat: SeatNo


class Start(CommandBase):
    """开始（空位补机器人）: the creator of a friends' table (``config.private``) fills every
    empty seat with the table's bot and is ready; the match starts at once when every other
    person seated is ready too, else as soon as the last of them is."""

    op: Literal["start"]


class Auto(CommandBase):
    """Switch 托管 (R13) on or off for the own seat."""

    op: Literal["auto"]
    on: bool


class Act(CommandBase):
    """A game action in the engine's notation (``play 3 3``, ``pass``, ``call 9h``, 登基 …)."""

    op: Literal["act"]
    action: str = Field(min_length=1, max_length=200)


class Signal(CommandBase):
    """A quick canned message (心战), one of :data:`SIGNALS`."""

    op: Literal["signal"]
    signal: str


class Hint(CommandBase):
    """Ask what the table's hint bot (``heuristic``) would do now; answered in the ack."""

    op: Literal["hint"]


#: The quick messages a seat may send, by id; their words are the catalog's ``signal.<id>``.
SIGNALS = ("hurry", "nice", "partner", "sorry", "thanks", "again")

Command = Annotated[
    Sit | Leave | Ready | Start | AddBot | RemoveBot | Auto | Act | Signal | Hint,
    Field(discriminator="op"),
]


class ClientHello(Model):
    t: Literal["hello"]
    v: int | None = None
    d: Hello


class ClientCommand(Model):
    t: Literal["cmd"]
    v: int = Field(ge=0, description="The latest sequence number the client had seen.")
    d: Command


class ClientPing(Model):
    t: Literal["ping"]
    v: int | None = None
    d: dict[str, Any] = Field(default_factory=dict)


ClientMessage = Annotated[ClientHello | ClientCommand | ClientPing, Field(discriminator="t")]


# ---------------------------------------------------------------------- server → client


@cache
def _typed_dict(cls: type) -> Any:
    """The engine's stdlib ``TypedDict`` ``cls`` rebuilt as ``typing_extensions``' (pydantic
    needs that one before Python 3.12; the engine imports nothing but the standard library)."""
    hints = get_type_hints(cls, include_extras=True)
    make: Any = typing_extensions.TypedDict
    rebuilt = make(cls.__name__, {name: _for_pydantic(hint) for name, hint in hints.items()})
    rebuilt.__doc__, rebuilt.__module__ = cls.__doc__, cls.__module__
    return with_config(STRICT)(rebuilt)


def _for_pydantic(hint: Any) -> Any:
    """``hint`` with every ``TypedDict`` in it rebuilt by :func:`_typed_dict`."""
    if is_typeddict(hint):
        return _typed_dict(hint)
    origin, args = get_origin(hint), get_args(hint)
    if not args or origin is Literal:
        return hint
    inner = tuple(_for_pydantic(arg) for arg in args)
    if origin in (Union, UnionType):
        return Union[inner]  # noqa: UP007 (a union of a runtime tuple)
    if origin is NotRequired:
        return NotRequired[inner[0]]
    return origin[inner]


if TYPE_CHECKING:
    SeatEvent = events.SeatEvent
    View = views.ViewData
else:
    #: An engine event as this seat sees it (``Event.to_json``), by ``kind``.
    SeatEvent = Annotated[_for_pydantic(events.SeatEvent), Field(discriminator="kind")]
    #: A seat's view (``View.to_json``).
    View = _typed_dict(views.ViewData)


class TurnClock(Model):
    """The countdown of the person the game waits on: when it ends, 托管 plays for them (R13).
    In a sealed poll (R14, the view's ``asked``) the poll's countdown, one for every seat asked:
    when it ends, each person yet to answer answers ``pass``."""

    seat: SeatNo | None = Field(description="The seat it runs for; null in a sealed poll.")
    remaining: float = Field(description="Seconds left when the server sent this.")
    timer: float = Field(description="The countdown's full length in seconds.")


class Welcome(Model):
    """The answer to ``hello``: the table, the seat this connection acts for, the countdown."""

    table: TableInfo
    seat: SeatNo | None
    user: int | None = None
    clock: TurnClock | None = None


class Prompt(Model):
    """What this seat is asked in a role phase (R8–R12), while it has a choice or has
    answered a sealed poll (R14), chosen by :mod:`baohuang.text.prompts`: the page only puts
    the keys in words."""

    ask: str = Field(description="The question's catalog key (``ask.*``).")
    answers: list[str] = Field(
        description="The answers to show, in order: the legal actions, or a sealed poll's "
        "both (those this seat may not give shown disabled, so the choices tell no role)."
    )
    labels: dict[str, tuple[str, dict[str, Any]]] = Field(
        description="``{action: [catalog key, fields]}``: the words on each answer, and on "
        "the seat's kept answer to a sealed poll."
    )


class EventData(Model):
    """One table event as this connection may see it. ``kind`` is one of

    - ``room`` {creator}: the first event of a friends' table (好友房);
    - ``sit`` {seat, name, user, bot}; ``leave`` {seat}; ``ready`` {seat, on};
      ``auto`` {seat, on, reason: request|timeout|disconnect|reconnect};
      ``connected`` {seat, on}; ``signal`` {seat, signal, zh, en};
    - ``start`` {match, game, events, view?}: a game of the match begins;
    - ``game`` {game, events, view?}: the engine events one action caused, as this seat sees
      them (:data:`SeatEvent`); a live one carries the seat's fresh view, replayed
      ones only on the last;
    - ``game_over`` {game, result, scores, totals, record, players, roles, scoring,
      unscored, dissolved, tribute}: ``scores`` are the points that count (all 0 when
      ``unscored`` is ``"all_auto"``: R13, every person was on 托管); ``players`` the names by
      seat; ``roles``
      emperor/guard/rebel/solo by seat; ``scoring`` {t, final, factors: [[name, factor]]}
      how R10 reached the points (null after an escape); ``dissolved``: R13 ended the match;
      ``record`` is the download id; ``tribute`` (QQ, else null) {side: emperor|rebels|draw,
      points}: who receives tribute by QQ's rule (R10.3; draw: 平贡) beside the emperor side's
      points, whose sign names the winner; ``ratings`` {seat: {before, after, delta, level}}
      each rated seat's 段位 step (people and bot levels; empty when nobody is rated);
    - ``match_over`` {totals}.

    A live event also carries ``clock`` (:class:`TurnClock` or null); replayed ones do not.

    No table event is wholly private: every connection gets every sequence number (so a gap
    always shows), with the parts only its seat may know (its hand, a tribute card it paid or
    got, being the guard) merged into its copy (R14).
    """

    model_config = ConfigDict(extra="allow")
    kind: str
    seq: int | None = Field(None, description="In a snapshot's ``history``: the event's number.")
    game: int | None = Field(None, description="The game's index in the match, from 0.")
    events: list[SeatEvent] | None = Field(
        None, description="On ``start`` and ``game``: the engine events, oldest first."
    )
    says: list[list[tuple[str, dict[str, Any] | None]]] | None = Field(
        None,
        description="On ``start`` and ``game``: what each of ``events`` says, in order, as "
        "this seat sees the game (baohuang.text.narrator): [template key, fields], the "
        "catalog's narration templates; fields null where they are the event's own. The "
        "page only puts them in words.",
    )
    view: View | None = Field(None, description="The seat's view after the events.")
    prompt: Prompt | None = Field(None, description="With ``view``: what the seat is asked.")
    table: TableInfo | None = Field(None, description="On events that change the table.")
    clock: TurnClock | None = Field(None, description="On live events: the turn's countdown.")


class Snapshot(Model):
    """Everything this connection may know now: sent instead of a replay, and after a stale
    command."""

    table: TableInfo
    seat: SeatNo | None
    view: View | None = Field(description="Game.view(seat) of the current game.")
    prompt: Prompt | None = Field(None, description="What the seat is asked now.")
    clock: TurnClock | None = None
    history: list[EventData] = Field(
        default_factory=list,
        description="The current (or last) game's events from its start, as this seat sees "
        "them, each with its ``seq``.",
    )


class OwnView(Model):
    """This seat's view changed with no table event: its answer to a sealed poll (明保, 造反;
    R14) was kept, unpublished until every seat asked has answered. Sent to the seat's own
    connections alone, under the table's latest sequence number: no other connection learns
    that anyone answered (when the last answer is in, one ``game`` event publishes them all)."""

    view: View
    prompt: Prompt | None = None
    clock: TurnClock | None = None


class Ack(Model):
    """A command was applied (or was a repeat of one that was)."""

    id: str
    token: str | None = Field(None, description="The seat token, on a successful ``sit``.")
    seat: SeatNo | None = None
    hint: str | None = Field(None, description="The suggested action, on ``hint``.")


ErrorCode = Literal[
    "bad_message",
    "not_hello",
    "bad_token",
    "not_seated",
    "seat_taken",
    "not_allowed",
    "not_your_turn",
    "illegal",
    "stale",
    "not_found",
    "login_required",
    "rate_limited",
    "room_code",
]


class ErrorData(Model):
    """A command or message was refused; nothing changed. ``key`` is the message's id in the
    catalog (``error.…``; for ``illegal``, the engine error's) and ``params`` fill its
    ``{fields}``; ``message`` (English) and ``zh`` (Chinese) are the message worded by the
    server. A field the server words from a nested error is not in ``params``: word the
    message from ``key`` only when every field is there, else show ``message`` or ``zh``."""

    id: str | None = None
    code: ErrorCode
    key: str
    params: dict[str, str | int | float]
    message: str
    zh: str


class ServerWelcome(Model):
    t: Literal["welcome"]
    v: int
    d: Welcome


class ServerEvent(Model):
    t: Literal["event"]
    v: int
    d: EventData
    a: Ack | None = Field(
        None,
        description="On the connection whose command this event's message ends: the "
        "command's ack, sent in this frame instead of one of its own.",
    )


class ServerSnapshot(Model):
    t: Literal["snapshot"]
    v: int
    d: Snapshot


class ServerView(Model):
    t: Literal["view"]
    v: int
    d: OwnView


class ServerAck(Model):
    t: Literal["ack"]
    v: int
    d: Ack


class ServerError(Model):
    t: Literal["error"]
    v: int
    d: ErrorData


class ServerPong(Model):
    t: Literal["pong"]
    v: int
    d: dict[str, Any] = Field(default_factory=dict)


ServerMessage = Annotated[
    ServerWelcome
    | ServerEvent
    | ServerSnapshot
    | ServerView
    | ServerAck
    | ServerError
    | ServerPong,
    Field(discriminator="t"),
]


def unfold(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """A received message as the messages it stands for: an ``event`` carrying its command's
    ack (``a``) is that event, then the ``ack``; any other message is itself.

    >>> unfold({"t": "event", "v": 7, "d": {"kind": "ready"}, "a": {"id": "c1"}})
    [{'t': 'event', 'v': 7, 'd': {'kind': 'ready'}}, {'t': 'ack', 'v': 7, 'd': {'id': 'c1'}}]
    """
    ack = msg.pop("a", None) if msg.get("t") == "event" else None
    return [msg] if ack is None else [msg, {"t": "ack", "v": msg["v"], "d": ack}]
