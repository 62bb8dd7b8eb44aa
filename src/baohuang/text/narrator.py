"""What a game's events say (叙述): for each event, the narration templates that tell it
(:mod:`.narration`) and their fields, chosen as one seat sees the game. Words are put in
elsewhere: the terminal renders them (``cli/terminal.py``), and the server sends them beside
each event (a table event's ``says``), so that the page only puts the fields in words
(``server/static/tablelog.js``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

#: The event fields that name a seat (docs/record-format.md; ``guard_seat`` in open replays).
SEAT_FIELDS = frozenset({"seat", "to", "from", "by", "leader", "dealer", "guard_seat"})
#: The event kinds told by the template of their own name, ``event.<kind>``.
PLAIN_KINDS = frozenset(
    {"void", "accept", "transfer", "kick", "cleared", "escape", "play", "pass", "out", "game_over"}
)

#: What an event says: narration templates (:mod:`.narration`) and their fields.
Said = list[tuple[str, Mapping[str, Any]]]


class Narration:
    """Tells one game's events in order (one seat's copies, a spectator's, or an open
    replay's): which templates each event says, with which fields."""

    def __init__(self) -> None:
        #: The seat holding R* when a marked-joker chain starts, until it answers (R9.3, R11.2).
        self.holder: int | None = None
        #: The chain has moved on since the deal (a yield or a 转让).
        self.passed_on = False
        #: The last answer was a 转让: its receiver must 登基 (R9.3), told with its answer.
        self.transferred = False
        self.last: dict[str, Any] = {}

    def says(self, event: dict[str, Any]) -> Said:
        """The templates that tell ``event`` after the events before it: the R* holder's 登基
        or 让位 at the start of the chain is one line (not "candidate", then "accepts, takes
        R*"), so is the 登基 a 转让 forces (the 转让 does not say it too), and a poll answer that
        the next event announces (明独, 抢独, 踢, 明保) is told once.
        """
        kind, seat = event["kind"], event.get("seat")
        last, self.last = self.last, event
        if kind == "deal":
            self.holder, self.passed_on, self.transferred = None, False, False
        elif kind == "candidate" and (
            self.transferred or (event["pile"] == ["R*"] and not self.passed_on)
        ):
            self.holder, self.transferred = seat, False  # R9.3, R11.2: told with its answer
            return []
        elif kind in ("accept", "decline", "transfer"):
            holder, self.holder = self.holder, None
            self.passed_on |= kind != "accept"
            self.transferred = kind == "transfer"
            if holder == seat and kind != "transfer":
                return [(f"event.{kind}.holder", event)]
        elif kind == "declare" and event["answer"] in ("solo", "grab", "kick"):
            return []  # the open solo or the kick that follows tells it
        elif kind == "reveal" and last.get("seat") == seat:
            if last.get("answer") == "show":
                return []  # 明保 said it
            if last.get("kind") == "transfer":
                return [("event.transfer.reveal", event)]
        return _alone(event)

    def says_json(self, event: dict[str, Any]) -> list[list[Any]]:
        """:meth:`says` as JSON for the page: ``[key, fields]`` each, ``fields`` ``None``
        where they are the event's own (the page has them)."""
        return [[key, None if fields is event else fields] for key, fields in self.says(event)]


