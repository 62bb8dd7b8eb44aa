"""Before the first play: the deal, tribute, and choosing the emperor and the guard.

Three families (Rules.selection), in words in ``docs/rules.md``:

- ``called`` (R8): the emperor card set aside goes round a candidate chain (or, R8.9, the QQ
  chain builds a pile from nothing); the emperor calls a triple and the holder of the 4th copy is
  the guard (暗独 with all four, 明独 by showing four).
- ``fixed`` (R9): the marked ``R*`` makes the emperor and ``B*`` the guard; weihai's 明独 by anyone
  and the double holder's 独保 / 登基 / 转让; yielding with cards added (KK/联众 simple), where a
  double holder yields like anyone.
- ``kk_classic`` (R11): the ``R*`` holder may yield, then calls as in R8 or declares 明独保.

Then, as the rules ask: 抢独 (R11.4), the 明保 poll (R9.4, R8.10: only the guard may show; every
other answer is ``pass``), the 造反 poll (R9.5: the guard's only answer is ``pass``), 踢 (R9.6),
and the first round (R6.1).

**Sealed polls (R14).** In 明保 and 造反 (:data:`SEALED_POLLS`) the options a seat has tell its
role, so who answers when must tell nothing: every asked seat may answer at once, in any order
(:attr:`~baohuang.engine.game.Game.to_act`), without seeing another's answer; the answers are
kept (``poll_sealed``) and published together when the last is in: the ``declare`` events (a
明保's ``reveal`` after its own) in the poll's seat order, and the action log rewritten to that
order, so that the game, its events and its record are the same whoever answered first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from .actions import (
    ACCEPT,
    DECLINE,
    GRAB,
    KICK,
    PASS,
    REBEL,
    SHOW,
    SOLO,
    TRANSFER,
    Action,
    Call,
    OpenSolo,
    Tribute,
)
from .cards import (
    B_CARD,
    B_MARKED,
    BIG_JOKER,
    CARDS,
    NUM_CARD_IDS,
    NUM_RANKS,
    R_CARD,
    R_MARKED,
    SMALL_JOKER,
    TWO,
    Card,
    deck,
    parse_cards,
)
from .errors import RecordError
from .events import (
    AcceptEvent,
    CallEvent,
    CandidateEvent,
    DealEvent,
    DeclareEvent,
    DeclineEvent,
    KickEvent,
    OpenSoloEvent,
    Poll,
    PollEvent,
    RebellionEvent,
    RevealEvent,
    RolesEvent,
    RoundEvent,
    SoloHow,
    TransferEvent,
    TributeDueEvent,
    TributeEvent,
    TributePaidEvent,
    VoidEvent,
)
from .scoring import tribute_payments, tribute_transfers
from .state import SEATS, GameState

#: The polls whose answers are sealed until every asked seat has answered (R14, module docstring):
#: 明保 (R9.4, R8.10, only the guard may show) and 造反 (R9.5, the guard may only pass).
SEALED_POLLS: frozenset[Poll] = frozenset({"show", "rebel"})
#: Candidate turns before the deal is void: R8.6 c0 twice around, R9.3 two laps, R11.2 two laps.
CHAIN_TURNS = {"called": SEATS + 1, "fixed": 2 * SEATS, "kk_classic": 2 * SEATS}


def callable_ids(row: list[int]) -> list[int]:
    """R8.4: suited cards (not 2s) held three or more times."""
    return [cid for cid in range(TWO * 4) if row[cid] >= 3]


def holds_four(row: list[int]) -> bool:
    """Four copies of one suited card, 2s included (R11.2 may still yield, R11.4 抢独)."""
    return any(row[cid] >= 4 for cid in range(TWO * 4 + 4))


class RolePhases(GameState):
    """Deal, tribute and role selection; mixed into :class:`~baohuang.engine.game.Game`."""

    __slots__ = ()

    # ------------------------------------------------------------------ deal (R8.1, R9.1)

    def _deal(self) -> None:
        """Shuffle and deal one by one in play order (or lay out a recorded deal's hands),
        then tribute and the role phases."""
        rules = self.rules
        pack = deck(rules.lowest_rank, marked=rules.marked, removed_sixes=rules.removed_sixes)
        if rules.emperor_card_aside:
            pack.remove(R_CARD)  # R8.1: the emperor card
        if self.given is None:
            start, first, hands = self._shuffle(pack)
        else:
            start, first, hands = laid_out(self.given, self.deal_no, pack)
        self.lay_out(hands)
        self.played = [0] * NUM_RANKS
        self.c0 = first
        self.dealt.append(
            {"start": start, "first": first, "hands": [self.hand_text(s) for s in range(SEATS)]}
        )
        self.pile = [R_CARD] if rules.emperor_card_aside else []
        self.cand_turn = 0
        self.forced = False
        self.emperor = self.called = self.guard = self.reveal_card = None
        self.teams_set = self.guard_revealed = self.solo_revealed = False
        self.open_solo = self.open_guard = self.rebellion = self.kicked = False
        self.poll = None
        self.poll_queue = []
        self.poll_yes = []
        self.poll_sealed = []
        self.lead = None
        self.last_player = -1
        self.passes = 0
        self.trick = []
        self.places = []
        self.clear_watch = None
        self.cleared = []
        self.tribute_paid = []
        dealt = tuple(self.hand_cards(s) for s in range(SEATS))
        self._emit(DealEvent, self.deal_no, start, tuple(self.sizes), dealt)
        self._start_tribute()

    def _shuffle(self, pack: list[Card]) -> tuple[int, int, list[list[Card]]]:
        """R8.1/R9.1: the seat dealt first, the first candidate, and the hands, from the deal's
        own random stream ``f"{seed}:{deal}"``."""
        rules = self.rules
        rng = random.Random(f"{self.seed}:{self.deal_no}")
        rng.shuffle(pack)
        previous = self.previous.emperor if self.previous else None
        if rules.selection != "called":
            start = self.dealer  # R9.1
        elif rules.qq_chain and previous is not None:
            start = previous  # R8.9: the previous emperor starts
        else:
            start = rng.randrange(SEATS)  # R8.1: a random seat
        hands: list[list[Card]] = [[] for _ in range(SEATS)]
        for i, card in enumerate(pack):
            hands[(start + i) % SEATS].append(card)
        # R8.3: a random first candidate; R8.9: the starter, the seat dealt first
        first = start if rules.qq_chain else rng.randrange(SEATS)
        return start, first, hands

    def _redeal(self) -> None:
        """A void deal (R8.6, R9.3, R11.2): dealt anew, tribute again."""
        self._emit(VoidEvent, self.deal_no)
        self.deal_no += 1
        self._deal()

    # ------------------------------------------------------------------ tribute (R12, R6.8)

    def _start_tribute(self) -> None:
        """R12 after the deal, before the emperor; and R6.8 清3 cards owed to clearers."""
        previous = self.previous
        due: list[tuple[int, int | None]] = []
        if previous is not None:
            if self.rules.tribute:
                due += [
                    (seat, None)
                    for seat, n in tribute_payments(self.rules, previous)
                    for _ in range(n)
                ]
            if previous.outcome != "escape":  # R10.4: an escaped game is unscored
                due += [(cleared, clearer) for cleared, clearer in previous.cleared]
        self.tribute_due = due
        if not due:
            self._start_selection()
            return
        self.phase = "tribute"
        self.current_seat = due[0][0]
        self._emit(TributeDueEvent, tuple(due))

    def _tribute_options(self, seat: int) -> list[Action]:
        """R12: the payer's highest card; a choice only between equal copies."""
        row = self.cards[seat]
        held = [CARDS[cid] for cid in range(NUM_CARD_IDS) if row[cid]]
        top = max(c.rank for c in held)
        return [Tribute(c) for c in held if c.rank == top]

    def _pay_tribute(self, seat: int, card: Card) -> None:
        self._take(seat, card)
        _, receiver = self.tribute_due.pop(0)
        self.tribute_paid.append((seat, receiver, card))
        self._emit(TributePaidEvent, seat, card)
        if self.tribute_due:
            self.current_seat = self.tribute_due[0][0]
            return
        main = [(p, c) for p, r, c in self.tribute_paid if r is None]
        previous = self.previous
        assert previous is not None
        transfers = tribute_transfers(self.rules, previous, main) if main else []
        transfers += [(p, r, c) for p, r, c in self.tribute_paid if r is not None]
        for _, to, paid in transfers:
            self._give(to, paid)
        self._emit(TributeEvent, tuple(transfers), tuple(self.sizes))
        self._start_selection()

    # ------------------------------------------------------------------ the candidate chain

    def _start_selection(self) -> None:
        rules = self.rules
        if rules.selection != "called":
            # R9.1, R11.1: the R* holder starts the chain; R* goes into the pile.
            holder = self._holder(R_MARKED)
            assert holder is not None
            self.c0 = holder
            if rules.open_solo_anyone:
                self._start_poll("solo")  # R9.2 weihai: 明独 by anyone, from the R* holder
                return
        self._start_chain()

    def _start_chain(self) -> None:
        if self.rules.selection != "called":
            self._take(self.c0, R_MARKED)
            self.pile = [R_MARKED]
        self.phase = "candidate"
        self.current_seat = self.c0
        self._emit(CandidateEvent, self.c0, tuple(self.pile))

    def _candidate_options(self, seat: int) -> list[Action]:
        if self.forced:
            return [ACCEPT]  # R9.3 转让: the 上家 must become emperor
        rules = self.rules
        row = self.cards[seat]
        if rules.selection == "fixed":
            pass_on: list[Action] = [DECLINE] if rules.yielding else []
            if row[B_MARKED.id]:
                # R9.3: holding both, 登基 (a dark solo), 独保, or hand R* on: a yield like
                # anyone's (KK/联众 simple, keeping B*) or weihai's 转让.
                return [ACCEPT, SOLO, *(pass_on or [TRANSFER])]
            return [ACCEPT, *pass_on]
        if not callable_ids(row):
            return [DECLINE]  # R8.4
        if rules.selection == "kk_classic" and self.cand_turn >= SEATS and not holds_four(row):
            return [ACCEPT]  # R11.2: after a lap the able must accept, but four of a card
        return [ACCEPT, DECLINE]

    def _yield_card(self, seat: int) -> Card | None:
        """The card a yielder adds to the pile: R8.5 one 2; R8.9 the starter its biggest, the
        others a 2, else B, else R; R9.3 a 2, else the top non-joker."""
        rules, turn = self.rules, self.cand_turn
        selection = rules.selection
        row = self.cards[seat]
        twos = [CARDS[cid] for cid in range(TWO * 4, TWO * 4 + 4) if row[cid]]
        if rules.qq_chain and turn < SEATS:
            jokers = [c for c in (R_CARD, B_CARD) if row[c.id]]
            order = [*jokers, *twos[:1]] if turn == 0 else [*twos[:1], *reversed(jokers)]
            return order[0] if order else None
        if selection == "called" and 0 < turn < SEATS:
            return twos[0] if twos else None
        if selection == "fixed" and turn > 0:
            if twos:
                return twos[0]
            suited = [CARDS[cid] for cid in range(TWO * 4) if row[cid]]
            return max(suited, key=lambda c: (c.rank, -c.id)) if suited else None
        return None

    def _pass_pile(
        self, seat: int, kind: Literal["decline", "transfer"], auto: bool = False
    ) -> None:
        """Hand the pile to the 上家 (a decline, or weihai's 转让), adding the yield card.

        A 转让 shows that ``seat`` holds B*: it reveals the guard (R9.3, R14)."""
        added = self._yield_card(seat)
        if added is not None:
            self._take(seat, added)
            self.pile.append(added)
        to = (seat - 1) % SEATS
        handed = DeclineEvent if kind == "decline" else TransferEvent
        self._emit(handed, seat, to, added, tuple(self.sizes), auto)
        self.cand_turn += 1
        if kind == "transfer":
            self.forced = self.guard_revealed = True
            self._emit(RevealEvent, seat, "guard")
        elif self.cand_turn >= CHAIN_TURNS[self.rules.selection]:
            self._redeal()
            return
        self.current_seat = to
        self._emit(CandidateEvent, to, tuple(self.pile))

    def _accept(self, seat: int, open_solo: bool = False) -> None:
        """登基: take the pile; R8/R11 go on to the call, R9 settles the roles."""
        self.emperor = seat
        for card in self.pile:
            self._give(seat, card)
        self._emit(AcceptEvent, seat, tuple(self.pile), tuple(self.sizes))
        self.pile = []
        self.forced = False
        if open_solo:
            self._declare_open_solo(seat, None, "declared")  # R9.3 独保
            self._roles_settled()
        elif self.rules.selection == "fixed":
            self._settle_fixed(seat)
        else:
            self.phase = "call"
            self.current_seat = seat

    def _settle_fixed(self, emperor: int) -> None:
        """R9.3–R9.4: the B* holder is the guard; holding both is a dark solo (暗独保)."""
        holder = self._holder(B_MARKED)
        self.guard = holder if holder != emperor else None
        self.reveal_card = B_MARKED
        self.teams_set = True
        self._emit(RolesEvent, emperor, self.guard)
        self._roles_settled()

    def _call(self, seat: int, card: Card, forced: bool = False) -> None:
        """R8.7, R11.3: the holder of the 4th copy is the guard; all four: 暗独. ``forced``: the
        only callable triple, called by the engine (told to the caller alone)."""
        self.called = self.reveal_card = card
        holders = [s for s in range(SEATS) if s != seat and self.cards[s][card.id]]
        self.guard = holders[0] if holders else None
        self.teams_set = True
        self._emit(CallEvent, seat, card, self.guard, forced)
        self._roles_settled()

    def _declare_open_solo(self, seat: int, card: Card | None, how: SoloHow) -> None:
        """明独 / 独保 / 明独保 / 抢独: ``seat`` plays alone, openly, against the four others."""
        self.emperor = seat
        self.guard = self.reveal_card = None
        self.open_solo = self.teams_set = True
        self._emit(OpenSoloEvent, seat, card, how)

    def _call_options(self, seat: int) -> list[Action]:
        row = self.cards[seat]
        ids = callable_ids(row)
        options: list[Action] = [Call(CARDS[cid]) for cid in ids]
        if self.rules.selection == "called":
            options += [OpenSolo(CARDS[cid]) for cid in ids if row[cid] >= 4]  # R8.7 明独
        else:
            options.append(SOLO)  # R11.3 明独保
        return options

    # ------------------------------------------------- polls (R8.10, R9.2, R9.4–R9.6, R11.4)

    def _roles_settled(self) -> None:
        if self.rules.grab_solo and not self.open_solo:
            self._start_poll("grab")
        else:
            self._after_grab()

    def _after_grab(self) -> None:
        """R9.4, R8.10: 明保 is asked first, so rebels decide knowing whether the guard is open."""
        if not self.open_solo and self.rules.guard_may_show:
            self._start_poll("show")
        else:
            self._after_show()

    def _after_show(self) -> None:
        if not self.open_solo and self.rules.rebellion:
            self._start_poll("rebel")
        else:
            self._after_rebel()

    def _after_rebel(self) -> None:
        if self.rules.kick and (self.open_solo or self.open_guard or self.rebellion):
            self._start_poll("kick")
        else:
            self._start_play()

    def _start_play(self) -> None:
        assert self.emperor is not None
        self.phase = "play"
        self.poll = None
        self._start_round(self.emperor, jiefeng=False)  # R6.1: the emperor leads

    def _poll_seats(self, poll: Poll) -> list[int]:
        e = self.emperor
        if poll == "solo":
            return [(self.c0 + i) % SEATS for i in range(SEATS)]
        assert e is not None
        if poll == "grab":
            return [(e - i) % SEATS for i in range(1, SEATS)]  # nearest by 上家 first
        if poll in ("show", "rebel"):
            return [(e + i) % SEATS for i in range(1, SEATS)]  # from the 下家, in play order
        # R9.6: the side opposing each declaration made.
        team = {e} | ({self.guard} if self.guard is not None else set())
        others = set(range(SEATS)) - team
        eligible = set()
        if self.open_solo or self.open_guard:
            eligible |= others
        if self.rebellion:
            eligible |= team
        return [s for s in ((e + i) % SEATS for i in range(1, SEATS + 1)) if s in eligible]

    def _start_poll(self, poll: Poll) -> None:
        self.phase = "poll"
        self.poll = poll
        self.poll_queue = self._poll_seats(poll)
        self.poll_yes = []
        self.poll_sealed = []
        self._emit(PollEvent, poll, tuple(self.poll_queue))
        self.current_seat = self.poll_queue[0] if self.poll_queue else None
        if not self.poll_queue:
            self._end_poll()

    def _poll_options(self, seat: int) -> list[Action]:
        poll = self.poll
        if poll == "solo":
            return [SOLO, PASS]
        if poll == "kick":
            return [KICK, PASS]
        if poll == "grab":
            jokers = self.counts[seat][SMALL_JOKER] + self.counts[seat][BIG_JOKER]
            able = jokers >= 3 and holds_four(self.cards[seat])
            return [GRAB, PASS] if able else [PASS]
        if poll == "show":
            return [SHOW, PASS] if seat == self.guard else [PASS]  # R9.4, R8.10
        return [PASS] if seat == self.guard else [REBEL, PASS]  # R9.5: the guard only declines

    def _answer(self, seat: int, action: Action) -> None:
        if self.poll in SEALED_POLLS:
            self._seal(seat, action)
            return
        poll = self.poll
        assert poll is not None
        self._emit(DeclareEvent, seat, poll, action)
        self.poll_queue.pop(0)
        if action is SOLO:
            self._declare_open_solo(seat, None, "declared")
            self.poll = None
            self._roles_settled()
            return
        if action is GRAB:
            self._declare_open_solo(seat, None, "grabbed")  # R11.4: the old emperor rebels
            self.poll = None
            self._after_grab()
            return
        if action is KICK:
            self.kicked = True
            self._emit(KickEvent, seat)
            self._start_play()
            return
        if self.poll_queue:
            self.current_seat = self.poll_queue[0]
        else:
            self._end_poll()

    def _seal(self, seat: int, action: Action) -> None:
        """R14: keep ``seat``'s answer to a sealed poll unpublished; with the last one, publish
        them all in the poll's order (module docstring) and close the poll."""
        self.poll_queue.remove(seat)
        self.poll_sealed.append((seat, action))
        if self.poll_queue:
            self.current_seat = self.poll_queue[0]  # the first asked seat yet to answer
            return
        assert self.poll is not None
        order = self._poll_seats(self.poll)
        answers = dict(self.poll_sealed)
        self.poll_sealed = []
        # The last answers of the action log are this poll's (nothing else may happen in it
        # but an escape, which ends the game): in the poll's order, as if asked in turn.
        tail = self.actions[-len(order) :]
        self.actions[-len(order) :] = sorted(tail, key=lambda entry: order.index(entry[0]))
        for asked in order:
            self._publish(asked, answers[asked])
        self._end_poll()

    def _publish(self, seat: int, action: Action) -> None:
        """A sealed poll's answer made public: its ``declare``, and what it declares."""
        assert self.poll is not None
        self._emit(DeclareEvent, seat, self.poll, action)
        if action is SHOW:
            self.open_guard = True  # R9.4, R8.10 明保 (a 转让 may have revealed the guard)
            if not self.guard_revealed:
                self.guard_revealed = True
                self._emit(RevealEvent, seat, "guard")
        elif action is REBEL:
            self.poll_yes.append(seat)

    def _end_poll(self) -> None:
        poll = self.poll
        self.poll = None
        if poll == "solo":
            self._start_chain()
        elif poll == "grab":
            self._after_grab()
        elif poll == "show":
            self._after_show()
        elif poll == "rebel":
            self._settle_rebellion()
            self._after_rebel()
        else:
            self._start_play()

    def _settle_rebellion(self) -> None:
        """R9.5: two or more 造反 reveal the guard (or a dark solo) and double the score."""
        self.rebellion = len(self.poll_yes) >= 2
        self._emit(RebellionEvent, self.rebellion, tuple(self.poll_yes))
        if not self.rebellion:
            return
        if self.guard is None:
            assert self.emperor is not None
            self.solo_revealed = True
            self._emit(RevealEvent, self.emperor, "solo")
        elif not self.guard_revealed:
            self.guard_revealed = True
            self._emit(RevealEvent, self.guard, "guard")

    # ------------------------------------------------------------------ rounds (R6)

    def _start_round(self, leader: int, jiefeng: bool) -> None:
        self.lead = None
        self.passes = 0
        self.trick = []
        self.clear_watch = None
        self.current_seat = leader
        self._emit(RoundEvent, leader, jiefeng)


def laid_out(
    deals: Sequence[dict[str, Any]], number: int, pack: list[Card]
) -> tuple[int, int, list[list[Card]]]:
    """Deal ``number`` of a record's ``deals``: who was dealt first, the first candidate and
    the five hands, which must together be exactly ``pack``."""
    try:
        deal = deals[number]
        start, first = int(deal["start"]), int(deal["first"])
        hands = [parse_cards(hand) for hand in deal["hands"]]
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise RecordError("error.record.deal", number=number, reason=str(exc)) from None
    dealt = sorted(card for hand in hands for card in hand)
    if len(hands) != SEATS or {start, first} - set(range(SEATS)) or dealt != sorted(pack):
        raise RecordError("error.record.deal_pack", number=number)
    return start, first, hands
