"""The exact Dutch engine (``tournaments.pairing.dutch``): the pieces of C.04.3 on small brackets, and every round
of seeded random tournaments against an independent implementation (``caissify-pairings``, paired at run time).

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random
from contextlib import nullcontext

import pytest

from tests.tournaments.pairing.dutch_oracle import oracle_pairing, play_and_compare
from tests.tournaments.pairing.simulate import play
from tournaments.pairing import BoardResult, EntrantState, Float, PairingError, Side, entrants_after
from tournaments.pairing.avoidances import AvoidanceReport, avoidances
from tournaments.pairing.dutch import DutchOptions, baku_points, initial_numbers, pair_dutch, pair_dutch_explained
from tournaments.pairing.trf import tournament_trf, write_trf

F, S = Side.FIRST, Side.SECOND


def _field(scores: dict[int, float], *, met: tuple[tuple[int, int], ...] = (), **extra: dict[int, object]) -> list[EntrantState]:
    """Entrants p1, p2, ... whose pairing numbers are their numbers (ratings fall with the number)."""
    opponents: dict[int, list[str]] = {number: [] for number in scores}
    for a, b in met:
        opponents[a].append(f"p{b}")
        opponents[b].append(f"p{a}")
    rounds = max((len(o) for o in opponents.values()), default=0) or 1
    return [
        EntrantState(
            id=f"p{number}", rating=3000.0 - number, score=score, opponents=tuple(opponents[number]),
            sides=extra.get("sides", {}).get(number, ()),  # type: ignore[arg-type]
            floats=extra.get("floats", {}).get(number, (Float.NONE,) * rounds),  # type: ignore[arg-type]
            byes=extra.get("byes", {}).get(number, 0),  # type: ignore[arg-type]
        )
        for number, score in scores.items()
    ]  # fmt: skip


def _pairs(entrants: list[EntrantState]) -> tuple[set[frozenset[int]], int | None]:
    boards = pair_dutch(entrants)
    pairs = {frozenset(int(e[1:]) for e in board.entrants) for board in boards if not board.bye}
    bye = next((int(board.entrants[0][1:]) for board in boards if board.bye), None)
    return pairs, bye


def _agrees_with_oracle(entrants: list[EntrantState], round_number: int = 2) -> bool:
    numbers = initial_numbers(entrants)
    theirs = oracle_pairing(entrants, numbers, round_number)
    boards = pair_dutch(entrants, numbers=numbers)
    ours = {frozenset(board.entrants) for board in boards if not board.bye}
    bye = next((board.entrants[0] for board in boards if board.bye), None)
    return ours == theirs.pairs and bye == theirs.bye


def pairs(*items: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(item) for item in items}


def test_initial_numbers_rank_by_rating_then_name_then_id() -> None:
    field = [EntrantState(id="z", rating=1500), EntrantState(id="a", rating=1500), EntrantState(id="m", rating=1600)]
    assert initial_numbers(field) == {"m": 1, "a": 2, "z": 3}
    assert initial_numbers(field, {"z": "Anna", "a": "Boris"}) == {"m": 1, "z": 2, "a": 3}


def test_round_one_pairs_top_half_against_bottom_half_and_alternates_first_attack() -> None:
    field = [EntrantState(id=f"p{n}", rating=3000.0 - n) for n in range(1, 10)]
    boards = pair_dutch(field)
    assert [board.entrants for board in boards] == [
        ("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"), ("p9",),
    ]  # fmt: skip
    assert boards[-1].bye


def test_first_transposition_of_s2_avoids_a_rematch() -> None:
    """C.04.3 D.1: S2 = 5 6 7 8 becomes 6 5 7 8 when 1 has met 5; 7 5 6 8 when he has met 5 and 6."""
    field = _field(dict.fromkeys(range(1, 9), 1.0), met=((1, 5),))
    assert _pairs(field) == (pairs((1, 6), (2, 5), (3, 7), (4, 8)), None)
    field = _field(dict.fromkeys(range(1, 9), 1.0), met=((1, 5), (1, 6)))
    assert _pairs(field) == (pairs((1, 7), (2, 5), (3, 6), (4, 8)), None)


def test_exchange_between_s1_and_s2_when_no_transposition_will_do() -> None:
    """C.04.3 D.2: 3 has met all of S2 = 4 5 6; exchanging 3 and 4 gives S1 = 1 2 4, S2 = 3 5 6."""
    field = _field(dict.fromkeys(range(1, 7), 1.0), met=((3, 4), (3, 5), (3, 6)))
    assert _pairs(field) == (pairs((1, 3), (2, 5), (4, 6)), None)
    assert _agrees_with_oracle(field)


def test_moved_down_player_meets_the_first_resident_he_may() -> None:
    """A heterogeneous bracket: the MDP (S1) is paired first, with the first resident of S2 he has not met."""
    field = _field({1: 1.0, 2: 0.5, 3: 0.5, 4: 0.5}, met=((1, 2),))
    assert _pairs(field) == (pairs((1, 3), (2, 4)), None)
    field = _field({1: 1.0, 2: 0.5, 3: 0.5, 4: 0.5})
    assert _pairs(field) == (pairs((1, 2), (3, 4)), None)


def test_bye_goes_to_the_lowest_who_has_not_had_one() -> None:
    field = _field(dict.fromkeys(range(1, 6), 0.0), byes={5: 1})
    assert _pairs(field)[1] == 4
    assert _agrees_with_oracle(field)


def test_bye_goes_to_the_lowest_score_that_completes_the_round() -> None:
    """The bye's score is minimised before the brackets above are paired: 5 (the only one at 0) takes it."""
    field = _field({1: 2.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0}, met=((2, 3), (2, 4)))
    ours = _pairs(field)
    assert ours[1] == 5
    assert _agrees_with_oracle(field)


