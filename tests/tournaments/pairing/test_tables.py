"""Multi-player Swiss: table sizes, seating by score, repeat meetings, first-attack rotation.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.pairing import (
    Board,
    BoardResult,
    EntrantState,
    PairingError,
    PairingInputError,
    Side,
    entrants_after,
    repeat_meetings,
    seat_tables,
    table_sizes,
)


@pytest.mark.parametrize("table_size", range(3, 7))
def test_table_sizes_differ_by_at_most_one(table_size: int) -> None:
    for count in range(2, 400):
        sizes = table_sizes(count, table_size)
        assert sum(sizes) == count
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True), "larger tables first"
        if count >= 3:
            assert min(sizes) >= 3
        assert max(sizes) <= max(table_size + 1, 5), "over the size only when the count forces it"
        if count % table_size == 0:
            assert set(sizes) == {table_size}


def test_table_sizes_examples() -> None:
    assert table_sizes(600, 6) == [6] * 100
    assert table_sizes(13, 6) == [5, 4, 4]
    assert table_sizes(7, 3) == [4, 3]  # two tables of three would leave one out
    assert table_sizes(5, 3) == [5]
    assert table_sizes(2, 4) == [2]


def test_table_sizes_refuse_bad_input() -> None:
    with pytest.raises(PairingInputError):
        table_sizes(10, 7)
    with pytest.raises(PairingInputError):
        table_sizes(10, 2)
    with pytest.raises(PairingError):
        table_sizes(1, 4)


def _play(tables: list[Board], ratings: dict[str, float], rng: random.Random) -> list[BoardResult]:
    """Places by rating plus noise; the durak (last place) scores 0, first place size - 1."""
    results = []
    for table in tables:
        order = sorted(table.entrants, key=lambda entrant: -ratings[entrant] + rng.gauss(0, 250))
        points = {entrant: float(len(order) - 1 - place) for place, entrant in enumerate(order)}
        durak = tuple(1 if entrant == order[-1] else 0 for entrant in table.entrants)
        results.append(
            BoardResult(
                entrants=table.entrants,
                points=tuple(points[entrant] for entrant in table.entrants),
                first=table.entrants[0],
                durak_finishes=durak,
            )
        )
    return results


def _simulate(count: int, table_size: int, rounds: int, seed: int) -> tuple[list[list[Board]], list[int]]:
    rng = random.Random(seed)
    ratings = {f"p{index}": float(rng.randint(1000, 2200)) for index in range(count)}
    results: list[list[BoardResult]] = []
    seatings: list[list[Board]] = []
    repeats: list[int] = []
    for _ in range(rounds):
        entrants = entrants_after(ratings, results)
        tables = seat_tables(entrants, table_size=table_size)
        seated = Counter(entrant for table in tables for entrant in table.entrants)
        assert set(seated) == set(ratings) and set(seated.values()) == {1}, "everyone at exactly one table"
        assert sorted((len(t.entrants) for t in tables), reverse=True) == table_sizes(count, table_size)
        repeats.append(repeat_meetings(entrants, tables))
        seatings.append(tables)
        results.append(_play(tables, ratings, rng))
    return seatings, repeats


@pytest.mark.parametrize(("count", "table_size"), [(600, 6), (97, 4), (50, 5), (31, 3)])
def test_large_fields_never_repeat_a_meeting_in_five_rounds(count: int, table_size: int) -> None:
    _, repeats = _simulate(count, table_size, 5, seed=count)
    assert repeats == [0] * 5


def test_repeats_are_fewer_than_plain_seating_by_rank() -> None:
    # 16 entrants at tables of 4 over 7 rounds: repeats become unavoidable; the improvement still beats
    # seating in plain ranking order.
    rng = random.Random(7)
    ratings = {f"p{index}": float(rng.randint(1000, 2200)) for index in range(16)}
    results: list[list[BoardResult]] = []
    for _ in range(7):
        entrants = entrants_after(ratings, results)
        tables = seat_tables(entrants, table_size=4)
        ranked = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))
        plain = [Board(entrants=tuple(e.id for e in ranked[start : start + 4])) for start in range(0, 16, 4)]
        assert repeat_meetings(entrants, tables) <= repeat_meetings(entrants, plain)
        results.append(_play(tables, ratings, rng))


def test_seating_keeps_score_groups_together() -> None:
    # Round 2 after a round where scores came out 3, 2, 1, 0 at each table: the top table gathers the
    # winners of round 1 (none of whom have met).
    entrants = [EntrantState(f"w{index}", 1500 + index, score=3, opponents=(f"x{index}",)) for index in range(4)]
    entrants += [EntrantState(f"m{index}", 1500 + index, score=1) for index in range(4)]
    entrants += [EntrantState(f"l{index}", 1500 + index, score=0) for index in range(4)]
    tables = seat_tables(entrants, table_size=4)
    assert {entrant[0] for entrant in tables[0].entrants} == {"w"}
    assert {entrant[0] for entrant in tables[-1].entrants} == {"l"}


def test_first_attack_goes_to_who_has_had_it_least() -> None:
    entrants = [
        EntrantState("a", 2000, sides=(Side.FIRST, Side.FIRST)),
        EntrantState("b", 1900, sides=(Side.SECOND, Side.FIRST)),
        EntrantState("c", 1800, sides=(Side.SECOND, Side.SECOND)),
    ]
    (table,) = seat_tables(entrants, table_size=3)
    assert table.entrants == ("c", "a", "b")  # ranking order a, b, c rotated so that c is first


def test_first_attack_is_spread_over_a_tournament() -> None:
    seatings, _ = _simulate(24, 4, 8, seed=3)
    firsts = Counter(table.entrants[0] for tables in seatings for table in tables)
    # 8 rounds at tables of 4: 48 first attacks among 24 entrants, two each when perfectly spread.
    assert max(firsts.values()) <= 3
    assert min(firsts[f"p{index}"] for index in range(24)) >= 1


def test_withdrawn_and_absent_entrants_are_not_seated() -> None:
    entrants = [EntrantState(f"p{index}", 1500) for index in range(9)]
    entrants[0] = EntrantState("p0", 1500, withdrawn=True)
    tables = seat_tables(entrants, table_size=4, absent={"p1"})
    seated = {entrant for table in tables for entrant in table.entrants}
    assert seated == {f"p{index}" for index in range(2, 9)}
    assert [len(t.entrants) for t in tables] == [4, 3]
