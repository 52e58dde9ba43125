"""Why each board of a Dutch round was paired so (issue 35): the facts of C.04.3 that decided it, as codes and
numbers for the director's round page, which words them.

The engine keeps, bracket by bracket, the ``Bracket`` it paired, the pairs it made and the players it left over
(``dutch._Round.brackets``, one list append a bracket); everything else is read from that record after the
round is paired, and only when :func:`pair_dutch_reasons` is asked, so ``pair_dutch`` pays nothing for it.
Per board:

- the bracket: its score, and whether the board was made in a homogeneous bracket, in the MDP-pairing of a
  heterogeneous one or in its remainder (A.3, B.2);
- each player's moves down (A.4.a), with the reason read off the bracket he left: its odd size (C.5 leaves one
  over), no compatible opponent there at all (C.1 rematches, C.3), no more pairs possible there (C.5), fewer
  pairs than possible so that the rest of the round can be paired (completion, C.4), or an MDP left in limbo
  (B.2); and the upfloat of the lower-scored player (A.4.b);
- the candidate order: S1 (the bracket's first P players, or its MDPs) against S2 in order is B.3's first
  candidate; else S2 was transposed (D.1) or players exchanged between S1 and S2 (D.2). Then the first
  candidate's partner is named with what barred him (a rematch, a requested avoidance, C.3), or the first
  criterion his pair would have broken more (C.6, C.8-C.19, from ``Bracket.pair_cost``), or, when his own pair
  was no worse, that the rest of the bracket needed him (C.4-C.19 over the bracket);
- the quality criteria the board does not meet: C.8-C.9 (last round's topscorers), C.10-C.11 (a first-attack
  preference not granted), C.12-C.19 (a float like last round's or the round before's, with its score
  difference);
- the rule of E that gave the first attack (``first_attack.allocate_explained``);
- the requested avoidances that kept somebody apart, floated him or had to be broken (``AvoidanceReport``);
- for the bye: its score, and why it is not lower (C.2: the lower players had a bye already; C.4).

Article numbers are those of the 2017 text the engine's docstring follows (C.1-C.19); ``ARTICLES`` holds them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tournaments.pairing.avoidances import AvoidanceReport, Avoidances
from tournaments.pairing.cardinality import FREE, maximum_matching
from tournaments.pairing.dutch import DutchOptions, _paired, _Player, _publish, _Round, avoidance_effect
from tournaments.pairing.dutch_bracket import POINT, Bracket, Edge
from tournaments.pairing.first_attack import Strength, allocate_explained
from tournaments.pairing.model import Board, EntrantId, EntrantState, Float, Side

# The FIDE article each fact names (C.04.3 unless it says otherwise).
ARTICLES: dict[str, str] = {
    "bracket": "C.04.3 A.3",
    "bracket_mdp": "C.04.3 A.3, B.2",
    "bracket_remainder": "C.04.3 A.3, B.2",
    "float_odd": "C.04.3 A.4, C.5",
    "float_no_partner": "C.04.3 A.4, C.1, C.3",
    "float_max_pairs": "C.04.3 A.4, C.5",
    "float_completion": "C.04.3 A.4, C.4",
    "float_limbo": "C.04.3 A.4, B.2",
    "upfloat": "C.04.3 A.4",
    "first_candidate": "C.04.3 B.3",
    "transposed": "C.04.3 D.1",
    "exchanged": "C.04.3 D.2",
    "barred_rematch": "C.04.3 C.1",
    "barred_avoid": "C.04.1",
    "barred_colour": "C.04.3 C.3",
    "default_worse": "C.04.3",
    "default_elsewhere": "C.04.3 C.4-C.19",
    "c8": "C.04.3 C.8",
    "c9": "C.04.3 C.9",
    "c10": "C.04.3 C.10",
    "c11": "C.04.3 C.10, C.11",
    "c12": "C.04.3 C.12, C.16",
    "c13": "C.04.3 C.13, C.17",
    "c14": "C.04.3 C.14, C.18",
    "c15": "C.04.3 C.15, C.19",
    "E.1": "C.04.3 E.1",
    "E.2": "C.04.3 E.2",
    "E.3": "C.04.3 E.3",
    "E.4": "C.04.3 E.4",
    "E.5": "C.04.3 E.5",
    "avoid_kept": "C.04.1",
    "avoid_floated": "C.04.1",
    "avoid_broken": "C.04.1",
    "bye": "C.04.1 c, C.04.3 A.5",
    "bye_c2": "C.04.3 C.2",
    "bye_completion": "C.04.3 C.4",
}

# Bracket.pair_cost's digits that a first candidate may break more than the board does, most significant first.
_CRITERIA = {1: "C.6", 5: "C.8", 6: "C.9", 7: "C.10", 8: "C.11", 9: "C.12", 10: "C.13", 11: "C.14", 12: "C.15",
             13: "C.16", 14: "C.17", 15: "C.18", 16: "C.19"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing that decided a board: ``code`` (a key of ``ARTICLES``) and its numbers.

    ``who`` / ``other``: the entrants it concerns; ``value``: a score, a score difference or a count;
    ``place`` / ``to``: S1 and S2 numbers (1 up); ``criterion``: the criterion a first candidate broke."""

    code: str
    who: EntrantId | None = None
    other: EntrantId | None = None
    value: float | None = None
    place: int | None = None
    to: int | None = None
    criterion: str | None = None

    @property
    def article(self) -> str:
        article = ARTICLES[self.code]
        return f"{article} {self.criterion}" if self.criterion else article


