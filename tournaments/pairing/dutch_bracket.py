"""One bracket of a Dutch round (tournaments.pairing.dutch, whose docstring says how a round is paired): its
edges weighed digit by digit by the quality criteria and the exchange order, and matched over the bracket,
the next score group or the whole field below, whichever provably gives the whole field's pairs."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from tournaments.pairing import weighted_native
from tournaments.pairing.cardinality import FREE, is_perfect, maximum_matching
from tournaments.pairing.first_attack import conflict
from tournaments.pairing.model import Float, PairingError
from tournaments.pairing.transposition import first_transposition
from tournaments.pairing.weighted import max_weight_matching, max_weight_matching_split, optimal_face_split

if TYPE_CHECKING:
    from tournaments.pairing.dutch import _Round

POINT = 4  # score units in a point: quarter points keep every score of a 1 / 0.5 / 0 event an integer
BYE = -1  # the bye node of the matching graph
DIGITS = 17  # quality digits: C5, C6, C7 (pairs, PSD), the bye's unplayed games, C8-C19
_ZEROS = (0,) * DIGITS

Edge = tuple[int, int]


class _Order(Protocol):
    """Digits that rank a bracket's candidates, by edge (None: zeros): a dict, or an :class:`_ExchangeOrder`."""

    def get(self, edge: Edge, /) -> list[int] | None: ...


def _psd_cost(base: int, difference: int) -> int:
    """The weight of one score difference in the PSD (C6): a power, so that sums compare from the largest."""
    cost: int = base ** max(difference, 0)
    return cost


