"""Matches: games chained with R12 tribute between them, scores totalled.

Every game here runs under :class:`helpers.referee.Referee`, which checks the tribute events
(who pays, that each payer pays its highest card, who receives which card) against R12.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import pairwise

import pytest

from baohuang import Game, GameResult, IllegalActionError, Match, OpenSolo, Rules, Tribute
from helpers.cards import SEATS
from helpers.drivers import find_match, play, play_match
from helpers.policies import (
    FIRST_DEAL_DECLINER,
    is_dark_solo_call,
    preferring,
    random_policy,
    varied,
)
from helpers.reading import public_events, snapshot
from helpers.referee import Referee
from helpers.rulesets import PRESET_NAMES, PRESETS, QQ_THREES
from helpers.scoring import expected_tribute_side

#: Takes a solo (open or dark) whenever it can, to reach the solo cases of R12 quickly.
SOLOIST = preferring(lambda g, a: isinstance(a, OpenSolo) or is_dark_solo_call(g, a))


@pytest.mark.parametrize("seed", range(8))
def test_r12_match_chains_games_with_tribute_and_totals_scores(seed: int) -> None:
    match, games = play_match(seed, 3, checker=Referee)
    assert match.is_over and match.next_game() is None and len(match.results) == 3
    assert list(match.results) == [g.result for g in games]
    assert match.totals == [sum(g.result.scores[s] for g in games if g.result) for s in range(5)]
    assert sum(match.totals) == 0
    assert games[0].previous is None
    for before, game in pairwise(games):
        assert game.previous == before.result
        tribute = [e.kind for e in game.events if e.kind.startswith("tribute")]
        assert before.result is not None
        if before.result.outcome == "draw":  # R12: a draw, no tribute
            assert tribute == []
        else:
            assert tribute[0] == "tribute_due" and tribute[-1] == "tribute"


def others(result: GameResult) -> list[int]:
    """The rebels in finishing order."""
    return [s for s in result.places if s not in (result.emperor, result.guard)]


CASES: dict[str, tuple[Callable[[GameResult], bool], Callable[[GameResult], Counter[int]]]] = {
    # Emperor side won with a guard: each rebel pays 1; guard takes the middle card.
    "emperor-side-won": (
        lambda r: r.outcome == "emperor" and r.guard is not None,
        lambda r: Counter({r.emperor: 2, r.guard: 1}),
    ),
    # Rebels won against a guard: emperor pays 2, guard 1; each rebel takes one.
    "rebels-won": (
        lambda r: r.outcome == "rebels" and r.guard is not None,
        lambda r: Counter(dict.fromkeys(others(r), 1)),
    ),
    # Solo emperor won: each other pays 1 (明独: 2) to the emperor.
    "solo-won": (
        lambda r: r.outcome == "emperor" and r.guard is None,
        lambda r: Counter({r.emperor: 4 * (2 if r.open_solo else 1)}),
    ),
    # Solo emperor lost: 4 cards (明独: 8), one (two) to each other seat.
    "solo-lost": (
        lambda r: r.outcome == "rebels" and r.guard is None,
        lambda r: Counter(dict.fromkeys(others(r), 2 if r.open_solo else 1)),
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_r12_tribute_receivers(case: str) -> None:
    wanted, receivers = CASES[case]
    policy = SOLOIST if case.startswith("solo") else random_policy
    first, second = find_match(lambda gs: wanted(gs[0].result), policy)
    assert first.result is not None
    transfers = public_events(second, "tribute")[0]["transfers"]
    assert Counter(t["to"] for t in transfers) == receivers(first.result)


def test_r12_open_solo_doubles_every_tribute_number() -> None:
    first, second = find_match(lambda gs: gs[0].result.open_solo, SOLOIST)
    result = first.result
    assert result is not None and result.open_solo
    payers = Counter(payer for payer, _ in public_events(second, "tribute_due")[0]["payers"])
    if result.outcome == "emperor":
        assert payers == {s: 2 for s in range(SEATS) if s != result.emperor}
    else:
        assert payers == {result.emperor: 8}


def test_r12_draw_means_no_tribute() -> None:
    first, second = find_match(lambda gs: gs[0].result.outcome == "draw")
    assert second.previous == first.result
    kinds = [e.kind for e in second.events]
    assert kinds[:2] == ["deal", "candidate"] and not any(k.startswith("tribute") for k in kinds)


def test_r8_6_void_deal_in_a_match_pays_tribute_again() -> None:
    _, second = find_match(
        lambda gs: gs[0].result.outcome != "draw" and "void" in [e.kind for e in gs[1].events],
        FIRST_DEAL_DECLINER,
    )
    kinds = [e.kind for e in second.events]
    after_deals = [kinds[i + 1] for i, kind in enumerate(kinds) if kind == "deal"]
    assert len(after_deals) >= 2 and after_deals == ["tribute_due"] * len(after_deals)
    assert kinds.count("tribute") == len(after_deals)


def test_tribute_option_off_means_no_tribute_phase() -> None:
    rules = Rules.preset("classic", tribute=False)
    match, games = play_match(0, 3, rules=rules, checker=Referee)
    for before, game in pairwise([None, *games]):
        assert game.previous == (before.result if before else None)  # for the dealer (R9.1)
        assert not any(e.kind.startswith("tribute") for e in game.events)
    assert sum(match.totals) == 0


def in_tribute_with_choice() -> Game:
    """A match's second game waiting for a payer who holds several copies of its top rank."""
    for seed in range(50):
        match = Match(games=2, seed=seed)
        play(match.game, random.Random(seed))
        game = match.next_game()
        if game is not None and game.phase == "tribute" and len(game.legal_actions()) > 1:
            return game
    raise AssertionError("no tribute with a choice of copies in 50 seeded matches")


