"""The heuristic bot's choices on hand-made views (R6 play, R8/R9/R11 roles, R14: the view is
all it gets), its card counter and finishing plan (handsplit), and its guard inference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang import (
    ACCEPT,
    DECLINE,
    PASS,
    Action,
    Call,
    Card,
    OpenSolo,
    Play,
    Rules,
    legal_plays,
    parse_cards,
)
from baohuang.bots.handsplit import (
    CardCounter,
    beyond_finishing,
    finishing_lead,
    held_ranks,
    pack_counts,
    rank_counts_of,
    unseen_counts,
)
from baohuang.bots.heuristic import HeuristicBot, strength
from baohuang.engine.actions import KICK, REBEL, SHOW, SOLO, TRANSFER, PlayCards
from baohuang.engine.movegen import leading_plays
from baohuang.engine.trick import TrickEntry
from baohuang.engine.views import View

CLASSIC = Rules.preset("classic")
WEIHAI = Rules.preset("weihai")
#: A hand that wins most games: three big jokers, two small ones, six 2s, few ranks.
STRONG = "R R R B B 2s 2s 2h 2h 2d 2c As As Ah Ad Ks Ks Kh Kd Kc " + " ".join(
    ["Qs"] * 4 + ["Js"] * 4 + ["Ts"] * 4 + ["9s"] * 4 + ["8s"] * 4 + ["7h"] * 3
)
#: A hand without jokers or 2s, spread over every rank.
WEAK = " ".join(f"{r}{s}" for r in "3456789TJQKA" for s in "shd") + " 3c 4c 5c 6c 7c 8c 9c"


def make_view(hand: str, *, lead: tuple[int, str] | None = None, **fields: Any) -> View:
    """A play-phase view for seat 1 (emperor at seat 0, roles unknown unless given)."""
    cards = hand.split()
    data: dict[str, Any] = {
        "seat": 1,
        "phase": "play",
        "deal": 0,
        "turn": 1,
        "hand": cards,
        "role": "rebel",
        "counts": [20, len(cards), 20, 20, 20],
        "candidate": None,
        "pile": [],
        "tribute_due": [],
        "emperor": 0,
        "called": "9h",
        "solo": None,
        "guard": None,
        "lead": None,
        "trick": [],
        "played": {},
        "places": [],
        "marked": "",
        "poll": None,
        "open_guard": False,
        "guard_revealed": False,
        "rebellion": False,
        "kicked": False,
        "escaped": None,
        "result": None,
        "legal": [],
        "seq": 40,
    }
    if lead is not None:
        seat, play = lead
        cards = [symbol if symbol in "BR" else symbol + "s" for symbol in play]
        data["lead"] = {"seat": seat, "play": play, "cards": cards}
        data["trick"] = [{"seat": seat, "action": " ".join(cards)}]
    data.update(fields)
    return View.from_json(data)


def legal_for(view: View, rules: Rules = CLASSIC) -> list[Action]:
    """The legal actions of a play-phase view (R4 plays, and pass when following)."""
    lead = view.lead and view.lead.play
    plays: list[Action] = list(legal_plays(view.hand or (), lead, rules))
    return [*plays, PASS] if lead else plays


def choose(view: View, rules: Rules = CLASSIC) -> Action:
    return HeuristicBot(rules).choose(view, legal_for(view, rules))


# ------------------------------------------------------------------ leading (R6.2)


def test_leads_the_lowest_single_from_a_weak_hand_r6_2() -> None:
    assert choose(make_view("Kd Ts 8c 5h 4s 2s")) == Play.parse("4")


def test_leads_a_whole_low_set_and_keeps_the_big_joker_r6_2() -> None:
    action = choose(make_view("R 9h 9s 7c 5d 4s 4h"))
    assert action == Play.parse("44")


def test_goes_out_when_one_play_empties_the_hand_r6_4() -> None:
    assert choose(make_view("B 9s 9h")) == Play.parse("B99")
    assert choose(make_view("9s 9h 9d", lead=(0, "888"))) == Play.parse("999")


def test_finishes_with_a_play_nobody_can_beat_r4() -> None:
    """Two sets and a big joker: the joker makes one set a winner, the other goes last."""
    action = choose(make_view("R 9s 9h 3c"))
    assert isinstance(action, Play) and action.big == 1 and action.size in (2, 3)


def test_does_not_lead_a_size_an_opponent_can_go_out_with() -> None:
    """The emperor holds two cards: a pair could be its last play, so lead the single."""
    view = make_view("Ks Kh 9c", counts=[2, 3, 20, 20, 20])
    assert choose(view) == Play.parse("9")
    assert choose(make_view("Ks Kh 9c")) == Play.parse("9")


def test_hold_sixes_go_last_r6_7() -> None:
    """R6.7 憋6: with 6s held, the lowest other set leads."""
    view = make_view("6s 6h 9c Jd Jh")
    assert choose(view, WEIHAI) == Play.parse("9")


# ------------------------------------------------------------------ following (R6.2, R4)


def test_follows_an_opponent_with_the_lowest_whole_set_not_the_joker() -> None:
    view = make_view("R 9h 9s 7c 5d", lead=(0, "3"))
    assert choose(view) == Play.parse("5")


def test_keeps_the_big_joker_when_only_it_beats_a_far_opponent() -> None:
    view = make_view("R 4s 4h 3c", lead=(0, "K"), counts=[30, 4, 20, 20, 20])
    assert choose(view) is PASS


def test_spends_the_big_joker_on_an_opponent_about_to_go_out() -> None:
    view = make_view("R 9h 9s 7c 5d", lead=(0, "A"), counts=[2, 5, 20, 20, 20])
    assert choose(view) == Play.parse("R")


def test_spends_control_on_an_opponent_nearing_the_end_while_more_is_left() -> None:
    """20 cards is near enough to spend a 2 on, when a joker stays for later."""
    view = make_view("R 2s 9h 9s 7c 5d", lead=(0, "A"), counts=[20, 6, 20, 20, 20])
    assert choose(view) == Play.parse("2")
    assert choose(make_view("R 2s 9h 9s 7c 5d", lead=(0, "A"), counts=[21, 6, 20, 20, 20])) is PASS


def test_keeps_the_last_control_unless_the_opponent_is_about_to_go_out() -> None:
    """The big joker is the last control: spent on a trick that does not lead out only
    against an opponent with at most 2 cards."""
    for cards, expected in ((3, PASS), (12, PASS), (2, Play.parse("R"))):
        view = make_view("R 9h 9s 7c 5d", lead=(0, "A"), counts=[cards, 5, 20, 20, 20])
        assert choose(view) == expected, cards


def test_overtakes_a_partner_only_to_go_out() -> None:
    """A revealed guard's play is beaten when the win leads out (the K cannot be beaten once
    every A, 2 and joker is out, and the 3 goes last), never otherwise."""
    played = {"A": 16, "2": 16, "B": 4, "R": 4}
    partner = make_view("Ks 3c", lead=(2, "Q"), guard=3, played=played)
    assert choose(partner) == Play.parse("K")
    assert choose(make_view("Ks 3c", lead=(2, "Q"), guard=3)) is PASS


def test_never_overtakes_the_emperor_as_the_guard() -> None:
    view = make_view("Ks 9h", lead=(0, "Q"), role="guard", guard=1, counts=[1, 2, 9, 9, 9])
    assert choose(view) is PASS


def test_never_overtakes_a_partner_against_an_open_solo_r8_7() -> None:
    view = make_view("Ks 9h 4c", lead=(3, "J"), solo="open", called=None)
    assert choose(view) is PASS
    assert choose(make_view("Ks 9h 4c", lead=(0, "J"), solo="open", called=None)) == Play.parse("K")


@pytest.mark.parametrize("cards", [40, 21, 3])
def test_spends_control_on_a_lone_emperor_at_any_count(cards: int) -> None:
    """Against an open solo (1st or lose, R10.1, R10.2) one rebel out first is enough: each
    spends control, the last one too, to take the lead from the emperor however many cards it
    holds; against an emperor with a guard the same 21 cards are too far to spend it on."""
    for hand, control in (("R 2s 9h 9s 7c 5d", "2"), ("R 9h 9s 7c 5d", "R")):
        counts = [cards, len(hand.split()), 20, 20, 20]
        alone = make_view(hand, lead=(0, "A"), counts=counts, solo="open", called=None)
        assert choose(alone) == Play.parse(control)
    paired = make_view("R 2s 9h 9s 7c 5d", lead=(0, "A"), counts=[21, 6, 20, 20, 20], guard=3)
    assert choose(paired) is PASS


def test_overtakes_a_revealed_guard_but_not_a_fellow_rebel_r8_8() -> None:
    assert choose(make_view("Ks 9h 4c", lead=(3, "J"), guard=3)) == Play.parse("K")
    assert choose(make_view("Ks 9h 4c", lead=(2, "J"), guard=3)) is PASS


def test_a_rebel_follows_a_seat_not_yet_read_with_a_whole_set_only() -> None:
    """Before any play shows who guards, another seat is a fellow rebel two times in three:
    likely, not sure, so a rebel takes its trick with a whole set but breaks none for it."""
    assert choose(make_view("Ks 9h 4c", lead=(2, "J"))) == Play.parse("K")
    assert choose(make_view("Ks Kh 4c", lead=(2, "J"))) is PASS


def test_a_seat_overtaking_the_emperor_is_taken_for_a_fellow_rebel() -> None:
    """Guard inference: seat 2 beat the emperor's play, so seat 1 (a rebel) leaves seat 2's
    play alone; seat 3 did not, and stays a suspect worth overtaking."""
    bot = HeuristicBot(CLASSIC)
    trick = [{"seat": 0, "action": "5s"}, {"seat": 1, "action": "pass"}]
    trick.append({"seat": 2, "action": "8s"})
    view = make_view("Ks Qh 4c", lead=(2, "8"), trick=trick)
    assert bot.choose(view, legal_for(view)) is PASS
    later = make_view("Ks Qh 4c", lead=(3, "J"), seq=60)
    assert later.trick == (TrickEntry(3, PlayCards((Card.parse("Js"),))),)
    assert bot.choose(later, legal_for(later)) == Play.parse("Q")


def test_a_new_game_resets_the_memory() -> None:
    bot = HeuristicBot(CLASSIC)
    trick = [{"seat": 0, "action": "5s"}, {"seat": 2, "action": "8s"}]
    bot.choose(make_view("Ks 4c", lead=(2, "8"), trick=trick), [PASS])
    assert bot.memory.suspect is not None and bot.memory.suspect[2] < 1
    bot.choose(make_view("Ks 4c", seq=3), [Play.parse("4")])
    assert bot.memory.suspect == [1.0] * 5


# ------------------------------------------------------------------ roles (R8, R9, R11)


def role_view(hand: str, phase: str, **fields: Any) -> View:
    return make_view(hand, phase=phase, role=None, emperor=None, called=None, **fields)


def test_strength_orders_hands() -> None:
    strong, weak = rank_counts_of(parse_cards(STRONG)), rank_counts_of(parse_cards(WEAK))
    assert strength(strong, CLASSIC) > 2 > 0 > strength(weak, CLASSIC)


def test_accepts_the_emperor_card_with_a_strong_hand_declines_with_a_weak_one_r8_5() -> None:
    bot = HeuristicBot(CLASSIC)
    strong = role_view(STRONG, "candidate", pile=["R"])
    assert bot.choose(strong, [ACCEPT, DECLINE]) is ACCEPT
    weak = role_view(WEAK, "candidate", pile=["R"])
    assert bot.choose(weak, [ACCEPT, DECLINE]) is DECLINE


@pytest.mark.parametrize(
    ("name", "hand_on"), [("weihai", TRANSFER), ("kk_simple", DECLINE)], ids=["transfer", "yield"]
)
def test_double_holder_solo_dark_or_hands_on_by_strength_r9_3(name: str, hand_on: Action) -> None:
    """R9.3: 独保 with an overwhelming hand, 登基 (a dark solo) with a fair one, else R* goes to
    the 上家: weihai's 转让, a plain yield in KK/联众 simple."""
    options: list[Action] = [ACCEPT, SOLO, hand_on]
    bot = HeuristicBot(Rules.preset(name))
    assert bot.choose(role_view(STRONG + " B*", "candidate", pile=["R*"]), options) is SOLO
    assert bot.choose(role_view(WEAK + " B*", "candidate", pile=["R*"]), options) is hand_on