def test_bye_assignee_with_fewer_unplayed_games_is_preferred() -> None:
    """5 entered late (an unplayed round): the bye goes to 3, who played, even though that takes a transposition."""
    field = _field({1: 1.0, 4: 1.0, 2: 0.0, 3: 0.0, 5: 0.0}, met=((1, 2), (4, 3)))
    ours = _pairs(field)
    assert ours == (pairs((1, 4), (2, 5)), 3)
    assert _agrees_with_oracle(field)


def test_absolute_first_attack_conflict_is_never_paired() -> None:
    """C3: two entrants who both must attack first (second twice running) are not paired."""
    field = _field({1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}, sides={1: (S, S), 3: (S, S), 2: (F, F), 4: (F, F)})
    found, _ = _pairs(field)
    assert frozenset((1, 3)) not in found and frozenset((2, 4)) not in found


def test_no_pairing_without_a_rematch_raises() -> None:
    with pytest.raises(PairingError):
        pair_dutch(_field({1: 1.0, 2: 0.0}, met=((1, 2),)))


# Tournaments the engine pairs like the oracle in every round (pairs and bye). First attack is compared under
# the oracle's reading of E.4 ("higher ranked" as the lower pairing number, not score first as A.2 has it).
# The second line: small fields and many rounds, where completion and the bye decide (each once differed).
SEEDED = [
    (101, 14, 6), (102, 17, 6), (103, 20, 5), (104, 11, 7), (105, 16, 6), (106, 23, 5), (107, 30, 7), (108, 44, 8),
    (13, 12, 10), (14, 15, 8), (23, 16, 9), (27, 9, 8), (47, 16, 10), (53, 15, 9), (69, 9, 8),
]  # fmt: skip


@pytest.mark.parametrize(("seed", "players", "rounds"), SEEDED)
def test_every_round_is_the_oracles(seed: int, players: int, rounds: int) -> None:
    checks = play_and_compare(seed, players, rounds)
    assert [check.round_number for check in checks if not check.pairs_equal] == []
    assert [check.round_number for check in checks if not check.first_equal_by_number] == []


def test_trf_of_a_dutch_tournament_passes_the_oracles_checker() -> None:
    """A tournament paired by ``pair_dutch`` and written as TRF (``trf.tournament_trf``) is re-paired round by round
    by the oracle's checker (``caissify_pairings.fpc.check_trf``) with no discrepancy; forfeits included (a
    forfeit win is a downfloat, the pair may meet again)."""
    from caissify_pairings.fpc import check_trf  # type: ignore[import-untyped, unused-ignore]

    rng = random.Random(11)
    ratings = {f"e{index:02d}": float(rng.randint(1200, 2200)) for index in range(15)}
    rounds = 6
    results: list[list[BoardResult]] = []
    for number in range(1, rounds + 1):
        entrants = entrants_after(ratings, results)
        boards = pair_dutch(entrants, options=DutchOptions(last_round=number == rounds))
        results.append(play(boards, ratings, rng, forfeits=0.1))
    assert any(result.forfeit for round_ in results for result in round_)
    text = write_trf(tournament_trf("dutch", ratings, results, planned_rounds=rounds))
    report = check_trf(text)
    assert report["summary"]["rounds_checked"] == rounds
    assert [entry["discrepancies"] for entry in report["rounds"]] == [[]] * rounds


def test_requested_avoidance_is_kept_apart_like_a_rematch() -> None:
    field = _field(dict.fromkeys(range(1, 9), 1.0))
    boards = pair_dutch(field, avoid=avoidances([("p1", "p5")]))
    found = {frozenset(int(e[1:]) for e in board.entrants) for board in boards}
    assert found == pairs((1, 6), (2, 5), (3, 7), (4, 8))