def test_r12_payer_pays_a_highest_card_of_its_choice() -> None:
    game = in_tribute_with_choice()
    seat, legal = game.current_seat, game.legal_actions()
    assert seat is not None and all(isinstance(t, Tribute) for t in legal)
    top = max(c.rank for c in game.hand(seat))
    assert {t.card for t in legal} == {c for c in game.hand(seat) if c.rank == top}
    lower = next(c for c in game.hand(seat) if c.rank < top)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="tribute phase"):
        game.apply(Tribute(lower))
    assert snapshot(game) == before
    choice = legal[-1]
    game.apply(choice)  # any copy of the top rank may be paid
    paid = game.events[before[1]]
    assert (paid.kind, paid.public, paid.private) == (
        "tribute_paid",
        {"seat": seat},
        {seat: {"card": str(choice.card)}},
    )


def test_match_errors() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        Match(games=0)
    with pytest.raises(ValueError, match="not over yet"):
        Match(games=2, seed=1).next_game()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r7_matches_of_every_preset_chain_games_and_deal_from_the_emperor(name: str) -> None:
    """R9.1/R11.1: seat 0 deals the first game, the previous emperor the later ones; R12: only
    the presets with tribute pay it, after a game that was not a draw (QQ: not 平贡, R10.3).
    The referee checks every game."""
    rules = PRESETS[name]
    for seed in range(2):
        match, games = play_match(seed, 3, varied(seed), rules, checker=Referee)
        assert sum(match.totals) == 0 and list(match.results) == [g.result for g in games]
        dealers = [public_events(g, "deal")[0]["dealer"] for g in games]
        if rules.selection != "called":
            assert dealers == [0, *(r.emperor for r in match.results[:-1])]
        tributes = sum(1 for g in games for e in g.events if e.kind == "tribute")
        paying = [expected_tribute_side(rules, r) != "draw" for r in match.results[:-1]]
        assert bool(tributes) == (rules.tribute and any(paying))


def test_r6_8_cleared_seat_pays_its_highest_card_to_its_clearer_next_game() -> None:
    """QQ with 3s: 清3 cards are owed to each clearer in the next game, on top of R12 tribute."""
    match, games = play_match(0, 2, rules=QQ_THREES, checker=Referee)
    cleared = match.results[0].cleared
    assert cleared
    due = public_events(games[1], "tribute_due")[0]["payers"]
    assert Counter((p, r) for p, r in due if r is not None) == Counter(cleared)
    transfers = public_events(games[1], "tribute")[0]["transfers"]
    assert Counter(cleared) <= Counter((t["from"], t["to"]) for t in transfers)