def test_calls_the_lowest_triple_a_dark_solo_or_the_open_solo_by_strength_r8_7() -> None:
    """A weak hand calls its lowest triple (a partner); a better one calls a card it holds
    four times (暗独, 4× the place points); from an average hand on, 明独 showing the four."""
    nine, five, king = (Card.parse(c) for c in ("9h", "5d", "Ks"))
    options: list[Action] = [Call(five), Call(nine), Call(king), OpenSolo(nine)]
    others = " ".join(f"{r}{s}" for r in "3467TJQA" for s in "shdc")
    weak = f"9h 9h 9h 9h 5d 5d 5d Ks Ks Ks 8s 8h {others}"
    fair = f"B B 2s 2d R {weak}"
    bot = HeuristicBot(CLASSIC)
    assert strength(rank_counts_of(parse_cards(weak)), CLASSIC) < bot.dark_solo_at
    assert bot.choose(role_view(weak, "call"), options) == Call(five)
    assert bot.choose(role_view(fair, "call"), options) == Call(nine)
    good = f"R R B 2s 2d {weak}"
    assert (
        bot.dark_solo_at
        < 0
        <= bot.call_solo_at
        <= strength(rank_counts_of(parse_cards(good)), CLASSIC)
    )
    assert bot.call_solo_at < bot.open_solo_at
    assert bot.choose(role_view(good, "call"), options) == OpenSolo(nine)
    assert bot.choose(role_view(f"{STRONG} 9h 9h 9h 9h", "call"), options) == OpenSolo(nine)


