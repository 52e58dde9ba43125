"""Choosing a bot seat's move: the level's bot sees only what the seat may know (games.bots.knowledge).

The bots issue may not have landed every level yet; a level without a bot falls back to the random bot,
which looks at nothing but its own legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import Action, State

AUTOPILOT_LEVEL = "medium"


def bot_action(
    *, state: State, seat: int, level: str, log: list[dict[str, Any]], rng: random.Random,
    dealt: Callable[[], State] | None = None,
) -> Action:
    """The level's move for ``seat``. ``dealt`` gives the state as dealt (asked for only by a level that reads
    the bout, games.bots.Level.reads_bout, in a game whose bouts are evidence, games.bots.knowledge.infers):
    the search then reads the other player's moves as evidence of his hand (games.bots.knowledge.BoutMemory:
    the current bout's and the whole game's); without it the bot does without."""
    import games.bots as bots

    policy_for_level = getattr(bots, "policy_for_level", None)
    if policy_for_level is not None:
        try:
            choose = policy_for_level(level)
        except ValueError:
            choose = None
        if choose is not None:
            from games.bots.knowledge import BoutMemory, game_in_log, infers, observe, seen_in_log

            reads_bout = bots.LEVELS[level].reads_bout
            memory = game_in_log(dealt(), log) if dealt is not None and reads_bout and infers(state) else BoutMemory()
            observation = observe(state, seat, seen_in_log(log), memory.steps, memory.history)
            action: Action = choose(observation, rng)
            return action
    fallback: Action = bots.get_policy("random")(state, seat, rng)
    return fallback