@dataclass(frozen=True, slots=True)
class BoardReasons:
    """What decided one board (``entrants`` as the board seats them); ``bracket`` is the score of the bracket
    it was paired in (None: no bracket, as for a round that only the avoidance report explains)."""

    entrants: tuple[EntrantId, ...]
    bracket: float | None
    facts: tuple[Fact, ...]

    def codes(self) -> list[str]:
        return [fact.code for fact in self.facts]


def pair_dutch_reasons(
    entrants: Sequence[EntrantState],
    *,
    absent: Collection[EntrantId] = (),
    options: DutchOptions | None = None,
    avoid: Avoidances = frozenset(),
) -> tuple[list[Board], AvoidanceReport, list[BoardReasons]]:
    """``dutch.pair_dutch_explained``, and per board (in the boards' order) what decided it."""
    options = options or DutchOptions()
    players, round_, pairs, bye = _paired(entrants, absent=absent, options=options, names=None, numbers=None, avoid=avoid)
    boards = _publish(players, pairs, bye, options)
    report = avoidance_effect(entrants, boards, absent=absent, options=options, avoid=avoid)
    return boards, report, _Reader(players, round_, options).explain(boards, report)


def avoidance_reasons(boards: Sequence[Board], report: AvoidanceReport) -> list[BoardReasons]:
    """Per board, what the avoidances did to it: all that an engine without a bracket record can say."""
    return [BoardReasons(board.entrants, None, tuple(_avoidance_facts(board.entrants, report))) for board in boards]


def _avoidance_facts(seated: Sequence[EntrantId], report: AvoidanceReport) -> list[Fact]:
    facts: list[Fact] = []
    on_board = set(seated)
    for first, second in report.broken:
        if {first, second} <= on_board:
            facts.append(Fact("avoid_broken", who=first, other=second))
    for first, second in report.kept_apart:
        if first in on_board:
            facts.append(Fact("avoid_kept", who=first, other=second))
        if second in on_board:
            facts.append(Fact("avoid_kept", who=second, other=first))
    facts.extend(Fact("avoid_floated", who=entrant) for entrant in report.floated if entrant in on_board)
    return facts