@pytest.mark.parametrize("name", ["kk_classic", "lianzhong_classic"])
def test_the_emperor_plays_alone_openly_only_from_a_strong_hand_in_kk_r11_3_r10_1(
    name: str,
) -> None:
    """KK Classic's 明独保 at the call is 1st or lose, ±32 (R10.1 revised turn 3): declared
    from ``kk_solo_at``, above the average hand where classic's ×2 明独 starts."""
    rules = Rules.preset(name)
    bot = HeuristicBot(rules)
    nine = Card.parse("9h")
    options: list[Action] = [Call(nine), SOLO]
    others = " ".join(f"{r}{s}" for r in "3467TJQA" for s in "shdc")
    hand = f"9h 9h 9h 5d 5d 5d Ks Ks Ks 8s 8h {others}"
    assert bot.call_solo_at < bot.kk_solo_at
    for jokers in ("", "R B 2s ", "R R B 2s 2d ", "R R R B B B 2s 2d 2h 2c "):
        power = strength(rank_counts_of(parse_cards(jokers + hand)), rules)
        answer = SOLO if power >= bot.kk_solo_at else Call(nine)
        assert bot.choose(role_view(jokers + hand, "call"), options) == answer, power
    strong = strength(rank_counts_of(parse_cards("R R R B B B 2s 2d 2h 2c " + hand)), rules)
    average = strength(rank_counts_of(parse_cards("R R B 2s 2d " + hand)), rules)
    assert average < bot.kk_solo_at <= strong