class Bracket:
    """One pairing bracket: MDPs ``moved`` and residents ``group``; ``lower`` are the players below."""

    def __init__(self, round_: _Round, moved: list[int], group: list[int], lower: list[int], following: list[int]):
        self.round = round_
        self.moved = moved
        self.group = group
        self.members = moved + group
        self.inside = set(self.members)
        self.lower = lower
        self.weigh_bye = not lower or round_.players[group[0]].units == round_.bye_units
        self.following = set(following)
        players = round_.players
        self.bottom = players[group[0]].units  # residents' score: the bracket's lowest
        self.psd_base = len(self.members) + 1
        self.next_bottom = players[following[0]].units if following else 0
        self.next_base = len(self.members) + len(following) + 1
        self.sequence: _ExchangeOrder | None = None  # while a homogeneous part is matched: its players' order
        self.floats: dict[int, tuple[int, ...]] = {}  # float_cost's answers (they depend on the player alone)
        self.qualities: dict[tuple[int, int], tuple[int, ...]] = {}  # quality's, by the players' kinds
        self.players_allowed: set[int] | None = None  # restrict's: which pairs inside the bracket edges gives
        self.keep: set[Edge] = set()
        self.taken: set[int] = set()
        self.outsides: dict[tuple[bool, bool, bool, int, int], tuple[int, ...]] = {}  # outside's, by kind of edge
        self.byes: dict[tuple[int, ...], tuple[int, ...]] = {}  # bye's, interned

    # -- the quality digits (C5-C19) -------------------------------------------------------------------------

    def float_cost(self, v: int) -> tuple[int, ...]:
        """What player ``v`` costs, digit by digit, when left unpaired in the bracket (a downfloat)."""
        known = self.floats.get(v)
        if known is None:
            known = self.floats[v] = self._float_cost(v)
        return known

    def _float_cost(self, v: int) -> tuple[int, ...]:
        p = self.round.players[v]
        down_last, down_before = p.last is Float.DOWN, p.before is Float.DOWN
        gap = p.units - self.bottom + POINT
        next_cost = _psd_cost(self.next_base, p.units - self.next_bottom + POINT) if self.following else 0
        return (
            0, _psd_cost(self.psd_base, gap), 0, next_cost, 0, 0, 0, 0, 0,
            int(down_last), 0, int(down_before), 0, gap * down_last, 0, gap * down_before, 0,
        )  # fmt: skip

    def pair_cost(self, a: int, b: int) -> tuple[int, ...]:
        """What pairing ``a`` with ``b`` (a ranked above b) in the bracket costs, digit by digit."""
        pa, pb = self.round.players[a], self.round.players[b]
        clash = conflict(pa.preference, pb.preference)
        gap = pa.units - pb.units
        floated = gap > 0
        down1 = floated and pa.last is Float.DOWN
        up1 = floated and pb.last is Float.UP
        down2 = floated and pa.before is Float.DOWN
        up2 = floated and pb.before is Float.UP
        beyond, third = self.round.topscorer_costs(a, b)
        return (
            -1, _psd_cost(self.psd_base, gap) if gap else 0, 0, 0, 0, beyond, third, clash.unmet,
            clash.strong_unmet and not clash.absolute,
            int(down1), int(up1), int(down2), int(up2), gap * down1, gap * up1, gap * down2, gap * up2,
        )  # fmt: skip

    def quality(self, a: int, b: int) -> list[int]:
        """The digits of an edge inside the bracket: the two floats saved minus the pair's cost. They depend on
        the two players' kinds only (``_Round.kinds``: what float_cost and pair_cost read of a player), so
        they are computed once a pair of kinds."""
        key = (self.round.kinds[a], self.round.kinds[b])
        known = self.qualities.get(key)
        if known is None:
            fa, fb, cost = self.float_cost(a), self.float_cost(b), self.pair_cost(a, b)
            known = self.qualities[key] = tuple(x + y - z for x, y, z in zip(fa, fb, cost))
        return list(known)

    def outside(self, a: int, b: int) -> tuple[int, ...]:
        """The digits of an edge not inside the bracket: C7's pairs and PSD of the next bracket only. They depend
        on which end is in the next group, whether one is in the bracket, and the two scores: computed once a
        kind of edge."""
        following = self.following
        if a not in following and b not in following:
            return _ZEROS
        players = self.round.players
        key = (a in following, b in following, a in self.inside or b in self.inside, players[a].units, players[b].units)
        known = self.outsides.get(key)
        if known is None:
            known = self.outsides[key] = tuple(self._outside(a, b))
        return known

    def _outside(self, a: int, b: int) -> list[int]:
        digits = [0] * DIGITS
        into = [v for v in (a, b) if v in self.following]
        units = [self.round.players[v].units for v in (a, b)]
        base, bottom = self.next_base, self.next_bottom
        saved = sum(_psd_cost(base, u - bottom + POINT) for u in units)
        if len(into) == 2 or any(v in self.inside for v in (a, b)):
            digits[2] = 1
            digits[3] = saved - _psd_cost(base, abs(units[0] - units[1])) if units[0] != units[1] else saved - 1
        return digits

    def bye(self, v: int) -> tuple[int, ...]:
        """The digits of the bye going to ``v``: the bye assignee's unplayed games are minimised, when the
        bracket is where he floats from (C.04.3 2025, after C7). Equal digits are one tuple."""
        digits = [0] * DIGITS
        if v in self.inside and self.weigh_bye:
            entrant = self.round.players[v].entrant
            digits[4] = len(entrant.opponents) - len(entrant.floats)
        return self.byes.setdefault(tuple(digits), tuple(digits))

    # -- the matchings ----------------------------------------------------------------------------------------

    def restrict(self, players: set[int] | None, keep: set[Edge]) -> None:
        """Which pairs inside the bracket :meth:`edges` gives: those between two of ``players`` or in ``keep``
        (``players`` None: every one but MDP with MDP); the players of ``keep``'s pairs have no other edge."""
        self.players_allowed, self.keep = players, keep
        self.taken = {v for pair in keep for v in pair}

    def edges(self, among: Collection[int] | None = None) -> list[Edge]:
        """Every compatible edge among the bracket and the players below (:meth:`restrict` says which inside the
        bracket), or only those between two of ``among`` (the bye node among them or not), in order: by the
        lower place, then the higher, the bye's edges last. The whole field's edges are some n^2 / 2: a
        bracket asks for its own and the next group's, and for all of them only when its proofs fail."""
        inside, moved, round_ = self.inside, set(self.moved), self.round
        players, keep, taken = self.players_allowed, self.keep, self.taken
        first_lower = self.lower[0] if self.lower else len(self.round.players)
        nodes = self.members + self.lower
        if among is not None:
            nodes = [v for v in nodes if v in among]
        result: list[Edge] = []
        for index, a in enumerate(nodes):
            if among is None:
                later = self.round.later_of(a)
            else:  # the compatible ones of the players after him among those asked about
                later = round_.compatible_among(a, nodes[index + 1 :])
            if a >= first_lower:
                result.extend([(a, b) for b in later])
                continue
            if a in taken:
                result.extend((a, b) for b in later if (a, b) in keep)
                continue
            for b in later:
                if b >= first_lower:
                    result.append((a, b))
                elif b in inside and b not in taken:
                    if players is None:
                        if a not in moved or b not in moved:
                            result.append((a, b))
                    elif a in players and b in players:
                        result.append((a, b))
        if self.round.odd and (among is None or BYE in among):
            bye_ok = self.round.bye_ok
            result.extend((v, BYE) for v in nodes if v in bye_ok and v not in taken)
        return result

    def completes(self, left: list[int], apart: set[int], bye_apart: set[int], weightless: Callable[[Edge], bool]) -> bool:
        """Whether ``left`` (ranked, the bye node last if among them) can be paired among themselves by the edges
        :meth:`edges` gives that are ``weightless``.

        First greedily, by edges that are weightless whatever their digits: no two of ``apart``, the bye to
        none of ``bye_apart``, no two players of the bracket, no player of a kept pair (a sufficient proof,
        which nearly always holds: a Swiss field below a bracket pairs easily). Else by a cardinality matching
        over every such edge."""
        return self._greedy_completes(left, apart, bye_apart) or is_perfect(self.adjacency(left, weightless))

    def adjacency(self, players: list[int], keep: Callable[[Edge], bool] | None = None) -> list[list[int]]:
        """The graph of :meth:`edges` between ``players`` (those ``keep`` keeps), by their indices in
        ``players``, for ``cardinality``."""
        local = {v: index for index, v in enumerate(players)}
        adjacency: list[list[int]] = [[] for _ in players]
        for edge in self.edges(local):
            if keep is None or keep(edge):
                adjacency[local[edge[0]]].append(local[edge[1]])
                adjacency[local[edge[1]]].append(local[edge[0]])
        return adjacency

    def _greedy_completes(self, left: list[int], apart: set[int], bye_apart: set[int]) -> bool:
        if any(v in self.taken for v in left):
            return False
        free = [v for v in left if v != BYE]
        if len(free) < len(left):
            bye_ok = self.round.bye_ok
            taker = next((v for v in reversed(free) if v in bye_ok and v not in bye_apart), None)
            if taker is None:
                return False
            free.remove(taker)
        return not self._greedy_unpaired(free, apart)

    def _greedy_unpaired(self, players: list[int], apart: Collection[int] = ()) -> set[int]:
        """The players that a greedy pairing leaves unpaired: each in turn takes the first player after him still
        free whom he may meet, neither both of ``apart`` nor both in the bracket. Over players of the lower
        groups with nothing apart, that is ``cardinality``'s greedy start (a player left unpaired has no
        compatible player free after him, so none takes him later)."""
        round_, inside = self.round, self.inside
        free = list(players)
        unpaired: set[int] = set()
        while free:
            a = free[0]
            apart_a, inside_a = a in apart, a in inside
            for j in range(1, len(free)):
                b = free[j]
                if round_.may_meet(a, b) and not (apart_a and b in apart) and not (inside_a and b in inside):
                    del free[j]
                    break
            else:
                unpaired.add(a)
            del free[0]
        return unpaired

    def match(self, order: _Order, order_size: int) -> list[Edge]:
        """The matching maximising the quality digits, then the ``order`` digits (absent: zeros), over the edges
        :meth:`restrict` allows; returns the pairs made inside the bracket."""
        if self.round.strict:
            pairs = self.match_near(order, order_size)
            if pairs is not None:
                return pairs
        rows = self.rows(self.edges(), order, order_size)
        nodes = self.members + self.lower + ([BYE] if self.round.odd else [])
        matching = _perfect(nodes, rows, self.sequence)
        if matching is None:
            raise PairingError("no pairing of this round avoids a rematch")
        return sorted((a, b) for a, b in matching if a in self.inside and b in self.inside)

    def row(self, edge: Edge, order: _Order, order_size: int) -> list[int]:
        """The digits of an edge: avoidances broken, the quality digits, then the ``order`` digits."""
        return self.rows([edge], order, order_size).row(0)

    def rows(self, edges: Iterable[Edge], order: _Order, order_size: int) -> _Rows:
        """:meth:`row` of each of ``edges`` (one loop: a bracket has up to some 4 million edges at 5,000
        entrants), by column: an edge's digits before the order's are one of a few rows (by the players'
        kinds), kept once."""
        inside, avoided, kinds, qualities = self.inside, self.round.avoided, self.round.kinds, self.qualities
        following = self.following
        any_avoided = any(avoided)
        rows = _Rows(order_size)
        fixed, listed, fixed_kinds = rows.table, rows.edges, rows.fixed_kinds
        for edge in edges:
            a, b = edge
            digits: tuple[int, ...]
            if a in inside and b in inside:
                known = qualities.get((kinds[a], kinds[b]))
                if known is None:
                    self.quality(a, b)
                    known = qualities[(kinds[a], kinds[b])]
                digits = known
            elif b == BYE:
                digits = self.bye(a)
            elif a in following or b in following:
                digits = self.outside(a, b)
            else:
                digits = _ZEROS
            broken = -1 if any_avoided and b != BYE and b in avoided[a] else 0  # avoidances broken: before all
            kind = fixed.get((broken, id(digits)))
            listed.append(edge)
            fixed_kinds.append(rows.kind(broken, digits) if kind is None else kind)
        rows.orders.extend(order.rows_of(listed) if isinstance(order, _ExchangeOrder) else map(order.get, listed))
        return rows

    def match_near(self, order: _Order, order_size: int) -> list[Edge] | None:
        """:meth:`match` over the bracket and the next score group only, when that provably is the whole field's
        matching; None when the proof fails (then the whole field is matched).

        Only edges among those players (and the bye) carry weight (no avoidance is broken while strict): their
        maximum-weight matching, completion set aside, bounds every pairing of the round. When the players it
        leaves free and the players below can be paired by weightless edges (a cardinality matching), the
        bound is reached and the bracket's pairs are those (the order digits make them unique)."""
        thin = self.match_thin(order, order_size)
        if thin is not None:
            return thin
        heavy = set(self.members) | self.following | {BYE}
        rows = self.rows(self.edges(heavy), order, order_size)
        matching = _lexicographic(rows.positive(), len(heavy), sequence=self.sequence)
        matched = {v for pair in matching for v in pair}
        left = [v for v in self.members + self.lower if v not in matched]
        if self.round.odd and BYE not in matched:
            left.append(BYE)

        def weightless(edge: Edge) -> bool:
            return edge[0] not in heavy or edge[1] not in heavy or not any(rows.of(edge))

        if not self.completes(left, heavy - {BYE}, heavy, weightless):
            return None
        return sorted((a, b) for a, b in matching if a in self.inside and b in self.inside)

    def match_thin(self, order: _Order, order_size: int) -> list[Edge] | None:
        """:meth:`match_near` with only the first players of a large next score group, when that is proven
        too; None when it is not (or the group is not large).

        The next group's players weigh alike: an edge to a bracket player weighs what that player's float
        into the group does, an edge inside the group one pair of the next bracket (C7). So the group may be
        cut to its first players, enough that each bracket player keeps as many partners there as the bracket
        has players (or all he has), an even number left out, edges inside the cut taken as all present: the
        bound becomes that cut's matching plus a pair for every two left out. It is reached when the group's
        players the bracket leaves pair among themselves (one at most left) and the rest by weightless edges."""
        members = set(self.members)
        following = [v for v in self.lower if v in self.following]
        need = len(self.members)
        if len(following) < need + 4:
            return None
        place = {v: index for index, v in enumerate(following)}
        reach = {m: [] if m in self.taken else [place[b] for b in self.round.compatible_among(m, following)] for m in self.members}
        cut = max((sorted(found)[min(need, len(found)) - 1] + 1 for found in reach.values() if found), default=0)
        cut = max(cut, 2)
        cut += (len(following) - cut) % 2
        if cut >= len(following) - 1:
            return None
        chosen = set(following[:cut])
        heavy = members | chosen | {BYE}
        rows = self.rows((edge for edge in self.edges(heavy) if not (edge[0] in chosen and edge[1] in chosen)), order, order_size)
        group_pair = rows.kind(0, self.outside(following[0], following[1]))
        for index, a in enumerate(following[:cut]):
            for b in following[index + 1 : cut]:
                rows.add((a, b), group_pair, None)
        matching = [
            pair for pair in _lexicographic(rows.positive(), len(heavy), sequence=self.sequence)
            if pair[0] in members or pair[1] in members
        ]
        matched = {v for pair in matching for v in pair}
        group_left = [v for v in following if v not in matched]
        unpaired = self._greedy_unpaired(group_left)
        if len(unpaired) != len(group_left) % 2:  # else a maximum matching: greedy's, when it pairs all it can
            mate = maximum_matching(self.adjacency(group_left))
            unpaired = {v for v, partner in zip(group_left, mate) if partner == FREE}
        if len(unpaired) > len(group_left) % 2:
            return None
        matched |= {v for v in group_left if v not in unpaired}
        left = [v for v in self.members + self.lower if v not in matched]
        if self.round.odd and BYE not in matched:
            left.append(BYE)
        weighty = members | self.following

        def weightless(edge: Edge) -> bool:
            a, b = edge
            if b == BYE:
                return a not in members or not any(self.row(edge, order, order_size))
            return a not in weighty or b not in weighty

        if not self.completes(left, weighty, members, weightless):
            return None
        return sorted((a, b) for a, b in matching if a in self.inside and b in self.inside)

    def pair(self) -> tuple[list[Edge], list[int]]:
        """The bracket's pairs and its downfloaters (ranked).

        The bye assignee's unplayed games count in the last bracket, and in the bracket of the bye's score
        when its only downfloater is the one who gets the bye (as bbpPairings reads C.04.3); the bracket is
        paired again without them when it turns out to float more than one player."""
        pairs, floaters = self.pair_once()
        if self.weigh_bye and self.lower and len(floaters) != 1:
            self.weigh_bye = False
            pairs, floaters = self.pair_once()
        return pairs, floaters

    def pair_once(self) -> tuple[list[Edge], list[int]]:
        if self.moved:
            fixed = self.pair_moved()
            taken = {v for pair in fixed for v in pair}
            remainder = [v for v in self.group if v not in taken]
            pairs = fixed + self.pair_homogeneous(remainder, fixed)
        else:
            pairs = self.pair_homogeneous(self.group, [])
        paired = {v for pair in pairs for v in pair}
        return pairs, [v for v in self.members if v not in paired]

    def pair_moved(self) -> list[Edge]:
        """The MDP-pairing of a heterogeneous bracket: the highest MDPs, each with the first resident the
        best quality allows (S1 the MDPs, S2 the residents, transpositions of S2)."""
        moved, residents = self.moved, self.group
        order: dict[Edge, list[int]] = {}
        width = len(residents) + 1
        for i, m in enumerate(moved):
            for j, r in enumerate(residents):
                order[(m, r)] = [2 ** (len(moved) - i), (len(residents) - j) * width ** (len(moved) - i)]
        self.restrict(None, set())
        pairs = self.match(order, 2)
        return [pair for pair in pairs if pair[0] in set(moved)]

    def pair_homogeneous(self, players: list[int], fixed: list[Edge]) -> list[Edge]:
        """Pair ``players`` (one score, ranked) as a homogeneous bracket or remainder, ``fixed`` pairs kept.

        S1 is the first P players, P the pairs the quality criteria make; P is first taken to be half the
        players and the matching done again with the P it found when that was wrong."""
        keep = set(fixed)
        self.restrict(set(players), keep)
        count = len(players) // 2
        while True:
            self.sequence = _ExchangeOrder(players, count)
            pairs = [pair for pair in self.match(self.sequence, 5) if pair not in keep]
            self.sequence = None
            if len(pairs) == count:
                return pairs
            count = len(pairs)