def test_requested_avoidance_yields_when_the_round_cannot_be_paired_otherwise() -> None:
    field = _field({1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}, met=((1, 3), (2, 4)))
    boards = pair_dutch(field, avoid=avoidances([("p1", "p2"), ("p1", "p4")]))
    found = {frozenset(int(e[1:]) for e in board.entrants) for board in boards}
    assert found == pairs((1, 2), (3, 4))  # 1-4 / 2-3 breaks one too; 1-2 pairs the top bracket (C5)


@pytest.mark.parametrize("seed", [400, 403, 407, 410])
def test_avoidances_pair_like_the_oracle_given_them_as_meetings(seed: int) -> None:
    """The oracle keeps earlier meetings apart as ``pair_dutch`` keeps avoidances apart. Compared: rounds 2 on
    with an even field (the oracle pairs round 1 without looking at meetings, and counts an avoidance as a
    played game where the bye's unplayed-games criterion reads them)."""
    checks = play_and_compare(seed, 16 + (seed % 3) * 6, 7, avoiding=4)
    compared = [check for check in checks if check.round_number >= 2 and check.ours.bye is None is check.theirs.bye]
    assert len(compared) >= 2
    assert [check.round_number for check in compared if not check.first_equal_by_number] == []


def test_baku_points() -> None:
    """C.04.5.1: group A is the top half rounded up to an even count; 8 rounds accelerate rounds 1-4, a point in
    rounds 1-2 and half a point in rounds 3-4."""
    numbers = {f"p{n}": n for n in range(1, 11)}
    assert baku_points(numbers, 1, 8) == {f"p{n}": 1.0 for n in range(1, 7)}
    assert set(baku_points(numbers, 4, 8).values()) == {0.5}
    assert baku_points(numbers, 5, 8) == {}


@pytest.mark.parametrize(("seed", "players"), [(500, 16), (501, 19), (503, 20), (506, 12)])
def test_baku_rounds_pair_like_the_oracle(seed: int, players: int) -> None:
    """Rounds 1 and 2 of an accelerated Swiss of 8 rounds, where the oracle's Baku (a point for the top half in
    rounds 1 and 2) and C.04.5.1 agree: fields of 4k or 4k + 3, the same entrants in both rounds."""
    checks = play_and_compare(seed, players, 8, baku=True)
    assert [(check.pairs_equal, check.first_equal_by_number) for check in checks[:2]] == [(True, True)] * 2


