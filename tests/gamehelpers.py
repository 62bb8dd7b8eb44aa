"""Game-test helpers: a seeded random driver and an independent referee of the event log.

The :class:`Referee` restates RULES.md R6, R8, R10 and R12 on its own: it tracks every hand
from the deal event's private hands and checks each later event, the seat to act, the legal
actions and the card count against its own reading. It reads the engine only through the
event log and the public surface (``hand()``, ``view()``, ``legal_actions()``, ``phase``,
``current_seat``, ``rules``, ``tribute_from``), never through its scoring or move code.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import Any

from baohuang import (
    ACCEPT,
    DECLINE,
    PASS,
    Action,
    Call,
    Card,
    Game,
    GameResult,
    Match,
    OpenSolo,
    Rules,
    Tribute,
    new_game,
    parse_cards,
)
from baohuang.cards import CARDS

SEATS = 5
CLASSIC = Rules.preset("classic")
TWO = 12
PLACE_POINTS = (4, 2, 0, -2, -4)  # R10: 1st … 5th
R = Card.parse("R")
SIX = 3
RANKS = "3456789TJQKA2BR"

Policy = Callable[[Game, random.Random], Action]
Snapshot = tuple[tuple[str, ...], int, int]


def random_policy(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(game.legal_actions())


def preferring(wanted: Callable[[Game, Action], bool]) -> Policy:
    """A random policy that picks a ``wanted`` action whenever one is legal."""

    def policy(game: Game, rng: random.Random) -> Action:
        legal = game.legal_actions()
        return rng.choice([a for a in legal if wanted(game, a)] or legal)

    return policy


#: Declines whenever it may in the first deal (declining always would void deals forever, R8.6).
FIRST_DEAL_DECLINER = preferring(lambda g, a: a == DECLINE and g.deal_no == 0)


def is_dark_solo_call(game: Game, action: Action) -> bool:
    """A call of a card the caller holds all four copies of (暗独, R8.7)."""
    seat = game.current_seat
    return isinstance(action, Call) and seat is not None and game.hand(seat).count(action.card) == 4


def play(
    game: Game,
    rng: random.Random,
    policy: Policy = random_policy,
    after: Callable[[Game], None] | None = None,
    until: Callable[[Game], bool] | None = None,
) -> Game:
    """Apply ``policy`` until the game is over or ``until`` holds; ``after`` runs after each."""
    while not game.is_over and not (until and until(game)):
        game.apply(policy(game, rng))
        if after:
            after(game)
    return game


def random_game(
    seed: int | str,
    policy: Policy = random_policy,
    after: Callable[[Game], None] | None = None,
    rules: Rules = CLASSIC,
) -> Game:
    """A whole game dealt from ``seed`` and played by ``policy`` seeded with ``seed`` too."""
    game = new_game(rules, seed=seed)
    if after:
        after(game)
    return play(game, random.Random(seed), policy, after)


def find_game(
    wanted: Callable[[Game], bool], policy: Policy = random_policy, limit: int = 300
) -> Game:
    """The first random game of seeds 0, 1, … (bounded) for which ``wanted`` holds.

    The search plays fast; the game found is played again under a :class:`Referee`.
    """
    for seed in range(limit):
        if wanted(random_game(seed, policy)):
            return random_game(seed, policy, after=Referee())
    raise AssertionError(f"none of {limit} seeded games shows the wanted situation")


def reach(wanted: Callable[[Game], bool], policy: Policy = random_policy, limit: int = 100) -> Game:
    """A game stopped at the first state where ``wanted`` holds (seeds 0, 1, …, bounded)."""
    for seed in range(limit):
        game = play(new_game(CLASSIC, seed=seed), random.Random(seed), policy, until=wanted)
        if wanted(game):
            return game
    raise AssertionError(f"none of {limit} seeded games reaches the wanted state")


def replay_steps(game: Game) -> Iterator[Game]:
    """A new game from ``game``'s rules and seed, yielded after each of its actions in turn."""
    again = new_game(game.rules, seed=game.seed, tribute_from=game.tribute_from)
    for _, action in game.actions:
        again.apply(action)
        yield again


