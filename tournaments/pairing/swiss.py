"""Heads-up Swiss pairing after the FIDE Dutch system's principles, by weighted matching (networkx).

Sources: FIDE Handbook C.04.1 (basic rules for Swiss systems), C.04.2 (general handling rules) and
C.04.3 (the Dutch system, 2017 edition). First attack stands in for colour (see ``first_attack``).

Entrants are ranked by score, rating and id, the bye goes to the lowest-ranked who may have it, and the
Dutch system's ideal pairing is built score group by score group and cut into blocks; each block is matched
with ``networkx.max_weight_matching`` over the non-rematch edges near the ideal pairing, and whoever it
leaves is carried into the next, so a round costs O(n) small matchings instead of one O(n^3) blossom.
An edge's weight is an integer whose "digits" compare lexicographically: the quality criteria of C.04.3
C.5-C.17, then closeness to the ideal pairing. A rematch is never an edge (C.1); a requested avoidance is
not either while the round can be paired without it. The steps, the weight digits with their criteria and
the deviations from FIDE: docs/architecture.md, "Pairing".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from networkx.algorithms.matching import (  # type: ignore[import-untyped, unused-ignore]
    max_weight_matching,
)
from networkx.classes.graph import Graph  # type: ignore[import-untyped, unused-ignore]

from tournaments.pairing.avoidances import AvoidanceReport, Avoidances, avoidance_report, avoided_within
from tournaments.pairing.first_attack import Preference, allocate, conflict, preference
from tournaments.pairing.model import Board, EntrantId, EntrantState, Float, PairingError, PairingInputError, Side


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Knobs of :func:`pair_swiss`; the defaults are what tournaments use."""

    # Ideal pairs matched together; 16 keeps each matching near 32 nodes (about 10 ms in networkx).
    block_pairs: int = 16
    # Edges offered inside a block: within this many ranking places of the ideal pairing (None: all).
    # A block that cannot be paired inside the window is matched again with every edge.
    window: int | None = 8
    # The side the top seed gets in round 1 (C.04.3 E.5 "initial colour", drawn by lot in chess).
    initial: Side = Side.FIRST


def ranking_key(entrant: EntrantState) -> tuple[float, float, EntrantId]:
    """Sort key of the pairing order: score, then rating, then id (C.04.3 A.2)."""
    return (-entrant.score, -entrant.rating, entrant.id)


def pair_swiss(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId] = (),
    options: SwissOptions | None = None,
    avoid: Avoidances = frozenset(),
) -> list[Board]:
    """Pair the next round of a heads-up Swiss.

    ``entrants`` is every entrant of the tournament with his history (see ``model.entrants_after``);
    withdrawn entrants and those in ``absent`` (e.g. a requested bye) are left out of the round. ``avoid``
    holds the pairs who must not meet (``avoidances``): never paired while a pairing without them exists.
    The pairings come back in publishing order (C.04.2 D.9: highest score first), seat order inside each
    (the first attacks first), the bye last.
    """
    options = options or SwissOptions()
    if options.block_pairs < 1:
        raise PairingInputError("block_pairs must be at least 1")
    _check_unique(entrants)
    # Pairing numbers: the initial order by rating (C.04.3 A.2), used for E.5's odd/even rule.
    numbers = pairing_numbers({entrant.id: entrant.rating for entrant in entrants})
    skipped = set(absent)
    ranked = sorted((e for e in entrants if not e.withdrawn and e.id not in skipped), key=ranking_key)
    if not ranked:
        return []
    present = {entrant.id for entrant in ranked}
    avoid = frozenset(pair for pair in avoid if pair <= present)
    try:
        return _pair_ranked(ranked, numbers, options, avoid, strict=True)
    except PairingError:
        if not avoid:
            raise
    return _pair_ranked(ranked, numbers, options, avoid, strict=False)


def pair_swiss_explained(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId] = (),
    options: SwissOptions | None = None,
    avoid: Avoidances = frozenset(),
) -> tuple[list[Board], AvoidanceReport]:
    """:func:`pair_swiss`, and what the avoidances did: the round is paired again without them and the two
    compared (only when some avoided pair is in the round)."""
    pairings = pair_swiss(entrants, absent=absent, options=options, avoid=avoid)
    seated = {entrant for pairing in pairings for entrant in pairing.entrants}
    if not any(pair <= seated for pair in avoid):
        return pairings, AvoidanceReport()
    try:
        unconstrained: list[Board] | None = pair_swiss(entrants, absent=absent, options=options)
    except PairingError:
        unconstrained = None
    return pairings, avoidance_report(entrants, avoid, pairings, unconstrained)