class _Rows:
    """Edges and their digits (``Bracket.rows``), kept by column: an edge's digits before the order's (the
    avoidances broken and the quality or outside digits) are one of the rows ``found`` (a bracket has a few
    kinds of player, so a few such rows), its order digits a list or None for zeros (an ``_ExchangeOrder``
    shares one list among the edges of a player). A column is read off these per edge only when a phase
    of :func:`_lexicographic` needs it, and a column that is zero everywhere never is."""

    __slots__ = ("edges", "fixed_kinds", "orders", "found", "table", "order_size", "_index", "_ids")

    def __init__(self, order_size: int) -> None:
        self.edges: list[Edge] = []
        self.fixed_kinds: list[int] = []  # each edge's index into ``found``
        self.orders: list[list[int] | None] = []
        self.found: list[tuple[int, ...]] = []
        self.table: dict[object, int] = {}  # Bracket.rows's keys of ``found``
        self.order_size = order_size
        self._index: dict[Edge, int] | None = None
        self._ids: tuple[list[int], list[list[int]]] = ([], [[]])  # see order_ids

    def kind(self, broken: int, digits: tuple[int, ...]) -> int:
        """The index in ``found`` of the row of ``broken`` and ``digits`` (a tuple of Bracket's caches, or
        interned: rows are known by its identity), added when new."""
        key = (broken, id(digits))
        kind = self.table.get(key)
        if kind is None:
            kind = self.table[key] = len(self.found)
            self.found.append((broken, *digits))
        return kind

    def add(self, edge: Edge, kind: int, order: list[int] | None) -> None:
        self.edges.append(edge)
        self.fixed_kinds.append(kind)
        self.orders.append(order)

    @property
    def fixed(self) -> int:
        """The number of digits before the order's."""
        return len(self.found[0]) if self.found else DIGITS + 1

    @property
    def width(self) -> int:
        return self.fixed + self.order_size

    def row(self, i: int) -> list[int]:
        order = self.orders[i]
        return [*self.found[self.fixed_kinds[i]], *(order if order is not None else [0] * self.order_size)]

    def of(self, edge: Edge) -> list[int]:
        """The row of ``edge`` (one of ``edges``)."""
        if self._index is None:
            self._index = {e: i for i, e in enumerate(self.edges)}
        return self.row(self._index[edge])

    def column(self, k: int, among: Sequence[int] | None) -> list[int]:
        """Digit ``k`` of every edge, or of the edges ``among`` (indices), in their order."""
        if k < self.fixed:
            values = [row[k] for row in self.found]
            kinds = self.fixed_kinds
            return [values[q] for q in kinds] if among is None else [values[kinds[i]] for i in among]
        j, orders = k - self.fixed, self.orders
        if among is None:
            return [0 if order is None else order[j] for order in orders]
        return [0 if orders[i] is None else orders[i][j] for i in among]  # type: ignore[index]

    def order_ids(self) -> tuple[list[int], list[list[int]]]:
        """Each edge's order digits as a number (0: none, else an index into the distinct lists, the second
        value, whose entry 0 is a placeholder), made once for the edges listed so far and extended after."""
        ids, lists = self._ids
        if len(ids) < len(self.orders):
            number = {id(order): index for index, order in enumerate(lists) if index}
            for order in self.orders[len(ids):]:
                if order is None:
                    ids.append(0)
                    continue
                index = number.get(id(order))
                if index is None:
                    index = number[id(order)] = len(lists)
                    lists.append(order)
                ids.append(index)
        return ids, lists

    def parts(self, first: int, stop: int, kinds: Iterable[int], orders: Iterable[int], nodes: int) -> tuple[int, list[int], list[int]]:
        """What :func:`_signed` makes of digits ``first`` .. ``stop`` - 1 of edges whose rows of ``found`` are
        ``kinds`` and whose order digits are ``orders`` (ids of :meth:`order_ids`; 0 ignored), split so that an
        edge's weight is ``face * scale + fixed[kind] + order[order id]``: the face weight's scale, and the two
        parts by row and by order id (the bases are _signed's, from the largest digits among those edges)."""
        pairs = nodes // 2 + 1
        _, lists = self.order_ids()
        present = {q: 0 for q in kinds}
        fixed_scale = 1
        for k in range(first, min(stop, self.fixed)):
            top = max(abs(self.found[q][k]) for q in present) if present else 0
            if top:
                base = 2 * pairs * top + 1
                fixed_scale *= base
                for q in present:
                    present[q] = present[q] * base + self.found[q][k]
        distinct = [o for o in orders if o]
        order_values = [0] * len(lists)  # by order id; 0 for none
        order_scale = 1
        for k in range(max(first, self.fixed), stop):
            j = k - self.fixed
            top = max((abs(lists[o][j]) for o in distinct), default=0)
            if top:
                base = 2 * pairs * top + 1
                order_scale *= base
                for o in distinct:
                    order_values[o] = order_values[o] * base + lists[o][j]
        fixed_values = [0] * len(self.found)
        for q, value in present.items():
            fixed_values[q] = value * order_scale
        return fixed_scale * order_scale, fixed_values, order_values

    def weights(self, first: int, stop: int, alive: Sequence[int] | None, face: Sequence[int] | None, nodes: int) -> list[int]:
        """:func:`_signed` of the face weights ``face`` (when given) and digits ``first`` .. ``stop`` - 1 of the
        edges ``alive`` (indices; None: every edge), the same integers, from :meth:`parts`."""
        kinds = self.fixed_kinds if alive is None else [self.fixed_kinds[i] for i in alive]
        ids, _ = self.order_ids()
        order_ids = ids if alive is None else [ids[i] for i in alive]
        scale, fixed_values, order_values = self.parts(first, stop, set(kinds), set(order_ids), nodes)
        if face is not None and any(face):
            return [
                weight * scale + fixed_values[q] + order_values[o] for weight, q, o in zip(face, kinds, order_ids)
            ]  # fmt: skip
        if not any(order_values):
            return [fixed_values[q] for q in kinds]
        return [fixed_values[q] + order_values[o] for q, o in zip(kinds, order_ids)]

    def maxima(self) -> list[int]:
        """Each digit's largest absolute value over the edges."""
        present = [self.found[q] for q in set(self.fixed_kinds)]
        result = [max((abs(row[k]) for row in present), default=0) for k in range(self.fixed)]
        orders = list({id(order): order for order in self.orders if order is not None}.values())
        result.extend(max((abs(order[j]) for order in orders), default=0) for j in range(self.order_size))
        return result

    def positive(self) -> _Rows:
        """The edges whose weight (see :func:`_signed`) is positive: its first digit that is not zero is."""
        signs = [next((digit > 0 for digit in row if digit), None) for row in self.found]
        known: dict[int, bool] = {}
        result = _Rows(self.order_size)
        result.found, result.table = self.found, self.table
        for edge, kind, order in zip(self.edges, self.fixed_kinds, self.orders):
            sign = signs[kind]
            if sign is None and order is not None:
                sign = known.get(id(order))
                if sign is None:
                    sign = known[id(order)] = _positive(order)
            if sign:
                result.add(edge, kind, order)
        return result

    def led(self) -> _Rows:
        """These rows with a leading digit of one an edge."""
        result = _Rows(self.order_size)
        result.edges, result.fixed_kinds, result.orders = self.edges, self.fixed_kinds, self.orders
        result.found = [(1, *row) for row in self.found]
        return result


