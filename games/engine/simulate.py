"""Play many games between bots and count how each seat fares: the core of ``manage.py simulate``."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .deal import deal
from .acting import actors, movers
from .play import play_trusted
from .records import Record
from .rules import Rules
from .state import State

BotPolicy = Callable[[State, int, random.Random], Action]
MAX_ACTIONS = 20_000  # no real game comes near; a bot that loops forever is stopped and reported


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval for a proportion (Wilson 1927), sound near 0 and 1 too."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SeatTally:
    wins: int = 0    # went out first (in teams: his team won)
    duraks: int = 0  # was the durak (in teams: his team lost)
    draws: int = 0


@dataclass
class Simulation:
    rules: Rules
    players: int
    bots: list[str]
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    seats: list[SeatTally] = field(default_factory=list)
    unfinished: int = 0

    def summary(self) -> dict[str, Any]:
        seats = []
        for seat, tally in enumerate(self.seats):
            row: dict[str, Any] = {"seat": seat, "bot": self.bots[seat]}
            for name, count in (("win", tally.wins), ("durak", tally.duraks), ("draw", tally.draws)):
                low, high = wilson_interval(count, self.games)
                row[name] = count / self.games if self.games else 0.0
                row[f"{name}_ci95"] = [low, high]
            seats.append(row)
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "bots": self.bots,
            "games": self.games,
            "unfinished": self.unfinished,
            "actions_per_game": self.actions / self.games if self.games else 0.0,
            "games_per_s": self.games / self.seconds if self.seconds else 0.0,
            "seats": seats,
        }


def play_game(
    state: State, policies: Sequence[BotPolicy], rng: random.Random,
    log: list[tuple[int, Action]] | None = None,
) -> int:
    """Play ``state`` to its end in place; when several seats may act, one of them is drawn at random
    (online, any eligible thrower may act at any moment). Returns the number of actions."""
    count = 0
    while not state.finished and count < MAX_ACTIONS:
        # Aktobe: the seats the game needs; moves nobody has to make ("how many cards?") are the bots' own.
        seats = movers(state) if state.special else actors(state)
        seat = seats[0] if len(seats) == 1 else seats[int(rng.random() * len(seats))]
        action = policies[seat](state, seat, rng)
        play_trusted(state, seat, action)
        if log is not None:
            log.append((seat, action))
        count += 1
    return count


def simulate(
    rules: Rules, players: int, bot_names: Sequence[str], policies: Sequence[BotPolicy], games: int,
    seed: str, *, on_record: Callable[[int, Record], None] | None = None,
    on_progress: Callable[[int, float], None] | None = None,
) -> Simulation:
    result = Simulation(rules=rules, players=players, bots=list(bot_names),
                        seats=[SeatTally() for _ in range(players)])
    started = time.perf_counter()
    for number in range(games):
        game_deal = deal(rules, players, seed=f"{seed}:{number}", salt=f"{seed}:{number}:salt")
        state = game_deal.state()
        rng = random.Random(f"{seed}:{number}:bots")
        log: list[tuple[int, Action]] | None = [] if on_record is not None else None
        result.actions += play_game(state, policies, rng, log)
        result.games += 1
        _tally(result, state)
        if on_record is not None and log is not None:
            on_record(number, Record(rules=rules, hands=game_deal.hands, stock=game_deal.stock,
                                     trump=game_deal.trump, actions=log, hidden=game_deal.hidden,
                                     hidden_trump=game_deal.hidden_trump))
        if on_progress is not None:
            on_progress(number + 1, time.perf_counter() - started)
    result.seconds = time.perf_counter() - started
    return result


def _tally(result: Simulation, state: State) -> None:
    outcome = state.result
    if outcome is None:
        result.unfinished += 1
        return
    if outcome.draw:
        for tally in result.seats:
            tally.draws += 1
        return
    losers = set(outcome.losers)
    for seat in losers:
        result.seats[seat].duraks += 1
    if outcome.losing_team:
        for seat in range(result.players):
            if seat not in losers:
                result.seats[seat].wins += 1
    elif outcome.out_order:
        result.seats[outcome.out_order[0]].wins += 1
