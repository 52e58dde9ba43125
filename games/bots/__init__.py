"""Bot policies: pure Python, each a function ``(state, seat, rng) -> Action`` that picks one of the
seat's legal actions. Policies look only at what the seat may know; the random policy looks at
nothing but its own legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.actions import Action
from games.engine.state import State

from . import random_bot

Policy = Callable[[State, int, random.Random], Action]

POLICIES: dict[str, Policy] = {
    "random": random_bot.choose,
}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(POLICIES))}") from None
