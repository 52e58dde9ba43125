"""Multi-player Swiss: seating a round at tables of 3 to 6 by score, with repeat meetings minimised.

FIDE has no rules for games of more than two, so this follows the Swiss system's principles instead:
tables as even in size as ``table_size`` allows (:func:`table_sizes`), filled from the top in ranking order
(score, rating, id) so that score groups sit together (C.04.1 e), then improved by swaps of two entrants
between tables that lower, in order, the avoided pairs seated together, the repeat meetings and the score
spread; the first seat goes to the entrant who has attacked first least often.
Swaps are a local search, so "as few avoided pairs as possible" is not proven for a knotted field;
:func:`seat_tables_explained` says which were kept together. The steps: docs/architecture.md, "Pairing".

Teams are entrants like any other: a 2v2 or 3v3 match is a heads-up pairing of two team entrants, so
team events use ``swiss.pair_swiss`` with one :class:`EntrantState` per team (rating: the team's average).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from tournaments.pairing.avoidances import AvoidanceReport, Avoidances, avoidance_report
from tournaments.pairing.model import Board, EntrantId, EntrantState, PairingError, PairingInputError, Side
from tournaments.pairing.swiss import ranking_key

MIN_TABLE = 3
MAX_TABLE = 6
# Swap passes before giving up on further improvement; each pass is O(tables x table_size^3).
MAX_PASSES = 12
NEIGHBOURS = 2


def table_sizes(count: int, table_size: int) -> list[int]:
    """Sizes of the tables seating ``count`` entrants at tables of at most ``table_size`` (3..6)."""
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise PairingInputError(f"tables seat {MIN_TABLE} to {MAX_TABLE}, not {table_size}")
    if count < 2:
        raise PairingError("a table needs at least two entrants")
    tables = -(-count // table_size)
    while tables > 1 and count // tables < MIN_TABLE:
        tables -= 1
    base, larger = divmod(count, tables)
    return [base + 1] * larger + [base] * (tables - larger)


def team_rating(ratings: Sequence[float]) -> float:
    """A team entrant's rating for pairing: its members' average."""
    if not ratings:
        raise PairingInputError("a team has members")
    return sum(ratings) / len(ratings)


def seat_tables(
    entrants: Sequence[EntrantState],
    *,
    table_size: int,
    absent: Collection[EntrantId] = (),
    avoid: Avoidances = frozenset(),
) -> list[Board]:
    """Seat the next round of a multi-player Swiss; tables come back top table first, in seat order.
    ``avoid``: pairs who must not share a table (``avoidances``)."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingInputError("entrant ids must be unique")
    skipped = set(absent)
    ranked = sorted((e for e in entrants if not e.withdrawn and e.id not in skipped), key=ranking_key)
    sizes = table_sizes(len(ranked), table_size)
    seating = _Seating(ranked, sizes, avoid)
    seating.improve(neighbours=NEIGHBOURS, only_repeats=False)
    seating.improve(neighbours=len(sizes), only_repeats=True)
    return [Board(entrants=_seat_order([ranked[x] for x in table])) for table in seating.ordered_tables()]


def seat_tables_explained(
    entrants: Sequence[EntrantState],
    *,
    table_size: int,
    absent: Collection[EntrantId] = (),
    avoid: Avoidances = frozenset(),
) -> tuple[list[Board], AvoidanceReport]:
    """:func:`seat_tables`, and what the avoidances did (the round seated without them, compared)."""
    pairings = seat_tables(entrants, table_size=table_size, absent=absent, avoid=avoid)
    seated = {entrant for pairing in pairings for entrant in pairing.entrants}
    if not any(pair <= seated for pair in avoid):
        return pairings, AvoidanceReport()
    unconstrained = seat_tables(entrants, table_size=table_size, absent=absent)
    return pairings, avoidance_report(entrants, avoid, pairings, unconstrained)


def repeat_meetings(entrants: Sequence[EntrantState], pairings: Sequence[Board]) -> int:
    """How many earlier meetings the pairings repeat: each pair at a table counts its past meetings."""
    met = {entrant.id: Counter(entrant.opponents) for entrant in entrants}
    total = 0
    for pairing in pairings:
        members = pairing.entrants
        for index, a in enumerate(members):
            for b in members[index + 1 :]:
                total += met[a][b]
    return total