@pytest.mark.parametrize(("seed", "players"), [(5, 51), (9, 40), (13, 121)])
def test_matching_near_the_bracket_pairs_as_the_whole_field(seed: int, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut that matches a bracket with only the next score group (or its first players,
    ``Bracket.match_thin``) and completes the rest by a cardinality matching (``Bracket.match_near``) pairs
    every round as the matching over the whole field does."""
    from tournaments.pairing import dutch_bracket

    rng = random.Random(seed)
    ratings = {f"e{index:02d}": float(rng.randint(1000, 2400)) for index in range(players)}
    results: list[list[BoardResult]] = []
    shortcut = dutch_bracket.Bracket.match_near
    used = []

    def counted(self: dutch_bracket.Bracket, *args: object) -> list[tuple[int, int]] | None:
        pairs = shortcut(self, *args)  # type: ignore[arg-type]
        used.append(pairs is not None)
        return pairs

    thin = dutch_bracket.Bracket.match_thin
    thin_used = []

    def thin_counted(self: dutch_bracket.Bracket, *args: object) -> list[tuple[int, int]] | None:
        pairs = thin(self, *args)  # type: ignore[arg-type]
        thin_used.append(pairs is not None)
        return pairs

    monkeypatch.setattr(dutch_bracket.Bracket, "match_near", counted)
    monkeypatch.setattr(dutch_bracket.Bracket, "match_thin", thin_counted)
    for _ in range(6):
        entrants = entrants_after(ratings, results)
        near = pair_dutch(entrants)
        with monkeypatch.context() as patch:
            patch.setattr(dutch_bracket.Bracket, "match_near", lambda self, *args: None)
            assert pair_dutch(entrants) == near
        results.append(play(near, ratings, rng, forfeits=0.05))
    assert any(used) and any(thin_used)


@pytest.mark.parametrize("size", [2, 3, 7, 10, 15, 24, 31])
def test_unmarked_field_pairs_as_the_bracket_procedure(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first round (``_Round.pair_unmarked``, top half against bottom half) pairs as the matchings do; a field
    with one bye or one rematch behind it is not taken for a first round."""
    from tournaments.pairing import dutch

    rng = random.Random(size)
    field = [EntrantState(id=f"e{index}", rating=float(rng.randint(1000, 2400))) for index in range(size)]
    used: list[bool] = []
    unmarked = dutch._Round.unmarked

    def counted(self: dutch._Round) -> bool:
        used.append(unmarked(self))
        return used[-1]

    monkeypatch.setattr(dutch._Round, "unmarked", counted)
    shortcut = pair_dutch(field)
    with monkeypatch.context() as patch:
        patch.setattr(dutch._Round, "unmarked", lambda self: False)
        assert pair_dutch(field) == shortcut
    assert used == [True]
    marked = [EntrantState(id=e.id, rating=e.rating, byes=int(e.id == "e0")) for e in field]
    pair_dutch(marked)
    assert used[-1] is False
    met = [EntrantState(id=e.id, rating=e.rating, opponents=("e1",) if e.id == "e0" else ("e0",) if e.id == "e1" else ()) for e in field]
    with pytest.raises(PairingError) if size == 2 else nullcontext():
        pair_dutch(met)
    assert used[-1] is False


def test_explained_pairing_reports_the_avoidances() -> None:
    """``pair_dutch_explained``: 1-5 would meet (top half against bottom half) and are kept apart; 1-2 and 1-4 of
    a round that cannot avoid both: one is broken."""
    field = _field(dict.fromkeys(range(1, 9), 1.0))
    boards, report = pair_dutch_explained(field, avoid=avoidances([("p1", "p5")]))
    assert boards == pair_dutch(field, avoid=avoidances([("p1", "p5")]))
    assert [sorted(pair) for pair in report.kept_apart] == [["p1", "p5"]] and not report.broken
    field = _field({1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}, met=((1, 3), (2, 4)))
    _, report = pair_dutch_explained(field, avoid=avoidances([("p1", "p2"), ("p1", "p4")]))
    assert [sorted(pair) for pair in report.broken] == [["p1", "p2"]]
    assert pair_dutch_explained(field)[1] == AvoidanceReport()


def test_the_exchange_order_digits_are_c04_3_ds() -> None:
    """``dutch_bracket._ExchangeOrder`` (its powers computed once a row, D.2 c-d and D.1 only when asked)
    against D.1 and D.2 written out pair by pair: D.2 a-d, then S2's transposition."""
    from tournaments.pairing.dutch_bracket import BYE, _ExchangeOrder

    rng = random.Random(35)
    for size in (1, 2, 3, 7, 12, 40):
        for count in {0, size // 2, rng.randint(0, size)}:
            players = rng.sample(range(3 * size), size)
            expected = {
                (players[x - 1], players[y - 1]): [
                    -int(x > count), -x, -(2**x) * (x <= count), (2 ** (size - x)) * (x > count),
                    (size - y) * (size + 1) ** (size - x),
                ]
                for x in range(1, size + 1) for y in range(x + 1, size + 1)
            }  # fmt: skip
            order = _ExchangeOrder(players, count)
            for (a, b), digits in expected.items():
                assert order.get((a, b)) == [*digits[:2], 0, 0, 0]
                assert order.late((a, b)) == tuple(digits[2:])
                assert order.get((b, a)) is None and order.late((b, a)) == (0, 0, 0)
            assert order.get((players[0], BYE)) is None and order.get((3 * size, players[0])) is None


def test_the_rounds_compatibility_is_c1_c3_and_the_avoidances_pair_by_pair() -> None:
    """``_Round.compat`` (built with C3 read off each player's absolute side) against ``_Round.compatible``
    (``first_attack.conflict``) for every pair, over rounds of random Swisses, last rounds (topscorers) and
    requested avoidances included."""
    from tests.tournaments.pairing.simulate import run_swiss
    from tournaments.pairing.dutch import _paired, initial_numbers

    rng = random.Random(3535)
    checked = 0
    for count in (9, 24, 41):
        ratings = {f"p{index}": float(rng.randint(1000, 2400)) for index in range(count)}
        history, _ = run_swiss(ratings, 6, rng)
        for paired in history:
            ids = [entrant.id for entrant in paired.entrants]
            avoid = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(3))
            for last_round in (False, True):
                options = DutchOptions(last_round=last_round)
                numbers = initial_numbers(paired.entrants, None)
                _, round_, _, _ = _paired(
                    paired.entrants, absent=(), options=options, names=None, numbers=numbers, avoid=avoid
                )
                size = len(round_.players)
                for a in range(size):
                    assert round_.compat[a] == {b for b in range(size) if b != a and round_.compatible(a, b)}
                checked += 1
    assert checked > 30
