"""Games between bots that decide from observations, with the whole public history: the loop of the
bots' tests and of bench/bots.py.

Like the engine's harness, when several seats may act one is drawn at random (or, asked, the first the engine
lists); unlike it, every seat's bot
is given the cards seen so far in the game (every card any action laid face up), as a seat at a live
table remembers them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Action
from games.engine.deal import deal
from games.engine.acting import actors, movers
from games.engine.play import play, play_trusted
from games.engine.rules import Rules
from games.engine.state import State

from .knowledge import GameMemory, ObservationPolicy, observe

MAX_ACTIONS = 20_000  # as the engine's harness: a bot that loops forever is stopped and reported


@dataclass
class ArenaGame:
    """How one game went: the final state, every action, and the time each seat spent deciding."""

    state: State
    actions: list[tuple[int, Action]] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # CPU seconds spent deciding, per seat
    decisions: list[int] = field(default_factory=list)  # moves decided, per seat
    longest: list[float] = field(default_factory=list)  # the longest decision, per seat


def new_state(rules: Rules, players: int, seed: str) -> State:
    return deal(rules, players, seed=seed, salt=f"{seed}:salt").state()


def play_game(
    state: State, bots: Sequence[ObservationPolicy], rng: random.Random, *, check: bool = True,
    first_listed: bool = False,
) -> ArenaGame:
    """Play ``state`` to its end in place. With ``check`` every action goes through the engine's validating
    ``play``, so an illegal move raises ``IllegalAction`` rather than passing unnoticed. With ``first_listed``
    the seat that acts, when several may, is the first the engine lists (a defender with open cards answers
    before anyone throws in) instead of one drawn at random: the game then has no luck of who is quicker."""
    record = ArenaGame(state=state, seconds=[0.0] * state.n, decisions=[0] * state.n, longest=[0.0] * state.n)
    seen = 0
    memory = GameMemory()
    while not state.finished and len(record.actions) < MAX_ACTIONS:
        # Aktobe: only the seats the game needs (moves like "how many cards?" are the bots' own choice).
        seats = movers(state) if state.special else actors(state)
        seat = seats[0] if len(seats) == 1 or first_listed else seats[int(rng.random() * len(seats))]
        observation = observe(state, seat, seen, memory.history)
        # The bot's own time, without building its observation: a garbage collection that falls there (a test
        # run's process holds many objects) would be charged to a move whose search has not begun.
        started = time.process_time()
        action = bots[seat](observation, rng)
        spent = time.process_time() - started
        memory.remember(state, seat, action, seen)
        record.seconds[seat] += spent
        record.decisions[seat] += 1
        record.longest[seat] = max(record.longest[seat], spent)
        if check:
            play(state, seat, action)
        else:
            play_trusted(state, seat, action)
        seen |= action.cards
        record.actions.append((seat, action))
    return record
