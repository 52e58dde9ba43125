"""The levels a player picks for a bot at a table, and the easy level's bot.

``LEVELS`` is the one table from a level to its bot: ``games.bots.BOTS`` builds each level's bot from it and
``accounts.bot_names`` describes each level's bench by it (``accounts.models.BotLevel`` names the same four).

easy: the heuristic's move most of the time, a random honest move otherwise; medium: the heuristic;
hard and expert: the search bot with a time budget of 0.3 s and 1 s a move (CPU time) and an iteration cap,
and at most 1 s and 3 s of wall-clock time, so that a bot answers in time when the server is busy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from games.engine.actions import ACCUSE, Action

from . import heuristic
from .knowledge import Observation

# How often the easy bot plays a random honest move instead of the heuristic's.
EASY_RANDOM_SHARE: Final = 0.4


@dataclass(frozen=True)
class Level:
    name: str
    bot: str              # heuristic, search or easy
    seconds: float = 0.0  # search: CPU seconds a move at most
    iterations: int = 0   # search: iterations a move at most
    wall_seconds: float = 0.0  # search: wall-clock seconds a move at most (binds only on a loaded machine)

    @property
    def reads_history(self) -> bool:
        """Whether the level's bot reads the other player's moves since the deal as evidence of his hand
        (the search: knowledge.GameMemory, inference.Posterior); the heuristic and the easy bot ignore them."""
        return self.bot == "search"


# The iteration caps sit above what the budgets allow, so that the time budget is what binds (lower caps cut
# moves short: docs/experiments.md, games.bots.levels).
LEVELS: Final[dict[str, Level]] = {
    "easy": Level("easy", "easy"),
    "medium": Level("medium", "heuristic"),
    "hard": Level("hard", "search", seconds=0.3, iterations=12_000, wall_seconds=1.0),
    "expert": Level("expert", "search", seconds=1.0, iterations=40_000, wall_seconds=3.0),
}


def easy_choose(observation: Observation, rng: random.Random) -> Action:
    """A beginner: plays like the heuristic but often picks any honest move at random. It never cheats and
    accuses only cards it can tell were illegal, like the heuristic."""
    if rng.random() < EASY_RANDOM_SHARE:
        state = observation.filled()
        moves = [action for action in observation.legal
                 if action.kind != ACCUSE and heuristic.honest(state, action)]
        if moves and not heuristic.caught_cards(state, observation.seat):
            return moves[int(rng.random() * len(moves))]
    return heuristic.choose(observation, rng)
