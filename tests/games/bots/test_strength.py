"""The bots are as strong as they claim, on fixed seeds (so a run is reproducible, and a weaker bot fails):
the heuristic beats the random bot, and the search beats the heuristic, heads-up podkidnoy with 36 cards.
bench/bots.py measures the same with thousands of games."""

from __future__ import annotations

import random

from games.bots import BOTS, heuristic
from games.bots.arena import play_game
from games.bots.knowledge import Observation, ObservationPolicy, observe, seen_in_log
from games.bots.search import SearchBot
from games.engine import Action, Rules, State, actors, play_trusted
from games.engine.simulate import wilson_interval
from tests.games.bots.variants import new_state


def match(first: ObservationPolicy, second: ObservationPolicy, games: int, seed: str) -> tuple[int, int]:
    """Heads-up games, ``first`` on seat 0 in even games and seat 1 in odd ones: (first's wins, second's wins);
    a draw counts for neither."""
    wins = [0, 0]
    for game in range(games):
        bots = [first, second] if game % 2 == 0 else [second, first]
        state = new_state(Rules(), 2, f"{seed}-{game // 2}")  # each deal is played from both seats
        play_game(state, bots, random.Random(game), check=False)
        assert state.result is not None
        durak = state.result.durak
        if durak is not None:
            wins[1 if (durak == 0) == (game % 2 == 0) else 0] += 1
    return wins[0], wins[1]


def test_the_heuristic_beats_random_in_85_percent_of_decided_games() -> None:
    wins, losses = match(BOTS["heuristic"], BOTS["random"], 400, "strength-random")
    low, _high = wilson_interval(wins, wins + losses)
    assert wins / (wins + losses) >= 0.85, (wins, losses)
    assert low >= 0.8, (wins, losses)


def endgames(count: int, seed: str) -> list[tuple[State, list[tuple[int, Action]]]]:
    """Positions of heuristic-against-heuristic games at the first lead after the stock ran out."""
    found: list[tuple[State, list[tuple[int, Action]]]] = []
    game = 0
    while len(found) < count:
        game += 1
        state = new_state(Rules(), 2, f"{seed}-{game}")
        rng = random.Random(game)
        log: list[tuple[int, Action]] = []
        while not state.finished and (state.stock or state.attack):
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            action = BOTS["heuristic"](observe(state, seat, seen_in_log(log)), rng)
            play_trusted(state, seat, action)
            log.append((seat, action))
        if not state.finished:
            found.append((state, log))
    return found


def heuristic_rules(observation: Observation, rng: random.Random) -> Action:
    """The heuristic's rules alone, without the endgame solver the heuristic bot also uses heads-up once the
    stock is empty (both bots use that solver, so against the full heuristic the search gains little there)."""
    if len(observation.legal) == 1:
        return observation.legal[0]
    possible = [observation.possible(seat) for seat in range(observation.players)]
    return heuristic.decide(observation.filled(), observation.seat, possible)


def test_the_search_beats_the_heuristic_in_endgames() -> None:
    """Where the search matters most and costs least: each endgame is played out twice, the search (60
    iterations a move) taking each side in turn against the heuristic's rules (without its endgame solver).
    The search must win most of the decided games; the heuristic's rules against themselves would win half."""
    search = SearchBot(seconds=60.0, iterations=60)
    wins = losses = 0
    for number, (position, log) in enumerate(endgames(40, "endgame")):
        for search_seat in (0, 1):
            state = position.copy()
            bots: list[ObservationPolicy] = [search, heuristic_rules]
            if search_seat == 1:
                bots.reverse()
            rng = random.Random(number)
            seen = seen_in_log(log)
            while not state.finished:
                seats = actors(state)
                seat = seats[int(rng.random() * len(seats))]
                action = bots[seat](observe(state, seat, seen), rng)
                play_trusted(state, seat, action)
                seen |= action.cards
            assert state.result is not None
            durak = state.result.durak
            if durak is not None:
                wins += durak != search_seat
                losses += durak == search_seat
    assert wins / (wins + losses) >= 0.6, (wins, losses)
