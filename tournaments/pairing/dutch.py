"""Heads-up Swiss pairing by the FIDE Dutch system, bracket by bracket (first landing of issue 35).

Sources: FIDE Handbook C.04.1 (basic rules for Swiss systems), C.04.2 (general handling rules) and C.04.3
(the Dutch system). Criteria are numbered as in the 2017 text the engines in use follow: absolute criteria
C1-C3, completion C4, quality criteria C5-C19 (C5 pairs, C6 PSD, C7 the next bracket, C8-C9 topscorers'
colours, C10-C11 colour preferences, C12-C19 floats). First attack stands in for colour (``first_attack``).

How a round is paired
---------------------
Entrants present are ranked by score, then pairing number (A.2); the pairing number is the place in the
initial ranking (rating, then name, then id: C.04.2 B with no titles). Score groups are paired from the top;
a bracket is the group plus the players moved down to it (MDPs). For each bracket one maximum-weight,
maximum-cardinality matching is computed over the bracket *and every player below it* (plus a bye node
when the field is odd, joined to whoever may still get the bye, C.04.1 c-d): maximum cardinality is the
completion criterion C4 (the rest of the field can still be paired), and an edge's weight is an integer
whose "digits", most significant first, are the quality criteria of the pairs made inside the bracket
(C5, C6, C7, C10-C19; a player left unpaired in the bracket is a downfloater, whose costs are folded into
the edges of the players who are paired, so that every digit is a sum over edges). Below the quality digits
come digits that rank the candidates as C.04.3 D generates them:

- Homogeneous bracket (and the remainder of a heterogeneous one): S1 holds the first P players, P the pairs
  the bracket makes. Among a given matching's representations the first is the one whose S1 is the lower
  member of each pair, so the matching's exchange is determined by its pairs: the number of exchanged
  players is the number of pairs inside S2 (D.2 a), the difference of the sums moved is the sum of the pairs'
  lower numbers (D.2 b), the highest number moved out of S1 and the lowest moved in (D.2 c-d) are sums of
  powers of two, and the transposition (D.1, S2 in lexicographic order) is a sum of the partners' numbers
  weighted by the place of their S1 players.
- Heterogeneous bracket: the MDPs are S1 and the residents S2 (an MDP is never paired with another MDP; the
  MDPs left out float on, "limbo"): first the highest MDPs are paired, each with the first resident the
  quality allows (the MDP-pairing's transposition); those pairs fixed, the remainder is paired as a
  homogeneous bracket.

Byes: with an odd field the pairing-allocated bye goes to whoever the lowest bracket leaves unpaired; an
entrant who had one or won by forfeit is not joined to the bye node (C.04.1 d, C2). As in the 2025 text
and bbpPairings, the bye's score is minimised first (only the eligible entrants of the lowest score at which
the rest can still be paired are joined to the bye node), and the bye assignee's unplayed games are a
quality criterion after C7, weighed in the last bracket and in the bracket of the bye's score when that
bracket floats only the bye assignee.

Last round (``DutchOptions.last_round``): topscorers (over half the points played for, A.7) may meet despite
C3, and C8 (a first-attack difference beyond 2) and C9 (the same side a third time running) weigh it.

Floats (C12-C19) come from ``EntrantState.floats``; a round not played that scored points (a requested
bye with points, a forfeit win) is a downfloat as well (A.4.b as bbpPairings reads it; a zero-point absence
or a forfeit loss is not).

First attack (E): ``first_attack.allocate`` with the higher-ranked player by A.2 (score, then pairing
number). caissify-pairings reads "higher ranked" in E.4-E.5 as the lower pairing number whatever the
scores; the two differ on about one round in six (see tests/tournaments/pairing/dutch_oracle.py).

Durak readings: the bye's points and the points of a pairing (several games) are the tournament's; scores
are compared in quarter points with a win worth one point (the Dutch "one point" of the PSD).

Cost: one weighted matching a bracket (two for a heterogeneous one; ``dutch_bracket.Bracket``), over the
bracket and the next score group only (``Bracket.match_near``), or the first players of that group when it is
large (``Bracket.match_thin``): only their edges carry weight, so that matching bounds the round's, and it
stands when the players it leaves free and everyone below pair by weightless edges (a greedy pairing proves it
nearly always, else a cardinality matching); else the whole field is matched. Each matching is our own blossom
(``weighted``, in C where a compiler is at hand) run in lexicographic phases of a few digits on the edges the
last phase's optimal dual leaves tight; a phase's weights are summed from the few rows of digits a bracket's
kinds of player give (``dutch_bracket._Rows``). D.2 a-b is settled without a matching when some optimum pairs
the bracket's first players each with a later one (``dutch_bracket._lowest_s1``), D.2 c-d and D.1 are computed
only when needed, and S2's transposition is chosen pair by pair (``transposition``). Completion questions are
cardinality matchings (``cardinality``), and a first round is paired without any (``_Round.pair_unmarked``).
Who may not meet whom is kept as three sets a player (met, the C3 class, the avoided); nothing of n^2 size is
made but a bracket's own edges. CPU seconds a round of bench/dutch_rounds.py's Swiss (rounds 2 to 5): about
0.2 to 0.3 at 500 entrants, 0.7 to 1.7 at 1,000, and 20 to 240 at 5,000 (docs/experiments.md): the issue's
1,000 in 2 s is met, its 5,000 in 20 s only in round 2.

Requested avoidances (``avoid``) are kept apart like a rematch while the round can be paired so; when it
cannot, the fewest broken is a digit above every other (a director's request, not a FIDE rule).

Baku acceleration (C.04.5.1): ``DutchOptions.virtual`` from :func:`baku_points` adds group A's virtual points
to the pairing scores of the accelerated rounds.

Not yet done (see the report of issue 35): speed at 5,000 entrants after round 2 (a heterogeneous bracket of
2,000 players with hundreds of MDPs takes minutes in the MDP-pairing's matchings); C16-C19 are weighed as sums
of score differences rather than lexicographically.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.avoidances import AvoidanceReport, Avoidances, avoidance_report
from tournaments.pairing.cardinality import FREE, maximum_matching
from tournaments.pairing.dutch_bracket import POINT, Bracket, Edge
from tournaments.pairing.first_attack import Preference, Strength, allocate, conflict, preference
from tournaments.pairing.model import Board, EntrantId, EntrantState, Float, PairingError, PairingInputError, Side



@dataclass(frozen=True, slots=True)
class DutchOptions:
    """Knobs of :func:`pair_dutch`."""

    # The side the top seed gets in round 1 (C.04.3 E.5 "initial colour").
    initial: Side = Side.FIRST
    # Pairing the last round: topscorers (over half the points played for) may meet despite C3, and C8-C9
    # weigh what that costs them.
    last_round: bool = False
    # Points added to entrants' scores for this round's pairing only: Baku acceleration (see baku_points).
    virtual: Mapping[EntrantId, float] = field(default_factory=dict)


def baku_points(numbers: Mapping[EntrantId, int], round_number: int, rounds: int) -> dict[EntrantId, float]:
    """Baku acceleration (C.04.5.1) as read here: group A is the first 2 x ceil(N / 4) pairing numbers (the top
    half rounded up to an even count); the first ceil(rounds / 2) rounds are accelerated, group A counting a
    virtual point in the first half of them (rounded up) and half a point in the rest."""
    accelerated = -(-rounds // 2)
    if round_number > accelerated:
        return {}
    value = 1.0 if round_number <= -(-accelerated // 2) else 0.5
    group_a = 2 * -(-len(numbers) // 4)
    return {entrant: value for entrant, number in numbers.items() if number <= group_a}


def initial_numbers(entrants: Sequence[EntrantState], names: Mapping[EntrantId, str] | None = None) -> dict[EntrantId, int]:
    """Pairing numbers, 1 up, by the initial ranking: rating (highest first), then name, then id (C.04.2 B)."""
    def key(entrant: EntrantState) -> tuple[float, str, EntrantId]:
        return (-entrant.rating, (names or {}).get(entrant.id, entrant.id), entrant.id)

    return {entrant.id: index + 1 for index, entrant in enumerate(sorted(entrants, key=key))}


@dataclass(frozen=True, slots=True)
class _Player:
    entrant: EntrantState
    units: int
    number: int
    preference: Preference
    last: Float
    before: Float
    may_get_bye: bool


def pair_dutch(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId] = (),
    options: DutchOptions | None = None,
    names: Mapping[EntrantId, str] | None = None,
    numbers: Mapping[EntrantId, int] | None = None,
    avoid: Avoidances = frozenset(),
) -> list[Board]:
    """Pair the next round of a heads-up Swiss by the Dutch system.

    ``entrants`` is every entrant of the tournament (withdrawn ones and those in ``absent`` are left out);
    ``numbers`` overrides the pairing numbers (default :func:`initial_numbers` over all of ``entrants``).
    ``avoid`` (requested avoidances, see ``avoidances``) are kept apart like a rematch (C1) while the round
    can be paired so; when it cannot, the round is paired with as few of them broken as can be, that count
    weighed before every other criterion. Raises PairingError when no pairing without a rematch (or a
    second bye) exists.
    """
    options = options or DutchOptions()
    players, _, pairs, bye = _paired(entrants, absent=absent, options=options, names=names, numbers=numbers, avoid=avoid)
    return _publish(players, pairs, bye, options)


def _paired(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId],
    options: DutchOptions,
    names: Mapping[EntrantId, str] | None,
    numbers: Mapping[EntrantId, int] | None,
    avoid: Avoidances,
) -> tuple[list[_Player], _Round, list[Edge], int | None]:
    """:func:`pair_dutch` before seating: the ranked players, the round that paired them (with its brackets'
    record, which ``dutch_explain`` reads), its pairs (places) and the bye's place."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingInputError("entrant ids must be unique")
    numbers = dict(numbers) if numbers is not None else initial_numbers(entrants, names)
    gone = set(absent)
    present = [entrant for entrant in entrants if not entrant.withdrawn and entrant.id not in gone]
    players = sorted(
        (_player(entrant, numbers[entrant.id], options.virtual.get(entrant.id, 0.0)) for entrant in present),
        key=lambda p: (-p.units, p.number),
    )
    round_ = _Round(players, last_round=options.last_round, avoid=avoid)
    try:
        pairs, bye = round_.pair()
    except PairingError:
        if not avoid:
            raise
        round_ = _Round(players, last_round=options.last_round, avoid=avoid, strict=False)
        pairs, bye = round_.pair()
    return players, round_, pairs, bye


