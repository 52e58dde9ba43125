"""Heads-up Swiss: the absolute rules over many simulated tournaments, and the Dutch system's shape.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.simulate import PairedRound, play, run_swiss
from tournaments.pairing import (
    Board,
    BoardResult,
    EntrantState,
    Float,
    PairingError,
    PairingInputError,
    Side,
    SwissOptions,
    entrants_after,
    pair_swiss,
    team_rating,
)
from tournaments.pairing.first_attack import preference
from tournaments.pairing.swiss import ranking_key


def _ratings(count: int, rng: random.Random, prefix: str = "e") -> dict[str, float]:
    return {f"{prefix}{index}": float(rng.randint(1000, 2400)) for index in range(count)}


def _check_round(paired: PairedRound, byes_so_far: Counter[str]) -> None:
    """Every rule a published round must keep, checked from the entrants the pairing was given."""
    active = [e for e in paired.entrants if not e.withdrawn]
    seated = [entrant for pairing in paired.pairings for entrant in pairing.entrants]
    assert sorted(seated) == sorted(e.id for e in active), "every active entrant exactly once"
    met = {e.id: set(e.opponents) for e in paired.entrants}
    for pairing in paired.pairings:
        if not pairing.bye:
            first, second = pairing.entrants
            assert second not in met[first], f"rematch {first} v {second}"
    byes = [pairing.entrants[0] for pairing in paired.pairings if pairing.bye]
    assert len(byes) == len(active) % 2
    for entrant in byes:
        byes_so_far[entrant] += 1
        assert byes_so_far[entrant] == 1, f"{entrant} has a second bye"
    if byes:
        eligible = [e for e in active if e.byes == 0 and e.forfeit_wins == 0]
        lowest = max(eligible, key=ranking_key)
        assert byes[0] == lowest.id, "the bye goes to the lowest-ranked eligible entrant"


@pytest.mark.parametrize("count", [7, 8, 15, 16, 33, 64, 101])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_swiss_keeps_the_absolute_rules(count: int, seed: int) -> None:
    rng = random.Random(seed * 1000 + count)
    rounds = min(9, count // 2)
    history, _ = run_swiss(_ratings(count, rng), rounds, rng)
    byes: Counter[str] = Counter()
    for paired in history:
        _check_round(paired, byes)


@pytest.mark.parametrize("seed", range(6))
def test_withdrawals_and_late_entries_mid_tournament(seed: int) -> None:
    rng = random.Random(seed)
    ratings = _ratings(21 + seed, rng)
    ids = sorted(ratings)
    late = {3: {"late1": 1500.0, "late2": 2300.0}, 5: {"late3": 1200.0}}
    withdrawals = {3: ids[:2], 4: [ids[5]], 6: ["late2"]}
    history, results = run_swiss(ratings, 8, rng, withdrawals=withdrawals, late_entries=late)
    byes: Counter[str] = Counter()
    for number, paired in enumerate(history, start=1):
        _check_round(paired, byes)
        seated = {entrant for pairing in paired.pairings for entrant in pairing.entrants}
        assert not seated & paired.withdrawn, "a withdrawn entrant is never paired"
        if number >= 3:
            assert {"late1", "late2"} - paired.withdrawn <= seated
    # The late entrants started on zero and took part from their first round on.
    late_rounds = [
        number for number, round_results in enumerate(results, 1) for r in round_results if "late3" in r.entrants
    ]
    assert late_rounds == [5, 6, 7, 8]


def _perfect_matching_exists(ids: list[str], met: dict[str, set[str]]) -> bool:
    """Brute force: can these entrants all be paired without a rematch?"""
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    return any(
        _perfect_matching_exists(rest[:index] + rest[index + 1 :], met)
        for index, other in enumerate(rest)
        if other not in met[first]
    )


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_small_fields_are_paired_whenever_the_rules_allow(count: int, rounds: int, seed: int) -> None:
    """Either a legal pairing, or PairingError exactly when brute force finds no legal pairing."""
    rng = random.Random(seed)
    ratings = _ratings(count, rng)
    results: list[list[BoardResult]] = []
    for _ in range(rounds):
        entrants = entrants_after(ratings, results)
        met = {e.id: set(e.opponents) for e in entrants}
        ranked = sorted(entrants, key=ranking_key)
        ids = [e.id for e in ranked]
        if count % 2 == 0:
            feasible_byes: list[str | None] = [None] if _perfect_matching_exists(ids, met) else []
        else:
            # The lowest-ranked entrant without a bye whose absence leaves a pairable field.
            feasible_byes = [
                e.id
                for e in reversed(ranked)
                if e.byes == 0 and _perfect_matching_exists([x for x in ids if x != e.id], met)
            ]
        try:
            pairings = pair_swiss(entrants)
        except PairingError:
            assert not feasible_byes, "PairingError although a legal pairing exists"
            return
        assert feasible_byes, "a pairing was made although none is legal"
        bye = next((p.entrants[0] for p in pairings if p.bye), None)
        assert bye == feasible_byes[0]
        for pairing in pairings:
            if not pairing.bye:
                assert pairing.entrants[1] not in met[pairing.entrants[0]]
        results.append(play(pairings, ratings, rng))


def test_the_bye_moves_up_when_the_lowest_would_leave_a_rematch() -> None:
    # a and b have met; c is the lowest-ranked, but a bye for c leaves only the rematch a v b.
    entrants = [
        EntrantState("a", 2000, score=1, opponents=("b",), sides=(Side.FIRST,)),
        EntrantState("b", 1900, score=0, opponents=("a",), sides=(Side.SECOND,)),
        EntrantState("c", 1800, score=1, byes=0),
    ]
    pairings = pair_swiss(entrants)
    assert [p.entrants[0] for p in pairings if p.bye] == ["b"]
    assert {p.entrants for p in pairings if not p.bye} <= {("a", "c"), ("c", "a")}


def test_no_second_bye_and_no_bye_after_a_forfeit_win() -> None:
    entrants = [
        EntrantState("a", 2000),
        EntrantState("b", 1900),
        EntrantState("c", 1800, forfeit_wins=1),  # C.04.1 d: a forfeit win bars the bye like a bye does
        EntrantState("d", 1700, byes=1),
        EntrantState("e", 1600, byes=1),
    ]
    pairings = pair_swiss(entrants)
    assert [p.entrants[0] for p in pairings if p.bye] == ["b"]


def test_every_entrant_has_had_a_bye_is_a_pairing_error() -> None:
    entrants = [EntrantState(name, 1500, byes=1) for name in "abc"]
    with pytest.raises(PairingError):
        pair_swiss(entrants)


def test_a_round_that_would_need_a_rematch_is_a_pairing_error() -> None:
    entrants = [EntrantState("a", 1500, opponents=("b",)), EntrantState("b", 1400, opponents=("a",))]
    with pytest.raises(PairingError):
        pair_swiss(entrants)


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(PairingInputError):
        pair_swiss([EntrantState("a", 1500), EntrantState("a", 1400)])


def test_round_one_is_top_half_against_bottom_half_with_alternating_first_attack() -> None:
    # C.04.3: 1 v 5, 2 v 6, 3 v 7, 4 v 8; E.5 gives the initial side to the odd-numbered higher seeds.
    entrants = [EntrantState(f"p{number}", 2000 - 10 * number) for number in range(1, 9)]
    pairings = pair_swiss(entrants)
    assert [p.entrants for p in pairings] == [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]
    second = pair_swiss(entrants, options=SwissOptions(initial=Side.SECOND))
    assert [p.entrants for p in second] == [("p5", "p1"), ("p2", "p6"), ("p7", "p3"), ("p4", "p8")]


def test_absent_entrants_are_not_paired() -> None:
    entrants = [EntrantState(f"p{number}", 2000 - number) for number in range(6)]
    pairings = pair_swiss(entrants, absent={"p0"})
    seated = {entrant for pairing in pairings for entrant in pairing.entrants}
    assert "p0" not in seated and len(seated) == 5


def test_score_groups_stay_together_when_they_can() -> None:
    # Round 1 decided by rating: 16 winners on 1 point, 16 losers on 0; round 2 pairs within the groups.
    ratings = {f"p{index:02}": 2400.0 - 20 * index for index in range(32)}
    entrants = entrants_after(ratings, [])
    round_one = pair_swiss(entrants)
    results = [
        BoardResult(
            entrants=p.entrants,
            points=(1.0, 0.0) if ratings[p.entrants[0]] > ratings[p.entrants[1]] else (0.0, 1.0),
            first=p.entrants[0],
        )
        for p in round_one
    ]
    after = {e.id: e for e in entrants_after(ratings, [results])}
    round_two = pair_swiss(list(after.values()))
    assert all(after[p.entrants[0]].score == after[p.entrants[1]].score for p in round_two)
    # And first attack alternates: everyone who attacked first in round 1 attacks second now.
    for pairing in round_two:
        first, second = (after[entrant] for entrant in pairing.entrants)
        assert first.sides[-1] is Side.SECOND and second.sides[-1] is Side.FIRST


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_floats_are_few_and_first_attack_stays_balanced(seed: int) -> None:
    rng = random.Random(seed)
    ratings = _ratings(64, rng)
    history, results = run_swiss(ratings, 9, rng)
    for paired in history[:5]:
        score = {e.id: e.score for e in paired.entrants}
        groups = len(set(score.values()))
        mixed = sum(1 for p in paired.pairings if not p.bye and score[p.entrants[0]] != score[p.entrants[1]])
        assert mixed <= groups, "at most one floater per score group"
    final = entrants_after(ratings, results)
    for entrant in final:
        difference = preference(entrant.sides).difference
        assert abs(difference) <= 1, f"{entrant.id} attacked first {difference:+} more often than second"
        runs = ["".join(side.value[0] for side in entrant.sides)]
        assert "fff" not in runs[0] and "sss" not in runs[0], f"{entrant.id} has three in a row: {runs[0]}"


def test_repeated_downfloats_are_avoided() -> None:
    # Three on 1 point (a, b, c), three on 0. One of the leaders must float down; a floated down last
    # round (C.14), so b or c floats even though a is the lowest-ranked leader.
    down, none = Float.DOWN, Float.NONE
    entrants = [
        EntrantState("b", 2000, score=1, floats=(none,)),
        EntrantState("c", 1900, score=1, floats=(none,)),
        EntrantState("a", 1800, score=1, floats=(down,)),
        EntrantState("x", 1700, score=0, floats=(none,)),
        EntrantState("y", 1600, score=0, floats=(none,)),
        EntrantState("z", 1500, score=0, floats=(none,)),
    ]
    pairings = pair_swiss(entrants)
    leaders = {"a", "b", "c"}
    mixed = [p for p in pairings if len(set(p.entrants) & leaders) == 1]
    assert len(mixed) == 1
    assert "a" not in mixed[0].entrants


def test_teams_are_paired_as_entrants() -> None:
    teams = {
        "red": team_rating([1500, 1700]),
        "blue": team_rating([1600, 1600]),
        "green": team_rating([1400, 1500]),
        "white": team_rating([1900, 1300]),
    }
    assert teams["red"] == 1600
    pairings = pair_swiss([EntrantState(team, rating) for team, rating in teams.items()])
    assert sorted(entrant for p in pairings for entrant in p.entrants) == sorted(teams)
    assert all(len(p.entrants) == 2 for p in pairings)


def test_large_field_round_five_has_no_rematch() -> None:
    rng = random.Random(5)
    ratings = _ratings(400, rng)
    history, _ = run_swiss(ratings, 5, rng)
    byes: Counter[str] = Counter()
    for paired in history:
        _check_round(paired, byes)


def test_publishing_order_puts_the_highest_scores_first() -> None:
    entrants = [
        EntrantState("low1", 2000, score=0),
        EntrantState("low2", 1990, score=0),
        EntrantState("top1", 1500, score=2),
        EntrantState("top2", 1490, score=2),
    ]
    pairings = pair_swiss(entrants)
    assert set(pairings[0].entrants) == {"top1", "top2"}
    assert isinstance(pairings[0], Board)