def test_polls_declare_only_with_strength_r9_2_r9_4_r9_5_r9_6() -> None:
    bot = HeuristicBot(WEIHAI)
    for options in ([SOLO, PASS], [REBEL, PASS], [KICK, PASS]):
        assert bot.choose(role_view(WEAK, "poll", poll="x"), list(options)) is PASS
        assert bot.choose(role_view(STRONG, "poll", poll="x"), list(options)) is options[0]
    assert bot.choose(role_view(STRONG, "poll", poll="show"), [SHOW, PASS]) is SHOW


# ------------------------------------------------------------------ handsplit: 记牌器, finishing


def test_card_counter_is_the_pack_less_played_and_held() -> None:
    view = make_view("R 9h 9s", played={"9": 5, "R": 1})
    mine = rank_counts_of(view.hand or ())
    unseen = unseen_counts(view, mine, CLASSIC)
    pack = pack_counts(CLASSIC)
    assert unseen[6] == pack[6] - 7 == 9
    assert unseen[14] == 4 - 2
    assert sum(pack_counts(WEIHAI)) == 165 and held_ranks(WEIHAI) == {3}


def test_finishing_lead_needs_winners_for_all_but_the_last_play() -> None:
    counts = rank_counts_of(parse_cards(["R", "9s", "9h", "3c"]))
    everything = list(pack_counts(CLASSIC))
    counter = CardCounter([n - m for n, m in zip(everything, counts, strict=True)], 40, CLASSIC)
    lead = finishing_lead(counts, counter, frozenset())
    assert lead is not None and lead.big == 1
    three_sets = rank_counts_of(parse_cards(["R", "9s", "9h", "5c", "3c"]))
    assert finishing_lead(three_sets, counter, frozenset()) is None
    # Only 4s unseen: the 5 and the 99 are winners, led first; the 3 goes last.
    fours = CardCounter([0, 16] + [0] * 13, 40, CLASSIC)
    assert finishing_lead(three_sets, fours, frozenset()) == Play.parse("5")


