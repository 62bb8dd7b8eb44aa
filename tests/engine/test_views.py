"""R14: views and per-seat event logs show each seat exactly what it may know.

What is private is computed here from the game internals (hands, the private parts of events,
tribute in transit, the guard, a dark solo), then every seat's view and events are searched for
cards and roles they must not hold, after every action of random games of every preset (R7).
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from typing import Any, get_args, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import ACCEPT, PASS, Call, Escape, Game, Rules, new_game
from baohuang.engine.actions import REBEL, SHOW, TRANSFER
from baohuang.engine.events import EventKind, SeatEvent
from baohuang.engine.views import View, views_json
from helpers.cards import B_STAR, SEATS
from helpers.drivers import find_game, play, play_match, random_game, reach, replay_steps
from helpers.policies import (
    Policy,
    is_dark_solo_call,
    leading_b_star,
    preferring,
    random_policy,
    sparing,
    varied,
    wants,
)
from helpers.rulesets import CLASSIC, PRESET_NAMES, PRESETS, QQ_THREES

#: Seeds apart from those test_game.py referees, so more distinct games get checked.
FIRST_SEED = 1000
VIEWERS: tuple[int | None, ...] = (None, *range(SEATS))
#: A card written alone or between spaces inside a JSON string: "9h", "9h 9s", "R*".
CARD_TOKEN = re.compile(r'(?<=["\s])(?:[2-9TJQKA][shdc]|[BR]\*?)(?=["\s])')
#: Each event kind's TypedDict (a seat's copy of such an event), by kind.
EVENT_SHAPES = {get_args(get_type_hints(t)["kind"])[0]: t for t in get_args(SeatEvent)}
#: View keys that differ between seats; every other key is public and the same for all.
PER_SEAT_KEYS = {"seat", "hand", "role", "solo", "guard", "legal", "answer"}
#: In a sealed poll (R14) the seat to act is per seat too: the seat itself, or nobody.
SEALED_KEYS = {*PER_SEAT_KEYS, "turn"}


def card_tokens(text: str) -> set[str]:
    """Every card (R2 notation) written as a whole word anywhere in a JSON text."""
    return set(CARD_TOKEN.findall(text))


def cards_text(view: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """The JSON of a view and events without their rank notation (plays, the legal list, the
    played tally, the marked jokers): there ``R`` means any big joker, ``R*`` included."""
    cards = {k: v for k, v in view.items() if k not in ("legal", "played", "marked")}
    if cards["lead"] is not None:
        cards["lead"] = cards["lead"]["cards"]
    return json.dumps([cards, [{k: v for k, v in e.items() if k != "play"} for e in events]])


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
    if kind in ("decline", "transfer") and seat == event["seat"]:
        return {"auto"}
    if kind == "call" and seat == event["seat"]:  # the caller: 暗独, a call with no choice
        return {"solo", "forced"} & set(private.get(seat, {}))
    if kind in ("call", "roles"):
        return {"solo", "guard"} & set(private.get(seat, {}))
    return set()


class ViewChecker:
    """After every action: every viewer's view and new events hold only what it may know."""

    def __init__(self) -> None:
        self.seen = 0
        self.public: set[str] = set()
        self.known: list[set[str]] = [set() for _ in range(SEATS)]
        self.settled = self.guard_revealed = self.solo_revealed = False
        self.emperor: int | None = None

    def __call__(self, game: Game) -> None:
        if not self.seen and game.rules.emperor_card_aside:
            self.public.add("R")  # R8.1: the emperor card set aside is a known big joker
        new = game.events[self.seen :]
        for event in new:
            self.learn(event.kind, event.public, event.private)
        hands = [[str(c) for c in game.hand(s)] for s in range(SEATS)]
        transit = game.tribute_paid if game.phase == "tribute" else []
        spectator = game.view(None).to_json()
        together = views_json(game, VIEWERS)  # the server's way: the public part once
        for viewer in VIEWERS:
            typed = game.view(viewer)
            view = typed.to_json()
            assert together[viewer] == view
            assert json.loads(json.dumps(view)) == view and View.from_json(view) == typed
            events = game.events_for(viewer, self.seen)
            text = cards_text(view, events)  # JSON-serialisable
            secret = {c for s in range(SEATS) if s != viewer for c in hands[s]}
            secret |= {str(c) for payer, _, c in transit if payer != viewer}
            secret -= self.public | (self.known[viewer] if viewer is not None else set())
            leaked = card_tokens(text) & secret
            assert not leaked, f"seat {viewer} sees others' cards {leaked}"
            own = SEALED_KEYS if game.sealed else PER_SEAT_KEYS
            assert {k: v for k, v in view.items() if k not in own} == {
                k: v for k, v in spectator.items() if k not in own
            }
            assert typed.hand == (tuple(game.hand(viewer)) if viewer is not None else None)
            self.check_own(game, viewer, typed)
            self.check_events(game, viewer, events, new)
        self.seen = len(game.events)

    def learn(self, kind: str, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        """Cards made public, cards a seat learns privately (its deal, its tribute), and the
        moments roles are settled and revealed."""
        self.settled |= kind in ("call", "roles", "open_solo")
        self.guard_revealed |= kind == "reveal" and pub["role"] == "guard"
        self.solo_revealed |= kind == "reveal" and pub["role"] == "solo"
        if kind in ("accept", "open_solo", "roles"):
            self.emperor = pub.get("seat", pub.get("emperor"))
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

    def check_own(self, game: Game, viewer: int | None, view: View) -> None:
        """The per-seat keys: role, legal actions, the guard and a solo as the seat may know."""
        emperor, guard, over, settled = game.emperor, game.guard, game.is_over, self.settled
        dark = settled and emperor is not None and guard is None and not game.open_solo
        if game.sealed:
            # R14: nothing public tells who has answered; a seat sees its own answer alone.
            assert view.asked and set(game.to_act) <= set(view.asked)
            assert view.turn == (viewer if viewer in game.to_act else None)
            sealed = dict(game.poll_sealed)
            assert view.answer == (sealed.get(viewer) if viewer is not None else None)
        else:
            assert view.asked == () and view.answer is None and view.turn == game.current_seat
        if viewer is None:  # a spectator sees no hand and has no options
            assert view.role is None and view.legal == ()
        else:
            assert view.hand is not None and len(view.hand) == view.counts[viewer]
            mine = viewer in game.to_act
            assert list(view.legal) == (game.legal_actions(viewer) if mine else [])
            role = None if emperor is None else "emperor" if viewer == emperor else None
            if settled and viewer != emperor:
                role = "guard" if viewer == guard else "rebel"
            assert view.role == role
        # R8.8, R9.4, R9.5: the guard is hidden from every other seat until revealed or the end.
        sees_guard = self.guard_revealed or over or (settled and viewer == guard)
        assert view.guard == (guard if sees_guard else None)
        sees_dark = self.solo_revealed or over or (viewer is not None and viewer == emperor)
        assert view.solo == ("open" if game.open_solo else "dark" if dark and sees_dark else None)

    def check_events(
        self, game: Game, viewer: int | None, events: list[dict[str, Any]], new: list[Any]
    ) -> None:
        """A seat's events are the public ones plus only its own private fields."""
        assert [e["seq"] for e in events] == [e.seq for e in new]
        for mine, event in zip(events, new, strict=True):
            shape = EVENT_SHAPES[event.kind]  # the kind's TypedDict: its fields, no others
            assert shape.__required_keys__ <= set(mine) <= shape.__annotations__.keys()
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
                if "forced" in extra:
                    assert viewer == event.public["seat"] == game.emperor
            if event.kind == "poll" and event.public["poll"] in ("show", "rebel", "grab"):
                # every seat but the emperor is asked, so being asked tells nothing
                others = set(range(SEATS)) - {self.emperor}
                assert sorted(event.public["seats"]) == sorted(others)


#: (rules, first seed, games): every preset, and QQ with 3s and 清3.
VIEW_GAMES = [
    *((CLASSIC, FIRST_SEED + 10 * block, 10) for block in range(3)),
    *((PRESETS[name], FIRST_SEED, 12) for name in ("weihai", "kk_simple", "kk_classic", "qq")),
    *((PRESETS[name], FIRST_SEED + 12, 6) for name in ("lianzhong_simple", "lianzhong_classic")),
    (QQ_THREES, FIRST_SEED, 8),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "first", "games"), VIEW_GAMES, ids=[f"{r.name}-{f}" for r, f, _ in VIEW_GAMES]
)
def test_r14_views_and_events_hold_only_what_each_seat_may_know(
    rules: Rules, first: int, games: int
) -> None:
    for seed in range(first, first + games):
        assert random_game(seed, varied(seed), after=ViewChecker(), rules=rules).is_over


