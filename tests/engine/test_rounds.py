"""R6.2–R6.6, the round rules of engine/rounds.py, against a literal restatement of docs/rules.md
on random positions: each seat's card count, the seats out so far (those with no cards)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baohuang.engine.rounds import game_over, going_out, next_holder, next_leader, round_over

SEATS = 5
seats = st.integers(0, SEATS - 1)


@st.composite
def positions(draw: st.DrawFn, holders: int = 1) -> tuple[list[int], list[int]]:
    """Card counts with at least ``holders`` seats holding cards, and the other seats' places
    in some finishing order."""
    sizes = draw(
        st.lists(st.integers(0, 20), min_size=SEATS, max_size=SEATS).filter(
            lambda sizes: sum(1 for n in sizes if n) >= holders
        )
    )
    places = draw(st.permutations([s for s in range(SEATS) if not sizes[s]]))
    return sizes, list(places)


def play_order(seat: int) -> list[int]:
    """R1: the seats after ``seat``, its 下家 first, ending with ``seat`` itself."""
    return [(seat + i) % SEATS for i in range(1, SEATS + 1)]


@given(positions(), seats)
def test_r6_2_the_turn_goes_to_the_next_seat_holding_cards(
    position: tuple[list[int], list[int]], seat: int
) -> None:
    sizes, _ = position
    assert next_holder(sizes, seat) == next(s for s in play_order(seat) if sizes[s])


def test_r6_2_no_next_holder_once_every_hand_is_empty() -> None:
    with pytest.raises(AssertionError):
        next_holder([0] * SEATS, 0)


@given(positions(), seats, st.integers(0, SEATS - 1))
def test_r6_3_the_round_ends_when_everyone_else_holding_cards_passed(
    position: tuple[list[int], list[int]], last: int, passes: int
) -> None:
    sizes, places = position
    others = [s for s in range(SEATS) if s != last and sizes[s]]
    assert round_over(sizes, last, passes, places) == (passes >= len(others))


@given(positions(), seats)
def test_r6_3_r6_5_the_last_player_leads_or_jiefeng_passes_the_lead_on(
    position: tuple[list[int], list[int]], last: int
) -> None:
    sizes, _ = position
    leader = next_leader(sizes, last)
    if sizes[last]:
        assert leader == last  # R6.3
    else:
        assert leader == next(s for s in play_order(last) if sizes[s])  # R6.5 接风


@given(positions(holders=2), st.data())
def test_r6_4_r6_6_going_out_takes_the_next_place_and_the_last_holder_is_da_luo(
    position: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    sizes, places = position
    seat = data.draw(st.sampled_from([s for s in range(SEATS) if sizes[s]]))
    sizes[seat] = 0
    left = [s for s in range(SEATS) if sizes[s]]
    placed = going_out(places, seat)
    assert placed == ((seat, *left) if len(left) == 1 else (seat,))
    assert not game_over(places)
    assert game_over([*places, *placed]) == (len(left) == 1)


def test_r6_5_jiefeng_after_the_round_winner_went_out() -> None:
    sizes, places = [0, 3, 0, 2, 1], [2, 0]  # seat 0 went out with the round's last play
    assert not round_over(sizes, 0, 2, places)
    assert round_over(sizes, 0, 3, places)  # seats 1, 3 and 4 passed
    assert next_leader(sizes, 0) == 1
    assert next_leader(sizes, 3) == 3