class _ExchangeOrder:
    """The digits that rank a homogeneous bracket's candidates as C.04.3 D generates them, S1 being the first
    ``count`` of ``players`` (see dutch's docstring), x and y the bracket sequence numbers (BSN) of an edge's
    two players: D.2 a (exchanged players: pairs inside S2), D.2 b (the sum of S1': the pairs' lower numbers),
    D.2 c (the highest number moved out of S1), D.2 d (the lowest moved into S1) and D.1 (S2's transposition).

    A row (:meth:`get`, what ``Bracket.rows`` reads as an ``order``) holds D.2 a-b and zeros in place of the
    other three: those are integers of up to ``size`` bits (D.1 of size log2 size) that ``_lexicographic``
    reads only in its late phases, and only of the edges still in play then (:meth:`late`)."""

    def __init__(self, players: list[int], count: int) -> None:
        self.players, self.count, self.size = players, count, len(players)
        self.place = {v: x for x, v in enumerate(players, start=1)}
        self.powers: dict[int, tuple[int, int, int]] = {}  # by x: D.2 c, D.2 d and D.1's unit
        self.rows = {x: [-int(x > count), -x, 0, 0, 0] for x in self.place.values()}  # one list by x, shared

    def get(self, edge: Edge) -> list[int] | None:
        return self.rows_of([edge])[0]

    def rows_of(self, edges: list[Edge]) -> list[list[int] | None]:
        """:meth:`get` of each of ``edges`` (one loop)."""
        place, rows = self.place, self.rows
        result: list[list[int] | None] = []
        for a, b in edges:
            x, y = place.get(a), place.get(b)
            result.append(rows[x] if x is not None and y is not None and x < y else None)
        return result

    def late(self, edge: Edge) -> tuple[int, int, int]:
        """D.2 c, D.2 d and D.1 of an edge of the sequence (zeros for any other)."""
        x, y = self.place.get(edge[0]), self.place.get(edge[1])
        if x is None or y is None or x >= y:
            return 0, 0, 0
        known = self.powers.get(x)
        if known is None:
            size, in_s1 = self.size, x <= self.count
            known = self.powers[x] = (-(2**x) * in_s1, (2 ** (size - x)) * (not in_s1), (size + 1) ** (size - x))
        return known[0], known[1], (self.size - y) * known[2]


