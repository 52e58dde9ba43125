"""The first transposition (C.04.3 D.1) among a bracket's optimal pairings, by choice after choice instead of
one weighted matching with a digit of n log n bits.

``dutch_bracket`` ranks a homogeneous bracket's candidates last by S2's transposition: the digit that weighs
pair (x, y), x before y in the bracket, by (n - y) * (n + 1) ** (n - x), so that a matching's sum is a number
in base n + 1 whose digits, most significant first, are the partners of the bracket's players in order as
the lower member of their pair. Maximising it is choosing, for each player in order who is not yet paired,
the first later player he can meet such that the pairing can still be completed optimally by the digits
before; a player who can meet no later one is left to float or to meet a player outside the bracket (digit
zero).

"Completed optimally" is asked of the matchings of the edges tight under the optimal dual of the digits
before (``weighted.optimal_face``) that match every node of positive dual: a question of cardinality. By
complementary slackness every optimal matching is one of them, and they are all optimal when no odd set has
a positive dual. With ``keep_size`` (the set of all nodes is such an odd set: every optimum is a maximum
matching) the choices also keep the matching's size. Each choice is checked by re-matching the one or two
nodes it frees (``cardinality.augment``, ``cardinality.cover``), the chosen pairs held fixed. When another
odd set has a positive dual (a bracket whose own players form one: exactly one of them floats), the caller
(``dutch_bracket._lexicographic``) also passes ``optimal`` and ``complete``: a choice whose re-matched
matching is not an optimum is decided by a face-weight matching of the nodes not yet fixed, so every choice
kept can be completed optimally and the result is the first optimum.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, MutableSequence, Sequence

from tournaments.pairing import weighted_native
from tournaments.pairing.cardinality import FREE, augment, cover

Complete = Callable[[list[int], Sequence[bool]], "list[int] | None"]


def first_transposition(
    size: int, tight: Sequence[tuple[int, int]], mate: Sequence[int], required: Sequence[bool], sequence: Sequence[int],
    keep_size: bool = False, optimal: Callable[[list[int]], bool] | None = None, complete: Complete | None = None,
) -> list[int] | None:
    """The optimal matching (partners, FREE for none) that is first by the transposition digit: ``tight`` the
    edges of the optimal face over nodes 0..size-1, ``mate`` an optimal matching within them, ``required`` the
    nodes every optimal matching covers, ``sequence`` the bracket's nodes in order; with ``keep_size``, only
    matchings as large as ``mate`` (which must be a maximum matching of ``tight``: every optimum is one when
    the set of all nodes is an odd set of positive dual). None when ``mate`` does not cover the required nodes
    (not an optimum of that face).

    With ``optimal`` (whether a matching is an optimum) and ``complete`` (an optimum that keeps the pairs of
    the blocked nodes of a matching, or None when there is none): each choice's matching is kept only when it
    is an optimum, and when it is not, ``complete`` decides the choice; then the result is the first optimum
    whatever odd sets the dual has (the caller's exact check, for a bracket whose own players form one)."""
    partners = [FREE if partner < 0 else partner for partner in mate]
    if any(needed and partners[v] == FREE for v, needed in enumerate(required)):
        return None
    native = weighted_native.trials(size, tight)
    try:
        return _first(size, tight, partners, required, sequence, keep_size, optimal, complete, native)
    finally:
        if native is not None:
            native.close()


def _first(
    size: int, tight: Sequence[tuple[int, int]], partners: list[int], required: Sequence[bool], sequence: Sequence[int],
    keep_size: bool, optimal: Callable[[list[int]], bool] | None, complete: Complete | None,
    native: weighted_native.Trials | None,
) -> list[int]:
    """first_transposition's choices, each checked by :func:`_fixed`, or by ``native`` (the same in C)."""
    optional = [not needed for needed in required]
    blocked: MutableSequence[bool] | MutableSequence[int]
    if native is None:
        adjacency: list[list[int]] = [[] for _ in range(size)]
        for u, v in tight:
            adjacency[u].append(v)
            adjacency[v].append(u)
        neighbours: Callable[[int], Sequence[int]] = adjacency.__getitem__
        blocked = [False] * size

        def fixed(partners: list[int], node: int, other: int) -> list[int] | None:
            return _fixed(adjacency, partners, node, other, optional, blocked, keep_size)  # type: ignore[arg-type]

    else:
        neighbours = native.neighbours
        optional_bytes, blocked = array("b", optional), array("b", bytes(size))

        def fixed(partners: list[int], node: int, other: int) -> list[int] | None:
            if partners[node] == other:
                return partners
            found = native.fixed(array("q", partners), node, other, optional_bytes, blocked, keep_size)
            return None if found is None else found.tolist()

    position = {node: index for index, node in enumerate(sequence)}
    for node in sequence:
        if blocked[node]:
            continue
        later = sorted(
            (position[other], other) for other in neighbours(node)
            if other in position and position[other] > position[node] and not blocked[other]
        )  # fmt: skip
        for _, other in later:
            trial = fixed(partners, node, other)
            if trial is not None and optimal is not None and complete is not None and not optimal(trial):
                blocked[node] = blocked[other] = True
                trial = complete(trial, blocked)  # type: ignore[arg-type]
                blocked[node] = blocked[other] = False
            if trial is not None:
                partners = trial
                blocked[node] = blocked[other] = True
                break
    return partners


def _fixed(
    adjacency: Sequence[Sequence[int]], partners: list[int], node: int, other: int,
    optional: Sequence[bool], blocked: list[bool], keep_size: bool,
) -> list[int] | None:
    """``partners`` changed to pair ``node`` with ``other`` and still cover every required node (and with
    ``keep_size`` as many nodes as before: a maximum matching less the pair fixed can only grow back along an
    augmenting path from a node it freed), or None."""
    if partners[node] == other:
        return partners
    trial = list(partners)
    freed = []
    for v in (node, other):
        if trial[v] != FREE:
            freed.append(trial[v])
            trial[trial[v]] = FREE
    trial[node], trial[other] = other, node
    blocked[node] = blocked[other] = True
    # Free nodes gained: the partners freed, less node and other where they were free before.
    grown = len(freed) - (partners[node] == FREE) - (partners[other] == FREE)
    try:
        if keep_size and grown > 0:
            if not any(trial[v] == FREE and augment(adjacency, trial, v, blocked) for v in freed):
                return None
        for v in freed:
            if not optional[v] and trial[v] == FREE and not cover(adjacency, trial, v, optional, blocked):
                return None
    finally:
        blocked[node] = blocked[other] = False
    return trial
