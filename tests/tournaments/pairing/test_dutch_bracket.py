"""The shortcuts of a Dutch bracket (``tournaments.pairing.dutch_bracket``) against the plain computations
they stand for: a phase's weights summed from shared rows against ``_signed`` column by column, the greedy
proofs of completion against cardinality matchings, and each player's later partners against his compatible
set. The whole engine's result is checked against an independent engine in test_dutch.py; these tests fail
at the piece that broke.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random
from array import array

import pytest

from tests.tournaments.pairing.simulate import run_swiss
from tournaments.pairing.cardinality import FREE, _greedy, is_perfect
from tournaments.pairing import dutch_bracket, weighted_native
from tournaments.pairing.dutch import DutchOptions, _paired, initial_numbers, pair_dutch
from tournaments.pairing.dutch_bracket import BYE, DIGITS, Bracket, _Rows, _signed
from tournaments.pairing.weighted import max_weight_matching


def _random_rows(rng: random.Random, order_size: int) -> _Rows:
    rows = _Rows(order_size)
    digit = lambda: rng.choice((0, 0, 0, 1, -1, rng.randint(-9, 9), rng.randint(-(2**70), 2**70)))  # noqa: E731
    found = [tuple(digit() for _ in range(DIGITS + 1)) for _ in range(rng.randint(1, 6))]
    zero_columns = rng.sample(range(DIGITS + 1), rng.randint(0, DIGITS))
    found = [tuple(0 if k in zero_columns else value for k, value in enumerate(row)) for row in found]
    rows.found.extend(found)
    shared = [[digit() for _ in range(order_size)] for _ in range(rng.randint(1, 5))]
    for index in range(rng.randint(1, 60)):
        order = rng.choice([None, rng.choice(shared), [digit() for _ in range(order_size)]])
        rows.add((index, index + 1), rng.randrange(len(found)), order)
    return rows


def test_a_phases_weights_from_shared_rows_are_signeds_column_by_column() -> None:
    rng = random.Random(3501)
    for _ in range(3000):
        order_size = rng.choice((2, 5))
        rows = _random_rows(rng, order_size)
        if rng.random() < 0.3:
            rows = rows.led()
        count = len(rows.edges)
        alive = None if rng.random() < 0.4 else sorted(rng.sample(range(count), rng.randint(0, count)))
        face = None if alive is None or rng.random() < 0.2 else [rng.choice((0, 0, 1, 2, 3)) for _ in alive]
        first = rng.randrange(rows.width)
        stop = rng.randint(first + 1, rows.width)
        nodes = rng.randint(2, 500)
        columns = [rows.column(k, alive) for k in range(first, stop)]
        expected = _signed(([face] if face is not None else []) + columns, nodes, count if alive is None else len(alive))
        assert rows.weights(first, stop, alive, face, nodes) == expected


@pytest.mark.skipif(not weighted_native.available(), reason="no compiled weighted_native library (scripts/build_engine.py)")
def test_a_phases_weights_added_up_in_c_are_the_rows_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """``weighted_native.compose`` over the arrays ``_lexicographic`` keeps (each edge's row and order id, the face
    weights) from ``_Rows.parts``: the integers of ``_Rows.weights``, in 64-bit words when they all fit one,
    else in 128-bit words, or None past those (the caller then adds them in Python)."""
    rng = random.Random(3503)
    packed_in = {False: 0, True: 0}
    refused = 0
    for wide in (True, False) if weighted_native.wide_available() else (False,):
        monkeypatch.setattr(weighted_native, "_wide", wide)
        for _ in range(1500):
            rows = _random_rows(rng, rng.choice((2, 5)))
            count = len(rows.edges)
            alive = sorted(rng.sample(range(count), rng.randint(1, count)))
            face = None if rng.random() < 0.3 else [rng.choice((0, 0, 1, 2, 3)) for _ in alive]
            first = rng.randrange(rows.width)
            stop = rng.randint(first + 1, min(rows.width, first + rng.choice((1, 2, 3))))
            nodes = rng.randint(2, 500)
            ids, lists = rows.order_ids()
            kinds = array("q", [rows.fixed_kinds[i] for i in alive])
            orders = array("q", [ids[i] for i in alive])
            present_kinds = weighted_native.present(kinds, len(rows.found))
            present_orders = weighted_native.present(orders, len(lists))
            assert present_kinds == sorted(set(kinds)) and present_orders == sorted(set(orders))
            scale, fixed, order = rows.parts(first, stop, present_kinds, present_orders, nodes)
            packed = weighted_native.compose(kinds, orders, None if face is None else array("q", face), scale, fixed, order)
            expected = rows.weights(first, stop, alive, face, nodes)
            if packed is None:
                assert max(map(abs, expected)) >= 2 ** (120 if wide else 58) or max(map(abs, [scale, *fixed, *order])) >= 2**63
                refused += 1
                continue
            assert packed.integers() == expected
            assert packed.wide == (max(map(abs, expected)) >= 2**58)
            packed_in[packed.wide] += 1
    assert packed_in[False] > 500 and refused > 50
    assert packed_in[True] > 100 or not weighted_native.wide_available()


def test_the_c_librarys_shortcuts_pair_the_same_boards_as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the C library and its 128-bit functions, with its 64-bit ones only, and with none (every weight
    added and every matching made by Python's integers): the same boards, round by round."""
    rng = random.Random(36)
    for count in (19, 48):
        ratings = {f"p{index}": float(rng.randint(1000, 2400)) for index in range(count)}
        history, _ = run_swiss(ratings, 5, rng)
        for paired in history:
            boards = [[(board.entrants, board.bye) for board in pair_dutch(paired.entrants)]]
            with monkeypatch.context() as patched:
                patched.setattr(weighted_native, "_wide", False)
                boards.append([(board.entrants, board.bye) for board in pair_dutch(paired.entrants)])
                patched.setattr(weighted_native, "_library", None)
                boards.append([(board.entrants, board.bye) for board in pair_dutch(paired.entrants)])
            assert boards[0] == boards[1] == boards[2]