@pytest.mark.parametrize("cap", [1, 3])
def test_a_play_bigger_than_every_other_hand_cannot_be_beaten(cap: int) -> None:
    counter = CardCounter(list(pack_counts(CLASSIC)), cap, CLASSIC)
    assert counter.beatable(Play.parse("9")) and counter.beatable(Play.parse("B"))
    assert counter.beatable(Play.parse("555")) == (cap >= 3)
    assert not counter.beatable(Play.parse("R"))


@given(
    preset=st.sampled_from(["classic", "weihai", "qq"]),
    hand=st.lists(st.integers(0, 14), min_size=2, max_size=14),
    seen=st.lists(st.integers(0, 14), max_size=60),
    cap=st.integers(1, 30),
)
@settings(max_examples=300, deadline=None)
def test_beyond_finishing_only_when_no_play_leaves_a_finishing_hand(
    preset: str, hand: list[int], seen: list[int], cap: int
) -> None:
    """The follow's shortcut (:func:`beyond_finishing`) changes no decision: when it holds, no
    play leaves a hand that :func:`finishing_lead` takes out or that is one play."""
    rules = Rules.preset(preset)
    pack = pack_counts(rules)
    counts = [min(hand.count(r), pack[r]) for r in range(len(pack))]
    pairs = zip(pack, counts, strict=True)
    unseen = [max(0, n - c - seen.count(r)) for r, (n, c) in enumerate(pairs)]
    counter = CardCounter(unseen, cap, rules)
    bot = HeuristicBot(rules)
    if beyond_finishing(counts, counter, bot.held):
        plays = leading_plays(counts, rules.twos_wild)
        assert not any(bot._finishes_after(counts, play, counter) for play in plays)
