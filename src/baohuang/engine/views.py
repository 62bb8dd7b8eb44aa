"""Per-seat views (R14): the only way a game's state leaves the engine.

A view is a JSON-serialisable dict of what one seat may know: its own hand and role, and the
public state. A spectator's view (seat ``None``) holds the public state alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import RANK_SYMBOLS

if TYPE_CHECKING:
    from .game import Game


def role_of(game: Game, seat: int | None) -> str | None:
    """The role as ``seat`` knows it: emperor, guard, rebel, or ``None`` while unknown."""
    if seat is None or game.emperor is None:
        return None
    if seat == game.emperor:
        return "emperor"
    if not game.teams_set:
        return None
    return "guard" if seat == game.guard else "rebel"


def known_guard(game: Game, seat: int | None) -> int | None:
    """The guard's seat if ``seat`` may know it: revealed (R8.8), itself, or the game is over."""
    if game.guard is None:
        return None
    if game.guard_revealed or game.is_over or seat == game.guard:
        return game.guard
    return None


def known_solo(game: Game, seat: int | None) -> str | None:
    """``"open"`` for 明独 (public); ``"dark"`` for 暗独, to the emperor alone until revealed."""
    if game.open_solo:
        return "open"
    known = seat == game.emperor or game.solo_revealed or game.is_over
    if game.teams_set and game.guard is None and game.emperor is not None and known:
        return "dark"
    return None


def build_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``game`` for ``seat`` (see the module docstring)."""
    lead = None
    if game.lead is not None:
        cards = next(a for _, a in reversed(game.trick) if a != "pass")
        lead = {"seat": game.last_player, "play": str(game.lead), "cards": cards.split()}
    legal = (
        [str(a) for a in game.legal_actions()]
        if seat is not None and seat == game.current_seat
        else []
    )
    return {
        "seat": seat,
        "phase": game.phase,
        "deal": game.deal_no,
        "turn": game.current_seat,
        "hand": game.hand_text(seat) if seat is not None else None,
        "role": role_of(game, seat),
        "counts": list(game.sizes),
        "candidate": game.current_seat if game.phase == "candidate" else None,
        "pile": [str(c) for c in game.pile],
        "tribute_due": [payer for payer, _ in game.tribute_due],
        "emperor": game.emperor,
        "called": str(game.called) if game.called else None,
        "solo": known_solo(game, seat),
        "guard": known_guard(game, seat),
        "lead": lead,
        "trick": [{"seat": s, "action": a} for s, a in game.trick],
        "played": {RANK_SYMBOLS[r]: n for r, n in enumerate(game.played) if n},
        "places": list(game.places),
        "marked": game.rules.marked,
        "poll": game.poll,
        "open_guard": game.open_guard,
        "guard_revealed": game.guard_revealed,
        "rebellion": game.rebellion,
        "kicked": game.kicked,
        "escaped": game.escaped,
        "result": game.result.to_dict() if game.result else None,
        "legal": legal,
        "seq": len(game.events),
    }
