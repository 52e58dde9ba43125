"""An exact solver for the heads-up endgame: once the stock is empty in a two-player game, a seat knows the
other hand card for card (every unseen card is in it), and the rest of the game is a game of perfect
information that a small search plays perfectly.

``winning_move(state, seat, moves, budget)`` proves, by a depth-first AND/OR search with a transposition
table, a move after which ``seat`` wins (or, asked so, does not lose) whatever the other seat plays and
whoever acts first when both may (the proof holds for every order). ``seat``'s root moves are tried in the
order given and deeper moves first by ``first`` (the heuristic's for the search bot); the other seat's
every legal move is answered. After ``budget`` positions it proves nothing and the caller falls back on
its usual play. What is proven can be kept from one move to the next (``ProofTables``): a result holds for
a position whatever led to it, so once a win is proven the rest of the game is looked up.
The solver reads the state it is given, so a bot calls it on a state filled from its observation; with
the stock empty (or holding only the face-up trump) and two players that state is the true one
(``exact_endgame`` says when it is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from games.engine.acting import actors
from games.engine.actions import Action
from games.engine.legal import legal_actions
from games.engine.play import play_trusted
from games.engine.rules import Rules
from games.engine.state import State

WIN: Final = 0       # the goal: the other seat is the durak
NOT_LOSE: Final = 1  # the goal: a win or a draw
# Kept tables holding more positions than this between them are emptied (a position costs about 230 bytes).
MOST_KEPT_POSITIONS: Final = 250_000

Key = tuple[int, int, int, int]
FirstMove = Callable[[State, int], Action]


class OutOfBudget(Exception):
    pass


def exact_endgame(state: State, most_stock: int = 0) -> bool:
    """Whether a seat of ``state`` (filled from its observation) knows every card: a classic heads-up game
    with the stock empty (or, ``most_stock`` 1, holding only the face-up trump) and no one cheating.

    With one card left in the stock (the face-up trump) a seat knows every card too, and the search bot
    solves from there (search.SOLVED_STOCK). The heuristic solves only with the stock empty: such a position
    comes up in about one heuristic game in five and is hard (7 of 19 took more than a million positions)."""
    return (state.n == 2 and len(state.stock) <= most_stock and not state.special and not state.rules.cheating
            and state.team_of is None and not state.finished)


class ProofTables:
    """What the solver proved, kept between calls: one table for each rule set, trump suit, seat and goal (a
    position's key leaves them out). When the tables hold more than MOST_KEPT_POSITIONS between them, a call
    empties them all first."""

    __slots__ = ("tables",)

    def __init__(self) -> None:
        self.tables: dict[tuple[Rules, int, int, int], dict[Key, bool]] = {}

    def table(self, state: State, seat: int, goal: int) -> dict[Key, bool]:
        tables = self.tables
        # A list first: a bot serving several tables' threads may add a table meanwhile.
        if sum(len(table) for table in list(tables.values())) > MOST_KEPT_POSITIONS:
            tables.clear()
        which = (state.rules, state.trump, seat, goal)
        table = tables.get(which)
        if table is None:
            table = tables[which] = {}
        return table


class Solver:
    """One proof search. Cards can go round for ever (perevodnoy heads-up: each transfers the other's lead
    back and takes it in turn), so a position met again on the line being searched counts as not proven: an
    endless game is no win. That is stored for the positions above it only as "not proven", so a table may
    miss a proof reached another way (the graph-history problem) but never holds a false one."""

    __slots__ = ("seat", "goal", "budget", "nodes", "table", "first", "line")

    def __init__(self, seat: int, goal: int, budget: int, table: dict[Key, bool] | None = None,
                 first: FirstMove | None = None) -> None:
        self.seat = seat
        self.goal = goal
        self.budget = budget
        self.nodes = 0
        self.table: dict[Key, bool] = {} if table is None else table
        self.first = first
        self.line: set[Key] = set()  # the positions of the line being searched

    def reached(self, state: State) -> bool:
        result = state.result
        if result is None:
            return False
        durak = result.durak
        if self.goal == WIN:
            return durak is not None and durak != self.seat
        return durak != self.seat

    def moves(self, state: State, actor: int) -> list[Action]:
        moves = legal_actions(state, actor)
        first = self.first
        if first is not None and len(moves) > 1:
            preferred = first(state, actor)
            for index, move in enumerate(moves):
                if move == preferred:
                    if index:
                        moves[0], moves[index] = move, moves[0]
                    break
        return moves

    def proves(self, state: State) -> bool:
        """Whether ``seat`` reaches the goal from ``state`` against every reply and every order of acting."""
        if state.finished:
            return self.reached(state)
        key = position_key(state)
        known = self.table.get(key)
        if known is not None:
            return known
        line = self.line
        if key in line:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget()
        line.add(key)
        try:
            proven = self._proves(state)
        finally:
            line.discard(key)
        self.table[key] = proven
        return proven

    def _proves(self, state: State) -> bool:
        seat = self.seat
        proven = True
        for actor in actors(state):
            moves = self.moves(state, actor)
            if actor == seat:
                proven = False
                for move in moves:
                    child = state.copy()
                    play_trusted(child, actor, move)
                    if self.proves(child):
                        proven = True
                        break
            else:
                for move in moves:
                    child = state.copy()
                    play_trusted(child, actor, move)
                    if not self.proves(child):
                        proven = False
                        break
            if not proven:
                break
        return proven


def position_key(state: State) -> Key:
    """Everything of a heads-up position that its future depends on, packed into four ints: the hands, the table
    (each attack card and its cover, six bits a card), the stock, and the bout's flags."""
    table = 0
    for attack, covering in zip(state.attack, state.cover):
        table = table << 12 | (attack + 1) << 6 | (covering + 1)
    for card in state.stock:
        table = table << 6 | (card + 1)
    table = table << 6 | len(state.stock)
    flags = 0
    for seat in state.emptied:
        flags = flags << 4 | (seat + 1)
    flags = (((((((flags << 4 | state.attacker) << 4 | state.defender) << 1 | state.taken) << 8 | state.passed) << 8
               | state.limit) << 8 | state.shown) << 8 | state.out_mask) << 1 | state.discarded_once
    return (state.hands[0], state.hands[1], table << 6 | len(state.attack), flags)


class Proof:
    """What ``prove`` found: the first move proven (or None), whether the search was complete (None then
    means no move of those given reaches the goal), and how many positions it searched."""

    __slots__ = ("move", "complete", "nodes")

    def __init__(self, move: Action | None, complete: bool, nodes: int) -> None:
        self.move = move
        self.complete = complete
        self.nodes = nodes


def prove(state: State, seat: int, moves: list[Action], budget: int, goal: int = WIN,
          tables: ProofTables | None = None, first: FirstMove | None = None) -> Proof:
    """The first of ``moves`` (legal moves of ``seat`` in ``state``) proven to reach ``goal`` within ``budget``
    positions; ``tables`` keeps what is proven for the next call, ``first`` orders the moves in the tree."""
    table = tables.table(state, seat, goal) if tables is not None else None
    solver = Solver(seat, goal, budget, table, first)
    try:
        for move in moves:
            child = state.copy()
            play_trusted(child, seat, move)
            if solver.proves(child):
                return Proof(move, True, solver.nodes)
    except OutOfBudget:
        return Proof(None, False, solver.nodes)
    return Proof(None, True, solver.nodes)


def winning_move(state: State, seat: int, moves: list[Action], budget: int, goal: int = WIN) -> Action | None:
    """The first of ``moves`` (legal moves of ``seat`` in ``state``) proven to reach ``goal``; None if none is,
    or if the search needs more than ``budget`` positions."""
    return prove(state, seat, moves, budget, goal).move