class _Reader:
    """Reads a paired round's bracket record into facts per board."""

    def __init__(self, players: list[_Player], round_: _Round, options: DutchOptions) -> None:
        self.players = players
        self.round = round_
        self.options = options
        self.place = {player.entrant.id: v for v, player in enumerate(players)}
        self.moves: dict[int, list[Fact]] = {}  # a player's moves down, in order
        self.made: dict[Edge, tuple[str, float, list[Fact]]] = {}  # a pair: its bracket kind, score, order facts
        self.costs: dict[Edge, Bracket] = {}  # a pair: the bracket that weighed it

    def id(self, v: int) -> EntrantId:
        return self.players[v].entrant.id

    def score(self, v: int) -> float:
        return self.players[v].units / POINT

    def explain(self, boards: Sequence[Board], report: AvoidanceReport) -> list[BoardReasons]:
        if self.round.brackets:
            for bracket, made, left in self.round.brackets:
                self.read_bracket(bracket, made, left)
        else:
            self.read_unmarked()
        return [self.board(board, report) for board in boards]

    # -- the record ----------------------------------------------------------------------------------------------

    def read_unmarked(self) -> None:
        """A round paired without brackets (``_Round.pair_unmarked``): one homogeneous bracket, S1 v S2 in order
        (an odd field's last player is its leftover: the bye)."""
        pairs, _ = self.round.pair_unmarked()
        for index, (a, b) in enumerate(pairs, start=1):
            order = [Fact("first_candidate", who=self.id(a), other=self.id(b), place=index, to=index)]
            self.made[(a, b)] = ("bracket", self.score(a), order)

    def read_bracket(self, bracket: Bracket, made: list[Edge], left: list[int]) -> None:
        moved = set(bracket.moved)
        score = self.score(bracket.group[0])
        fixed = [pair for pair in made if pair[0] in moved or pair[1] in moved]
        taken = {v for pair in fixed for v in pair}
        # The MDP-pairing: S1 the MDPs paired here, S2 the residents (B.2).
        s1 = [m for m in bracket.moved if m in taken]
        self.read_order(bracket, fixed, s1, bracket.group, "bracket_mdp", score)
        # The homogeneous bracket or remainder: S1 its first P players, P the pairs it made.
        remainder = [v for v in bracket.group if v not in taken]
        rest = [pair for pair in made if pair not in set(fixed)]
        kind = "bracket_remainder" if bracket.moved else "bracket"
        count = len(rest)
        self.read_order(bracket, rest, remainder[:count], remainder[count:], kind, score)
        possible: int | None = None
        for v in left if bracket.lower else ():  # the last bracket's leftover is the bye, which says so itself
            if v in moved:
                code = "float_limbo"
            elif len(bracket.members) > 1 and not any(w in self.round.compat[v] for w in bracket.members if w != v):
                code = "float_no_partner"
            elif len(left) <= 1:
                code = "float_odd"
            else:
                possible = self.most_pairs(bracket) if possible is None else possible
                code = "float_completion" if len(made) < possible else "float_max_pairs"
            self.moves.setdefault(v, []).append(Fact(code, who=self.id(v), value=score))

    def read_order(self, bracket: Bracket, pairs: list[Edge], s1: list[int], s2: list[int], kind: str, score: float) -> None:
        """The candidate order's facts of ``pairs``, made with S1 ``s1`` against S2 ``s2``."""
        exchanged = {min(pair) for pair in pairs} != set(s1)
        for a, b in pairs:
            self.costs[(a, b)] = bracket
            order: list[Fact] = []
            if a in s1 and b in s2:
                index, to = s1.index(a), s2.index(b)
                if index == to:
                    order.append(Fact("first_candidate", who=self.id(a), other=self.id(b), place=index + 1, to=to + 1))
                else:
                    code = "exchanged" if exchanged else "transposed"
                    order.append(Fact(code, who=self.id(a), other=self.id(b), place=index + 1, to=to + 1))
                    if index < len(s2):
                        order.append(self.first_refused(bracket, a, b, s2[index]))
            else:
                inward = a if a not in s1 else b  # the player exchanged into, or out of, S1
                order.append(Fact("exchanged", who=self.id(inward), other=self.id(b if inward == a else a)))
            self.made[(a, b)] = (kind, score, order)

    def first_refused(self, bracket: Bracket, a: int, b: int, default: int) -> Fact:
        """Why S1's ``a`` does not meet his first candidate ``default`` but ``b``."""
        who, other = self.id(a), self.id(default)
        if default in self.round.met[a]:
            return Fact("barred_rematch", who=who, other=other)
        if default in self.round.avoided[a]:
            return Fact("barred_avoid", who=who, other=other)
        if default not in self.round.compat[a]:
            return Fact("barred_colour", who=who, other=other)
        first, chosen = bracket.pair_cost(a, default), bracket.pair_cost(a, b)
        for digit, criterion in _CRITERIA.items():
            if first[digit] != chosen[digit]:
                if first[digit] > chosen[digit]:
                    return Fact("default_worse", who=who, other=other, criterion=criterion)
                break
        return Fact("default_elsewhere", who=who, other=other)

    def most_pairs(self, bracket: Bracket) -> int:
        """The most pairs the bracket's players can make among themselves (no MDP with an MDP)."""
        moved = set(bracket.moved)
        local = {v: index for index, v in enumerate(bracket.members)}
        adjacency = [
            [local[w] for w in self.round.compat[v] if w in local and not (v in moved and w in moved)]
            for v in bracket.members
        ]
        mate = maximum_matching(adjacency)
        return (len(mate) - mate.count(FREE)) // 2

    # -- the boards ----------------------------------------------------------------------------------------------

    def board(self, board: Board, report: AvoidanceReport) -> BoardReasons:
        places = [self.place[entrant] for entrant in board.entrants]
        if board.bye:
            return BoardReasons(board.entrants, self.score(places[0]), tuple(self.bye_facts(places[0], report)))
        a, b = sorted(places)
        kind, score, order = self.made[(a, b)]
        facts = [Fact(kind, value=score)]
        for v in (a, b):
            facts.extend(self.moves.get(v, []))
        high, low = self.players[a], self.players[b]
        if high.units != low.units:
            facts.append(Fact("upfloat", who=self.id(b), other=self.id(a), value=self.score(b)))
        facts.extend(order)
        facts.extend(self.criteria(a, b, board.entrants[0]))
        _, _, rule = allocate_explained(high.entrant, low.entrant, higher_number=high.number, initial=self.options.initial)
        facts.append(Fact(rule, who=board.entrants[0], other=board.entrants[1]))
        facts.extend(_avoidance_facts(board.entrants, report))
        return BoardReasons(board.entrants, score, tuple(facts))

    def criteria(self, a: int, b: int, first: EntrantId) -> list[Fact]:
        """The quality criteria the pair ``a`` (ranked higher) v ``b`` does not meet, seated with ``first``."""
        facts: list[Fact] = []
        beyond, third = self.round.topscorer_costs(a, b)
        if beyond:
            facts.append(Fact("c8", who=self.id(a), other=self.id(b)))
        if third:
            facts.append(Fact("c9", who=self.id(a), other=self.id(b)))
        for v in (a, b):
            wanted = self.players[v].preference
            got = Side.FIRST if self.id(v) == first else Side.SECOND
            if wanted.side is not None and wanted.side is not got:
                code = "c11" if wanted.strength >= Strength.STRONG else "c10"
                facts.append(Fact(code, who=self.id(v)))
        high, low = self.players[a], self.players[b]
        gap = (high.units - low.units) / POINT
        if gap:
            for code, had, v, again in (
                ("c12", high.last, a, Float.DOWN), ("c13", low.last, b, Float.UP),
                ("c14", high.before, a, Float.DOWN), ("c15", low.before, b, Float.UP),
            ):  # fmt: skip
                if had is again:
                    facts.append(Fact(code, who=self.id(v), value=gap))
        return facts

    def bye_facts(self, v: int, report: AvoidanceReport) -> list[Fact]:
        facts = [Fact("bye", who=self.id(v), value=self.score(v)), *self.moves.get(v, [])]
        lower = [w for w, player in enumerate(self.players) if player.units < self.players[v].units]
        barred = sum(1 for w in lower if not self.players[w].may_get_bye)
        if barred:
            facts.append(Fact("bye_c2", who=self.id(v), value=float(barred)))
        if barred < len(lower):
            facts.append(Fact("bye_completion", who=self.id(v), value=float(len(lower) - barred)))
        facts.extend(_avoidance_facts((self.id(v),), report))
        return facts


__all__ = ["ARTICLES", "BoardReasons", "Fact", "avoidance_reasons", "pair_dutch_reasons"]
