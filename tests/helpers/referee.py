"""An independent referee of a game's event log.

The :class:`Referee` restates docs/rules.md R3–R12 on its own, for every preset of R7: it tracks
every hand from the deal event's private hands and checks each later event, the seat to act,
the legal actions and the card count against its own reading. It reads the engine only through
the event log and the public surface (``hand()``, ``view()``, ``legal_actions()``, ``phase``,
``current_seat``, ``rules``, ``previous``), never through its scoring, role or move code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from baohuang import (
    ACCEPT,
    DECLINE,
    PASS,
    Action,
    Call,
    Card,
    Game,
    OpenSolo,
    Tribute,
    parse_cards,
)
from baohuang.engine.actions import GRAB, KICK, REBEL, SHOW, SOLO, TRANSFER
from baohuang.engine.cards import NUM_RANKS
from helpers.cards import B_STAR, R_STAR, SEATS, SIX, THREE, TWO, R
from helpers.deals import (
    can_grab,
    check_receivers,
    deal_sizes,
    expected_dealer,
    expected_due,
    full_pack,
    has_callable_triple,
    yield_choices,
)
from helpers.reading import Pub
from helpers.reference import is_one_set, play_text, referee_beats
from helpers.rulesets import CLASSIC
from helpers.scoring import expected_outcome, expected_scores

#: Candidate turns after which the deal is void: R8.6 c0 declines twice; R9.3 two full laps;
#: R11.2 a second lap in which nobody is able.
VOID_AFTER = {"called": SEATS + 1, "fixed": 2 * SEATS, "kk_classic": 2 * SEATS}
#: The polls whose answers are sealed until all are in (R14): any seat yet to answer may act,
#: and the declarations come together, in the poll's order, when the last has answered.
SEALED = frozenset({"show", "rebel"})
#: Events that only ever follow a play or a declaration the referee has foreseen.
FORESEEN = frozenset({"reveal", "cleared", "kick", "rebellion"})


class Referee:
    """Checks a game's event log and state against an independent reading of the rules.

    Call it after every action (it is an ``after`` hook for :func:`play`); it reads the events
    added since the previous call.
    """

    def __init__(self) -> None:
        self.seen = 0
        self.deal_no = -1
        self.rules = CLASSIC
        self.new_deal([])

    def new_deal(self, hands: list[Counter[Card]]) -> None:
        """Forget everything but the deal number: a new deal starts (R8.1, R8.6, R9.3)."""
        self.hands = hands
        self.pack: dict[Card, int] = {}
        self.pile: list[Card] = []
        self.played: Counter[Card] = Counter()
        self.due: Counter[tuple[int, int | None]] = Counter()
        self.due_order: list[tuple[int, int | None]] = []
        self.transit: list[tuple[int, int | None, Card]] = []
        self.c0: int | None = None
        self.dealer = -1
        self.turn = 0
        self.forced: int | None = None  # R9.3 转让: the seat that must accept
        self.transferer: int | None = None  # and the seat that stays guard
        self.emperor: int | None = None
        self.called: Card | None = None
        self.guard: int | None = None
        self.settled = False
        self.reveal_card: Card | None = None
        self.open_solo = self.open_guard = self.rebellion = self.kicked = False
        self.guard_revealed = self.solo_revealed = False
        self.poll: str | None = None
        self.polls: list[str] = []
        self.queue: list[int] = []
        self.rebels: list[int] = []
        self.expected: list[tuple[str, Pub]] = []
        self.last_event: tuple[str, Pub] = ("", {})
        self.rounds = 0
        self.lead: list[Card] | None = None
        self.last = -1
        self.passed: set[int] = set()
        self.next_round: tuple[int | None, bool] | None = None
        self.places: list[int] = []
        self.watch: int | None = None
        self.cleared: list[tuple[int, int]] = []
        self.escaped: int | None = None
        self.to_act: int | None = None

    # ------------------------------------------------------------------ driver

    def __call__(self, game: Game) -> None:
        self.rules = game.rules
        for event in game.events[self.seen :]:
            key = (event.kind, event.public)
            if key in self.expected:
                self.expected.remove(key)
            else:
                assert not self.expected, f"expected {self.expected} before {key}"
                assert event.kind not in FORESEEN, f"unforeseen {key}"
            handler = getattr(self, "on_" + event.kind)
            handler(game, event.public, event.private)
            self.last_event = key
        self.seen = len(game.events)
        self.check_state(game)

    def expect(self, kind: str, **public: Any) -> None:
        """The next events must include this one (before any event not foreseen)."""
        self.expected.append((kind, public))

    def sizes(self) -> list[int]:
        """Each seat's card count, as the referee tracks it."""
        return [hand.total() for hand in self.hands]

    def next_holder(self, seat: int) -> int | None:
        """The next seat in play order (R1) after ``seat`` that still holds cards."""
        return next(
            (s for i in range(1, SEATS) if self.hands[s := (seat + i) % SEATS].total()), None
        )

    def holder(self, card: Card) -> int | None:
        """The seat holding ``card`` (a marked joker: one copy)."""
        return next((s for s in range(SEATS) if self.hands[s][card]), None)

    def give(self, seat: int, cards: Sequence[Card]) -> None:
        """``cards`` join the seat's hand."""
        self.hands[seat].update(cards)

    def take(self, seat: int, cards: Sequence[Card]) -> None:
        """``cards`` leave the seat's hand, which must hold them."""
        hand = self.hands[seat]
        assert Counter(cards) <= hand, f"seat {seat} does not hold {cards}"
        hand -= Counter(cards)

    # ------------------------------------------------------------------ deal, tribute (R12)

    def on_deal(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert pub["deal"] == self.deal_no + 1
        self.deal_no = pub["deal"]
        self.new_deal([Counter(parse_cards(priv[s]["hand"])) for s in range(SEATS)])
        rules = self.rules
        self.due = expected_due(rules, game.previous)
        self.pack = full_pack(rules)
        dealt = sum(self.hands, Counter())
        self.dealer = pub["dealer"]
        previous = game.previous.emperor if game.previous is not None else None
        if rules.emperor_card_aside:
            self.pile = [R]  # R8.1: one big joker set aside as the emperor card
        if rules.selection != "called":  # R9.1, R11.1: from the dealer
            assert self.dealer == expected_dealer(game.previous)
        elif rules.qq_chain and previous is not None:  # R8.9: from the previous emperor
            assert self.dealer == previous
        assert dict(dealt + Counter(self.pile)) == self.pack
        assert pub["counts"] == self.sizes() == deal_sizes(dealt.total(), pub["dealer"])

    def on_tribute_due(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        self.due_order = [(payer, receiver) for payer, receiver in pub["payers"]]
        assert self.due_order and Counter(self.due_order) == self.due

    def on_tribute_paid(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        card = Card.parse(priv[seat]["card"])
        assert set(priv) == {seat} and self.due_order[0][0] == seat
        assert card.rank == max(c.rank for c in self.hands[seat])  # R12, R6.8: the highest card
        self.take(seat, [card])
        _, receiver = self.due_order.pop(0)
        self.due[(seat, receiver)] -= 1
        self.transit.append((seat, receiver, card))

    def on_tribute(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert game.previous is not None and not self.due_order
        seen = {s: Counter((t["from"], t["to"], t["card"]) for t in priv[s]["cards"]) for s in priv}
        received = sum(
            (Counter({k: n for k, n in seen[s].items() if k[1] == s}) for s in seen), Counter()
        )
        for seat, mine in seen.items():  # each side of a transfer sees exactly that transfer
            assert mine == Counter({k: n for k, n in received.items() if seat in k[:2]})
        assert Counter((t["from"], t["to"]) for t in pub["transfers"]) == Counter(
            k[:2] for k in received.elements()
        )
        got = Counter((p, to, Card.parse(text)) for p, to, text in received.elements())
        owed = Counter((p, to, card) for p, to, card in self.transit if to is not None)
        assert owed <= got  # R6.8: each 清3 card goes to its clearer
        main = list((got - owed).elements())
        assert Counter((p, c) for p, _, c in main) == Counter(
            (p, c) for p, to, c in self.transit if to is None
        )
        if main:
            check_receivers(self.rules, game.previous, main)
        for _, to, card in got.elements():
            self.give(to, [card])
        self.transit = []
        assert pub["counts"] == self.sizes()

    # ------------------------------------------------------------------ the candidate chain

    def on_candidate(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        if self.c0 is None:
            self.c0 = seat
            if self.rules.selection != "called":  # R9.3, R11.2: the R* holder; R* is the pile
                assert self.hands[seat][R_STAR] == 1
                assert self.polls == (["solo"] if self.rules.open_solo_anyone else [])
                self.take(seat, [R_STAR])
                self.pile = [R_STAR]
            elif self.rules.qq_chain:  # R8.9: the starter, the seat dealt first
                assert seat == self.dealer and not self.pile
        assert seat == (self.c0 - self.turn) % SEATS  # to the 上家; R8.6: c0 again
        assert self.forced in (None, seat)
        assert Counter(parse_cards(pub["pile"])) == Counter(self.pile)
        self.to_act = seat

    def candidate_options(self, seat: int) -> set[Action]:
        """R8.4–R8.5, R9.3, R11.2: what the candidate may answer."""
        hand, selection = self.hands[seat], self.rules.selection
        if self.forced is not None:
            return {ACCEPT}  # R9.3 转让: the 上家 must become emperor
        if selection == "fixed":
            pass_on = {DECLINE} if self.rules.yielding else set()
            if hand[B_STAR]:
                # 登基 (暗独保), 独保, and a plain yield (KK/联众) or weihai's 转让
                return {ACCEPT, SOLO} | (pass_on or {TRANSFER})
            return {ACCEPT} | pass_on
        if not has_callable_triple(hand):
            return {DECLINE}
        four = any(n >= 4 and not card.is_joker for card, n in hand.items())
        if selection == "kk_classic" and self.turn >= SEATS and not four:
            return {ACCEPT}  # R11.2: after a lap the able must accept, unless holding four
        return {ACCEPT, DECLINE}

    def hand_on(self, seat: int, added: str | None) -> None:
        """A yielder's card joining the pile (R8.5, R9.3)."""
        choices = yield_choices(self.rules, self.turn, self.hands[seat])
        if self.rules.selection == "called" and self.turn >= SEATS:
            choices = None if added is None else {Card.parse(added)}  # moot: the deal is void
        if choices is None:
            assert added is None
            return
        card = Card.parse(added or "")
        assert card in choices
        self.take(seat, [card])
        self.pile.append(card)

    def on_decline(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        options = self.candidate_options(seat)
        assert seat == self.to_act and DECLINE in options and pub["to"] == (seat - 1) % SEATS
        assert priv == {seat: {"auto": options == {DECLINE}}}  # R8.4, R11.2
        self.hand_on(seat, pub["added"])
        assert pub["counts"] == self.sizes()
        self.turn += 1
        self.to_act = None

    def on_transfer(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        """R9.3 weihai 转让: only B*'s holder may, so it reveals the guard (R14)."""
        seat = pub["seat"]
        assert seat == self.to_act and TRANSFER in self.candidate_options(seat)
        assert pub["to"] == (seat - 1) % SEATS and priv == {seat: {"auto": False}}
        self.hand_on(seat, pub["added"])
        assert pub["counts"] == self.sizes()
        self.turn += 1
        self.forced, self.transferer, self.to_act = pub["to"], seat, None
        self.expect("reveal", seat=seat, role="guard")

    def on_void(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert self.turn == VOID_AFTER[self.rules.selection] and pub["deal"] == self.deal_no
        assert self.emperor is None

    def on_accept(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat = pub["seat"]
        assert seat == self.to_act and ACCEPT in self.candidate_options(seat)
        assert Counter(parse_cards(pub["pile"])) == Counter(self.pile)
        self.give(seat, self.pile)  # the pile joins the emperor's hand
        self.pile = []
        self.emperor, self.forced = seat, None
        assert pub["counts"] == self.sizes()

    # ------------------------------------------------------------------ roles (R8.7, R9, R11)

    def on_roles(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        """R9.3–R9.4: the B* holder is the guard; holding both is a dark solo (暗独保)."""
        emperor = self.emperor
        assert self.rules.selection == "fixed" and self.last_event[0] == "accept"
        assert emperor is not None and pub == {"emperor": emperor} and not self.settled
        holder = self.holder(B_STAR)
        self.guard = holder if holder != emperor else None
        if self.transferer is not None:  # R9.3 转让: the yielder stays guard
            assert self.guard == self.transferer
        assert priv == (
            {emperor: {"solo": "dark"}} if self.guard is None else {holder: {"guard": True}}
        )
        self.settled, self.reveal_card = True, B_STAR

    def on_call(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat, card = pub["seat"], Card.parse(pub["card"])
        assert self.rules.selection in ("called", "kk_classic") and not self.settled
        assert seat == self.emperor and card.rank < TWO and self.hands[seat][card] >= 3
        holders = [s for s in range(SEATS) if s != seat and self.hands[s][card]]
        assert len(holders) <= 1  # four copies: the 4th is in at most one other hand
        self.guard = holders[0] if holders else None
        # R8.7 暗独, R11.3 暗独保: known to the emperor only; so is a call the emperor had no
        # choice in (classic's one callable triple, no 明独: R11's 明独保 is always a choice).
        expected: dict[int, dict[str, Any]] = (
            {seat: {"solo": "dark"}} if self.guard is None else {self.guard: {"guard": True}}
        )
        triples = [c for c, n in self.hands[seat].items() if c.rank < TWO and n >= 3]
        if self.rules.selection == "called" and len(triples) == 1 and self.hands[seat][card] < 4:
            expected.setdefault(seat, {})["forced"] = True
        assert priv == expected
        self.called = self.reveal_card = card
        self.settled = True

    def on_open_solo(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat, how = pub["seat"], pub["how"]
        assert not priv and set(pub) == {"seat", "card", "shown", "how"}
        if how == "shown":  # R8.7 明独: four copies of one suited card, not 2
            card = Card.parse(pub["card"])
            assert self.rules.selection == "called" and seat == self.emperor and not self.settled
            assert card.rank < TWO and self.hands[seat][card] == 4
            assert pub["shown"] == [str(card)] * 4
        else:
            assert pub["card"] is None and pub["shown"] == []
            poll = {"declared": "solo", "grabbed": "grab"}[how]
            by_poll = self.last_event == ("declare", {"seat": seat, "poll": poll, "answer": poll})
            # R9.3 独保 (the double holder), R11.3 明独保 (the emperor, in place of a call)
            by_emperor = how == "declared" and self.last_event[0] == "accept" and not self.settled
            assert by_poll or (by_emperor and seat == self.emperor)
            if by_emperor and self.rules.selection == "fixed":
                assert self.hands[seat][B_STAR]
        self.emperor, self.guard, self.reveal_card = seat, None, None
        self.open_solo = self.settled = True

    # ------------------------------------------------------------ polls (R9.2, R9.4–R9.6, R11.4)

    def poll_seats(self, poll: str) -> list[int]:
        """Who is asked, in order: R9.2 from the R* holder; R11.4 by 上家 from the emperor;
        R9.5 from the emperor's 下家; R9.6 the side opposing each declaration made."""
        rules, emperor = self.rules, self.emperor
        if poll == "solo":
            start = self.holder(R_STAR)
            assert rules.open_solo_anyone and emperor is None and start is not None
            return [(start + i) % SEATS for i in range(SEATS)]
        assert emperor is not None and self.settled
        if poll == "grab":
            assert rules.grab_solo and self.called is not None and not self.open_solo
            return [(emperor - i) % SEATS for i in range(1, SEATS)]
        if poll == "show":  # R9.4, R8.10
            assert not self.open_solo and (rules.selection == "fixed" or rules.qq_open_guard)
            return [(emperor + i) % SEATS for i in range(1, SEATS)]
        if poll == "rebel":  # R9.5, after the 明保 poll
            assert not self.open_solo and rules.rebellion
            return [(emperor + i) % SEATS for i in range(1, SEATS)]
        assert poll == "kick" and rules.kick
        team = {emperor, self.guard} - {None}
        side: set[int | None] = set()
        if self.open_solo or self.open_guard:
            side |= set(range(SEATS)) - team
        if self.rebellion:
            side |= team
        assert side
        return [s for i in range(1, SEATS + 1) if (s := (emperor + i) % SEATS) in side]

    def poll_options(self, seat: int) -> set[Action]:
        """Each poll's answers (declining is ``pass``)."""
        if self.poll == "solo":
            return {SOLO, PASS}
        if self.poll == "kick":
            return {KICK, PASS}
        if self.poll == "grab":
            return {GRAB, PASS} if can_grab(self.hands[seat]) else {PASS}
        if self.poll == "show":  # R9.4, R8.10: only the guard may 明保
            return {SHOW, PASS} if seat == self.guard else {PASS}
        return {PASS} if seat == self.guard else {REBEL, PASS}  # R9.5: the guard may not rebel

    def on_poll(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert self.poll is None and not priv and set(pub) == {"poll", "seats"}
        self.poll = pub["poll"]
        assert pub["seats"] == self.poll_seats(self.poll)
        self.polls.append(self.poll)
        self.queue, self.rebels = list(pub["seats"]), []
        self.to_act = self.queue[0]

    def on_declare(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat, poll, answer = pub["seat"], pub["poll"], pub["answer"]
        assert not priv and set(pub) == {"seat", "poll", "answer"}  # a pass is a pass (R9.5)
        assert poll == self.poll and seat == self.queue.pop(0)
        assert poll in SEALED or seat == self.to_act
        assert answer in {str(a) for a in self.poll_options(seat)}
        ends = answer in ("solo", "grab", "kick")  # the first to declare wins
        if answer in ("solo", "grab"):
            how = "declared" if answer == "solo" else "grabbed"
            self.expect("open_solo", seat=seat, card=None, shown=[], how=how)
        elif answer == "kick":
            self.kicked = True
            self.expect("kick", seat=seat)
        elif answer == "show":  # R9.4 明保; a 转让 may have revealed the guard already
            self.open_guard = True
            if not self.guard_revealed:
                self.expect("reveal", seat=seat, role="guard")
        elif answer == "rebel":
            self.rebels.append(seat)
        if ends or not self.queue:
            self.end_poll()
        self.to_act = None if ends or not self.queue else self.queue[0]

    def end_poll(self) -> None:
        """R9.5: two or more 造反 succeed, reveal the guard (or a dark solo) and double."""
        if self.poll == "rebel":
            self.rebellion = len(self.rebels) >= 2
            self.expect("rebellion", success=self.rebellion, rebels=self.rebels)
            if self.rebellion and self.guard is None:
                self.expect("reveal", seat=self.emperor, role="solo")
            elif self.rebellion and not (self.guard_revealed or self.open_guard):
                self.expect("reveal", seat=self.guard, role="guard")
        self.poll, self.queue = None, []

    def on_reveal(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert not priv
        if pub["role"] == "guard":
            guard = self.transferer if self.guard is None else self.guard  # R9.3 转让 reveals
            assert pub["seat"] == guard is not None and not self.guard_revealed
            self.guard_revealed = True
        else:
            assert pub == {"seat": self.emperor, "role": "solo"} and self.guard is None
            assert not (self.open_solo or self.solo_revealed)
            self.solo_revealed = True

    def on_rebellion(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert not priv

    def on_kick(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert not priv

    def expected_polls(self) -> list[str]:
        """The polls a game holds before its first round, in order, given how roles went."""
        rules = self.rules
        polls = ["solo"] if rules.open_solo_anyone else []
        if rules.grab_solo and self.called is not None:
            polls.append("grab")  # R11.4: unless the emperor declared 明独保
        if not self.open_solo and (rules.selection == "fixed" or rules.qq_open_guard):
            polls.append("show")
        if not self.open_solo and rules.rebellion:
            polls.append("rebel")
        if rules.kick and (self.open_solo or self.open_guard or self.rebellion):
            polls.append("kick")
        return polls

    # ------------------------------------------------------------------ rounds (R6)

    def on_round(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        if not self.rounds:  # R6.1: the emperor leads the first round, roles settled
            assert self.settled and pub == {"leader": self.emperor, "jiefeng": False}
            assert self.polls == self.expected_polls() and self.poll is None
        else:
            assert (pub["leader"], pub["jiefeng"]) == self.next_round
        self.rounds += 1
        self.to_act = pub["leader"]
        self.lead, self.passed, self.next_round, self.watch = None, set(), None, None

    def on_play(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat, cards = pub["seat"], parse_cards(pub["cards"])
        rules, hand = self.rules, self.hands[seat]
        assert seat == self.to_act and Counter(cards) <= hand and is_one_set(cards, rules)
        assert pub["play"] == play_text(cards)
        assert self.lead is None or referee_beats(cards, self.lead, rules)
        self.take(seat, cards)
        natural = {c.rank for c in cards if not c.is_joker}
        for rank, on in ((SIX, rules.hold_sixes), (THREE, rules.hold_threes)):
            if on and rank in natural:
                assert not hand, "R6.7 憋6 / R6.8 清3: the play empties the hand"
        self.played.update(cards)
        assert pub["left"] == hand.total()
        self.check_reveal(seat, cards)
        if self.watch is not None and self.watch != seat:  # R6.8 清3: the play was beaten
            self.cleared.append((self.watch, seat))
            self.expect("cleared", seat=self.watch, by=seat)
        # R6.8: what is left could go out with the 3s in one play (jokers, filler 2s)
        ranks = {c.rank for c in hand if not c.is_joker} - ({TWO} if rules.twos_wild else set())
        self.watch = seat if rules.hold_threes and ranks == {THREE} else None
        self.lead, self.last, self.passed = cards, seat, set()
        self.to_act = self.next_holder(seat)

    def check_reveal(self, seat: int, cards: Sequence[Card]) -> None:
        """R8.8: the guard playing the called card, R9.4: B*, reveals it; R9.4: a dark solo
        emperor playing B* reveals the solo."""
        if self.reveal_card is None or self.reveal_card not in cards:
            return
        if seat == self.guard and not self.guard_revealed:
            self.expect("reveal", seat=seat, role="guard")
        dark = self.guard is None and not (self.open_solo or self.solo_revealed)
        if seat == self.emperor and self.reveal_card is B_STAR and dark:
            self.expect("reveal", seat=seat, role="solo")

    def on_cleared(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert self.rules.hold_threes and not priv

    def on_pass(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
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

    def on_out(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        seat, place = pub["seat"], pub["place"]
        assert place == len(self.places) + 1  # R6.4
        holders = [s for s in range(SEATS) if self.hands[s].total()]
        assert (holders == [seat]) if place == SEATS else not self.hands[seat].total()
        self.places.append(seat)

    def on_escape(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        assert pub["seat"] in range(SEATS) and not priv and self.escaped is None
        self.escaped = pub["seat"]

    def on_game_over(self, game: Game, pub: Pub, priv: dict[int, Any]) -> None:
        emperor, guard, places = self.emperor, self.guard, self.places
        if self.escaped is not None:  # R10.4: −30 to the escaper, unscored for the others
            scores = [-30 if s == self.escaped else 0 for s in range(SEATS)]
            outcome = "escape"
        else:
            assert emperor is not None and sorted(places) == list(range(SEATS))  # R6.6
            flags = {
                "open_solo": self.open_solo,
                "rebellion": self.rebellion,
                "open_guard": self.open_guard,
                "kicked": self.kicked,
            }
            scores = expected_scores(self.rules, emperor, guard, places, **flags)
            outcome = expected_outcome(scores[emperor])
            assert sum(scores) == 0
        assert pub == {
            "emperor": emperor,
            "guard": guard,
            "places": places,
            "scores": scores,
            "outcome": outcome,
            "open_solo": self.open_solo,
            "rebellion": self.rebellion,
            "open_guard": self.open_guard,
            "kicked": self.kicked,
            "escaped": self.escaped,
            "cleared": [list(pair) for pair in self.cleared],
        }
        assert not priv and not self.expected

    # ------------------------------------------------------------------ state

    def check_state(self, game: Game) -> None:
        """Hands, counts, the card total, the seat to act and its options match the referee."""
        assert not self.expected, f"events {self.expected} did not come"
        # Plain dict equality (fast, in C): the referee's counters never keep zero counts.
        assert [dict(Counter(game.hand(s))) for s in range(SEATS)] == [dict(h) for h in self.hands]
        public = game.view(None)
        assert list(public.counts) == self.sizes()
        assert Counter(public.pile) == Counter(self.pile)
        played = Counter(card.rank for card in self.played.elements())
        assert public.played == tuple(played[rank] for rank in range(NUM_RANKS))  # 记牌器
        total = Counter(self.pile) + self.played
        for hand in self.hands:
            total.update(hand)
        total.update(card for _, _, card in self.transit)
        assert dict(total) == self.pack  # every card accounted for, after every action
        if game.phase not in ("tribute", "over"):  # R12: all paid before the emperor is chosen
            assert not +self.due and not self.transit
        self.check_turn(game)

    def check_sealed(self, game: Game) -> None:
        """R14: in a sealed poll every asked seat yet to answer may act, and no answer is
        published before the last: the seats that may act are some of the poll's, the seat
        to act the first of them, each with its own options, and nothing was declared yet."""
        waiting = game.to_act
        assert (
            waiting
            and set(waiting) <= set(self.queue)
            and self.queue == self.poll_seats(self.poll or "")
        )
        assert game.current_seat == waiting[0]
        assert list(waiting) == [s for s in self.queue if s in waiting]  # the poll's order
        for seat in waiting:
            assert set(game.legal_actions(seat)) == self.poll_options(seat)
        for seat in set(range(SEATS)) - set(waiting):
            assert game.legal_actions(seat) == []

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
            assert self.due_order[0][0] == seat
            assert set(legal) == {Tribute(c) for c in hand if c.rank == top}
            return
        if game.phase == "poll" and self.poll in SEALED:
            self.check_sealed(game)
            return
        assert seat == self.to_act
        if game.phase == "candidate":
            assert set(legal) == self.candidate_options(seat)
            # R8.4, R11.2: a lone decline is the engine's to give; a lone 登基 is asked (R9.3,
            # R11.2: whether the seat had a choice would tell what it holds)
            assert len(legal) > 1 or legal == [ACCEPT]
        elif game.phase == "call":  # R8.7, R11.3; a single option is taken by the engine
            triples = [c for c, n in hand.items() if n >= 3 and c.rank < TWO]
            options: set[Action] = {Call(c) for c in triples}
            if self.rules.selection == "called":
                options |= {OpenSolo(c) for c in triples if hand[c] == 4}
            else:
                options.add(SOLO)
            assert seat == self.emperor and set(legal) == options and len(options) > 1
        elif game.phase == "poll":
            assert self.poll == game.poll and set(legal) == self.poll_options(seat)
        else:
            assert (PASS in legal) == (self.lead is not None)
