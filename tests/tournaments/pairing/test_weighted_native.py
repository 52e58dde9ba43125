"""``weighted_native`` (weighted._Matcher in C) against weighted.py's own code: the same matching, the same final
duals and blossoms, the same ``optimal_face``, on thousands of random graphs (sparse to complete, weights of 1 to
119 bits, in 64-bit words and in 128-bit ones, with and without maximum cardinality, triangles and odd cycles
that make blossoms, weights by the classes of the ends that make the greedy start move duals), and the fallback to Python integers where the weights are too big for the C code; and the transposition's
trials in C against ``transposition._fixed``."""

from __future__ import annotations

import random
from array import array

import pytest

from tournaments.pairing import transposition, weighted, weighted_native
from tournaments.pairing.cardinality import FREE, _greedy, maximum_matching

Edges = list[tuple[int, int, int]]

pytestmark = pytest.mark.skipif(
    not weighted_native.available(), reason="no compiled weighted_native library (scripts/build_engine.py)"
)


def _graph(rng: random.Random, size: int) -> Edges:
    """A random graph: its density, weight range and shape drawn too (plain, or heavy odd cycles over a light
    background, which the algorithm shrinks into blossoms)."""
    density = rng.choice([0.1, 0.3, 0.6, 0.9, 1.0, rng.random()])
    top = rng.choice([1, 3, 20, 1000, 2**20, 2**40, 2**56, 2**58 - 1, 2**58, 2**70, 2**119])
    low = rng.choice([0, 0, -top // 4])
    if rng.random() < 0.25:  # layered: a weight by the classes of the two ends (what makes the greedy start rebalance)
        classes = [rng.randrange(3) for _ in range(size)]
        table = [[rng.randint(max(low, 1), top) for _ in range(3)] for _ in range(3)]
        edges = {
            (u, v): table[min(classes[u], classes[v])][max(classes[u], classes[v])] + rng.randint(0, 1)
            for u in range(size) for v in range(u + 1, size) if rng.random() < density
        }  # fmt: skip
    else:
        edges = {
            (u, v): rng.randint(low, top) for u in range(size) for v in range(u + 1, size) if rng.random() < density
        }
    if size >= 3 and rng.random() < 0.5:
        nodes = rng.sample(range(size), size)
        at = 0
        while at + 3 <= size:
            length = min(rng.choice([3, 5, 7]), size - at)
            length -= 1 - length % 2
            cycle = nodes[at : at + length]
            for i in range(length):
                u, v = sorted((cycle[i], cycle[(i + 1) % length]))
                edges[(u, v)] = top - rng.randint(0, max(1, top // 1000))
            at += length
    listed = [(u, v, w) for (u, v), w in edges.items()]
    rng.shuffle(listed)
    return [(v, u, w) if rng.random() < 0.5 else (u, v, w) for u, v, w in listed]


State = tuple[list[int], list[int], list[int], list[int]]


def _native_state(size: int, edges: Edges, maxcardinality: bool) -> State | None:
    """The C run's matching, slacks, duals and bases; None when it stopped at its bound on the duals (or has no
    word for the weights)."""
    run = weighted_native.start(size, edges)
    if run is None:  # 128-bit weights where the compiler had no __int128
        assert not weighted_native.wide_available() and max(abs(w) for _, _, w in edges) >= 2**58
        return None
    try:
        mate = run.solve(maxcardinality)
        if mate is None:
            return None
        found = run.face()
        assert found is not None
        slacks, _held, dual, base = found
        return mate, slacks, dual, base
    finally:
        run.close()


def _python_state(size: int, edges: Edges, maxcardinality: bool) -> State:
    matcher = weighted._Matcher(size, edges)
    mate = matcher.solve(maxcardinality)
    slacks, _held = matcher.slacks()
    return mate, slacks, list(matcher.dual), list(matcher.base)


@pytest.mark.parametrize("seed", range(4))
def test_the_native_matcher_runs_as_weighted_py(seed: int) -> None:
    """The matching, every slack, every node's and blossom's final dual and base: equal, graph by graph; and
    ``optimal_face`` (the native path) equal to weighted.py's own. Without maximum cardinality every dual stays
    within twice the largest weight, so the C run never stops at its bound (2 ** 60) for weights under
    2 ** WEIGHT_BITS; with it the duals may go further (the run then stops and weighted.py answers), which only
    weights past 2 ** 56 reach here."""
    rng = random.Random(seed)
    blossoms = stopped = 0
    for count in range(1000):
        size = rng.randint(1, 24) if count % 10 else rng.randint(25, 90)
        edges = _graph(rng, size)
        if not edges:
            continue
        for maxcardinality in (False, True):
            native = _native_state(size, edges, maxcardinality)
            if native is None:
                assert not weighted_native.wide_available() or maxcardinality
                assert max(abs(w) for _, _, w in edges) > 2**56
                stopped += 1
            else:
                assert native == _python_state(size, edges, maxcardinality)
            assert weighted.max_weight_matching(size, edges, maxcardinality) == weighted._python_matching(
                size, edges, maxcardinality
            )
        face = weighted.optimal_face(size, edges)
        assert face == weighted._python_face(size, edges)
        blossoms += bool(face[3])
    assert blossoms > 50  # graphs whose optimum keeps a blossom of positive dual were compared too
    assert stopped < 100


def test_dense_brackets_like_the_dutch_engines() -> None:
    """Complete graphs of a few hundred nodes with few distinct weights (the lexicographic phases' kind)."""
    rng = random.Random(7)
    for size, top in ((150, 3), (201, 40), (240, 2**50)):
        edges = [(u, v, rng.randint(0, top)) for u in range(size) for v in range(u + 1, size) if rng.random() < 0.8]
        assert _native_state(size, edges, False) == _python_state(size, edges, False)
        assert weighted.optimal_face(size, edges) == weighted._python_face(size, edges)


def test_weights_past_the_bounds_fall_back_to_python_integers() -> None:
    rng = random.Random(11)
    for _ in range(50):
        size = rng.randint(2, 14)
        edges = [(u, v, rng.randint(0, 2**200)) for u in range(size) for v in range(u + 1, size)]
        edges[0] = (edges[0][0], edges[0][1], 2**weighted_native.WIDE_WEIGHT_BITS)
        assert weighted_native.start(size, edges) is None
        assert weighted.max_weight_matching(size, edges) == weighted._python_matching(size, edges, False)
        assert weighted.optimal_face(size, edges) == weighted._python_face(size, edges)
    assert weighted_native.start(3, [(0, 1, 5), (1, 1, 3)]) is None  # a loop: weighted.py's own code decides
    # sizes a C int64 cannot hold twice: refused, not truncated by ctypes (2 ** 64 + 3 would reach C as 3)
    for size in (2**61, 2**63, 2**64 + 3):
        assert weighted_native.start(size, [(0, 1, 5)]) is None
    assert weighted_native.start(2, [(0, 1, 5)]) is not None


def test_each_word_takes_the_weights_it_holds() -> None:
    cases = [(2**58 - 1, False), (-(2**58) + 1, False)]
    if weighted_native.wide_available():  # the compiler had __int128
        cases += [(2**58, True), (-(2**58), True), (2**120 - 1, True), (-(2**120) + 1, True)]
    for weight, wide in cases:
        run = weighted_native.start(3, [(0, 1, weight), (1, 2, 1)])
        assert run is not None and run.wide == wide
        run.close()


def test_the_transpositions_trials_in_c_are_pythons(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Trials.fixed`` (the transposition's check of one choice, in C) against ``transposition._fixed``: the same
    answer and the same partners, trial by trial, over random graphs with odd cycles (blossoms in the
    searches), random matchings, optional and blocked nodes, with and without keeping the matching's size; and
    ``first_transposition`` with the library and without it alike."""
    rng = random.Random(36)
    found = refused = 0
    for _ in range(400):
        size = rng.randint(2, 60)
        density = rng.choice([0.05, 0.2, 0.5, 1.0])
        pairs = [(u, v) for u in range(size) for v in range(u + 1, size) if rng.random() < density]
        for _ in range(size // 3):  # odd cycles
            cycle = rng.sample(range(size), min(size, rng.choice([3, 5, 7])))
            pairs += [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle)) if len(cycle) >= 3]
        if not pairs:
            continue
        rng.shuffle(pairs)
        adjacency: list[list[int]] = [[] for _ in range(size)]
        for u, v in pairs:
            adjacency[u].append(v)
            adjacency[v].append(u)
        mate = maximum_matching(adjacency) if rng.random() < 0.7 else _greedy(adjacency)
        trials = weighted_native.trials(size, pairs)
        assert trials is not None
        try:
            for _ in range(20):
                node, other = rng.sample(range(size), 2)
                optional = [rng.random() < 0.3 or mate[v] == FREE for v in range(size)]
                blocked = [rng.random() < 0.1 for _ in range(size)]
                blocked[node] = blocked[other] = False
                keep_size = rng.random() < 0.5
                expected = transposition._fixed(adjacency, list(mate), node, other, optional, list(blocked), keep_size)
                if mate[node] == other:
                    continue
                native = trials.fixed(
                    array("q", mate), node, other, array("b", optional), array("b", blocked), keep_size
                )  # fmt: skip
                assert (None if native is None else native.tolist()) == expected
                found += expected is not None
                refused += expected is None
            for v in range(size):
                assert trials.neighbours(v).tolist() == adjacency[v]
        finally:
            trials.close()
        required = [mate[v] != FREE and rng.random() < 0.7 for v in range(size)]
        sequence = rng.sample(range(size), rng.randint(1, size))
        keep = rng.random() < 0.5
        with_library = transposition.first_transposition(size, pairs, mate, required, sequence, keep_size=keep)
        with monkeypatch.context() as patched:
            patched.setattr(weighted_native, "_library", None)
            assert weighted_native.trials(size, pairs) is None
            assert transposition.first_transposition(size, pairs, mate, required, sequence, keep_size=keep) == with_library
    assert found > 1000 and refused > 300


def test_the_face_helpers_in_c_are_the_python_they_stand_for() -> None:
    """``select`` (edges by their ends' classes), ``matched_total`` (a matching's face weight by edge) and
    ``PairWeights.total`` (by pair, the later weight of a pair listed twice, as a dict keeps it) against the
    Python they replace in ``dutch_bracket._lowest_s1`` and ``_face_checks``."""
    rng = random.Random(37)
    for _ in range(300):
        size = rng.randint(1, 40)
        ends = [tuple(rng.sample(range(size), 2)) for _ in range(rng.randint(0, 3 * size))] if size > 1 else []
        ends += ends[: rng.randint(0, 3)]  # pairs listed twice
        weights = [rng.randint(-5, 2**40) for _ in ends]
        flat = weighted_native.FlatEnds(array("q", [v for edge in ends for v in edge]))
        classes = [rng.randrange(3) for _ in range(size)]
        keep = [[rng.random() < 0.5 for _ in range(3)] for _ in range(3)]
        assert weighted_native.select(flat, classes, keep).tolist() == [
            k for k, (u, v) in enumerate(ends) if keep[classes[u]][classes[v]]
        ]
        adjacency: list[list[int]] = [[] for _ in range(size)]
        for u, v in ends:
            adjacency[u].append(v)
            adjacency[v].append(u)
        mate = _greedy(adjacency)
        assert weighted_native.matched_total(flat, array("q", weights), mate) == sum(
            w for (u, v), w in zip(ends, weights) if mate[u] == v
        )
        by_pair = {(min(u, v), max(u, v)): w for (u, v), w in zip(ends, weights)}
        pairs = weighted_native.pair_weights(size, flat, array("q", weights))
        assert pairs is not None
        try:
            assert pairs.total(mate) == sum(by_pair[(v, u)] for v, u in enumerate(mate) if u > v)
            absent = [(u, v) for u in range(size) for v in range(u + 1, size) if (u, v) not in by_pair]
            if absent:
                u, v = rng.choice(absent)
                other = [FREE] * size
                other[u], other[v] = v, u
                with pytest.raises(KeyError):
                    pairs.total(other)
        finally:
            pairs.close()
    with pytest.raises(ValueError):
        weighted_native.select(weighted_native.FlatEnds(array("q", [0, 1])), [0, 5], [[True] * 3] * 3)
