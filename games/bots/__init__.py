"""Bot policies, by name and by level, for every variant the engine plays.

Two signatures:
- A bot decides from an ``Observation`` (``games.bots.knowledge``): ``choose(observation, rng) -> Action``.
  ``BOTS`` maps each name to such a function; it never sees the game's state, so it cannot peek.
- The engine's harness (``manage.py simulate``, ``games.engine.simulate``) calls a policy as
  ``(state, seat, rng) -> Action``; ``POLICIES`` holds the same bots behind ``registry_policy``, which builds
  the seat's observation from the state and remembers the cards seen in that game.

A bot always returns one of ``observation.legal``. It never cheats and accuses only cards it can tell were
illegal; when the engine makes it act with no honest move (a cheating table), it makes the least harmful one.
Levels (``LEVELS``, ``policy_for_level``): easy (random moves mixed with the heuristic's), medium (the
heuristic), hard (search, 0.3 CPU s a move, at most 1 s of wall clock), expert (search, 1 CPU s, at most 3 s).
How the live service builds a bot's observation: docs/architecture.md, "Bots".
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.actions import Action
from games.engine.state import State

from . import heuristic, random_bot
from .knowledge import Observation, ObservationPolicy, registry_policy
from .levels import LEVELS, Level, easy_choose
from .search import SearchBot

__all__ = [
    "BOTS", "LEVELS", "POLICIES", "Level", "Observation", "ObservationPolicy", "Policy", "SearchBot", "get_policy",
    "policy_for_level",
]

Policy = Callable[[State, int, random.Random], Action]


def _random(observation: Observation, rng: random.Random) -> Action:
    """The random bot on an observation: any legal action, accusing only now and then. Under Aktobe's rules
    a filled state does not know everything legality depends on (the lowest trump the first leader held), so
    the bot picks among the observation's own legal moves."""
    if observation.rules.special:
        actions = list(observation.legal)
        return actions[int(rng.random() * len(actions))]
    return random_bot.choose(observation.filled(), observation.seat, rng)


def _level_bot(level: Level) -> ObservationPolicy:
    """The bot of a level, as ``LEVELS`` (the one table of levels) describes it."""
    if level.bot == "search":
        return SearchBot(seconds=level.seconds, iterations=level.iterations, wall_seconds=level.wall_seconds)
    return {"easy": easy_choose, "heuristic": heuristic.choose}[level.bot]


# The bots by name: the engines, then one per level (a level's name is a bot's name); "search" is the expert's.
BOTS: dict[str, ObservationPolicy] = {
    "random": _random,
    "heuristic": heuristic.choose,
    **{name: _level_bot(level) for name, level in LEVELS.items()},
    "search": _level_bot(LEVELS["expert"]),
}

POLICIES: dict[str, Policy] = {
    # The random bot reads nothing but its own legal actions; it stays the engine's fast compiled function.
    "random": random_bot.choose,
    **{name: registry_policy(bot) for name, bot in BOTS.items() if name != "random"},
}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(POLICIES))}") from None


def policy_for_level(level: str) -> ObservationPolicy:
    """The bot of a level a player picks at a table: easy, medium, hard or expert."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    return BOTS[level]
