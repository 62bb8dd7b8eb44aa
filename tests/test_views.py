"""R14: views and per-seat event logs show each seat exactly what it may know.

What is private is computed here from the game internals (hands, the private parts of events,
tribute in transit), then every seat's view and events are searched for cards and roles they
must not hold, after every action of many random games.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from baohuang import Game
from gamehelpers import (
    SEATS,
    find_game,
    is_dark_solo_call,
    play_match,
    preferring,
    random_game,
    replay_steps,
)

GAMES_PER_BLOCK = 20
#: Seeds apart from those test_game.py referees, so more distinct games get checked.
FIRST_SEED = 1000
VIEWERS: tuple[int | None, ...] = (None, *range(SEATS))
#: A card written alone or between spaces inside a JSON string: "9h", "9h 9s", "R*".
CARD_TOKEN = re.compile(r'(?<=["\s])(?:[2-9TJQKA][shdc]|[BR]\*?)(?=["\s])')
#: View keys that differ between seats; every other key is public and the same for all.
PER_SEAT_KEYS = {"seat", "hand", "role", "solo", "guard", "legal"}


def card_tokens(text: str) -> set[str]:
    """Every card (R2 notation) written as a whole word anywhere in a JSON text."""
    return set(CARD_TOKEN.findall(text))


def allowed_extras(event: dict[str, Any], private: dict[int, Any], seat: int) -> set[str]:
    """R14: the private fields ``seat`` may see in this event, decided from the event itself."""
    kind = event["kind"]
    if kind == "deal":
        return {"hand"}
    if kind == "tribute_paid" and seat == event["seat"]:
        return {"card"}
    if kind == "tribute" and any(seat in (t["from"], t["to"]) for t in event["transfers"]):
        entries = private.get(seat, {}).get("cards", [])
        assert all(seat in (t["from"], t["to"]) for t in entries)
        return {"cards"}
    if kind == "decline" and seat == event["seat"]:
        return {"auto"}
    if kind == "call":
        return {"solo", "guard"} & set(private.get(seat, {}))
    return set()


class ViewChecker:
    """After every action: every viewer's view and new events hold only what it may know."""

    def __init__(self) -> None:
        self.seen = 0
        self.public: set[str] = {"R"}  # R8.1: the emperor card set aside is a known big joker
        self.known: list[set[str]] = [set() for _ in range(SEATS)]
        self.revealed = False

    def __call__(self, game: Game) -> None:
        new = game.events[self.seen :]
        for event in new:
            self.learn(event.kind, event.public, event.private)
        hands = [[str(c) for c in game.hand(s)] for s in range(SEATS)]
        transit = game.tribute_paid if game.phase == "tribute" else []
        spectator = game.view(None)
        for viewer in VIEWERS:
            view = game.view(viewer)
            events = game.events_for(viewer, self.seen)
            text = json.dumps([view, events])  # JSON-serialisable
            secret = {c for s in range(SEATS) if s != viewer for c in hands[s]}
            secret |= {str(c) for payer, c in transit if payer != viewer}
            secret -= self.public | (self.known[viewer] if viewer is not None else set())
            leaked = card_tokens(text) & secret
            assert not leaked, f"seat {viewer} sees others' cards {leaked}"
            assert {k: v for k, v in view.items() if k not in PER_SEAT_KEYS} == {
                k: v for k, v in spectator.items() if k not in PER_SEAT_KEYS
            }
            assert view["hand"] == (hands[viewer] if viewer is not None else None)
            self.check_own(game, viewer, view)
            self.check_events(game, viewer, events, new)
        self.seen = len(game.events)

    def learn(self, kind: str, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        """Cards made public, and cards a seat learns privately (its deal, its tribute)."""
        self.revealed |= kind == "reveal"
        if kind == "deal":
            for seat, mine in priv.items():
                self.known[seat] |= set(mine["hand"])
        for key in ("cards", "pile", "shown"):
            if kind != "tribute" and key in pub:
                self.public |= set(pub[key])
        for key in ("card", "added"):
            if kind != "tribute_paid" and pub.get(key):
                self.public.add(pub[key])
        for seat, mine in priv.items():
            if kind in ("tribute", "tribute_paid"):
                self.known[seat] |= card_tokens(json.dumps(mine))

    def check_own(self, game: Game, viewer: int | None, view: dict[str, Any]) -> None:
        """The per-seat keys: role, legal actions, the guard and a solo as the seat may know."""
        emperor, guard, over = game.emperor, game.guard, game.is_over
        dark = game.called is not None and guard is None and not game.open_solo
        if viewer is None:  # a spectator sees no hand and has no options
            assert view["role"] is None and view["legal"] == []
        else:
            assert len(view["hand"]) == view["counts"][viewer]
            mine = viewer == game.current_seat
            assert view["legal"] == ([str(a) for a in game.legal_actions()] if mine else [])
            role = None if emperor is None else "emperor" if viewer == emperor else None
            if game.called is not None and viewer != emperor:
                role = "guard" if viewer == guard else "rebel"
            assert view["role"] == role
        # R8.8: the guard's seat is hidden from every other seat until revealed or the end.
        sees_guard = self.revealed or over or (viewer is not None and viewer == guard)
        assert view["guard"] == (guard if sees_guard else None)
        sees_dark = over or (viewer is not None and viewer == emperor)
        assert view["solo"] == (
            "open" if game.open_solo else "dark" if dark and sees_dark else None
        )

    def check_events(
        self, game: Game, viewer: int | None, events: list[dict[str, Any]], new: list[Any]
    ) -> None:
        """A seat's events are the public ones plus only its own private fields."""
        assert [e["seq"] for e in events] == [e.seq for e in new]
        for mine, event in zip(events, new, strict=True):
            public = {"seq": event.seq, "kind": event.kind, **event.public}
            assert {k: mine[k] for k in public} == public
            extra = set(mine) - set(public)
            assert viewer is not None or not extra
            if viewer is not None:
                assert extra <= allowed_extras(public, event.private, viewer)
                if "guard" in extra:
                    assert viewer == game.guard
                if "solo" in extra:
                    assert viewer == game.emperor and game.guard is None


@pytest.mark.parametrize("block", range(10))
def test_r14_views_and_events_hold_only_what_each_seat_may_know(block: int) -> None:
    start = FIRST_SEED + block * GAMES_PER_BLOCK
    for seed in range(start, start + GAMES_PER_BLOCK):
        assert random_game(seed, after=ViewChecker()).is_over


def test_r14_r8_8_guard_is_hidden_until_the_reveal() -> None:
    game = find_game(lambda g: any(e.kind == "reveal" for e in g.events))
    guard = game.guard
    reveal_seq = next(e.seq for e in game.events if e.kind == "reveal")
    for again in replay_steps(game):
        guards = [again.view(v)["guard"] for v in VIEWERS]
        if len(again.events) > reveal_seq:
            assert guards == [guard] * len(VIEWERS)
        else:  # before the call nobody knows; after it, the guard alone
            assert guards == [guard if v == guard and again.called else None for v in VIEWERS]


def test_r14_dark_solo_is_known_to_the_emperor_alone_until_the_end() -> None:
    game = find_game(
        lambda g: g.called is not None and g.guard is None and not g.open_solo,
        preferring(is_dark_solo_call),
    )
    emperor = game.emperor
    for again in replay_steps(game):
        if again.called is not None:
            solos = [again.view(v)["solo"] for v in VIEWERS]
            over = again.is_over
            assert solos == ["dark" if over or v == emperor else None for v in VIEWERS]


def test_r14_tribute_cards_reach_only_payer_and_receiver() -> None:
    tributes = 0
    for seed in range(4):
        _, games = play_match(seed, 3, checker=ViewChecker)
        tributes += sum(1 for g in games for e in g.events if e.kind == "tribute")
    assert tributes


def test_r14_events_since_is_the_tail_of_the_log() -> None:
    game = random_game(3)
    for viewer in VIEWERS:
        full = game.events_for(viewer)
        assert [e["seq"] for e in full] == list(range(len(game.events)))
        for since in (0, 1, 40, len(full)):
            assert game.events_for(viewer, since) == full[since:]