def first_reveal(game: Game, role: str) -> int:
    """The sequence number of the event revealing ``role`` (guard or solo), or -1."""
    return next((e.seq for e in game.events if e.kind == "reveal" and e.public["role"] == role), -1)


def revealed_after(role: str, cause: str) -> Callable[[Game], bool]:
    """A game in which ``role`` is revealed right after an event of kind ``cause``."""

    def wanted(game: Game) -> bool:
        seq = first_reveal(game, role)
        return seq > 0 and game.events[seq - 1].kind == cause

    return wanted


def roles_seq(game: Game) -> int:
    """The sequence number of the event that settles the roles (R8.7 call, R9.3 roles)."""
    return next(e.seq for e in game.events if e.kind in ("call", "roles"))


CALLING = preferring(lambda g, a: isinstance(a, Call) or a == REBEL)
GUARD_REVEALS: dict[str, tuple[Rules, Policy, str]] = {
    "classic-r8_8-called-card": (CLASSIC, random_policy, "play"),
    "kk_simple-r9_4-show": (PRESETS["kk_simple"], preferring(wants(("show", SHOW))), "declare"),
    "qq-r8_10-show": (PRESETS["qq"], preferring(wants(("show", SHOW))), "declare"),
    "kk_simple-r9_4-b-star": (PRESETS["kk_simple"], leading_b_star(sparing(0)), "play"),
    "weihai-r9_3-transfer": (
        PRESETS["weihai"],
        preferring(wants(("solo", PASS), ("candidate", TRANSFER))),
        "transfer",
    ),
    "weihai-r9_5-rebellion": (
        PRESETS["weihai"],
        preferring(wants(("solo", PASS), ("show", PASS), ("rebel", REBEL))),
        "rebellion",
    ),
    "kk_classic-r9_5-rebellion": (PRESETS["kk_classic"], CALLING, "rebellion"),
}