class _Seating:
    """Tables as lists of ranking positions, with the costs that swaps are judged by."""

    def __init__(self, ranked: list[EntrantState], sizes: list[int], avoid: Avoidances = frozenset()) -> None:
        position = {entrant.id: index for index, entrant in enumerate(ranked)}
        self.avoided: list[set[int]] = [set() for _ in ranked]
        for pair in avoid:
            a, b = (position.get(member) for member in pair)
            if a is not None and b is not None:
                self.avoided[a].add(b)
                self.avoided[b].add(a)
        self.met: list[dict[int, int]] = []
        for entrant in ranked:
            counts: dict[int, int] = {}
            for opponent, times in Counter(entrant.opponents).items():
                if opponent in position:
                    counts[position[opponent]] = times
            self.met.append(counts)
        self.units = [round(entrant.score * 4) for entrant in ranked]
        self.tables: list[list[int]] = []
        start = 0
        for size in sizes:
            self.tables.append(list(range(start, start + size)))
            start += size

    def cost(self, x: int, table: list[int], skip: int) -> tuple[int, int, int]:
        """(avoided pairs, repeat meetings, score spread) that ``x`` adds to ``table``, leaving ``skip`` out."""
        met = self.met[x]
        avoided = self.avoided[x]
        units = self.units[x]
        avoids = repeats = spread = 0
        for y in table:
            if y == x or y == skip:
                continue
            avoids += y in avoided
            repeats += met.get(y, 0)
            spread += abs(units - self.units[y])
        return avoids, repeats, spread

    def table_repeats(self, table: list[int]) -> int:
        """Repeat meetings and avoided pairs at ``table``: what the second pass works on."""
        return sum(
            self.met[x].get(y, 0) + (y in self.avoided[x]) for index, x in enumerate(table) for y in table[index + 1 :]
        )

    def improve(self, *, neighbours: int, only_repeats: bool) -> None:
        """Swap entrants between tables while a swap lowers (avoided pairs, repeats, spread), in that order.

        With ``only_repeats``, only tables that still hold a repeat meeting or an avoided pair are worked on,
        against any table within ``neighbours``, and only fewer of those count as better.
        """
        count = len(self.tables)
        for _ in range(MAX_PASSES):
            changed = False
            for i in range(count):
                if only_repeats:
                    if not self.table_repeats(self.tables[i]):
                        continue
                    others = [j for j in range(max(0, i - neighbours), min(count, i + neighbours + 1)) if j != i]
                else:
                    others = list(range(i + 1, min(count, i + neighbours + 1)))
                for j in others:
                    changed |= self._improve_pair(self.tables[i], self.tables[j], only_repeats)
            if not changed:
                return

    def _improve_pair(self, first: list[int], second: list[int], only_repeats: bool) -> bool:
        changed = False
        for a_index in range(len(first)):
            for b_index in range(len(second)):
                a, b = first[a_index], second[b_index]
                a_now, b_now = self.cost(a, first, a), self.cost(b, second, b)
                a_moved, b_moved = self.cost(a, second, b), self.cost(b, first, a)
                avoids = a_moved[0] + b_moved[0] - a_now[0] - b_now[0]
                repeats = a_moved[1] + b_moved[1] - a_now[1] - b_now[1]
                spread = a_moved[2] + b_moved[2] - a_now[2] - b_now[2]
                if avoids < 0 or (avoids == 0 and (repeats < 0 or (not only_repeats and repeats == 0 and spread < 0))):
                    first[a_index], second[b_index] = b, a
                    changed = True
        return changed

    def ordered_tables(self) -> list[list[int]]:
        """Tables top first (by their best-ranked entrant), members in ranking order."""
        return sorted((sorted(table) for table in self.tables), key=lambda table: table[0])


def _seat_order(members: list[EntrantState]) -> tuple[EntrantId, ...]:
    """Seat a table: the ranking order, rotated so that the entrant most owed a first attack sits first."""

    def owed(indexed: tuple[int, EntrantState]) -> tuple[int, int, int]:
        index, entrant = indexed
        firsts = sum(1 for side in entrant.sides if side is Side.FIRST)
        return (firsts, -len(entrant.sides), index)

    first_index, _ = min(enumerate(members), key=owed)
    rotated = members[first_index:] + members[:first_index]
    return tuple(entrant.id for entrant in rotated)
