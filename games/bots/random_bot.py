"""The random bot: a uniformly random seat among those who may act, then a random legal action."""

from __future__ import annotations

import random

from games.engine.acting import actors
from games.engine.actions import ACCUSE, Action
from games.engine.legal import legal_actions
from games.engine.play import play_trusted
from games.engine.state import State

# At a cheating table accusations are always legal; a bot that made them as often as moves would
# mostly argue. It accuses with this probability when it has other moves.
ACCUSE_SHARE = 0.05


def choose(state: State, seat: int, rng: random.Random) -> Action:
    actions = legal_actions(state, seat)
    if state.rules.cheating:
        moves = [action for action in actions if action.kind != ACCUSE]
        if moves and rng.random() >= ACCUSE_SHARE:
            actions = moves
    # rng.random() is a C call; rng.choice goes through Python-level helpers on every move.
    return actions[int(rng.random() * len(actions))]


def playout(state: State, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play ``state`` to its end in place with random moves; returns the number of actions."""
    count = 0
    while not state.finished and count < max_actions:
        seats = actors(state)
        seat = seats[0] if len(seats) == 1 else seats[int(rng.random() * len(seats))]
        play_trusted(state, seat, choose(state, seat, rng))
        count += 1
    return count