@pytest.mark.parametrize("case", GUARD_REVEALS)
def test_r14_guard_is_known_to_itself_alone_until_the_reveal(case: str) -> None:
    rules, policy, cause = GUARD_REVEALS[case]
    game = find_game(revealed_after("guard", cause), policy, rules=rules)
    guard, settled, reveal = game.guard, roles_seq(game), first_reveal(game, "guard")
    for again in replay_steps(game):
        guards = [again.view(v).guard for v in VIEWERS]
        seen = len(again.events)
        if seen > reveal:
            assert guards == [guard] * len(VIEWERS)
        else:  # before the roles are settled nobody knows; then the guard alone
            assert guards == [guard if v == guard and seen > settled else None for v in VIEWERS]


DARK_SOLOS: dict[str, tuple[Rules, Policy, str]] = {
    "classic-r8_7-four-called": (CLASSIC, preferring(is_dark_solo_call), "game_over"),
    "kk_classic-r11_3-four-called": (
        PRESETS["kk_classic"],
        preferring(lambda g, a: is_dark_solo_call(g, a) or a == PASS),
        "game_over",
    ),
    "weihai-r9_3-both-marked-jokers": (
        PRESETS["weihai"],
        leading_b_star(
            preferring(
                wants(("solo", PASS), ("candidate", ACCEPT), ("show", PASS), ("rebel", PASS))
            )
        ),
        "play",
    ),
    "kk_simple-r9_5-rebellion": (
        PRESETS["kk_simple"],
        preferring(wants(("candidate", ACCEPT), ("rebel", REBEL))),
        "rebellion",
    ),
}


def dark_solo_revealed_after(cause: str) -> Callable[[Game], bool]:
    """A dark solo, revealed right after an event of kind ``cause`` (``game_over``: never)."""

    def wanted(game: Game) -> bool:
        dark = game.guard is None and not game.open_solo
        if cause == "game_over":
            return dark and first_reveal(game, "solo") < 0 and game.emperor is not None
        return dark and revealed_after("solo", cause)(game)

    return wanted


@pytest.mark.parametrize("case", DARK_SOLOS)
def test_r14_dark_solo_is_known_to_the_emperor_alone_until_revealed(case: str) -> None:
    rules, policy, cause = DARK_SOLOS[case]
    game = find_game(dark_solo_revealed_after(cause), policy, rules=rules)
    emperor, settled, reveal = game.emperor, roles_seq(game), first_reveal(game, "solo")
    for again in replay_steps(game):
        seen = len(again.events)
        if seen > settled:
            known = again.is_over or 0 <= reveal < seen
            solos = [again.view(v).solo for v in VIEWERS]
            assert solos == ["dark" if known or v == emperor else None for v in VIEWERS]


