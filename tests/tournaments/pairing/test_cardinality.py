"""Maximum-cardinality matching (``tournaments.pairing.cardinality``) against networkx's blossom on random graphs."""

from __future__ import annotations

import random

import pytest
from networkx.algorithms.matching import max_weight_matching  # type: ignore[import-untyped, unused-ignore]
from networkx.classes.graph import Graph  # type: ignore[import-untyped, unused-ignore]

from tournaments.pairing.cardinality import FREE, is_perfect, maximum_matching


def _random_graph(rng: random.Random) -> tuple[int, list[tuple[int, int]], list[list[int]]]:
    size = rng.randint(1, 18)
    density = rng.random()
    edges = [(a, b) for a in range(size) for b in range(a + 1, size) if rng.random() < density]
    adjacency: list[list[int]] = [[] for _ in range(size)]
    for a, b in edges:
        adjacency[a].append(b)
        adjacency[b].append(a)
    for neighbours in adjacency:
        rng.shuffle(neighbours)
    return size, edges, adjacency


@pytest.mark.parametrize("seed", range(4))
def test_matching_is_as_large_as_networkx_finds(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        size, edges, adjacency = _random_graph(rng)
        mate = maximum_matching(adjacency)
        assert all(mate[partner] == node and partner in adjacency[node] for node, partner in enumerate(mate) if partner != FREE)
        graph = Graph()
        graph.add_nodes_from(range(size))
        graph.add_edges_from(edges)
        largest = len(max_weight_matching(graph, maxcardinality=True))
        assert sum(partner != FREE for partner in mate) == 2 * largest
        assert is_perfect(adjacency) == (2 * largest == size)


def test_a_given_matching_is_augmented_not_replaced() -> None:
    """A path 0-1-2-3 with 1-2 matched: the search flips the path into 0-1, 2-3."""
    adjacency = [[1], [0, 2], [1, 3], [2]]
    assert maximum_matching(adjacency, [FREE, 2, 1, FREE]) == [1, 0, 3, 2]


def test_path_around_an_odd_cycle() -> None:
    """A triangle 1-2-3 with tails 0-1 and 3-4-5; from 1-2, 3-4 matched the only augmenting path, 0-1-2-3-4-5,
    goes round the triangle (a blossom when 3 is first reached from 1)."""
    adjacency = [[1], [0, 3, 2], [1, 3], [1, 2, 4], [3, 5], [4]]
    assert is_perfect(adjacency, [FREE, 2, 1, 4, 3, FREE])
    assert maximum_matching(adjacency, [FREE, 2, 1, 4, 3, FREE]) == [1, 0, 3, 2, 5, 4]
