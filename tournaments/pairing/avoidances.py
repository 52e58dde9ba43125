"""Requested avoidances: pairs of entrants who must not meet (the same club, a family), and what they did to a round.

FIDE lets a director ask that two players not be paired (C.04.1's note on "requested avoidances", used for
players of one federation or one family in open events). Here an avoidance is a constraint of the pairing:
the Swiss never pairs an avoided pair, and the tables pairing never seats one at the same table, whenever a
pairing without it exists; when none exists, the pairing breaks as few avoidances as it can and says so.

An avoidance is an unordered pair of entrant ids; a set of them is ``Avoidances``, a plain ``frozenset`` of
two-element ``frozenset``s, so that any pairing engine (issue 35's exact Dutch engine too) can take it as is.
:func:`avoidance_report` compares the round paired with the avoidances to the round the same engine pairs
without them, which is how a round's explanation knows that an avoidance moved somebody.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.model import Board, EntrantId, EntrantState, PairingInputError

Avoidances = frozenset[frozenset[EntrantId]]


def avoidances(pairs: Iterable[Collection[EntrantId]]) -> Avoidances:
    """Pairs of entrant ids (tuples, lists or sets, either order) as ``Avoidances``; an entrant avoiding
    himself is a caller's bug."""
    result: set[frozenset[EntrantId]] = set()
    for pair in pairs:
        members = frozenset(pair)
        if len(members) != 2:
            raise PairingInputError(f"an avoidance names two different entrants, not {sorted(pair)}")
        result.add(members)
    return frozenset(result)


def avoided_within(avoid: Avoidances, group: Sequence[EntrantId]) -> list[tuple[EntrantId, EntrantId]]:
    """The avoided pairs that ``group`` (a board or a table) holds, each in the group's order."""
    found = []
    for index, a in enumerate(group):
        for b in group[index + 1 :]:
            if frozenset((a, b)) in avoid:
                found.append((a, b))
    return found


@dataclass(frozen=True, slots=True)
class AvoidanceReport:
    """What the avoidances did to a round.

    ``kept_apart``: avoided pairs the same engine would have put together without the avoidances, and did not.
    ``broken``: avoided pairs put together anyway because no pairing of the round avoids them all.
    ``floated``: entrants who meet an opponent of another score (heads-up) only because of the avoidances.
    """

    kept_apart: tuple[tuple[EntrantId, EntrantId], ...] = ()
    broken: tuple[tuple[EntrantId, EntrantId], ...] = ()
    floated: tuple[EntrantId, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.kept_apart or self.broken or self.floated)


def _floaters(pairings: Sequence[Board], scores: Mapping[EntrantId, float]) -> set[EntrantId]:
    moved: set[EntrantId] = set()
    for pairing in pairings:
        if pairing.bye or len(pairing.entrants) != 2:
            continue
        a, b = pairing.entrants
        if scores.get(a, 0.0) != scores.get(b, 0.0):
            moved.update((a, b))
    return moved


def avoidance_report(
    entrants: Sequence[EntrantState],
    avoid: Avoidances,
    paired: Sequence[Board],
    unconstrained: Sequence[Board] | None,
) -> AvoidanceReport:
    """Compare the round ``paired`` with the avoidances to the round paired without them (None: that
    pairing failed, or was not tried), for the round's explanation."""
    broken = [pair for pairing in paired for pair in avoided_within(avoid, pairing.entrants)]
    if unconstrained is None:
        return AvoidanceReport(broken=tuple(broken))
    together_now = {frozenset(pair) for pair in broken}
    kept_apart = [
        pair for pairing in unconstrained for pair in avoided_within(avoid, pairing.entrants)
        if frozenset(pair) not in together_now
    ]  # fmt: skip
    scores = {entrant.id: entrant.score for entrant in entrants}
    floated = sorted(_floaters(paired, scores) - _floaters(unconstrained, scores)) if kept_apart else []
    return AvoidanceReport(kept_apart=tuple(kept_apart), broken=tuple(broken), floated=tuple(floated))
