"""The heads-up endgame solver (games.bots.endgame): a move it proves to win is won against every reply,
and it is asked only where the seat knows every card."""

from __future__ import annotations

import random

from games.bots.endgame import NOT_LOSE, WIN, exact_endgame, winning_move
from games.engine import Rules, State, actors, legal_actions, play_trusted
from tests.bots.test_strength import endgames
from tests.bots.variants import new_state

BUDGET = 400_000


def _play_out_the_proof(position: State, seat: int, goal: int, rng: random.Random) -> State:
    """From a position where `seat` has a proven move: he plays a proven move whenever he acts (the proof
    must hold after every reply), the other seat plays at random, either may be drawn to act first."""
    state = position.copy()
    while not state.finished:
        seats = actors(state)
        actor = seats[int(rng.random() * len(seats))]
        legal = list(legal_actions(state, actor))
        if actor == seat:
            move = winning_move(state, seat, legal, BUDGET, goal)
            assert move is not None, "a proven position is no longer proven after the other seat's reply"
        else:
            move = legal[int(rng.random() * len(legal))]
        play_trusted(state, actor, move)
    return state


def test_a_move_proven_to_win_wins_whatever_the_other_seat_plays() -> None:
    proven = {WIN: 0, NOT_LOSE: 0}
    for number, (position, _log) in enumerate(endgames(24, "solver")):
        assert exact_endgame(position)
        for seat in actors(position):
            for goal in (WIN, NOT_LOSE):
                move = winning_move(position, seat, list(legal_actions(position, seat)), BUDGET, goal)
                if move is None:
                    continue
                proven[goal] += 1
                for line in range(4):
                    after = position.copy()
                    play_trusted(after, seat, move)
                    end = _play_out_the_proof(after, seat, goal, random.Random(f"{number}-{line}"))
                    assert end.result is not None
                    durak = end.result["durak"]
                    assert durak != seat and (goal == NOT_LOSE or durak is not None), (number, seat, goal, durak)
    # The positions are real endgames: the solver proves wins in many, and cannot in the rest.
    assert proven[WIN] >= 5 and proven[NOT_LOSE] >= proven[WIN]


def test_only_heads_up_with_the_stock_empty_is_solved() -> None:
    position, _log = endgames(1, "solver-where")[0]
    assert exact_endgame(position)
    with_stock = position.copy()
    with_stock.stock = [0]
    assert not exact_endgame(with_stock)
    assert not exact_endgame(new_state(Rules(), 3, "three"))
    assert not exact_endgame(new_state(Rules(cheating=True), 2, "cheating"))
