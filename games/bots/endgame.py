"""An exact solver for the heads-up endgame: once the stock is empty in a two-player game, a seat knows the
other hand card for card (every unseen card is in it), and the rest of the game is a game of perfect
information that a small search plays perfectly.

``winning_move(state, seat, moves, budget)`` proves, by a depth-first AND/OR search with a transposition
table, a move after which ``seat`` wins (or, asked so, does not lose) whatever the other seat plays and
whoever is drawn to act when both may (the arena draws one at random, a live table lets either go first:
the proof holds for every order). ``seat``'s own moves are tried in the order given, so a caller puts its
preferred move first; the other seat's every legal move is answered. The search stops after ``budget``
positions and then proves nothing; the caller falls back on its usual play.

The solver reads the state it is given, so a bot calls it on a state filled from its observation: with the
stock empty and two players that state is the true one (``exact_endgame`` says when it is).
"""

from __future__ import annotations

from typing import Final

from games.engine.actions import Action
from games.engine.play import actors, legal_actions, play_trusted
from games.engine.state import State

WIN: Final = 0       # the goal: the other seat is the durak
NOT_LOSE: Final = 1  # the goal: a win or a draw


class OutOfBudget(Exception):
    pass


def exact_endgame(state: State) -> bool:
    """Whether a seat of ``state`` (filled from its observation) knows every card: a classic heads-up game
    with the stock empty and no one cheating.

    With one card left in the stock (the face-up trump) a seat knows every card too, but the search solving
    there as well scored 0.750 of 192 decided games against the heuristic (bench/search_probe.py, 100 deals
    from both seats at 0.3 s), against 0.790, within the probe's noise: such a position came up in 26 of 150
    heuristic games, and the solver proved a move in 5 of them within the hard level's 6,000 positions."""
    return (state.n == 2 and not state.stock and not state.special and not state.rules.cheating
            and state.team_of is None and not state.finished)


class Solver:
    __slots__ = ("seat", "goal", "budget", "nodes", "table")

    def __init__(self, seat: int, goal: int, budget: int) -> None:
        self.seat = seat
        self.goal = goal
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}

    def reached(self, state: State) -> bool:
        result = state.result
        if result is None:
            return False
        durak: int | None = result["durak"]
        if self.goal == WIN:
            return durak is not None and durak != self.seat
        return durak != self.seat

    def proves(self, state: State) -> bool:
        """Whether ``seat`` reaches the goal from ``state`` against every reply and every order of acting."""
        if state.finished:
            return self.reached(state)
        key = (state.hands[0], state.hands[1], tuple(state.attack), tuple(state.cover), state.attacker,
               state.defender, state.taken, state.passed, state.limit, state.shown, state.out_mask,
               tuple(state.emptied))
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget()
        seat = self.seat
        proven = True
        for actor in actors(state):
            moves = legal_actions(state, actor)
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
        self.table[key] = proven
        return proven


def winning_move(state: State, seat: int, moves: list[Action], budget: int, goal: int = WIN) -> Action | None:
    """The first of ``moves`` (legal moves of ``seat`` in ``state``) proven to reach ``goal``; None if none is,
    or if the search needs more than ``budget`` positions."""
    solver = Solver(seat, goal, budget)
    try:
        for move in moves:
            child = state.copy()
            play_trusted(child, seat, move)
            if solver.proves(child):
                return move
    except OutOfBudget:
        return None
    return None