def _edge(a: int, b: int) -> Edge:
    """An edge as the rows key it: the bye node last, else the lower place first."""
    return (a, b) if b == BYE or (a != BYE and a < b) else (b, a)


def _perfect(nodes: list[int], rows: _Rows, sequence: _ExchangeOrder | None) -> list[Edge] | None:
    """The perfect matching of ``nodes`` (one node left over when they are odd) best by ``rows``' digits, or None:
    a leading digit of one a pair puts the matching's cardinality first."""
    matching = _lexicographic(rows.led(), len(nodes), lead=1, sequence=sequence)
    return matching if 2 * len(matching) >= len(nodes) - 1 else None


def _positive(row: list[int]) -> bool:
    """Whether an edge's weight (see :func:`_signed`) is positive: its first digit that is not zero is."""
    return next((digit > 0 for digit in row if digit), False)


def _lexicographic(rows: _Rows, nodes: int, lead: int = 0, sequence: _ExchangeOrder | None = None) -> list[Edge]:
    """The matching of ``rows``' edges whose sums of digits are greatest, compared most significant first
    (``nodes``: at least the nodes they join). With ``sequence`` (a homogeneous bracket's players in order), the
    last five digits are :class:`_ExchangeOrder`'s.

    Solved in phases, a few digits each (:func:`_phases`: weights that fit a machine word where they can),
    each phase a maximum-weight matching over the edges left tight by the previous phase's optimal dual, its
    first digit the previous phase's "face weight" (``weighted.optimal_face``): every matching optimal by the
    earlier digits uses only those edges, and among the matchings of those edges the optimal ones are exactly
    those of greatest face weight (complementary slackness: they match every node of positive dual and fill
    every blossom of positive dual; the face weight counts both), so each phase's optimum is optimal by every
    digit so far.

    With ``sequence``: the quality digits and D.2 a-b (exchanged players, sum moved); D.2 c-d (digits of
    2 ** x) only when the optimum exchanges players: with no pair inside S2 every S1 player is the lower member
    of a pair, which makes them the same for every candidate. The transposition digit is solved by
    ``transposition.first_transposition`` over the tight edges that match every node of positive dual, a
    superset of the optimal face (it leaves out the odd sets' constraints): when an odd set other than the set
    of all nodes has a positive dual, each choice is checked against the optimum's face weight and completed
    by a face-weight matching when the cardinality check alone falls short (:func:`_face_checks`), so the
    first transposition found is the first among the optimal candidates. Its face weight is checked against
    the optimum's once more, and the transposition digit matched as one more phase if it ever fell short."""
    edges = rows.edges
    if not edges:
        return []
    width = rows.width
    ends: Sequence[Edge]
    labelled = weighted_native.relabel(edges)  # nodes numbered by first appearance, in C
    if labelled is not None:
        names, flat_ends = labelled
        flat: array[int] | None = flat_ends
        ends = weighted_native.FlatEnds(flat_ends)
        index = {v: k for k, v in enumerate(names)}
    else:
        index = {v: k for k, v in enumerate(dict.fromkeys([v for edge in edges for v in edge]))}
        ends = [(index[a], index[b]) for a, b in edges]
        flat = weighted_native.flatten(ends)  # the same ends for the C matcher, narrowed with them
        names = list(index)
    maxima = rows.maxima()
    # The edges still in play (tight so far), as indices into ``edges``; where the C matcher runs, kept in arrays
    # with each one's row of ``found`` and order id (``kinds``, ``orders``), so that a phase's weights are added
    # up in C (``weighted_native.compose``) and the arrays narrowed in C too.
    alive: Sequence[int] = range(len(edges))
    kinds: array[int] | None = None
    orders: array[int] | None = None
    if flat is not None:
        alive = array("q", alive)
        kinds, orders = array("q", rows.fixed_kinds), array("q", rows.order_ids()[0])
    face: Sequence[int] | None = None  # the last phase's face weights (one an edge alive), and its optimum
    mate: list[int] = []
    positive: list[bool] = []
    odd_sets: list[list[int]] = []

    def digits(first: int, stop: int) -> list[list[int]]:
        """The face weight (after the first phase) and digits ``first`` .. ``stop`` - 1 of the edges alive."""
        if sequence is not None and first >= width - 3:  # D.2 c-d and D.1: rows hold zeros for these
            late = [sequence.late(edges[k]) for k in alive]
            chosen = [[digits[j - width + 3] for digits in late] for j in range(first, stop)]
        else:
            chosen = [rows.column(k, None if face is None else alive) for k in range(first, stop)]
        return ([list(face)] if face is not None else []) + chosen

    def weights_of(start: int, stop: int) -> Sequence[int] | weighted_native.Packed:
        """The weights of digits ``start`` .. ``stop`` - 1 (after the face weight, after the first phase) of the
        edges alive: :meth:`_Rows.weights`, added up in C where the arrays are kept."""
        if kinds is not None and orders is not None:
            kinds_present = weighted_native.present(kinds, len(rows.found))
            orders_present = weighted_native.present(orders, len(rows.order_ids()[1]))
            if kinds_present is not None and orders_present is not None:
                scale, fixed_values, order_values = rows.parts(start, stop, kinds_present, orders_present, nodes)
                face_array = None if face is None else face if isinstance(face, array) else array("q", face)
                packed = weighted_native.compose(kinds, orders, face_array, scale, fixed_values, order_values)
                if packed is not None:
                    return packed
        return rows.weights(start, stop, None if face is None else alive, face, nodes)

    def narrow(weights: Sequence[int] | weighted_native.Packed) -> list[int]:
        """Match the edges alive by ``weights`` for its optimal face, keep its tight edges alive; the matching's
        partners."""
        nonlocal alive, ends, flat, face, positive, odd_sets, kinds, orders
        found, kept, positive, odd_sets, face = optimal_face_split(len(names), ends, weights, flat)
        if flat is not None and kinds is not None and orders is not None:
            kept_array = kept if isinstance(kept, array) else array("q", kept)
            alive = weighted_native.gather_values(alive if isinstance(alive, array) else array("q", alive), kept_array)
            kinds = weighted_native.gather_values(kinds, kept_array)
            orders = weighted_native.gather_values(orders, kept_array)
            flat = weighted_native.gather(flat, kept_array)
            ends = weighted_native.FlatEnds(flat)
        else:
            alive = [alive[k] for k in kept]
            ends = [ends[k] for k in kept]
            flat = None if flat is None else weighted_native.gather(flat, kept)
        return found

    # With a sequence, D.2 a-b are a phase of their own, which the lowest S1 often settles without a matching.
    bounds = _phases(maxima, nodes, width) if sequence is None else [*_phases(maxima, nodes, width - 5), (width - 5, width - 3)]
    for start, stop in bounds:
        if sequence is not None and start == width - 5 and face is not None:
            lowest = _lowest_s1(names, index, ends, face, alive, mate, positive, sequence)
            if lowest is not None:
                alive, ends, face, positive, mate = lowest
                flat = ends.flat if isinstance(ends, weighted_native.FlatEnds) else None
                kinds = orders = None
                break
        weights = weights_of(start, stop)
        if stop == width:
            mate = max_weight_matching_split(len(names), ends, weights, flat=flat)
            return [_edge(names[v], names[u]) for v, u in enumerate(mate) if u > v]
        mate = narrow(weights)
    assert sequence is not None and face is not None
    exchanged = sum((sequence.get(_edge(names[v], names[u])) or [0])[0] for v, u in enumerate(mate) if u > v)  # D.2 a
    if exchanged:  # D.2 c-d
        mate = narrow(_signed(digits(width - 3, width - 1), nodes, len(alive)))
    assert face is not None
    order = [index[v] for v in sequence.players if v in index]
    whole = any(len(odd_set) == len(names) for odd_set in odd_sets)  # every optimum is a maximum matching
    optimal: Callable[[list[int]], bool] | None = None
    complete: Callable[[list[int], Sequence[bool]], list[int] | None] | None = None
    if len(odd_sets) > int(whole):  # an odd set that the choices' cardinality checks do not keep: check each
        optimal, complete = _face_checks(len(names), ends, face, mate)
    partners = first_transposition(len(names), ends, mate, positive, order, keep_size=whole, optimal=optimal, complete=complete)
    if partners is not None:
        if _face_total(ends, face, partners) == _face_total(ends, face, mate):
            return [_edge(names[v], names[u]) for v, u in enumerate(partners) if u > v]
    weights = _signed(digits(width - 1, width), nodes, len(alive))
    mate = max_weight_matching_split(len(names), ends, weights, flat=flat)
    return [_edge(names[v], names[u]) for v, u in enumerate(mate) if u > v]


