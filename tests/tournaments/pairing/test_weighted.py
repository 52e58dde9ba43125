"""The exact Dutch engine's matchings: ``weighted`` (maximum-weight matching, its optimal face), ``cardinality.cover``
and ``transposition.first_transposition``, against networkx and brute force on small random graphs, compiled
(scripts/build_engine.py) and interpreted alike (``max_weight_matching`` runs ``weighted_native``'s C where it is
built; ``_python_matching`` is weighted.py's own code)."""

from __future__ import annotations

import importlib.util
import itertools
import random
import types
from typing import Any
from pathlib import Path

import pytest
from networkx import Graph  # type: ignore[import-untyped, unused-ignore]
from networkx.algorithms.matching import max_weight_matching as networkx_matching  # type: ignore[import-untyped, unused-ignore]

from games.engine._compiled import check_fresh
from tournaments.pairing import weighted
from tournaments.pairing.cardinality import FREE, cover
from tournaments.pairing.dutch_bracket import _face_checks
from tournaments.pairing.transposition import first_transposition

Edges = list[tuple[int, int, int]]


def _interpreted() -> types.ModuleType:
    """weighted.py loaded from its source, whether or not the package's copy is a compiled extension."""
    path = Path(weighted.__file__).with_name("weighted.py")
    spec = importlib.util.spec_from_file_location("weighted_interpreted", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _graph(rng: random.Random, size: int) -> Edges:
    density = rng.random()
    top = rng.choice([3, 100, 2**200])
    return [(u, v, rng.randint(0, top)) for u in range(size) for v in range(u + 1, size) if rng.random() < density]


def _weight(edges: Edges, mate: list[int]) -> int:
    weights = {(u, v): w for u, v, w in edges}
    return sum(weights[(v, u)] for v, u in enumerate(mate) if u > v)


def test_the_compiled_extension_is_built_from_these_sources() -> None:
    check_fresh()


@pytest.mark.parametrize("seed", range(3))
def test_maximum_weight_matching_weighs_what_networkx_finds(seed: int) -> None:
    rng = random.Random(seed)
    modules = (weighted, _interpreted())
    for _ in range(300):
        size = rng.randint(1, 16)
        edges = _graph(rng, size)
        for cardinality in (False, True):
            graph = Graph()
            graph.add_nodes_from(range(size))
            graph.add_weighted_edges_from(edges)
            theirs = networkx_matching(graph, maxcardinality=cardinality)
            weights = {(u, v): w for u, v, w in edges}
            best = sum(weights[(min(a, b), max(a, b))] for a, b in theirs)
            results = [module.max_weight_matching(size, edges, cardinality) for module in modules]
            results += [module._python_matching(size, edges, cardinality) for module in modules]
            assert all(result == results[0] for result in results)  # compiled and interpreted, C and Python alike
            mate = results[0]
            assert all(u == FREE or mate[u] == v for v, u in enumerate(mate))
            assert _weight(edges, mate) == best
            if cardinality:
                assert sum(u != FREE for u in mate) == 2 * len(theirs)


def _layered(rng: random.Random, size: int) -> Edges:
    """A bracket's shape: a few classes of nodes (MDPs, residents, the next group) and a weight by the classes
    of the two ends, give or take one."""
    classes = [rng.randrange(3) for _ in range(size)]
    table = [[rng.randint(1, 40) for _ in range(3)] for _ in range(3)]
    density = rng.choice([0.5, 0.9, 1.0])
    return [
        (u, v, table[min(classes[u], classes[v])][max(classes[u], classes[v])] + rng.randint(0, 1))
        for u in range(size) for v in range(u + 1, size) if rng.random() < density
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_the_greedy_start_keeps_the_stages_invariants(seed: int) -> None:
    """After ``greedy_start`` (compiled and interpreted): every slack non-negative, every matched edge tight,
    the free nodes' duals equal and no larger than any other node's; on graphs with few distinct weights it
    matches something whenever the heaviest edge is positive."""
    rng = random.Random(400 + seed)
    for module in (weighted, _interpreted()):
        for count in range(300):
            size = rng.randint(2, 14)
            edges = _graph(rng, size) if count % 2 else _layered(rng, size)
            if not edges:
                continue
            matcher = module._Matcher(size, edges)
            matcher.greedy_start()
            dual, mate = matcher.dual, matcher.mate
            for k, (u, v, w) in enumerate(edges):
                slack = dual[u] + dual[v] - 2 * w
                assert slack >= 0
                if mate[u] == 2 * k + 1:
                    assert mate[v] == 2 * k and slack == 0
            free = [dual[v] for v in range(size) if mate[v] == weighted.NONE]
            assert len(set(free)) <= 1 and all(d >= 0 for d in dual[:size])
            assert not free or free[0] <= min(dual[:size])
            if max(w for _, _, w in edges) > 0:
                assert any(end != weighted.NONE for end in mate)


def test_the_greedy_start_moves_duals_to_come_down_a_level() -> None:
    """On a bracket's shape (heavy edges from a few MDPs to residents, lighter ones among residents) the greedy
    start stops at the MDPs' level unless it moves their edges' duals to the MDPs' ends (``rebalance``): with it
    the residents are matched greedily too, and the matching is still the optimum."""
    module = _interpreted()
    rng = random.Random(12)
    left = {0: 0, weighted.GREEDY_REBALANCES: 0}
    for _ in range(20):
        mdps, residents = rng.randint(2, 6), rng.randint(10, 30)
        size = mdps + residents
        edges = [
            (u, v, (3 if v < mdps else 20 + rng.randint(0, 1)) if u < mdps else 10 + rng.randint(0, 1))
            for u in range(size) for v in range(u + 1, size) if rng.random() < 0.8
        ]  # fmt: skip
        for tries in left:
            setattr(module, "GREEDY_REBALANCES", tries)  # noqa: B010 (a module loaded at run time)
            matcher = module._Matcher(size, edges)
            matcher.greedy_start()
            left[tries] += sum(end == module.NONE for end in matcher.mate)
            graph = Graph()
            graph.add_weighted_edges_from(edges)
            theirs = networkx_matching(graph)
            weights = {(u, v): w for u, v, w in edges}
            assert _weight(edges, module._python_matching(size, edges, False)) == sum(
                weights[(min(a, b), max(a, b))] for a, b in theirs
            )
    assert left[0] > 5 * left[max(left)] + 100  # without moving duals most residents wait for the stages


def test_tight_edges_between_free_nodes_are_matched_without_a_stage_each() -> None:
    """A bracket's odd clique of heavy edges and the next group's light edges among themselves and to it: once a
    stage has moved the duals down to the light weight, the next group's pairs are tight between free nodes and
    ``match_tight`` matches them all at once; the matching is still the optimum (networkx), in C as in Python."""
    module = _interpreted()
    rng = random.Random(5)
    quick = 0
    for _ in range(10):
        heavy, light = 2 * rng.randint(3, 8) + 1, 2 * rng.randint(3, 10)
        size = heavy + light
        edges = [
            (u, v, 500 if v < heavy else 1) for u in range(size) for v in range(u + 1, size) if rng.random() < 0.9
        ]  # fmt: skip
        matcher = module._Matcher(size, edges)
        counted = matcher.match_tight

        def match_tight(matcher: Any = matcher, counted: Any = counted) -> None:
            nonlocal quick
            before = matcher.mate.count(module.NONE)
            counted()
            quick += before - matcher.mate.count(module.NONE)

        matcher.match_tight = match_tight
        mate = matcher.solve(False)
        graph = Graph()
        graph.add_weighted_edges_from(edges)
        weights = {(u, v): w for u, v, w in edges}
        best = sum(weights[(min(a, b), max(a, b))] for a, b in networkx_matching(graph))
        assert _weight(edges, mate) == best
        assert weighted.max_weight_matching(size, edges) == mate
    assert quick > 40  # most of the light pairs were matched so, not a stage each


@pytest.mark.parametrize("seed", range(3))
def test_the_optimal_face_holds_every_optimum(seed: int) -> None:
    """Every maximum-weight matching uses tight edges only and covers the nodes of positive dual; a matching of
    tight edges covering those nodes is optimal when no odd set's dual is positive; among the matchings of tight
    edges, the optima are those of greatest face weight."""
    rng = random.Random(100 + seed)
    for _ in range(200):
        size = rng.randint(1, 9)
        edges = _graph(rng, size)
        mate, tight, positive, odd_sets, face = weighted.optimal_face(size, edges)
        best = _weight(edges, mate)
        tight_pairs = {(edges[k][0], edges[k][1]) for k in tight}
        face_of = {(edges[k][0], edges[k][1]): weight for k, weight in zip(tight, face)}
        top_face = sum(face_of[pair] for pair in ((v, u) for v, u in enumerate(mate) if u > v))
        for matching in _matchings(size, [(u, v) for u, v, _ in edges]):
            pairs = {(v, u) for v, u in enumerate(matching) if u > v}
            covers = all(matching[v] != FREE for v in range(size) if positive[v])
            optimal = _weight(edges, matching) == best
            if optimal:
                assert pairs <= tight_pairs and covers
            elif not odd_sets:
                assert not (pairs <= tight_pairs and covers)
            if pairs <= tight_pairs:  # among matchings of tight edges the face weight tells the optima
                assert (sum(face_of[pair] for pair in pairs) == top_face) == optimal


def _matchings(size: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    """Every matching of a small graph, as partner lists."""
    found = []
    for count in range(size // 2 + 1):
        for chosen in itertools.combinations(pairs, count):
            ends = [v for pair in chosen for v in pair]
            if len(set(ends)) == len(ends):
                mate = [FREE] * size
                for u, v in chosen:
                    mate[u], mate[v] = v, u
                found.append(mate)
    return found


@pytest.mark.parametrize("seed", range(3))
def test_cover_matches_a_node_when_some_matching_does(seed: int) -> None:
    """``cover`` finds a matching covering the root and every node the matching covered but optional ones,
    exactly when one exists (brute force), blocked nodes left out."""
    rng = random.Random(200 + seed)
    checked = 0
    for _ in range(1500):
        size = rng.randint(2, 9)
        pairs = [(u, v) for u in range(size) for v in range(u + 1, size) if rng.random() < rng.random()]
        adjacency: list[list[int]] = [[] for _ in range(size)]
        for u, v in pairs:
            adjacency[u].append(v)
            adjacency[v].append(u)
        optional = [rng.random() < 0.4 for _ in range(size)]
        every = _matchings(size, pairs)
        start = rng.choice(every)
        locked = [(u, v) for v, u in enumerate(start) if u > v and rng.random() < 0.2]
        blocked = [False] * size
        for u, v in locked:
            blocked[u] = blocked[v] = True
        roots = [v for v in range(size) if start[v] == FREE and not optional[v]]
        if not roots:
            continue
        must = {v for v in range(size) if start[v] != FREE and not optional[v]} | {roots[0]}
        exists = any(
            all(m[v] != FREE for v in must) and all(m[u] == v for u, v in locked) for m in every
        )  # fmt: skip
        mate = list(start)
        assert cover(adjacency, mate, roots[0], optional, blocked) == exists
        checked += 1
        if exists:
            assert all(mate[v] != FREE for v in must) and all(mate[u] == v for u, v in locked)
            assert all(u == FREE or (min(u, v), max(u, v)) in set(pairs) for v, u in enumerate(mate))
    assert checked > 500


@pytest.mark.parametrize("seed", range(3))
def test_first_transposition_is_the_lexicographic_first_of_the_face(seed: int) -> None:
    """With no odd set of positive dual (or only the set of all nodes, which keeps the matching's size), the
    matching of the face whose sequence's partners (as the lower member) come first, brute force."""
    rng = random.Random(300 + seed)
    compared = 0
    for _ in range(300):
        size = rng.randint(2, 9)
        edges = _graph(rng, size)
        mate, tight, positive, odd_sets, _face = weighted.optimal_face(size, edges)
        sequence = rng.sample(range(size), rng.randint(1, size))
        tight_pairs = [(edges[k][0], edges[k][1]) for k in tight]
        keep_size = any(len(odd_set) == size for odd_set in odd_sets)
        if odd_sets and not keep_size:
            continue
        found = first_transposition(size, tight_pairs, mate, positive, sequence, keep_size=keep_size)
        assert found is not None

        face = [
            m for m in _matchings(size, tight_pairs) if all(m[v] != FREE for v in range(size) if positive[v])
            and (not keep_size or m.count(FREE) == mate.count(FREE))
        ]  # fmt: skip
        if keep_size:
            assert found.count(FREE) == mate.count(FREE)
        assert _key(found, sequence) == max(_key(m, sequence) for m in face)
        if len(odd_sets) <= 1:  # then the face is all of that: the first transposition is an optimum
            assert _weight(edges, found) == _weight(edges, mate)
        compared += 1
    assert compared > 100


def _key(matching: list[int], sequence: list[int]) -> list[int]:
    """The transposition digit's order: each node of ``sequence`` in turn, the earlier its later partner the
    better (a node with no later partner last)."""
    place = {node: index for index, node in enumerate(sequence)}
    return [
        -place[matching[node]] if matching[node] in place and place[matching[node]] > place[node] else -len(matching)
        for node in sequence
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_first_transposition_with_any_odd_set_is_the_first_optimum(seed: int) -> None:
    """With odd sets of positive dual other than the set of all nodes, and the face checks the bracket passes
    (``dutch_bracket._face_checks``: each choice kept only if an optimum keeps it), the first transposition is
    the first of all the maximum-weight matchings, brute force."""
    rng = random.Random(500 + seed)
    compared = 0
    for _ in range(600):
        size = rng.randint(3, 9)
        edges = _graph(rng, size)
        mate, tight, positive, odd_sets, face = weighted.optimal_face(size, edges)
        keep_size = any(len(odd_set) == size for odd_set in odd_sets)
        if len(odd_sets) <= int(keep_size):
            continue
        sequence = rng.sample(range(size), rng.randint(1, size))
        tight_pairs = [(edges[k][0], edges[k][1]) for k in tight]
        optimal, complete = _face_checks(size, tight_pairs, face, mate)
        found = first_transposition(
            size, tight_pairs, mate, positive, sequence, keep_size=keep_size, optimal=optimal, complete=complete
        )
        assert found is not None
        best = _weight(edges, mate)
        assert _weight(edges, found) == best
        optima = [m for m in _matchings(size, [(u, v) for u, v, _ in edges]) if _weight(edges, m) == best]
        assert _key(found, sequence) == max(_key(m, sequence) for m in optima)
        compared += 1
    assert compared > 30