def play_match(
    seed: int | str,
    games: int = 3,
    policy: Policy = random_policy,
    rules: Rules = CLASSIC,
    checker: Callable[[], Callable[[Game], None]] | None = None,
) -> tuple[Match, list[Game]]:
    """A whole match of ``policy`` games; ``checker()`` gives each game a fresh after-hook."""
    match = Match(rules, games=games, seed=seed)
    rng = random.Random(seed)
    played: list[Game] = []
    game: Game | None = match.game
    while game is not None:
        after = checker() if checker else None
        if after:
            after(game)
        played.append(play(game, rng, policy, after))
        game = match.next_game()
    return match, played


def find_match(
    wanted: Callable[[list[Game]], bool], policy: Policy = random_policy, limit: int = 200
) -> list[Game]:
    """The games of the first two-game match (seeds 0, 1, …, bounded) for which ``wanted`` holds.

    The search plays fast; the match found is played again with a :class:`Referee` per game.
    """
    for seed in range(limit):
        if wanted(play_match(seed, 2, policy)[1]):
            return play_match(seed, 2, policy, checker=Referee)[1]
    raise AssertionError(f"none of {limit} seeded matches shows the wanted situation")


def public_events(game: Game, kind: str) -> list[dict[str, Any]]:
    """The public fields of every event of ``kind``."""
    return [e.public for e in game.events if e.kind == kind]


def snapshot(game: Game) -> Snapshot:
    """Everything observable: every seat's and a spectator's view, and the log lengths."""
    views = tuple(json.dumps(game.view(seat), sort_keys=True) for seat in (None, *range(SEATS)))
    return views, len(game.events), len(game.actions)


def has_callable_triple(hand: Counter[Card]) -> bool:
    """R8.4: three or more copies of one suited card whose rank is not 2 (nor a joker)."""
    return any(n >= 3 and card.rank < TWO for card, n in hand.items())


def full_pack(rules: Rules) -> dict[Card, int]:
    """R2, R7: four copies of each joker and of every suited card from ``ranks_from`` up."""
    lowest = RANKS.index(rules.ranks_from)
    return {card: 4 for card in CARDS[:54] if card.is_joker or card.rank >= lowest}


def r4_beats(response: Sequence[Card], current: Sequence[Card]) -> bool:
    """R4 as written: same size, and sorted high to low every card strictly higher."""
    mine = sorted((c.rank for c in response), reverse=True)
    theirs = sorted((c.rank for c in current), reverse=True)
    return len(mine) == len(theirs) and all(a > b for a, b in zip(mine, theirs, strict=True))


def roast_beats(response: Sequence[Card], current: Sequence[Card]) -> bool:
    """R5.1 烤牌 as written: more joker power (B 1, R 2); the rest empty, or same count higher."""

    def power(cards: Sequence[Card]) -> int:
        return sum(c.rank - 12 for c in cards if c.is_joker)  # B is rank 13, R rank 14

    mine = [c.rank for c in response if not c.is_joker]
    theirs = [c.rank for c in current if not c.is_joker]
    if not power(current) or power(response) <= power(current):
        return False
    if not theirs:
        return not mine
    return len(mine) == len(theirs) and mine[0] > theirs[0]


def expected_scores(
    emperor: int, guard: int | None, places: Sequence[int], open_solo: bool
) -> list[int]:
    """R10.1: T from place points; emperor 2T, guard T, rebels −T; solo 4T; 明独 ×2."""
    points = {seat: PLACE_POINTS[place] for place, seat in enumerate(places)}
    t = points[emperor] + (points[guard] if guard is not None else 0)
    t *= 2 if open_solo else 1
    scores = [-t] * SEATS
    scores[emperor] = 4 * t if guard is None else 2 * t
    if guard is not None:
        scores[guard] = t
    return scores


def expected_payers(result: GameResult | None) -> Counter[int]:
    """R12: how many cards each seat of the losing side pays (明独 doubles; a draw: none)."""
    if result is None or result.outcome == "draw":
        return Counter()
    emperor, guard = result.emperor, result.guard
    rebels = [s for s in range(SEATS) if s not in (emperor, guard)]
    per = 2 if result.open_solo else 1
    if result.outcome == "emperor":
        return Counter({s: per for s in rebels})
    if guard is None:
        return Counter({emperor: 4 * per})
    return Counter({emperor: 2, guard: 1})