def _lowest_s1(
    names: list[int], index: dict[int, int], ends: Sequence[Edge], face: Sequence[int], alive: Sequence[int],
    mate: list[int], positive: list[bool], sequence: _ExchangeOrder,
) -> tuple[Sequence[int], Sequence[Edge], Sequence[int], list[bool], list[int]] | None:
    """The optimal face of D.2 a-b (``_lexicographic``'s phase of them) without matching their digits, when some
    optimum of the digits before pairs the bracket's first Q players each with a later one, Q its number of
    pairs in the sequence (the same in every optimum: C5 is among the digits before, and the bracket's other
    pairs, kept MDP pairs, are forced). The lower members of Q pairs are Q distinct numbers, so no optimum has
    fewer pairs inside S2 (D.2 a: at most ``count`` are numbers of S1) nor a smaller sum of them (D.2 b) than
    those whose lower members are 1..Q; then the optima of D.2 a-b are exactly the optima before that pair
    1..Q with later players: the matchings of the edges alive without an edge from one of 1..Q to another of
    them or to a player outside the sequence, nor between two later players, that cover every node of positive
    dual and the first Q, and have the optimum's face weight (the caller's checks read it). Whether one exists
    is one matching of those edges by face weight, whose weights are small and few, so its greedy start does
    most of it. Returns the edges alive, their ends and face weights, the nodes to cover and that matching; None
    when no optimum pairs 1..Q so (then the phase is matched)."""
    place = sequence.place
    in_sequence = [names[v] in place for v in range(len(names))]
    q = sum(1 for v, u in enumerate(mate) if u > v and in_sequence[v] and in_sequence[u])
    first = [False] * len(names)
    for player in sequence.players[:q]:
        if player in index:
            first[index[player]] = True
    # Each node's class: 0 outside the sequence, 1 in it, 2 one of its first Q. An edge is kept when one end is of
    # the first Q and the other a later player of the sequence, or neither is of the first Q nor both in it.
    classes = [2 if f else int(s) for f, s in zip(first, in_sequence)]
    keep = [[(a != b and a > 0 and b > 0) if 2 in (a, b) else not (a > 0 and b > 0) for b in range(3)] for a in range(3)]
    kept_ends: Sequence[Edge]
    kept_face: Sequence[int]
    chosen: Sequence[int]
    weights: Sequence[int] | weighted_native.Packed
    if isinstance(ends, weighted_native.FlatEnds) and isinstance(face, array) and isinstance(alive, array):
        kept = weighted_native.select(ends, classes, keep)
        kept_ends = weighted_native.FlatEnds(weighted_native.gather(ends.flat, kept))
        kept_face, chosen = weighted_native.gather_values(face, kept), weighted_native.gather_values(alive, kept)
        weights = weighted_native.Packed(kept_face, False)
    else:
        listed = [k for k, (u, v) in enumerate(ends) if keep[classes[u]][classes[v]]]
        kept_ends, kept_face, chosen = [ends[k] for k in listed], [face[k] for k in listed], [alive[k] for k in listed]
        weights = kept_face
    found = max_weight_matching_split(len(names), kept_ends, weights)
    if _face_total(kept_ends, kept_face, found) != _face_total(ends, face, mate):
        return None
    return chosen, kept_ends, kept_face, [p or f for p, f in zip(positive, first)], found