def _pair_ranked(
    ranked: list[EntrantState], numbers: dict[EntrantId, int], options: SwissOptions, avoid: Avoidances, *, strict: bool
) -> list[Board]:
    """Pair the ranked entrants: ``strict``, avoided pairs are never paired; otherwise they may be, as few as
    can be (the bye then goes to whoever leaves the fewest broken, the lowest-ranked among equals)."""
    if len(ranked) % 2 == 0:
        pairs = _pair_even(ranked, options, avoid, strict=strict)
        if pairs is None:
            raise PairingError("no pairing of this round avoids a rematch")
        return _publish(pairs, None, numbers, options)
    # C.04.1 d, C.04.3 C.2: at most one pairing-allocated bye, and none after a forfeit win; the
    # lowest-ranked eligible entrant gets it, unless the others then cannot be paired.
    best: tuple[int, EntrantState, list[tuple[EntrantState, EntrantState]]] | None = None
    for candidate in reversed(ranked):
        if candidate.byes or candidate.forfeit_wins:
            continue
        rest = [entrant for entrant in ranked if entrant is not candidate]
        pairs = _pair_even(rest, options, avoid, strict=strict) if rest else []
        if pairs is None:
            continue
        if strict:
            return _publish(pairs, candidate, numbers, options)
        broken = sum(len(avoided_within(avoid, (a.id, b.id))) for a, b in pairs)
        if best is None or broken < best[0]:
            best = (broken, candidate, pairs)
        if broken <= 1:
            break  # the strict pass failed, so no choice of the bye breaks none
    if best is not None:
        return _publish(best[2], best[1], numbers, options)
    raise PairingError("no entrant can take the bye without a second bye or a rematch")


def pairing_numbers(ratings: Mapping[EntrantId, float]) -> dict[EntrantId, int]:
    """Each entrant's pairing number, 1 up: the initial order by rating, highest first, then id (C.04.3 A.2)."""
    order = sorted(ratings, key=lambda entrant: (-ratings[entrant], entrant))
    return {entrant: index + 1 for index, entrant in enumerate(order)}


def _check_unique(entrants: Sequence[EntrantState]) -> None:
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingInputError("entrant ids must be unique")


def _publish(
    pairs: list[tuple[EntrantState, EntrantState]],
    bye: EntrantState | None,
    numbers: dict[EntrantId, int],
    options: SwissOptions,
) -> list[Board]:
    """Seat each pair (C.04.3 E) and order the boards (C.04.2 D.9)."""

    def board_key(pair: tuple[EntrantState, EntrantState]) -> tuple[float, float, tuple[float, float, EntrantId]]:
        higher = min(pair, key=ranking_key)
        return (-max(pair[0].score, pair[1].score), -(pair[0].score + pair[1].score), ranking_key(higher))

    pairings: list[Board] = []
    for pair in sorted(pairs, key=board_key):
        higher, lower = sorted(pair, key=ranking_key)
        first, second = allocate(higher, lower, higher_number=numbers[higher.id], initial=options.initial)
        pairings.append(Board(entrants=(first.id, second.id)))
    if bye is not None:
        pairings.append(Board(entrants=(bye.id,), bye=True))
    return pairings


