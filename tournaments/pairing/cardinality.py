"""Maximum-cardinality matching on a general graph (Edmonds' blossom algorithm, no weights).

The Dutch engine asks, bracket by bracket, whether the rest of the field can still be paired: a question of
cardinality, which needs no weighted blossom. Nodes are 0..n-1, ``adjacency[v]`` lists v's neighbours (both
directions), ``mate[v]`` is v's partner or -1. A search grows an alternating tree from each free node,
shrinking odd cycles (blossoms) to their base, until it reaches another free node (then the path is flipped)
or exhausts the tree (a node no augmenting path leaves stays free for good, so each is searched once).
"""

from __future__ import annotations

from collections.abc import Sequence

FREE = -1


def maximum_matching(adjacency: Sequence[Sequence[int]], mate: Sequence[int] | None = None) -> list[int]:
    """A maximum matching, as the list of partners (FREE for an unmatched node).

    ``mate`` is a matching to start from (kept valid: only augmented), else a greedy one is taken first."""
    size = len(adjacency)
    partners = list(mate) if mate is not None else _greedy(adjacency)
    for root in range(size):
        if partners[root] == FREE:
            _augment(adjacency, partners, root)
    return partners


def is_perfect(adjacency: Sequence[Sequence[int]], mate: Sequence[int] | None = None) -> bool:
    """Whether every node can be matched; stops at the first node that cannot."""
    partners = list(mate) if mate is not None else _greedy(adjacency)
    for root in range(len(adjacency)):
        if partners[root] == FREE and not _augment(adjacency, partners, root):
            return False
    return True


def cover(
    adjacency: Sequence[Sequence[int]], mate: list[int], root: int, optional: Sequence[bool], blocked: Sequence[bool]
) -> bool:
    """Match the free node ``root`` without leaving any other node free that is not ``optional``: along an
    augmenting path, or an even alternating path that ends at an optional node, which is left free. Nodes
    ``blocked`` are not passed through. False when neither exists (then every matching that covers what
    ``mate`` covers but an optional node leaves ``root`` free: Berge's argument on the symmetric difference)."""
    return _augment(adjacency, mate, root, optional, blocked)


def augment(adjacency: Sequence[Sequence[int]], mate: list[int], root: int, blocked: Sequence[bool]) -> bool:
    """Match the free node ``root`` along an augmenting path that avoids the ``blocked`` nodes; False when none
    exists."""
    return _augment(adjacency, mate, root, None, blocked)


def _greedy(adjacency: Sequence[Sequence[int]]) -> list[int]:
    """Each node in turn takes its first free neighbour: most of a Swiss field is matched before any search."""
    partners = [FREE] * len(adjacency)
    for node, neighbours in enumerate(adjacency):
        if partners[node] != FREE:
            continue
        for other in neighbours:
            if partners[other] == FREE and other != node:
                partners[node], partners[other] = other, node
                break
    return partners


def _augment(
    adjacency: Sequence[Sequence[int]], mate: list[int], root: int,
    optional: Sequence[bool] | None = None, blocked: Sequence[bool] | None = None,
) -> bool:
    """Search an augmenting path from the free node ``root`` and flip it; False when there is none (see
    :func:`cover` for ``optional`` and ``blocked``)."""
    size = len(adjacency)
    base = list(range(size))  # the base of the blossom each node is shrunk into
    parent = [FREE] * size  # for an outer node's free neighbour (an inner node): the outer node it was reached from
    outer = [False] * size
    outer[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        for other in adjacency[node]:
            if base[node] == base[other] or mate[node] == other or (blocked is not None and blocked[other]):
                continue
            if other == root or (mate[other] != FREE and parent[mate[other]] != FREE):
                # ``other`` is outer too: an odd cycle, shrunk into its lowest common ancestor
                top = _common_base(mate, parent, base, node, other)
                in_blossom = [False] * size
                _mark(mate, parent, base, in_blossom, node, top, other)
                _mark(mate, parent, base, in_blossom, other, top, node)
                for member in range(size):
                    if in_blossom[base[member]]:
                        base[member] = top
                        if not outer[member]:
                            if optional is not None and optional[member]:
                                _release(mate, parent, member)
                                return True
                            outer[member] = True
                            queue.append(member)
            elif parent[other] == FREE:
                parent[other] = node
                if mate[other] == FREE:
                    _flip(mate, parent, other)
                    return True
                if optional is not None and optional[mate[other]]:
                    _release(mate, parent, mate[other])
                    return True
                outer[mate[other]] = True
                queue.append(mate[other])
    return False


def _common_base(mate: list[int], parent: list[int], base: list[int], first: int, second: int) -> int:
    """The base of the tree's lowest node above both ``first`` and ``second`` (outer nodes)."""
    above: set[int] = set()
    node = first
    while True:
        node = base[node]
        above.add(node)
        if mate[node] == FREE:
            break
        node = parent[mate[node]]
    node = second
    while True:
        node = base[node]
        if node in above:
            return node
        node = parent[mate[node]]


def _mark(mate: list[int], parent: list[int], base: list[int], in_blossom: list[bool], node: int, top: int, child: int) -> None:
    """Walk from ``node`` up to the blossom's base ``top``, marking the blossoms passed and pointing the inner
    nodes' parents back along the cycle so that a path through the blossom can be followed later."""
    while base[node] != top:
        in_blossom[base[node]] = in_blossom[base[mate[node]]] = True
        parent[node] = child
        child = mate[node]
        node = parent[mate[node]]


def _release(mate: list[int], parent: list[int], end: int) -> None:
    """Flip the even alternating path that ends with the matched edge into ``end`` (an outer node), freeing it."""
    inner = mate[end]
    mate[end] = mate[inner] = FREE
    _flip(mate, parent, inner)


def _flip(mate: list[int], parent: list[int], end: int) -> None:
    """Flip the alternating path that ends at the free node ``end``."""
    node = end
    while node != FREE:
        previous = parent[node]
        following = mate[previous]
        mate[node], mate[previous] = previous, node
        node = following