def test_r14_tribute_cards_reach_only_payer_and_receiver() -> None:
    tributes = 0
    for seed in range(3):
        _, games = play_match(seed, 3, checker=ViewChecker)
        tributes += sum(1 for g in games for e in g.events if e.kind == "tribute")
    assert tributes


def test_r14_r6_8_clearing_cards_reach_only_payer_and_receiver() -> None:
    """清3 cards (R6.8) are paid like tribute: only the cleared seat and its clearer see them."""
    match, games = play_match(0, 2, rules=QQ_THREES, checker=ViewChecker)
    first = match.results[0]
    assert first.cleared and any(e.kind == "tribute" for e in games[1].events)


def passes_seen(game: Game, poll: str) -> dict[bool, set[tuple[frozenset[str], str]]]:
    """Replaying ``game``: what every other viewer sees of each pass in ``poll`` (明保 or 造反)
    that is not the poll's last answer (the view keys that change, and the new events minus
    their sequence numbers and seat), split by whether the guard passed."""
    seen: dict[bool, set[tuple[frozenset[str], str]]] = {True: set(), False: set()}
    again = new_game(game.rules, seed=game.seed)
    for seat, action in game.actions:
        asked = again.poll == poll and action == PASS
        observers = [v for v in VIEWERS if v != seat]
        before = [again.view(v).to_json() for v in observers] if asked else []
        since = len(again.events)
        again.apply(action)
        if not asked or again.poll != poll:
            continue
        for viewer, old in zip(observers, before, strict=False):
            new = again.view(viewer).to_json()
            changed = frozenset(k for k in new if new[k] != old[k]) - {"legal"}
            events = [
                {k: v for k, v in e.items() if k not in ("seq", "seat")}
                for e in again.events_for(viewer, since)
            ]
            seen[seat == game.guard].add((changed, json.dumps(events)))
    return seen


@pytest.mark.parametrize(
    ("name", "poll"),
    [
        ("weihai", "show"),
        ("weihai", "rebel"),
        ("kk_simple", "show"),
        ("kk_classic", "rebel"),
        ("qq", "show"),
    ],
)
def test_r14_r9_4_r9_5_a_guards_pass_looks_exactly_like_anyone_elses(name: str, poll: str) -> None:
    """暗保 and "no 造反" are one ``pass`` (R9.4, R9.5, R8.10): the others' views and events
    cannot tell the guard's from anyone else's. Sealed (R14): until the poll's last answer the
    others see nothing at all change."""
    game = find_game(
        lambda g: g.guard is not None and all(passes_seen(g, poll).values()),
        preferring(lambda g, a: a == PASS or isinstance(a, Call)),
        rules=PRESETS[name],
    )
    seen = passes_seen(game, poll)
    assert seen[True] == seen[False]
    assert seen[True] == {(frozenset(), "[]")}


#: The phases in which roles are chosen (R8, R9, R11); tribute (R12) comes before them.
ROLE_PHASES = ("candidate", "call", "poll")


def hidden_guard(game: Game, seat: int) -> bool:
    """``seat`` is, or is bound to become, the guard, and nobody else knows it: it holds B*
    (R9.4; the double holder too, R9.3) or holds the called card's 4th copy (R8.7, R11.3)."""
    if game.guard_revealed:
        return False
    if game.rules.marked == "RB":
        return B_STAR in game.hand(seat) and seat != game.emperor
    return game.teams_set and seat == game.guard


def first_event_shape(game: Game, action: Any) -> tuple[tuple[Any, ...], bool]:
    """What everyone sees of ``action`` by the seat to act, on a copy of the game: the kind,
    keys and poll answer of the event it makes (in a sealed poll, its ``declare`` once the
    others have passed), and whether it names the seat openly (a ``reveal`` of it, or an open
    solo it declares)."""
    seat, since = game.current_seat, len(game.events)
    after = game.clone()
    after.apply(action)
    poll = after.poll
    while after.sealed and after.poll == poll:  # R14: told when the others have answered too
        after.apply(PASS)
    events = after.events_for(None, since)
    mine = [e for e in events if e["kind"] == "declare" and e["seat"] == seat]
    first = mine[0] if game.sealed else events[0]
    shape = (first["kind"], tuple(sorted(first)), first.get("poll"), first.get("answer"))
    named = any(e["kind"] in ("reveal", "open_solo") and e.get("seat") == seat for e in events)
    return shape, named


Offers = dict[tuple[str, str | None], dict[str, set[tuple[Any, ...]]]]


