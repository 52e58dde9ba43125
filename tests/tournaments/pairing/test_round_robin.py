"""Round robin: FIDE's Berger tables (C.05 Annex 1) for 3 to 16 players, single and double.

The tables written out below are copied from the published Annex 1, not produced by the code under test.
Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import PairingInputError, berger_table, round_robin


def _parse(table: str) -> list[list[tuple[int, int]]]:
    """'1-4 2-3 / 4-3 1-2' -> rounds of (first, second) pairs."""
    return [
        [(int(first), int(second)) for first, second in (game.split("-") for game in round_text.split())]
        for round_text in table.split("/")
    ]


PUBLISHED = {
    # 3 or 4 players
    4: _parse("1-4 2-3 / 4-3 1-2 / 2-4 3-1"),
    # 5 or 6 players
    6: _parse("""1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1"""),
    # 7 or 8 players
    8: _parse(
        """1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 /
        3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1"""
    ),
    # 9 or 10 players
    10: _parse(
        """1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 /
        10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 /
        4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1"""
    ),
}


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_berger_tables_are_fides(players: int) -> None:
    assert berger_table(players) == PUBLISHED[players]


@pytest.mark.parametrize("players", [3, 5, 7, 9])
def test_an_odd_field_uses_the_next_even_table(players: int) -> None:
    assert berger_table(players) == PUBLISHED[players + 1]


@pytest.mark.parametrize("players", range(3, 17))
def test_every_pair_meets_exactly_once(players: int) -> None:
    ids = [f"p{number}" for number in range(1, players + 1)]
    rounds = round_robin(ids)
    assert len(rounds) == players - 1 + players % 2
    meetings = Counter(frozenset(p.entrants) for rnd in rounds for p in rnd if not p.bye)
    assert set(meetings) == {frozenset(pair) for pair in combinations(ids, 2)}
    assert set(meetings.values()) == {1}
    for rnd in rounds:
        seated = [entrant for pairing in rnd for entrant in pairing.entrants]
        assert sorted(seated) == sorted(ids), "everyone once per round"
        assert sum(1 for p in rnd if p.bye) == players % 2
    byes = Counter(p.entrants[0] for rnd in rounds for p in rnd if p.bye)
    assert all(count == 1 for count in byes.values()) and len(byes) == players % 2 * players


@pytest.mark.parametrize("players", range(3, 17))
def test_first_attack_is_balanced(players: int) -> None:
    ids = [f"p{number}" for number in range(1, players + 1)]
    first = Counter(p.first for rnd in round_robin(ids) for p in rnd if not p.bye)
    games = Counter(entrant for rnd in round_robin(ids) for p in rnd if not p.bye for entrant in p.entrants)
    for entrant in ids:
        assert abs(2 * first[entrant] - games[entrant]) <= 1


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin_meets_twice_with_first_attack_reversed(players: int) -> None:
    ids = [f"p{number}" for number in range(1, players + 1)]
    rounds = round_robin(ids, double=True)
    cycle = len(rounds) // 2
    assert cycle == players - 1 + players % 2
    meetings = Counter(frozenset(p.entrants) for rnd in rounds for p in rnd if not p.bye)
    assert set(meetings.values()) == {2} and len(meetings) == players * (players - 1) // 2
    for first_cycle, second_cycle in zip(rounds[:cycle], rounds[cycle:], strict=True):
        assert [p.entrants[::-1] for p in first_cycle if not p.bye] == [p.entrants for p in second_cycle if not p.bye]


def test_round_robin_names_entrants_by_pairing_number() -> None:
    rounds = round_robin(["ann", "bob", "cat"])
    # 3 players play the 4-player table; number 4 is the dummy, so meeting it is a bye.
    assert [[(p.entrants, p.bye) for p in rnd] for rnd in rounds] == [
        [(("bob", "cat"), False), (("ann",), True)],
        [(("ann", "bob"), False), (("cat",), True)],
        [(("cat", "ann"), False), (("bob",), True)],
    ]


@pytest.mark.parametrize("players", [0, 1, 2, 17])
def test_sizes_outside_the_tables_are_refused(players: int) -> None:
    with pytest.raises(PairingInputError):
        berger_table(players)


def test_duplicate_entrants_are_refused() -> None:
    with pytest.raises(PairingInputError):
        round_robin(["a", "b", "a"])
