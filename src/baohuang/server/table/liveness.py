"""Liveness (不卡桌): whatever people do and whenever they do it, a table moves on.

**The rule, enforced here and only here:** whenever the game waits on a seat that a bot plays,
that is on 托管, whose person is away past the grace, or whose turn timer runs, exactly one
wake-up is pending that will act for it (slot ``act``; in a sealed poll, R14, the game waits on
every asked seat yet to answer, and the one wake-up is the earlier of its bots' answers and its
timer, :func:`sealed`). :func:`plan` derives every wake-up a
table needs from its state alone (a :class:`~.tablestate.TableState`: no actor, clock or
loop); :func:`arrange`, run after every message the actor handles, makes the scheduler hold
exactly that. No other code sets or cancels a wake-up, so no path
(a timeout, 托管 switched on in one's own turn, a tab closed mid-turn, a restart) can leave a
turn without one.

The slots: ``act`` (:class:`BotMove` or :class:`TakeOver` for the seat to act), ``grace``
(people away from a game go on 托管), ``next`` (the next game of the match), ``watchdog``
(:func:`overdue`: a wake-up that should have moved the table, long past due, is logged and
set again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .mailbox import BotMove, GraceOver, NextGame, Overdue, TakeOver, TurnKey, Watchdog
from .scheduler import Due

if TYPE_CHECKING:
    from .actor import TableActor
    from .tablestate import TableState

#: Seconds between two checks of the watchdog while a match is in progress.
WATCHDOG_PERIOD = 5.0
#: Seconds a wake-up may be late before the watchdog calls the table stalled.
SLACK = 5.0


def acting(state: TableState) -> Due | None:
    """The one wake-up that acts for the seat the game waits on, if anyone must (in a sealed
    poll, for the seats it waits on: :func:`sealed`)."""
    turn = state.turn()
    if turn is None:
        return None
    if state.game.sealed:
        return sealed(state, turn)
    seat = state.game.current_seat
    chair = state.seats[seat] if seat is not None else None
    if chair is None:
        return None
    if chair.played_by_bot:
        return Due(BotMove(turn), state.turn_since + state.config.bot_delay)
    deadlines: list[tuple[float, Overdue]] = []
    if state.config.timer:
        deadlines.append((state.turn_since + state.config.timer, "timeout"))
    if chair.away_until is not None:
        deadlines.append((chair.away_until, "disconnect"))
    if not deadlines:
        return None  # a person with no timer, here: the table waits for them
    at, reason = min(deadlines)
    return Due(TakeOver(turn, reason), at)


def poll_deadline(state: TableState) -> float | None:
    """When a sealed poll's timer runs out: one moment for every person it asks, counted from
    the poll's start (R14); ``None`` without a timer."""
    return state.turn_since + state.config.timer if state.config.timer else None


def sealed(state: TableState, turn: TurnKey) -> Due | None:
    """R14: a sealed poll asks every seat at once. Its bots (and 托管) answer after the bot
    delay, all in one wake-up; the people yet to answer when the poll's timer runs out answer
    ``pass`` (R13's default answer, :meth:`TableActor._poll_timeout`). A person away goes on
    托管 by :func:`grace`, answered or not, so nothing here depends on who has answered but
    whether a bot still has to."""
    waiting = [state.seats[seat] for seat in state.game.to_act]
    dues = []
    if any(chair is not None and chair.played_by_bot for chair in waiting):
        dues.append(Due(BotMove(turn), state.turn_since + state.config.bot_delay))
    deadline = poll_deadline(state)
    if deadline is not None and any(chair and not chair.played_by_bot for chair in waiting):
        dues.append(Due(TakeOver(turn, "timeout"), deadline))
    return min(dues, key=lambda due: due.at, default=None)


def grace(state: TableState) -> Due | None:
    """People away from the game (other than the seat to act; in a sealed poll, any) go on
    托管 when their grace ends."""
    if not state.in_game():
        return None
    current = None if state.game.sealed else state.game.current_seat
    ends = [
        chair.away_until
        for seat, chair in enumerate(state.seats)
        if chair and chair.person and not chair.auto and chair.away_until is not None
        if seat != current
    ]
    return Due(GraceOver(), min(ends)) if ends else None


def more_games(state: TableState) -> bool:
    """Whether the match goes on after its current game: games are left, and R13 did not
    end it (``dissolved``)."""
    if state.match is None or state.match.index + 1 >= state.config.games:
        return False
    over = next((e for e in reversed(state.log) if e.kind == "game_over"), None)
    return not (
        over and over.public.get("game") == state.match.index and over.public.get("dissolved")
    )


def next_game(state: TableState) -> Due | None:
    """The next game of the match, a pause after the last one ended."""
    match = state.match
    if state.status != "playing" or match is None or not match.game.is_over:
        return None
    if not more_games(state):
        return None
    return Due(NextGame(state.matches, match.index + 1), state.turn_since + state.config.pause)


def plan(state: TableState) -> dict[str, Due | None]:
    """Every wake-up the table's state calls for, by slot."""
    return {"act": acting(state), "grace": grace(state), "next": next_game(state)}


def arrange(table: TableActor) -> None:
    """Make the scheduler hold exactly :func:`plan`, and the watchdog while a match runs."""
    for slot, due in plan(table.state).items():
        table.scheduler.want(slot, due)
    if table.state.status != "playing":
        table.scheduler.want("watchdog", None)
    elif table.scheduler.pending("watchdog") is None:
        table.scheduler.want("watchdog", Due(Watchdog(), table.clock.now() + WATCHDOG_PERIOD))


def overdue(table: TableActor) -> list[str]:
    """The slots whose wake-up should have moved the table more than :data:`SLACK` ago."""
    now = table.clock.now()
    return [slot for slot, due in plan(table.state).items() if due and due.at + SLACK < now]