def pair_dutch_explained(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId] = (),
    options: DutchOptions | None = None,
    avoid: Avoidances = frozenset(),
) -> tuple[list[Board], AvoidanceReport]:
    """:func:`pair_dutch`, and what the avoidances did, as ``swiss.pair_swiss_explained`` tells it: the round
    is paired again without them and the two compared (only when some avoided pair is in the round)."""
    pairings = pair_dutch(entrants, absent=absent, options=options, avoid=avoid)
    return pairings, avoidance_effect(entrants, pairings, absent=absent, options=options, avoid=avoid)


def avoidance_effect(
    entrants: Sequence[EntrantState],
    pairings: Sequence[Board],
    *,
    absent: Collection[EntrantId] = (),
    options: DutchOptions | None = None,
    avoid: Avoidances = frozenset(),
) -> AvoidanceReport:
    """What the avoidances did to ``pairings`` (paired with them): see :func:`pair_dutch_explained`."""
    seated = {entrant for pairing in pairings for entrant in pairing.entrants}
    if not any(pair <= seated for pair in avoid):
        return AvoidanceReport()
    try:
        unconstrained: list[Board] | None = pair_dutch(entrants, absent=absent, options=options)
    except PairingError:
        unconstrained = None
    return avoidance_report(entrants, avoid, pairings, unconstrained)