def _face_total(ends: Sequence[Edge], face: Sequence[int], partners: list[int]) -> int:
    """The face weight of a matching (``partners``) of the edges ``ends``."""
    if isinstance(ends, weighted_native.FlatEnds) and isinstance(face, array):
        return weighted_native.matched_total(ends, face, partners)
    return sum(weight for (u, v), weight in zip(ends, face) if partners[u] == v)


def _face_checks(
    size: int, ends: Sequence[Edge], face: Sequence[int], mate: list[int]
) -> tuple[Callable[[list[int]], bool], Callable[[list[int], Sequence[bool]], list[int] | None]]:
    """For ``transposition.first_transposition``: whether a matching of the optimal face's tight edges
    ``ends`` is an optimum (its face weight is ``mate``'s), and the optimum that keeps the pairs of the blocked
    nodes of a matching, when there is one (the face weight matched over the edges of the other nodes)."""
    pairs = None
    if isinstance(ends, weighted_native.FlatEnds) and isinstance(face, array):
        pairs = weighted_native.pair_weights(size, ends, face)
    total: Callable[[Sequence[int]], int]
    if pairs is not None:
        total = pairs.total
    else:
        weight = {(min(u, v), max(u, v)): w for (u, v), w in zip(ends, face)}

        def total(partners: Sequence[int]) -> int:
            return sum(weight[(v, u)] for v, u in enumerate(partners) if u > v)

    best = total(mate)

    def optimal(partners: list[int]) -> bool:
        return total(partners) == best

    def complete(partners: list[int], blocked: Sequence[bool]) -> list[int] | None:
        fixed = [(v, u) for v, u in enumerate(partners) if u > v and blocked[v]]
        listed = [(u, v, w) for (u, v), w in zip(ends, face) if not blocked[u] and not blocked[v]]
        found = max_weight_matching(size, listed)
        for v, u in fixed:
            found[v], found[u] = u, v
        return found if total(found) == best else None

    return optimal, complete