class _Field:
    """The ranked entrants of one pairing run, as arrays indexed by ranking position."""

    def __init__(self, ranked: list[EntrantState], avoid: Avoidances = frozenset(), *, strict: bool = True) -> None:
        self.entrants = ranked
        self.size = len(ranked)
        position = {entrant.id: index for index, entrant in enumerate(ranked)}
        self.met: list[set[int]] = [
            {position[opponent] for opponent in entrant.opponents if opponent in position} for entrant in ranked
        ]
        # Requested avoidances by position: no edge when strict, else an edge that loses the top digit.
        self.avoided: list[set[int]] = [set() for _ in ranked]
        for pair in avoid:
            a, b = (position.get(member) for member in pair)
            if a is not None and b is not None:
                self.avoided[a].add(b)
                self.avoided[b].add(a)
        self.strict = strict
        # Scores in quarter points, so that every score of a 1 / 0.5 / 0 event is an exact integer.
        self.score_units = [round(entrant.score * 4) for entrant in ranked]
        self.preferences: list[Preference] = [preference(entrant.sides) for entrant in ranked]
        self.last_float = [entrant.floats[-1] if entrant.floats else Float.NONE for entrant in ranked]
        self.float_before = [entrant.floats[-2] if len(entrant.floats) > 1 else Float.NONE for entrant in ranked]
        self.ideal = _ideal_partners(self.score_units)
        top = max(self.score_units)
        bottom = min(self.score_units)
        self.max_gap = top - bottom
        # Largest value each weight digit can take on one edge, most significant digit first.
        self.digit_maxima = (2 * (top - bottom), self.max_gap, 1, 1, 1, 2, 2, 2, 2)
        self.bottom = bottom

    def digits(self, a: int, b: int, deviation_cap: int) -> tuple[int, ...]:
        """The weight digits of pairing positions ``a`` and ``b`` (see the module's table).

        ``a`` and ``b`` are ranking positions; ``deviation_cap`` bounds the distance digit so that the
        digits stay small for a small group.
        """
        units_a, units_b = self.score_units[a], self.score_units[b]
        clash = conflict(self.preferences[a], self.preferences[b])
        down = a if units_a > units_b else b if units_b > units_a else -1
        up = b if down == a else a if down == b else -1
        last, before = self.last_float, self.float_before
        deviation = min(self.deviation(a, b), deviation_cap)
        return (
            units_a + units_b - 2 * self.bottom,  # C.5/C.6: pair the high scores, float the low ones
            self.max_gap - abs(units_a - units_b),  # C.6/C.8: the smallest score difference
            1 - clash.absolute,  # C.3, weighed
            1 - clash.unmet,  # C.12
            1 - clash.strong_unmet,  # C.13
            (last[a] is Float.DOWN and a != down) + (last[b] is Float.DOWN and b != down),  # C.14
            (last[a] is Float.UP and a != up) + (last[b] is Float.UP and b != up),  # C.15
            (before[a] is Float.DOWN and a != down) + (before[b] is Float.DOWN and b != down),  # C.16
            (before[a] is Float.UP and a != up) + (before[b] is Float.UP and b != up),  # C.17
            deviation_cap - deviation,  # B.3: stay close to the ideal S1 v S2 pairing
        )

    def deviation(self, a: int, b: int) -> int:
        """How far pairing ``a`` with ``b`` is from the ideal pairing, in ranking places."""
        return abs(b - self.ideal[a]) + abs(a - self.ideal[b])

    def match(self, group: list[int], window: int | None) -> tuple[list[tuple[int, int]], list[int]]:
        """Maximum-cardinality, maximum-weight matching of ``group``; returns (pairs, left over).

        ``group`` is sorted by ranking position. With a ``window``, only edges within that distance
        of the ideal pairing are offered (edges of entrants whose ideal partner is outside the group
        are always offered); None offers every non-rematch edge.
        """
        size = len(group)
        cap = 4 * size
        # The first digit keeps requested avoidances (constant unless they are edges); the last ranks the
        # paired entrants, so that the lowest-ranked is the one left over.
        maxima = (1, *self.digit_maxima, cap, 2 * size)
        bases = _digit_bases(maxima, size // 2)
        inside = set(group)
        edges: list[tuple[int, int, int]] = []
        for index, a in enumerate(group):
            met = self.met[a]
            avoided = self.avoided[a]
            a_outside = self.ideal[a] not in inside
            for other_index in range(index + 1, size):
                b = group[other_index]
                if b in met:
                    continue  # C.1: never a rematch
                if b in avoided and self.strict:
                    continue  # a requested avoidance, while the round can be paired without breaking one
                if window is not None and not a_outside and self.ideal[b] in inside:
                    if self.deviation(a, b) > window:
                        continue
                digits = (int(b not in avoided), *self.digits(a, b, cap), 2 * size - index - other_index)
                edges.append((a, b, sum(digit * base for digit, base in zip(digits, bases))))
        graph = Graph()
        graph.add_nodes_from(group)
        graph.add_weighted_edges_from(edges)
        matching: set[tuple[int, int]] = max_weight_matching(graph, maxcardinality=True)
        pairs = [(min(a, b), max(a, b)) for a, b in matching]
        paired = {x for pair in pairs for x in pair}
        return pairs, [x for x in group if x not in paired]


def _digit_bases(maxima: tuple[int, ...], pairs: int) -> list[int]:
    """Place values making the digit sums compare lexicographically over ``pairs`` edges."""
    bases = [1] * len(maxima)
    for index in range(len(maxima) - 2, -1, -1):
        bases[index] = bases[index + 1] * (pairs * maxima[index + 1] + 1)
    return bases


def _ideal_partners(score_units: list[int]) -> list[int]:
    """Each position's partner in the ideal Dutch pairing (C.04.3 B), rematches and sides ignored.

    Score group by score group: the floaters from above meet the group's top residents (heterogeneous
    bracket), the other residents pair top half v bottom half, and an odd one out floats down.
    """
    size = len(score_units)
    partner = list(range(size))
    floaters: list[int] = []
    start = 0
    while start < size:
        end = start
        while end < size and score_units[end] == score_units[start]:
            end += 1
        residents = list(range(start, end))
        met_floaters = min(len(floaters), len(residents))
        for floater, resident in zip(floaters[:met_floaters], residents[:met_floaters]):
            partner[floater], partner[resident] = resident, floater
        rest = residents[met_floaters:]
        half = len(rest) // 2
        for index in range(half):
            partner[rest[index]], partner[rest[index + half]] = rest[index + half], rest[index]
        floaters = floaters[met_floaters:] + rest[2 * half :]
        start = end
    for index in range(0, len(floaters) - 1, 2):
        partner[floaters[index]], partner[floaters[index + 1]] = floaters[index + 1], floaters[index]
    return partner


def _ideal_order(partner: list[int], score_units: list[int]) -> list[tuple[int, int]]:
    """The ideal pairs bracket by bracket, each bracket's S1 v S2 pairs by the S1 member (C.04.3 B).

    A floater's pair goes with the bracket he floats *from*: that bracket's matching then decides who
    floats (C.14-C.17 weigh in), with the top resident of the bracket below as the partner on offer.
    """
    pairs = [(position, other) for position, other in enumerate(partner) if position < other]
    return sorted(pairs, key=lambda pair: (-score_units[pair[0]], pair[0]))


def _blocks(ideal_pairs: list[tuple[int, int]], score_units: list[int], size: int) -> list[list[tuple[int, int]]]:
    """Cut the ideal pairs into blocks that never mix two brackets.

    A bracket of more than ``size`` pairs is cut into runs of ``size``; a short last run (under half of
    ``size``) joins the run before it, so that no block is left with too few entrants to choose from.
    """
    blocks: list[list[tuple[int, int]]] = []
    start = 0
    while start < len(ideal_pairs):
        bracket = score_units[ideal_pairs[start][0]]
        end = start
        while end < len(ideal_pairs) and score_units[ideal_pairs[end][0]] == bracket:
            end += 1
        runs = [ideal_pairs[index : min(index + size, end)] for index in range(start, end, size)]
        if len(runs) > 1 and 2 * len(runs[-1]) < size:
            runs[-2].extend(runs.pop())
        blocks.extend(runs)
        start = end
    return blocks


def _pair_even(
    ranked: list[EntrantState], options: SwissOptions, avoid: Avoidances = frozenset(), *, strict: bool = True
) -> list[tuple[EntrantState, EntrantState]] | None:
    """Pair an even number of ranked entrants, or None when no rematch-free pairing exists (strict: none
    that also keeps every avoidance). Not strict, one matching over the whole field breaks the fewest."""
    field = _Field(ranked, avoid, strict=strict)
    if not strict:
        pairs, left = field.match(list(range(field.size)), None)
        return None if left else [(field.entrants[a], field.entrants[b]) for a, b in sorted(pairs)]
    ideal_pairs = _ideal_order(field.ideal, field.score_units)
    done: list[tuple[int, int]] = []
    carried: list[int] = []
    for block_pairs in _blocks(ideal_pairs, field.score_units, options.block_pairs):
        group = sorted(carried + [x for pair in block_pairs for x in pair])
        pairs, carried = field.match(group, options.window)
        if carried and options.window is not None:
            pairs, carried = field.match(group, None)  # the window was too narrow: offer every edge
        done.extend(sorted(pairs))
    span = options.block_pairs
    while carried:
        # C.4 completion: re-match the leftovers with the last pairs made, widening until all fit.
        span = min(span * 2, len(done))
        group = sorted(carried + [x for pair in done[len(done) - span :] for x in pair])
        pairs, left = field.match(group, None)
        if left and span == len(done):
            return None
        if not left:
            del done[len(done) - span :]
            done.extend(sorted(pairs))
            carried = []
    return [(field.entrants[a], field.entrants[b]) for a, b in done]