def fide_floats(entrant: EntrantState) -> tuple[Float, ...]:
    """The entrant's floats as the Dutch system counts them: a round not played that scored points is a
    downfloat too (C.04.3 A.4.b, as bbpPairings reads it)."""
    scored = entrant.scored_unplayed
    return tuple(
        Float.DOWN if index < len(scored) and scored[index] else moved for index, moved in enumerate(entrant.floats)
    )


def _player(entrant: EntrantState, number: int, virtual: float = 0.0) -> _Player:
    floats = fide_floats(entrant)
    return _Player(
        entrant=entrant, units=round((entrant.score + virtual) * POINT), number=number, preference=preference(entrant.sides),
        last=floats[-1] if floats else Float.NONE, before=floats[-2] if len(floats) > 1 else Float.NONE,
        may_get_bye=not entrant.byes and not entrant.forfeit_wins,
    )  # fmt: skip


def _publish(players: list[_Player], pairs: list[Edge], bye: int | None, options: DutchOptions) -> list[Board]:
    """Seat each pair by C.04.3 E (``first_attack.allocate``) and order the boards (C.04.2 D.9)."""
    boards: list[tuple[tuple[int, int, int], Board]] = []
    for a, b in pairs:
        high, low = players[min(a, b)], players[max(a, b)]
        first, second = allocate(high.entrant, low.entrant, higher_number=high.number, initial=options.initial)
        key = (-max(high.units, low.units), -(high.units + low.units), min(a, b))
        boards.append((key, Board(entrants=(first.id, second.id))))
    result = [board for _, board in sorted(boards, key=lambda item: item[0])]
    if bye is not None:
        result.append(Board(entrants=(players[bye].entrant.id,), bye=True))
    return result


