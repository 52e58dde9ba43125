"""Duplicate rounds' pure core: the rotation of a deal across boards, the rotated deck, matchpoints.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.engine import deal
from games.engine.rules import preset_rules
from games.engine.deal import rotated_order
from tournaments.pairing import PairingInputError
from tournaments.pairing.duplicate import (
    ALONE, Holding, deal_id, duplicate_totals, hand_at, lead_seat, matchpoints, places_of, seat_of_hand,
    seeded_rotation, top_seat,
)


def _top_seed_hands(top_seats: list[int], size: int) -> list[int]:
    return [hand_at(top, seeded_rotation(board, top, size), size) for board, top in enumerate(top_seats)]


def test_heads_up_the_top_seed_holds_each_hand_on_every_other_board() -> None:
    # The Swiss seats the higher seed first on every other board (C.04.3 E.5): by board position alone he
    # would hold the same hand at every board; by seed he holds hand 0, 1, 0, 1 going down the boards.
    alternating = [0, 1, 0, 1, 0, 1, 0, 1]
    assert _top_seed_hands(alternating, 2) == [0, 1, 0, 1, 0, 1, 0, 1]
    assert [seeded_rotation(board, top, 2) for board, top in enumerate(alternating)] == [0] * 8
    assert _top_seed_hands([0] * 8, 2) == [0, 1, 0, 1, 0, 1, 0, 1]
    assert [seeded_rotation(board, 0, 2) for board in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]


def test_the_lower_seed_holds_the_other_hand() -> None:
    for board, top in enumerate([1, 0, 0, 1, 1, 0]):
        rotation = seeded_rotation(board, top, 2)
        assert hand_at(1 - top, rotation, 2) == 1 - board % 2


@pytest.mark.parametrize("size", [3, 4, 6])
def test_at_tables_the_top_seed_cycles_through_the_hands(size: int) -> None:
    top_seats = [(board * 5 + 1) % size for board in range(2 * size + 1)]
    assert _top_seed_hands(top_seats, size) == [board % size for board in range(2 * size + 1)]


def test_one_seat_is_no_deal() -> None:
    with pytest.raises(PairingInputError):
        seeded_rotation(0, 0, 1)
    with pytest.raises(PairingInputError):
        seeded_rotation(0, 2, 2)


def test_the_top_seat_is_the_best_seed() -> None:
    assert top_seat([7, 3]) == 1
    assert top_seat([2, 9, 5]) == 0
    with pytest.raises(PairingInputError):
        top_seat([])


@pytest.mark.parametrize("size", [2, 3, 4, 6])
def test_hand_and_seat_are_inverse(size: int) -> None:
    for rotation in range(size):
        held = [hand_at(seat, rotation, size) for seat in range(size)]
        assert sorted(held) == list(range(size))
        for seat in range(size):
            assert seat_of_hand(hand_at(seat, rotation, size), rotation, size) == seat


def test_the_lead_follows_the_hand() -> None:
    # Hand 1 leads: at rotation 0 seat 1 holds it, at rotation 1 seat 0, at rotation 2 (of 3) seat 2.
    assert [lead_seat(1, rotation, 3) for rotation in range(3)] == [1, 0, 2]


def test_deal_id_names_round_game_and_size() -> None:
    assert deal_id(3, 1, 2) == "3.1.2"


@pytest.mark.parametrize(("preset", "players"), [("podkidnoy", 2), ("podkidnoy", 3), ("podkidnoy", 6), ("aktobe", 4)])
def test_a_rotated_deal_gives_seat_s_the_hand_of_seat_s_plus_r(preset: str, players: int) -> None:
    rules = preset_rules(preset)
    base = deal(rules, players, seed="duplicate", salt="s")
    for rotation in range(players):
        rotated = deal(rules, players, seed="duplicate", salt="s", rotation=rotation)
        assert rotated.hands == [base.hands[(seat + rotation) % players] for seat in range(players)]
        assert rotated.stock == base.stock
        assert rotated.trump == base.trump
        assert sorted(rotated.order) == sorted(base.order)
        if base.hidden is not None:
            assert rotated.hidden == [base.hidden[(seat + rotation) % players] for seat in range(players)]
            assert rotated.hidden_trump == base.hidden_trump
        # Each board commits to the deck as it was dealt there.
        assert (rotated.commitment == base.commitment) == (rotation == 0)


def test_rotation_zero_is_the_plain_deal() -> None:
    rules = preset_rules("podkidnoy")
    assert deal(rules, 4, seed="x", salt="y").order == deal(rules, 4, seed="x", salt="y", rotation=0).order
    order = list(range(36))
    assert rotated_order(order, 3, 3) == order


def test_places_of_groups() -> None:
    assert places_of([[1], [0, 2], [3]], 4) == [1, 0, 1, 2]


def _holding(holder: str, place: int, cards: int, deal: str = "1.1.2", hand: int = 0) -> Holding:
    return Holding(deal=deal, hand=hand, holder=holder, place=place, cards_left=cards)


def test_matchpoints_compare_holders_of_the_same_hand() -> None:
    holdings = [
        _holding("e1", 0, 0),  # won
        _holding("e2", 1, 3),  # lost with 3 cards left
        _holding("e3", 1, 5),  # lost with 5
        _holding("e4", 0, 0),  # won
        _holding("e5", 1, 3, hand=1),  # another hand: compared with nobody here
    ]
    scores = matchpoints(holdings)
    # e1 beats e2 and e3 and ties e4: (1 + 1 + 1/2) / 3.
    assert scores[0] == Fraction(5, 6)
    assert scores[1] == Fraction(1, 3)  # beats e3 only (fewer cards left)
    assert scores[2] == Fraction(0)
    assert scores[3] == Fraction(5, 6)
    assert scores[4] == ALONE


def test_matchpoints_of_a_hand_sum_to_half_the_comparisons() -> None:
    holdings = [_holding(f"e{index}", index % 3, index % 4) for index in range(7)]
    scores = matchpoints(holdings)
    # Every comparison gives 1 in all between its two sides.
    assert sum(scores) * (len(holdings) - 1) == Fraction(len(holdings) * (len(holdings) - 1), 2)


def test_deals_are_kept_apart() -> None:
    holdings = [_holding("e1", 0, 0, deal="1.1.2"), _holding("e2", 1, 4, deal="1.2.2")]
    assert matchpoints(holdings) == [ALONE, ALONE]


def test_totals_sum_an_entrants_games() -> None:
    holdings = [_holding("e1", 0, 0), _holding("e2", 1, 2), _holding("e2", 0, 0, hand=1), _holding("e1", 1, 6, hand=1)]
    totals = duplicate_totals(holdings, ["e1", "e2", "e3"])
    assert totals == {"e1": Fraction(1), "e2": Fraction(1), "e3": Fraction(0)}