def test_positive_rows_are_those_whose_first_digit_that_is_not_zero_is_positive() -> None:
    rng = random.Random(3502)
    for _ in range(500):
        rows = _random_rows(rng, rng.choice((2, 5)))
        kept = rows.positive()
        expected = [
            edge for k, edge in enumerate(rows.edges) if next((digit > 0 for digit in rows.row(k) if digit), False)
        ]  # fmt: skip
        assert kept.edges == expected
        assert [kept.row(k) for k in range(len(kept.edges))] == [rows.of(edge) for edge in expected]


def _brackets(seed: int) -> list[Bracket]:
    """The brackets of every round of a few random Swisses, as the rounds left them."""
    rng = random.Random(seed)
    found: list[Bracket] = []
    for count in (11, 30, 57):
        ratings = {f"p{index}": float(rng.randint(1000, 2400)) for index in range(count)}
        history, _ = run_swiss(ratings, 5, rng)
        for paired in history:
            numbers = initial_numbers(paired.entrants, None)
            _, round_, _, _ = _paired(
                paired.entrants, absent=(), options=DutchOptions(), names=None, numbers=numbers, avoid=frozenset()
            )  # fmt: skip
            found.extend(bracket for bracket, _, _ in round_.brackets)
    return found


def test_each_players_later_partners_are_his_compatible_players_below_him() -> None:
    for bracket in _brackets(3503):
        round_ = bracket.round
        for a in range(len(round_.players)):
            assert round_.later_of(a) == sorted(b for b in round_.compat[a] if b > a)


def test_the_greedy_unpaired_are_the_cardinality_greedy_starts() -> None:
    rng = random.Random(3504)
    checked = 0
    for bracket in _brackets(3505):
        if len(bracket.lower) < 2:
            continue
        for _ in range(5):
            players = sorted(rng.sample(bracket.lower, rng.randint(2, len(bracket.lower))))
            local = {v: index for index, v in enumerate(players)}
            adjacency: list[list[int]] = [[] for _ in players]
            for a, b in bracket.edges(local):
                adjacency[local[a]].append(local[b])
                adjacency[local[b]].append(local[a])
            start = _greedy(adjacency)
            assert bracket._greedy_unpaired(players) == {v for v, partner in zip(players, start) if partner == FREE}
            checked += 1
    assert checked > 100