class _Compatible:
    """``_Round.compat``: each player's compatible set (C1, C3 and the avoidances while strict), made when first
    asked of him (at 5,000 entrants the sets of every player would hold 25 million entries)."""

    def __init__(self, round_: _Round) -> None:
        self.round = round_
        self.everyone = set(range(len(round_.players)))
        self.known: dict[int, set[int]] = {}

    def __len__(self) -> int:
        return len(self.round.players)

    def __getitem__(self, a: int) -> set[int]:
        known = self.known.get(a)
        if known is None:
            round_ = self.round
            known = self.known[a] = self.everyone.difference(round_.met[a], round_.barred[a], round_.kept_apart[a])
            known.discard(a)
        return known

    def __iter__(self) -> Iterator[set[int]]:
        return (self[a] for a in range(len(self)))


def _run(sides: Sequence[Side]) -> Side | None:
    """The side of the last two games when they were the same."""
    return sides[-1] if len(sides) > 1 and sides[-1] is sides[-2] else None


class _Round:
    """The players of one round (ranked: index = place in the A.2 order) and the brackets' matchings."""

    def __init__(
        self, players: list[_Player], *, last_round: bool = False, avoid: Avoidances = frozenset(), strict: bool = True
    ) -> None:
        self.players = players
        index = {player.entrant.id: place for place, player in enumerate(players)}
        self.met = [{index[o] for o in player.entrant.opponents if o in index} for player in players]
        self.avoided: list[set[int]] = [set() for _ in players]
        for pair in avoid:
            places = [index[member] for member in pair if member in index]
            if len(places) == 2:
                self.avoided[places[0]].add(places[1])
                self.avoided[places[1]].add(places[0])
        self.strict = strict
        # What each bracket did, in pairing order: the bracket, its pairs, the players it left over (read only
        # by dutch_explain; a list append a bracket costs the pairing nothing).
        self.brackets: list[tuple[Bracket, list[Edge], list[int]]] = []
        played = max((len(player.entrant.floats) for player in players), default=0)
        self.top = {v for v, p in enumerate(players) if last_round and p.units * 2 > played * POINT}  # A.7
        # What a bracket's quality digits read of a player (score, preference, floats, the run of sides C9 reads),
        # numbered (equal kinds, one number: a pair of small ints hashes faster than the dataclasses and enums).
        numbers: dict[Hashable, int] = {}
        self.kinds: list[int] = [
            numbers.setdefault((p.units, p.preference, p.last, p.before, _run(p.entrant.sides)), len(numbers))
            for p in players
        ]
        # :meth:`compatible` for every pair, by set operations: C1 (``met``, read from each player's side: a
        # player's compatible set leaves out whom he has met), the avoidances while strict, and C3, which forbids
        # a pair when both want the same side absolutely (``conflict(...).absolute``: the weaker of the two
        # preferences is absolute) and neither is a topscorer: the players who want a side absolutely and are
        # not topscorers form one class a side, which such a player's set leaves out whole.
        hard = [p.preference.side if p.preference.strength is Strength.ABSOLUTE else None for p in players]
        classes: dict[Side, set[int]] = {}
        for v, side in enumerate(hard):
            if side is not None and v not in self.top:
                classes.setdefault(side, set()).add(v)
        nobody: set[int] = set()
        # Whom each player may not meet: three sets whose union is the complement of his compatible set (no set
        # of n^2 / 2 pairs is made: the hot loops ask these, ``compat`` makes a player's set when asked).
        self.barred = [classes[side] if side is not None and a not in self.top else nobody for a, side in enumerate(hard)]
        self.kept_apart = self.avoided if strict else [nobody] * len(players)
        self.compat = _Compatible(self)
        self.later: list[list[int] | None] = [None] * len(players)  # later_of's answers
        self.odd = len(players) % 2 == 1
        self.bye_ok = {place for place, player in enumerate(players) if player.may_get_bye}
        self.bye_units: int | None = None
        if self.odd:
            self.bye_ok = self.lowest_byes()
            self.bye_units = max(self.players[v].units for v in self.bye_ok)

    def later_of(self, a: int) -> list[int]:
        """The players compatible with ``a`` ranked below him, in order (what a bracket's whole field of edges is
        read off; made when first asked, since a bracket asks only of its own players and the next group's
        unless its proofs fail)."""
        known = self.later[a]
        if known is None:
            known = self.later[a] = self.compatible_among(a, range(a + 1, len(self.players)))
        return known

    def compatible_among(self, a: int, candidates: Iterable[int]) -> list[int]:
        """The ``candidates`` ``a`` may meet, in their order (:attr:`compat` without making his set)."""
        met, barred, apart = self.met[a], self.barred[a], self.kept_apart[a]
        return [b for b in candidates if b not in met and b not in barred and b not in apart]

    def may_meet(self, a: int, b: int) -> bool:
        """Whether ``b`` is in ``a``'s compatible set (asked of the three sets)."""
        return b not in self.met[a] and b not in self.barred[a] and b not in self.kept_apart[a] and b != a

    def lowest_byes(self) -> set[int]:
        """Who may take the bye: the eligible players of the lowest score at which the rest can still be
        paired (the bye's score is minimised before any bracket's quality)."""
        scores = sorted({self.players[v].units for v in self.bye_ok})
        bye_node = len(self.players)
        adjacency = [sorted(neighbours) for neighbours in self.compat] + [[]]
        mate: list[int] | None = None
        for units in scores:  # each score adds bye edges to the last matching, which stays valid
            allowed = {v for v in self.bye_ok if self.players[v].units <= units}
            for v in allowed - set(adjacency[bye_node]):
                adjacency[v].append(bye_node)
                adjacency[bye_node].append(v)
            mate = maximum_matching(adjacency, mate)
            if FREE not in mate:
                return allowed
        raise PairingError("no entrant can take the bye without a second bye or a rematch")

    def compatible(self, a: int, b: int) -> bool:
        """C1 (no rematch; nor a requested avoidance while strict) and C3 (no two non-topscorers who need the
        same side absolutely)."""
        return b not in self.met[a] and self.allowed(a, b)

    def allowed(self, a: int, b: int) -> bool:
        """:meth:`compatible` but for C1's rematch (symmetric in ``a`` and ``b``)."""
        if self.strict and b in self.avoided[a]:
            return False
        absolute = conflict(self.players[a].preference, self.players[b].preference).absolute
        return not absolute or a in self.top or b in self.top

    def topscorer_costs(self, a: int, b: int) -> tuple[int, int]:
        """C8 and C9 for a pair allowed by a topscorer despite C3: does one of them end with a first-attack
        difference beyond 2, does one attack on the same side a third time running (E.2 decides who yields)."""
        pa, pb = self.players[a].preference, self.players[b].preference
        if not conflict(pa, pb).absolute:
            return 0, 0
        beyond = int(abs(pa.difference) >= 2 and abs(pb.difference) >= 2)
        runs = [_run(self.players[v].entrant.sides) for v in (a, b)]
        if abs(pa.difference) == abs(pb.difference):
            return beyond, int(runs[0] is not None and runs[0] is runs[1])
        yielding = runs[0] if abs(pa.difference) < abs(pb.difference) else runs[1]
        return beyond, int(yielding is not None and pa.side is not None and yielding is pa.side.other)

    def unmarked(self) -> bool:
        """Whether nothing tells the players apart but their pairing numbers (a first round): one score, every
        pair compatible and none to avoid, no side played, no float, no bye, the same rounds behind each."""
        size = len(self.players)
        if size < 2 or any(self.avoided) or any(self.met[v] or self.barred[v] - {v} for v in range(size)):
            return False
        first = self.players[0]
        rounds = len(first.entrant.floats)
        return all(
            p.units == first.units and not p.entrant.sides and p.may_get_bye and len(p.entrant.floats) == rounds
            and not p.entrant.opponents and all(moved is Float.NONE for moved in fide_floats(p.entrant))
            for p in self.players
        )  # fmt: skip

    def pair_unmarked(self) -> tuple[list[Edge], int | None]:
        """C.04.3 as it reads on an unmarked field: one homogeneous bracket with no criterion but the pair count
        (C5) to weigh, so S1 (the first half) meets S2 in order (D.1, no transposition); an odd field's last
        player floats, which is the bye (every player is eligible, at one score)."""
        half = len(self.players) // 2
        pairs = [(v, v + half) for v in range(half)]
        return pairs, (2 * half if self.odd else None)

    def groups(self) -> list[list[int]]:
        result: list[list[int]] = []
        for place, player in enumerate(self.players):
            if result and self.players[result[-1][0]].units == player.units:
                result[-1].append(place)
            else:
                result.append([place])
        return result

    def pair(self) -> tuple[list[Edge], int | None]:
        if self.unmarked():
            return self.pair_unmarked()
        groups = self.groups()
        pairs: list[Edge] = []
        moved: list[int] = []
        for number, group in enumerate(groups):
            lower = [place for later in groups[number + 1 :] for place in later]
            following = groups[number + 1] if number + 2 < len(groups) else []  # C7: not for the PPB nor the last
            bracket = Bracket(self, sorted(moved), group, lower, following)
            made, moved = bracket.pair()
            self.brackets.append((bracket, made, moved))
            pairs.extend(made)
        if len(moved) > (1 if self.odd else 0):
            raise PairingError("no pairing of this round avoids a rematch")
        return pairs, (moved[0] if moved else None)


__all__ = ["DutchOptions", "avoidance_effect", "baku_points", "fide_floats", "initial_numbers", "pair_dutch", "pair_dutch_explained"]
