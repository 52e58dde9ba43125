"""Bots that differ by how they play, not by random moves: the heuristic bot with graded handicaps, for
bench/duplicate.py's field of players whose luck is the deal's.

Each handicap is a rule over the position alone (no random draw), a habit of a weaker club player:

- ``endgame``: plays the heuristic's move with the stock empty instead of the endgame solver's proven one
  (he does not count the last cards out);
- ``throws``: never throws in a card he may keep (he passes whenever passing is legal);
- ``trumps``: takes rather than cover with a trump while the stock lasts (he hoards his trumps);
- ``leads``: leads his highest plain card, not his cheapest rank, while the stock lasts (he spends his
  good cards early).

A player's policy is a set of handicaps; the 16 sets of the four make a field of 16 policies. Apart from
the arena's draw of who acts first when two seats may (games.bots.arena.play_game, unless ``first_listed``)
and the heuristic's random move in a game gone on past LONG_GAME_BOUTS bouts, a game between two of them is
decided by the deal and the seats, so that, as between a championship's players, the deal is the luck. Their strengths are not assumed from the number of handicaps but measured (bench/duplicate.py's
calibration).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import combinations

from games.bots import heuristic
from games.bots.knowledge import Observation
from games.engine.actions import ATTACK, COVER, PASS, TAKE, THROW, Action

HANDICAPS = ("endgame", "throws", "trumps", "leads")
PASS_ACTION = Action(PASS)
TAKE_ACTION = Action(TAKE)


def policy_name(handicaps: Iterable[str]) -> str:
    """A policy's name: its handicaps joined by "+", or "heuristic" for none."""
    chosen = [handicap for handicap in HANDICAPS if handicap in set(handicaps)]
    return "+".join(chosen) if chosen else "heuristic"


def all_policies() -> list[str]:
    """Every set of HANDICAPS, by name: the heuristic first, then by how many handicaps."""
    return [policy_name(chosen) for size in range(len(HANDICAPS) + 1) for chosen in combinations(HANDICAPS, size)]


def handicapped(name: str) -> Callable[[Observation, random.Random], Action]:
    """The bot of policy ``name`` (``policy_name``): the heuristic's move, changed as its handicaps say."""
    handicaps = set() if name == "heuristic" else set(name.split("+"))
    unknown = handicaps - set(HANDICAPS)
    if unknown:
        raise ValueError(f"unknown handicaps {sorted(unknown)}: choose from {', '.join(HANDICAPS)}")
    solves = "endgame" not in handicaps
    no_throws, hoards_trumps, leads_high = "throws" in handicaps, "trumps" in handicaps, "leads" in handicaps

    def choose(observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if solves:
            action = heuristic.choose(observation, rng)
            state = observation.filled()
        else:
            state = observation.filled()
            routine = heuristic.routine_move(observation, state, rng)
            if routine is not None:
                return routine
            possible = [observation.possible(other) for other in range(observation.players)]
            action = heuristic.decide(state, observation.seat, possible)
        kind = action.kind
        if no_throws and kind == THROW and PASS_ACTION in legal:
            return PASS_ACTION
        if hoards_trumps and kind == COVER and state.stock and action.cards & heuristic.dear_cards(state):
            if TAKE_ACTION in legal:
                return TAKE_ACTION
        if leads_high and kind == ATTACK and not state.attack and state.stock:
            plain = observation.hand & ~heuristic.dear_cards(state)
            if plain:
                highest = Action(ATTACK, 1 << (plain.bit_length() - 1))
                if highest in legal:
                    return highest
        return action

    return choose