def check_receivers(result: GameResult, transfers: Sequence[tuple[int, int, Card]]) -> None:
    """R12: who takes which paid card."""
    emperor, guard = result.emperor, result.guard
    got: dict[int, list[int]] = {}
    for _, to, card in transfers:
        got.setdefault(to, []).append(card.rank)
    if result.outcome == "emperor":
        assert set(got) <= {emperor, guard}
        if guard is not None:  # the guard takes the middle card of three
            ranks = sorted(card.rank for _, _, card in transfers)
            assert got[guard] == [ranks[1]] and len(got[emperor]) == 2
        return
    rebels = [s for s in result.places if s not in (emperor, guard)]
    assert sorted(got) == sorted(rebels)
    assert all(len(got[s]) == len(transfers) // len(rebels) for s in rebels)
    for better, worse in pairwise(rebels):  # better finishers take higher cards
        assert min(got[better]) >= max(got[worse])


class Referee:
    """Checks a game's event log and state against an independent reading of the rules.

    Call it after every action (it is an ``after`` hook for :func:`play`); it reads the events
    added since the previous call.
    """

    def __init__(self) -> None:
        self.seen = 0
        self.deal_no = -1
        self.new_deal([])

    def new_deal(self, hands: list[Counter[Card]]) -> None:
        """Forget everything but the deal number: a new deal starts (R8.1, R8.6)."""
        self.hands = hands
        self.pack: dict[Card, int] = {}
        self.pile: list[Card] = [R]
        self.played: Counter[Card] = Counter()
        self.transit: list[tuple[int, Card]] = []
        self.due: Counter[int] = Counter()
        self.c0: int | None = None
        self.turn = 0
        self.emperor: int | None = None
        self.called: Card | None = None
        self.guard: int | None = None
        self.open_solo = False
        self.pending_reveal: int | None = None
        self.revealed = False
        self.lead: list[Card] | None = None
        self.last = -1
        self.passed: set[int] = set()
        self.next_round: tuple[int, bool] | None = None
        self.places: list[int] = []
        self.to_act: int | None = None

    # ------------------------------------------------------------------ driver

    def __call__(self, game: Game) -> None:
        for event in game.events[self.seen :]:
            if self.pending_reveal is not None:
                assert event.kind == "reveal", f"R8.8: no reveal after {self.pending_reveal}'s play"
            handler = getattr(self, "on_" + event.kind)
            handler(game, event.public, event.private)
        self.seen = len(game.events)
        self.check_state(game)

    def sizes(self) -> list[int]:
        """Each seat's card count, as the referee tracks it."""
        return [sum(hand.values()) for hand in self.hands]

    def next_holder(self, seat: int) -> int | None:
        """The next seat in play order (R1) after ``seat`` that still holds cards."""
        return next(
            (s for i in range(1, SEATS) if self.hands[s := (seat + i) % SEATS].total()), None
        )

    # ------------------------------------------------------------------ deal, tribute (R8.1, R12)

    def on_deal(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert pub["deal"] == self.deal_no + 1
        self.deal_no = pub["deal"]
        self.new_deal([Counter(parse_cards(priv[s]["hand"])) for s in range(SEATS)])
        self.due = expected_payers(game.tribute_from)
        # R8.1: one big joker set aside, the rest dealt one by one (43 each in `classic`)
        self.pack = full_pack(game.rules)
        sizes = self.sizes()
        assert sizes == pub["counts"] and max(sizes) - min(sizes) <= 1
        total = sum(self.hands, Counter())
        total[R] += 1
        assert total == self.pack

    def on_tribute_due(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert self.due and Counter(dict(pub["payers"])) == self.due

    def on_tribute_paid(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        card = Card.parse(priv[seat]["card"])
        assert set(priv) == {seat} and self.due[seat] > 0
        assert card.rank == max(c.rank for c in self.hands[seat])  # R12: the highest card
        self.hands[seat] -= Counter([card])
        self.due[seat] -= 1
        self.transit.append((seat, card))

    def on_tribute(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert game.tribute_from is not None and self.due.total() == 0
        seen = {s: Counter((t["from"], t["to"], t["card"]) for t in priv[s]["cards"]) for s in priv}
        received = sum(
            (Counter({k: n for k, n in seen[s].items() if k[1] == s}) for s in seen), Counter()
        )
        for seat, mine in seen.items():  # each side of a transfer sees exactly that transfer
            assert mine == Counter({k: n for k, n in received.items() if seat in k[:2]})
        assert Counter((t["from"], t["to"]) for t in pub["transfers"]) == Counter(
            k[:2] for k in received.elements()
        )
        transfers = [(p, to, Card.parse(text)) for p, to, text in received.elements()]
        assert Counter((p, c) for p, _, c in transfers) == Counter(self.transit)
        check_receivers(game.tribute_from, transfers)
        for _, to, card in transfers:
            self.hands[to][card] += 1
        self.transit = []
        assert pub["counts"] == self.sizes()

    # ------------------------------------------------------------------ emperor and guard (R8)

    def on_candidate(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        assert self.due.total() == 0 and not self.transit  # R12 before R8.3
        if self.c0 is None:
            self.c0 = seat
        assert seat == (self.c0 - self.turn) % SEATS  # R8.5: to the 上家; R8.6: c0 again
        assert Counter(parse_cards(pub["pile"])) == Counter(self.pile)
        self.to_act = seat

    def on_decline(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat, added = pub["seat"], pub["added"]
        hand = self.hands[seat]
        assert seat == self.to_act and set(priv) == {seat}
        assert priv[seat]["auto"] == (not has_callable_triple(hand))  # R8.4
        twos = [c for c in hand if c.rank == TWO]
        if 0 < self.turn < SEATS and twos:  # R8.5: every decliner but c0's first turn
            assert added is not None, "R8.5: a decliner holding a 2 must add one"
            card = Card.parse(added)
            assert card in twos
            hand -= Counter([card])
            self.pile.append(card)
        elif self.turn < SEATS:
            assert added is None
        # turn 5 is c0's second decline: the deal is void (R8.6), so any 2 it adds is moot.
        assert pub["counts"] == self.sizes()
        self.turn += 1

    def on_void(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert self.turn == SEATS + 1 and pub["deal"] == self.deal_no  # R8.6: c0 declined twice

    def on_accept(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        assert seat == self.to_act and has_callable_triple(self.hands[seat])
        assert Counter(parse_cards(pub["pile"])) == Counter(self.pile)
        self.hands[seat].update(self.pile)  # R8.3: the pile joins the emperor's hand
        self.pile = []
        self.emperor = seat
        assert pub["counts"] == self.sizes()

    def on_call(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat, card = pub["seat"], Card.parse(pub["card"])
        assert seat == self.emperor and card.rank < TWO and self.hands[seat][card] >= 3
        holders = [s for s in range(SEATS) if s != seat and self.hands[s][card]]
        assert len(holders) <= 1  # four copies: the 4th is in at most one other hand
        self.guard = holders[0] if holders else None
        if self.guard is None:  # R8.7 暗独: the emperor holds all four, known to itself only
            assert priv == {seat: {"solo": "dark"}}
        else:
            assert priv == {self.guard: {"guard": True}}
        self.called = card
        self.next_round = (seat, False)  # R6.1: the emperor leads first

    def on_open_solo(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat, card = pub["seat"], Card.parse(pub["card"])
        assert seat == self.emperor and card.rank < TWO and self.hands[seat][card] == 4
        assert pub["shown"] == [str(card)] * 4 and not priv
        self.called, self.open_solo = card, True
        self.next_round = (seat, False)

    # ------------------------------------------------------------------ rounds (R6)

    def on_round(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert (pub["leader"], pub["jiefeng"]) == self.next_round
        self.to_act = pub["leader"]
        self.lead, self.passed, self.next_round = None, set(), None

    def on_play(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat, cards = pub["seat"], parse_cards(pub["cards"])
        hand = self.hands[seat]
        assert seat == self.to_act and Counter(cards) <= hand
        assert len({c.rank for c in cards if not c.is_joker}) <= 1  # R3: one rank + jokers
        rules = game.rules
        assert (
            self.lead is None
            or r4_beats(cards, self.lead)
            or (rules.roast and roast_beats(cards, self.lead))
        )
        hand -= Counter(cards)
        if rules.hold_sixes and any(c.rank == SIX for c in cards):
            assert not hand, "R6.7 憋6: a play with a 6 empties the hand"
        self.played.update(cards)
        assert pub["left"] == hand.total()
        if not self.revealed and seat != self.emperor and self.called in cards:
            self.pending_reveal = seat
        self.lead, self.last, self.passed = cards, seat, set()
        self.to_act = self.next_holder(seat)

    def on_reveal(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        assert pub == {"seat": self.pending_reveal, "role": "guard"} and self.guard == pub["seat"]
        self.pending_reveal, self.revealed = None, True

    def on_pass(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        assert seat == self.to_act and self.lead is not None  # R6.2: the leader cannot pass
        self.passed.add(seat)
        holders = {s for s in range(SEATS) if self.hands[s].total()}
        if self.passed < holders - {self.last}:
            self.to_act = self.next_holder(seat)
        elif self.hands[self.last].total():  # R6.3: the last player leads
            self.next_round, self.to_act = (self.last, False), None
        else:  # R6.5 接风: the next seat after the one who went out
            self.next_round, self.to_act = (self.next_holder(self.last), True), None

    def on_out(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        seat, place = pub["seat"], pub["place"]
        assert place == len(self.places) + 1  # R6.4
        holders = [s for s in range(SEATS) if self.hands[s].total()]
        assert (holders == [seat]) if place == SEATS else not self.hands[seat].total()
        self.places.append(seat)

    def on_game_over(self, game: Game, pub: dict[str, Any], priv: dict[int, Any]) -> None:
        places, emperor = self.places, self.emperor
        assert emperor is not None and sorted(places) == list(range(SEATS))  # R6.6
        scores = expected_scores(emperor, self.guard, places, self.open_solo)
        team = scores[emperor]
        outcome = "emperor" if team > 0 else "rebels" if team < 0 else "draw"
        assert pub == {
            "emperor": emperor,
            "guard": self.guard,
            "places": places,
            "scores": scores,
            "outcome": outcome,
            "open_solo": self.open_solo,
        }
        assert sum(scores) == 0

    # ------------------------------------------------------------------ state

    def check_state(self, game: Game) -> None:
        """Hands, counts, the card total, the seat to act and its options match the referee."""
        # Plain dict equality (fast, in C): the referee's counters never keep zero counts.
        assert [dict(Counter(game.hand(s))) for s in range(SEATS)] == [dict(h) for h in self.hands]
        public = game.view(None)
        assert public["counts"] == self.sizes()
        assert Counter(parse_cards(public["pile"])) == Counter(self.pile)
        total = Counter(self.pile) + self.played
        for hand in self.hands:
            total.update(hand)
        total.update(card for _, card in self.transit)
        assert dict(total) == self.pack  # every card accounted for (216 in `classic`)
        self.check_turn(game)

    def check_turn(self, game: Game) -> None:
        """The seat to act and its legal actions, by phase."""
        seat, legal = game.current_seat, game.legal_actions()
        if game.is_over:
            assert seat is None and not legal and game.result is not None
            return
        assert seat is not None
        hand = self.hands[seat]
        if game.phase == "tribute":
            top = max(c.rank for c in hand)
            assert self.due[seat] and set(legal) == {Tribute(c) for c in hand if c.rank == top}
            return
        assert seat == self.to_act
        if game.phase == "candidate":  # R8.4: only a seat with a callable triple is asked
            assert legal == [ACCEPT, DECLINE] and has_callable_triple(hand)
        elif game.phase == "call":  # R8.7; a single option is taken by the engine
            triples = [c for c, n in hand.items() if n >= 3 and c.rank < TWO]
            options = {Call(c) for c in triples} | {OpenSolo(c) for c in triples if hand[c] == 4}
            assert seat == self.emperor and set(legal) == options and len(options) > 1
        else:
            assert (PASS in legal) == (self.lead is not None)
