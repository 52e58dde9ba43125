"""Choosing a bot seat's move: the level's bot sees only what the seat may know (games.bots.knowledge).

A level that ``games.bots.LEVELS`` does not name falls back to the random bot, which looks at nothing but its
own legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import games.bots as bots
from games.bots.knowledge import GameMemory, game_in_log, infers, observe, seen_in_log
from games.engine import Action, State

AUTOPILOT_LEVEL = "medium"


def bot_action(
    *, state: State, seat: int, level: str, log: list[dict[str, Any]], rng: random.Random,
    dealt: Callable[[], State] | None = None,
) -> Action:
    """The level's move for ``seat``. ``dealt`` gives the state as dealt (asked for only by a level that reads
    the game's history, games.bots.Level.reads_history, in a game whose steps are evidence,
    games.bots.knowledge.infers): the search then reads the other player's moves since the deal as evidence of
    his hand (games.bots.knowledge.GameMemory); without it the bot does without."""
    if level not in bots.LEVELS:
        fallback: Action = bots.get_policy("random")(state, seat, rng)
        return fallback
    choose = bots.policy_for_level(level)  # looked up on the package at each call, so a test may wrap it
    reads_history = bots.LEVELS[level].reads_history
    memory = game_in_log(dealt(), log) if dealt is not None and reads_history and infers(state) else GameMemory()
    observation = observe(state, seat, seen_in_log(log), memory.history)
    action: Action = choose(observation, rng)
    return action