def _alone(event: dict[str, Any]) -> Said:
    """The templates that tell ``event`` on its own.

    Besides a seat's own copy of an event (R14), this reads the fields an open replay adds:
    ``hands`` on a deal, ``guard_seat`` or ``dark`` on a call or roles, ``card`` on any tribute
    payment.
    """
    e, kind = event, event["kind"]
    match kind:
        case "deal":
            return _deal(e)
        case "tribute_due":
            return _tribute_due(e)
        case "tribute_paid":
            return [("event.tribute_paid.card" if "card" in e else "event.tribute_paid", e)]
        case "tribute":
            return _tribute(e)
        case "candidate":
            return [("event.candidate", e)]
        case "decline":
            return [("event.decline.added" if e.get("added") else "event.decline", e)]
        case "call" | "roles":
            return _roles(kind, e)
        case "poll":  # nothing to tell when nobody is asked; R14: 明保 and 造反 are sealed
            sealed = e["poll"] in ("show", "rebel")
            return [("event.poll.sealed" if sealed else "event.poll", e)] if e["seats"] else []
        case "open_solo":  # four cards shown (R8.7), declared (R9.2, R9.3, R11.3), grabbed (R11.4)
            how = e.get("how", "shown")
            if how != "shown":
                return [(f"event.open_solo.{how}", e)]
            return [("event.open_solo", {**e, "shown": e.get("shown") or [e["card"]] * 4})]
        case "declare":  # a pass is told by the poll's name
            answer = e["answer"]
            key = (
                f"event.declare.pass.{e['poll']}" if answer == "pass" else f"event.declare.{answer}"
            )
            return [(key, e)]
        case "rebellion":  # R9.5: told when anybody rebelled
            if not e["rebels"]:
                return []
            return [("event.rebellion.success" if e["success"] else "event.rebellion.failed", e)]
        case "round":
            return [("event.round.jiefeng" if e["jiefeng"] else "event.round", e)]
        case "reveal":  # a guard (R8.8, R9.4, R9.5) or a dark solo (R9.5) made public
            return [(f"event.reveal.{e.get('role', 'guard')}", e)]
        case _:
            return [(f"event.{kind}", e)] if kind in PLAIN_KINDS else []


def _deal(e: dict[str, Any]) -> Said:
    """A deal: its number and hand sizes (R7), the dealer, one's hand, an open replay's hands."""
    dealer = e.get("dealer")
    counts = "/".join(map(str, sorted(set(e["counts"]))))
    fields = {"deal": e["deal"] + 1, "counts": counts, "dealer": dealer}
    key = "event.deal.dealer" if isinstance(dealer, int) else "event.deal"
    said: Said = [(key, fields)]
    said += [("event.hand", e)] if "hand" in e else []
    hands = sorted(e.get("hands", {}).items())
    return said + [("event.hand_of", {"seat": s, "hand": hand}) for s, hand in hands]


def _roles(kind: str, e: dict[str, Any]) -> Said:
    """A call (R8.6: forced when it was the only one) or the roles (R9.3–R9.4; the 登基 before
    them said who is emperor), with what a seat's own copy or an open replay adds."""
    said: Said = [("event.call", e)] if kind == "call" else []
    said += [("event.call.forced", e)] if e.get("forced") else []
    said += [(f"event.{kind}.guard", e)] if e.get("guard") is True else []
    said += [(f"event.{kind}.dark", e)] if e.get("solo") == "dark" else []
    said += [("event.guard_is", e)] if isinstance(e.get("guard_seat"), int) else []
    return said + ([("event.dark", e)] if e.get("dark") else [])


def _tribute_due(e: dict[str, Any]) -> Said:
    """R12 and R6.8: who pays how many cards (one entry per card), to whom: each payer's
    ``[key, fields]``, as JSON has them (the server sends them as they are)."""
    cards = Counter((payer, to) for payer, to in e["payers"])
    payers = [
        [
            "event.tribute_due.payer" if to is None else "event.tribute_due.payer_to",
            {"seat": payer, "to": to, "n": n},
        ]
        for (payer, to), n in cards.items()
    ]
    return [("event.tribute_due", {"payers": payers})]


def _tribute(e: dict[str, Any]) -> Said:
    """R12: each card passed, named where the event (a seat's own copy, a replay) shows it."""
    known = list(e.get("cards", []))
    said: Said = []
    for move in e["transfers"]:
        same = (c for c in known if (c["from"], c["to"]) == (move["from"], move["to"]))
        card = next(same, None)
        if card is None:
            said.append(("event.tribute", move))
        else:
            known.remove(card)
            said.append(("event.tribute.card", card))
    return said