# A phase's weights stay under this many bits when its digits allow: with the C matcher's 128-bit words, 116
# (its bound is 2 ** 120), which makes half as many phases as a machine word's 56 and so fewer passes over the
# edges (1,000 entrants: rounds 2 to 5 in 0.8 / 0.5 / 0.9 / 0.7 s instead of 1.2 / 0.7 / 1.5 / 1.3); without it
# 56, under the 2 ** 62 below which mypyc's ints are unboxed. Every grouping of the digits gives the same optimum.
WORD_BITS = 116 if weighted_native.wide_available() else 56
SMALL_PHASE_BITS = 24  # a group of digits this small joins the next digit even past WORD_BITS: a phase costs a matching


def _phases(maxima: list[int], nodes: int, last: int) -> list[tuple[int, int]]:
    """Digits 0 .. ``last`` - 1 in groups (start, stop), each group's weights (:func:`_signed`, with a face weight
    of at most a few units before them after the first) under WORD_BITS bits when its digits allow, and no
    group under SMALL_PHASE_BITS but the last; ``maxima`` the digits' largest absolute values."""
    pairs = nodes // 2 + 1
    groups: list[tuple[int, int]] = []
    start, bits = 0, 0
    face_bits = (2 * pairs * 8).bit_length()
    for k in range(last):
        top = maxima[k]
        digit_bits = (2 * pairs * top).bit_length() if top else 0
        if k > start and bits + digit_bits > WORD_BITS and bits >= SMALL_PHASE_BITS:
            groups.append((start, k))
            start, bits = k, face_bits
        bits += digit_bits
    groups.append((start, last))
    return groups


def _signed(digits: list[list[int]], nodes: int, count: int) -> list[int]:
    """Integer weights of ``count`` edges that compare matchings digit by digit: ``digits[k][i]`` is edge i's
    k-th digit (signed, most significant first). Each digit's base is 2 * (nodes // 2 + 1) times its largest
    absolute value, plus one, so that no matching's sum of a digit reaches the next digit's unit."""
    pairs = nodes // 2 + 1
    weights: list[int] | None = None
    for column in digits:
        top = max(map(abs, column), default=0)
        if top:
            base = 2 * pairs * top + 1
            weights = list(column) if weights is None else [weight * base + digit for weight, digit in zip(weights, column)]
    return [0] * count if weights is None else weights
