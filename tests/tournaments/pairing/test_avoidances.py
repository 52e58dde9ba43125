"""Requested avoidances: the Swiss and the tables never put an avoided pair together while they can help it,
break the fewest when they cannot, and say what the avoidances did to the round.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random

import pytest

from tests.tournaments.pairing.simulate import play
from tournaments.pairing import (
    BoardResult,
    EntrantState,
    PairingError,
    PairingInputError,
    avoidances,
    entrants_after,
    pair_swiss,
    pair_swiss_explained,
    seat_tables,
    seat_tables_explained,
)


def _boards(pairings: list) -> set[frozenset[str]]:
    return {frozenset(pairing.entrants) for pairing in pairings if not pairing.bye}


def _swiss(ratings: dict[str, float], rounds: int, seed: int, avoid: frozenset[frozenset[str]]) -> list[set[str]]:
    """Pair and play a whole Swiss; every meeting as a set of two ids, round by round."""
    rng = random.Random(seed)
    results: list[list[BoardResult]] = []
    meetings: list[set[str]] = []
    for _ in range(rounds):
        pairings = pair_swiss(entrants_after(ratings, results), avoid=avoid)
        meetings.extend(set(pairing.entrants) for pairing in pairings if not pairing.bye)
        results.append(play(pairings, ratings, rng))
    return meetings


def test_avoidances_are_unordered_pairs_and_refuse_an_entrant_avoiding_himself() -> None:
    assert avoidances([("e1", "e2"), ["e2", "e1"], {"e3", "e4"}]) == frozenset(
        {frozenset({"e1", "e2"}), frozenset({"e3", "e4"})}
    )
    with pytest.raises(PairingInputError):
        avoidances([("e1", "e1")])


def test_a_round_of_four_pairs_the_avoided_pair_only_without_the_avoidance() -> None:
    """Round 1 of four pairs 1 v 3 and 2 v 4 (top half against bottom half); avoiding 1 v 3 pairs
    1 v 4 and 2 v 3 instead, and the explanation names the pair it kept apart."""
    entrants = entrants_after({"e1": 2000, "e2": 1900, "e3": 1800, "e4": 1700}, [])
    assert _boards(pair_swiss(entrants)) == {frozenset({"e1", "e3"}), frozenset({"e2", "e4"})}
    avoid = avoidances([("e3", "e1")])
    pairings, report = pair_swiss_explained(entrants, avoid=avoid)
    assert _boards(pairings) == {frozenset({"e1", "e4"}), frozenset({"e2", "e3"})}
    assert [frozenset(pair) for pair in report.kept_apart] == [frozenset({"e1", "e3"})]
    assert report.broken == () and report.floated == ()


def test_a_whole_swiss_in_which_two_who_would_otherwise_meet_never_do() -> None:
    rng = random.Random(7)
    ratings = {f"e{index}": float(rng.randint(1200, 2200)) for index in range(1, 17)}
    free = _swiss(ratings, 6, seed=11, avoid=frozenset())
    met = [pair for pair in free if pair & {"e1"}]
    assert met, "e1 meets someone without avoidances"
    # Avoid e1 and each opponent he met in the free run: with the same results drawn he meets none of them.
    rivals = {next(iter(pair - {"e1"})) for pair in met[:3]}
    avoid = avoidances(("e1", rival) for rival in rivals)
    constrained = _swiss(ratings, 6, seed=11, avoid=avoid)
    assert all(set(pair) not in constrained for pair in avoid), "an avoided pair met"
    assert len(constrained) == len(free), "every round still paired in full"


def test_a_round_whose_only_pairing_breaks_an_avoidance_pairs_it_and_says_so() -> None:
    """e1 has met e2 and e3 (a rematch is absolute), so e1 v e4 is the only pairing left: the avoidance
    between e1 and e4 is broken, once, and the report says so."""
    history = [
        [BoardResult(entrants=("e1", "e2"), points=(1.0, 0.0), first="e1"), BoardResult(entrants=("e3", "e4"), points=(1.0, 0.0), first="e3")],
        [BoardResult(entrants=("e1", "e3"), points=(1.0, 0.0), first="e3"), BoardResult(entrants=("e2", "e4"), points=(1.0, 0.0), first="e2")],
    ]  # fmt: skip
    entrants = entrants_after({"e1": 2000, "e2": 1900, "e3": 1800, "e4": 1700}, history)
    avoid = avoidances([("e1", "e4")])
    pairings, report = pair_swiss_explained(entrants, avoid=avoid)
    assert _boards(pairings) == {frozenset({"e1", "e4"}), frozenset({"e2", "e3"})}
    assert [frozenset(pair) for pair in report.broken] == [frozenset({"e1", "e4"})]
    assert report.kept_apart == ()


def test_when_avoidances_must_break_the_fewest_are_broken() -> None:
    """Six entrants; e1 and e2 each avoid all the others. Each meeting someone else would break two
    avoidances; pairing e1 with e2 breaks one, so that is the pairing."""
    entrants = entrants_after({f"e{index}": 2000.0 - 50 * index for index in range(1, 7)}, [])
    others = ("e3", "e4", "e5", "e6")
    avoid = avoidances([("e1", "e2"), *(("e1", other) for other in others), *(("e2", other) for other in others)])
    pairings, report = pair_swiss_explained(entrants, avoid=avoid)
    assert [frozenset(pair) for pair in report.broken] == [frozenset({"e1", "e2"})]
    assert sum(1 for pairing in pairings if frozenset(pairing.entrants) in avoid) == 1


def test_an_odd_round_moves_the_bye_rather_than_break_an_avoidance() -> None:
    """Three entrants: the bye goes to the lowest (e3) unless e1 and e2 avoid each other; then someone
    else takes the bye and nobody meets whom he avoids."""
    entrants = entrants_after({"e1": 2000, "e2": 1900, "e3": 1800}, [])
    plain = pair_swiss(entrants)
    assert [pairing.entrants for pairing in plain if pairing.bye] == [("e3",)]
    pairings = pair_swiss(entrants, avoid=avoidances([("e1", "e2")]))
    assert frozenset({"e1", "e2"}) not in _boards(pairings)


def test_a_float_the_avoidance_forced_is_reported() -> None:
    """After round 1, e1 and e2 lead on 1 point; avoiding each other, both float down to meet a 0."""
    history = [
        [
            BoardResult(entrants=("e1", "e3"), points=(1.0, 0.0), first="e1"),
            BoardResult(entrants=("e2", "e4"), points=(1.0, 0.0), first="e2"),
        ]
    ]
    entrants = entrants_after({"e1": 2000, "e2": 1900, "e3": 1800, "e4": 1700}, history)
    assert frozenset({"e1", "e2"}) in _boards(pair_swiss(entrants))
    pairings, report = pair_swiss_explained(entrants, avoid=avoidances([("e1", "e2")]))
    assert frozenset({"e1", "e2"}) not in _boards(pairings)
    assert set(report.floated) == {"e1", "e2", "e3", "e4"}
    assert report.broken == ()


def test_rematches_still_come_before_avoidances() -> None:
    """Two entrants who have met and avoid each other with nobody else left: no pairing at all."""
    history = [[BoardResult(entrants=("e1", "e2"), points=(1.0, 0.0), first="e1")]]
    entrants = entrants_after({"e1": 2000, "e2": 1900}, history)
    with pytest.raises(PairingError):
        pair_swiss(entrants, avoid=avoidances([("e1", "e2")]))


def _table_mates(pairings: list) -> set[frozenset[str]]:
    return {frozenset((a, b)) for pairing in pairings for a in pairing.entrants for b in pairing.entrants if a < b}


def test_tables_never_seat_an_avoided_pair_together_when_they_can_help_it() -> None:
    """Eight at tables of four seat by score: 1-4 and 5-8. Avoiding 1 and 2 parts them, and says so."""
    entrants = entrants_after({f"e{index}": 2000.0 - 10 * index for index in range(1, 9)}, [])
    assert frozenset({"e1", "e2"}) in _table_mates(seat_tables(entrants, table_size=4))
    avoid = avoidances([("e1", "e2"), ("e5", "e6")])
    pairings, report = seat_tables_explained(entrants, table_size=4, avoid=avoid)
    mates = _table_mates(pairings)
    assert not mates & set(avoid)
    assert {frozenset(pair) for pair in report.kept_apart} == set(avoid)
    assert sorted(entrant for pairing in pairings for entrant in pairing.entrants) == sorted(e.id for e in entrants)


def test_tables_that_cannot_part_an_avoided_pair_seat_it_and_say_so() -> None:
    """Five entrants at tables of three sit at one table of five: the avoidance cannot be kept."""
    entrants = entrants_after({f"e{index}": 2000.0 - 10 * index for index in range(1, 6)}, [])
    pairings, report = seat_tables_explained(entrants, table_size=3, avoid=avoidances([("e2", "e4")]))
    assert len(pairings) == 1
    assert [frozenset(pair) for pair in report.broken] == [frozenset({"e2", "e4"})]


def test_tables_over_many_rounds_keep_every_avoidance() -> None:
    rng = random.Random(3)
    ratings = {f"p{index}": float(rng.randint(1000, 2200)) for index in range(24)}
    avoid = avoidances([("p0", "p1"), ("p2", "p3"), ("p0", "p5"), ("p10", "p11")])
    results: list[list[BoardResult]] = []
    for _ in range(5):
        tables = seat_tables(entrants_after(ratings, results), table_size=4, avoid=avoid)
        assert not _table_mates(tables) & set(avoid)
        results.append(
            [
                BoardResult(
                    entrants=table.entrants,
                    points=tuple(float(rng.randint(0, 3)) for _ in table.entrants),
                    first=table.entrants[0],
                )
                for table in tables
            ]
        )


def test_an_entrant_of_no_avoidance_is_paired_as_before() -> None:
    """Avoidances naming entrants not in the round (withdrawn, another stage) change nothing."""
    entrants = [EntrantState(id=f"e{index}", rating=2000.0 - index) for index in range(1, 9)]
    assert pair_swiss(entrants, avoid=avoidances([("e1", "x9")])) == pair_swiss(entrants)
    assert seat_tables(entrants, table_size=4, avoid=avoidances([("e1", "x9")])) == seat_tables(entrants, table_size=4)