def role_phase_offers(game: Game, rng: random.Random, policy: Policy, offers: Offers) -> list[Any]:
    """Play ``game``'s role phases with ``policy``, adding to ``offers`` what every seat that is
    not a hidden guard was offered, by phase and poll, with the shape of each action; the
    hidden guard's offers that do not name it, as (phase and poll, action, shape)."""
    play(game, rng, until=lambda g: g.phase != "tribute")
    guards = []
    while game.phase in ROLE_PHASES:
        seat, where = game.current_seat, (game.phase, game.poll)
        assert seat is not None
        guard = hidden_guard(game, seat)
        for action in game.legal_actions():
            shape, named = first_event_shape(game, action)
            if not guard:
                offers.setdefault(where, {}).setdefault(str(action), set()).add(shape)
            elif not named:
                guards.append((where, str(action), shape))
        game.apply(policy(game, rng))
    return guards


@functools.cache
def others_offers(name: str) -> Offers:
    """What seats other than a hidden guard are offered in the role phases of 150 games."""
    offers: Offers = {}
    for seed in range(150):
        game = new_game(PRESETS[name], seed=seed)
        role_phase_offers(game, random.Random(seed), varied(seed), offers)
    return offers


@settings(max_examples=100)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), rng=st.randoms())
def test_r14_no_role_phase_action_singles_out_the_guard(
    name: str, seed: int, rng: random.Random
) -> None:
    """R14, R9.3: whatever a hidden guard is offered in the role phases either names it openly
    (明保, 转让, 独保, 明独, 抢独) or is offered to other seats in the same phase and poll too and,
    made, looks to everyone as theirs does (a yield, 登基, a pass)."""
    game = new_game(PRESETS[name], seed=seed)
    others = others_offers(name)
    for where, action, shape in role_phase_offers(game, rng, random_policy, {}):
        assert shape in others.get(where, {}).get(action, set()), (where, action, shape)


def test_r14_r9_3_weihai_rstar_holder_is_asked_to_ascend_with_or_without_b_star() -> None:
    """R9.3 (seed 004: the R* holder "must choose 登基"): whether they also hold B* (a dark solo
    in the making) must not show in the game's course, so the game waits for their 登基 either
    way, as it waits for every seat in a poll."""
    rules = PRESETS["weihai"]
    waits: dict[bool, set[bool]] = {True: set(), False: set()}
    for seed in range(30):
        game = play(
            new_game(rules, seed=seed),
            random.Random(seed),
            preferring(wants(("solo", PASS))),
            until=lambda g: g.poll is None,
        )
        holder = next(e.public["seat"] for e in game.events if e.kind == "candidate")
        both = B_STAR in game.hand(holder)
        waits[both].add(game.phase == "candidate" and game.current_seat == holder)
    assert waits == {True: {True}, False: {True}}


@pytest.mark.parametrize("name", ["classic", "kk_simple", "kk_classic"])
def test_r14_an_escape_ends_the_game_in_every_view(name: str) -> None:
    """R10.4: whoever escapes, every view shows it and the result; nobody has options left."""
    game = reach(lambda g: g.phase == "play" and len(g.actions) > 10, rules=PRESETS[name])
    checker = ViewChecker()
    again = new_game(game.rules, seed=game.seed)
    checker(again)
    for _, action in game.actions:
        again.apply(action)
        checker(again)
    seat = ((again.current_seat or 0) + 3) % SEATS
    again.apply(Escape(seat))
    checker(again)
    for viewer in VIEWERS:
        view = again.view(viewer)
        assert view.escaped == seat and view.phase == "over" and view.legal == ()
        assert view.result is not None and view.result.escaped == seat
        assert view.guard == again.guard


def test_every_event_kind_has_its_typed_dict() -> None:
    assert sorted(EVENT_SHAPES) == sorted(get_args(EventKind))


def test_a_view_round_trips_through_json() -> None:
    game = reach(lambda g: g.phase == "play" and g.lead is not None and len(g.places) > 0)
    for viewer in VIEWERS:
        view = game.view(viewer)
        assert view.lead is not None and view.trick and view.played
        assert View.from_json(json.loads(json.dumps(view.to_json()))) == view


def test_r14_events_since_is_the_tail_of_the_log() -> None:
    game = random_game(3)
    for viewer in VIEWERS:
        full = game.events_for(viewer)
        assert [e["seq"] for e in full] == list(range(len(game.events)))
        for since in (0, 1, 40, len(full)):
            assert game.events_for(viewer, since) == full[since:]