def test_a_greedy_proof_of_completion_is_never_wrong_and_mostly_found() -> None:
    """``Bracket.completes``'s greedy pairing proves only what a cardinality matching over the same edges would
    (it pairs no two of ``apart``, gives the bye to none of ``bye_apart``): over random sets of players left."""
    rng = random.Random(3506)
    proved = checked = 0
    for bracket in _brackets(3507):
        field = bracket.members + bracket.lower
        for _ in range(6):
            left = sorted(rng.sample(field, rng.randint(1, len(field))))
            if bracket.round.odd:
                left.append(BYE)
            if len(left) % 2:
                left.pop(0)
            apart = set(rng.sample(field, rng.randint(0, len(field) // 3)))
            bye_apart = set(rng.sample(field, rng.randint(0, len(field) // 2)))

            def weightless(edge: tuple[int, int], apart: set[int] = apart, bye_apart: set[int] = bye_apart) -> bool:
                a, b = edge
                return a not in bye_apart if b == BYE else not (a in apart and b in apart)

            local = {v: index for index, v in enumerate(left)}
            adjacency: list[list[int]] = [[] for _ in left]
            for edge in bracket.edges(local):
                if weightless(edge):
                    adjacency[local[edge[0]]].append(local[edge[1]])
                    adjacency[local[edge[1]]].append(local[edge[0]])
            exact = is_perfect(adjacency)
            greedy = bracket._greedy_completes(left, apart, bye_apart)
            assert not greedy or exact
            assert bracket.completes(left, apart, bye_apart, weightless) == exact
            proved += greedy
            checked += exact
    assert checked > 100 and proved > checked // 3


def test_every_grouping_of_the_digits_into_phases_pairs_the_same_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phases of up to 116 bits (the C matcher's 128-bit words) and of up to 56 (a machine word, where there is
    no C library), and digits one or two at a time: the same boards, round by round."""
    rng = random.Random(35)
    for count in (24, 61, 120):
        ratings = {f"p{index}": float(rng.randint(1000, 2400)) for index in range(count)}
        history, _ = run_swiss(ratings, 5, rng)
        for paired in history:
            boards = []
            for bits in (116, 56, 1):
                monkeypatch.setattr(dutch_bracket, "WORD_BITS", bits)
                monkeypatch.setattr(dutch_bracket, "SMALL_PHASE_BITS", min(bits, 24))
                boards.append([(board.entrants, board.bye) for board in pair_dutch(paired.entrants)])
            assert boards[0] == boards[1] == boards[2]


def _lowest_s1_written_out(names, index, ends, face, alive, mate, positive, sequence):
    """``dutch_bracket._lowest_s1`` as its docstring says it, over plain lists: the edges of the first Q players to
    later ones of the sequence, and those neither of the first Q nor both in the sequence."""
    in_sequence = [names[v] in sequence.place for v in range(len(names))]
    q = sum(1 for v, u in enumerate(mate) if u > v and in_sequence[v] and in_sequence[u])
    first = [False] * len(names)
    for player in sequence.players[:q]:
        if player in index:
            first[index[player]] = True
    kept = [
        k for k, (u, v) in enumerate(ends)
        if ((first[u] != first[v] and in_sequence[u] and in_sequence[v]) if first[u] or first[v]
            else not (in_sequence[u] and in_sequence[v]))
    ]  # fmt: skip
    kept_ends, kept_face = [ends[k] for k in kept], [face[k] for k in kept]
    found = max_weight_matching(len(names), [(u, v, w) for (u, v), w in zip(kept_ends, kept_face)])
    total = lambda e, f, m: sum(w for (u, v), w in zip(e, f) if m[u] == v)  # noqa: E731
    if total(kept_ends, kept_face, found) != total(ends, face, mate):
        return None
    return [alive[k] for k in kept], kept_ends, kept_face, [p or f for p, f in zip(positive, first)], found


def test_the_lowest_s1_shortcut_is_its_docstrings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of ``_lowest_s1`` while random Swisses are paired (over the C library's arrays where it is
    built) gives what the rule written out over lists gives: the same edges, face weights and matching, or None
    alike; and it settles the phase without a matching most of the times it is asked."""
    original = dutch_bracket._lowest_s1
    answers = {"settled": 0, "none": 0}

    def checked(*arguments):
        found = original(*arguments)
        names, index, ends, face, alive, mate, positive, sequence = arguments
        expected = _lowest_s1_written_out(names, index, list(ends), list(face), list(alive), mate, positive, sequence)
        assert (found is None) == (expected is None)
        if found is not None:
            chosen, kept_ends, kept_face, covered, matching = found
            assert (list(chosen), list(kept_ends), list(kept_face), covered) == tuple(expected[:4])
            assert sum(w for (u, v), w in zip(kept_ends, kept_face) if matching[u] == v) == sum(
                w for (u, v), w in zip(expected[1], expected[2]) if expected[4][u] == v
            )
        answers["none" if found is None else "settled"] += 1
        return found

    monkeypatch.setattr(dutch_bracket, "_lowest_s1", checked)
    rng = random.Random(38)
    for count in (40, 90):
        ratings = {f"p{index}": float(rng.randint(1000, 2400)) for index in range(count)}
        history, _ = run_swiss(ratings, 6, rng)
        for paired in history:
            pair_dutch(paired.entrants)
    assert answers["settled"] > 2 * answers["none"] and answers["settled"] > 20
