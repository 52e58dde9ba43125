"""Benchmark of duplicate rounds (issue 37): how much less the final standings depend on the deal.

Many heads-up events of bots of known strength are played with the engine (no database): a bot of strength s
plays the heuristic bot's move with probability s and a random legal move otherwise, the field's strengths
spread evenly from 0 to 1 (or 0.5 to 1: a close field) and dealt to the entrants' names at random, event by
event (every rating is 1500, so the names give the pairing numbers and break the last ties: names in strength
order would rank by strength for free). Each event is played twice, with the same field, pairing program
(tournaments.pairing.pair_swiss, or a round robin) and rules (podkidnoy, 36 cards):

- plain: every board is dealt a shuffle of its own, the lowest trump leads, and the standings rank by points
  then the Swiss tie-breaks, as a tournament does today;
- duplicate: every board of a round is dealt the round's shuffle, each board's top seed holding hand 0, 1,
  0, 1 going down the boards (pairing.duplicate.seeded_rotation, as the service deals), the hand that leads
  (the lowest trump of the deal) leading at every board, and the standings rank by the duplicate total
  (matchpoints against the other holders of the same hand; tournaments.pairing.duplicate), points breaking
  its ties.

Figures (Spearman's rank correlation between the final standings and the bots' true strengths, the mean over
the events, 1 = the standings are the strength order):

- ``plain_rank_correlation``, ``duplicate_rank_correlation``: a Swiss of 16 bots and 5 rounds, as above;
- ``duplicate_tiebreak_rank_correlation``: the duplicate events ranked by points, the duplicate total
  breaking ties (the other scoring choice);
- ``round_robin_*``: the same three for a round robin of 10 bots (9 rounds), where every entrant meets the
  same field, so that a hand's holders are compared across opponents of every strength;
- ``close_swiss_*``, ``close_round_robin_*``: the same with a close field (strengths from 0.5 to 1), where the
  deal decides more of each game;
- ``strong_swiss_*``: the Swiss with strengths from 0.8 to 1, where few moves are random;
- ``deal_share_<s>``: how much the deal decides between two bots of strength s (``_deal_share``): a deal can
  only take out of the standings the luck that is the deal's;
- ``events``, ``games``: how many events of each kind and format, and games in all; ``*_stderr``: the
  standard error of each mean (plain and duplicate events share their field but are dealt apart; a
  difference's standard error is taken as the root of the sum of the two squares, as if independent).

Usage: ``python bench/duplicate.py [--quick] [--json PATH] [--events N] [--first N] [--workers N] [--field NAME ...]``
(a field: swiss, round_robin, close_swiss, close_round_robin). Seeded: event n plays the same games whatever
the workers; docs/experiments.md has the runs and what they say.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._common import parse_args, print_table, write_report
from games.bots import BOTS
from games.bots.arena import play_game
from games.bots.knowledge import Observation
from games.engine.actions import Action
from games.engine import deal, first_attacker_for, places
from games.engine.rules import preset_rules
from tournaments.pairing import BoardResult, Scoring, entrants_after, pair_swiss, round_robin, standings
from tournaments.pairing.duplicate import (
    Holding, duplicate_totals, lead_seat, places_of, seat_of_hand, seeded_rotation, top_seat,
)
from tournaments.pairing.swiss import pairing_numbers

PLAYERS = 16
ROUNDS = 5
ROUND_ROBIN_PLAYERS = 10
# (figure prefix, bots, Swiss or round robin, the weakest bot's strength): the Swiss first, then a round
# robin (every entrant meets the same field), each also with a close field, where the deal decides more.
FIELDS = (
    ("", PLAYERS, True, 0.0),
    ("round_robin_", ROUND_ROBIN_PLAYERS, False, 0.0),
    ("close_swiss_", PLAYERS, True, 0.5),
    ("close_round_robin_", ROUND_ROBIN_PLAYERS, False, 0.5),
    ("strong_swiss_", PLAYERS, True, 0.8),
)
# The deal's share: two bots of one strength play each of DEAL_SHARE_DEALS deals DEAL_SHARE_PLAYS times.
DEAL_SHARE_STRENGTHS = (0.5, 0.75, 0.9, 1.0)
DEAL_SHARE_DEALS = 100
DEAL_SHARE_PLAYS = 8
EVENTS = 20
QUICK_EVENTS = 2
KINDS = {
    "plain": "plain deals, points",
    "duplicate": "duplicate deals, the duplicate total",
    "duplicate_tiebreak": "duplicate deals, points (the total breaks ties)",
}
RULES = preset_rules("podkidnoy")


def _player(strength: float) -> Callable[[Observation, random.Random], Action]:
    """A bot of ``strength``: the heuristic bot's move with that probability, else a random legal move."""
    heuristic, random_move = BOTS["heuristic"], BOTS["random"]

    def choose(observation: Observation, rng: random.Random) -> Action:
        return heuristic(observation, rng) if rng.random() < strength else random_move(observation, rng)

    return choose


def _play(seed: str, rotation: int, bots: Sequence[Callable[[Observation, random.Random], Action]],
          rng: random.Random, *, duplicate: bool) -> tuple[list[int], list[int]]:  # fmt: skip
    """One game: each seat's place (0 the best) and cards left. A duplicate board leads with the hand that
    leads the deal; a plain one with its own lowest trump."""
    dealt = deal(RULES, 2, seed=seed, salt="bench", rotation=rotation)
    lead = None
    if duplicate:
        base = deal(RULES, 2, seed=seed, salt="bench")
        lead = lead_seat(first_attacker_for(RULES, base.hands, base.trump), rotation, 2)
    state = dealt.state(first_attacker=lead)
    play_game(state, bots, rng, check=False)
    return places_of(places(state), 2), [hand.bit_count() for hand in state.hands]


def _event(
    number: int, duplicate: bool, strengths: Mapping[str, float], *, swiss: bool = True
) -> tuple[list[str], list[str], int]:
    """Play one Swiss (or round robin); the final order (best first) by its scoring, by points then the
    duplicate total, and the number of games."""
    rng = random.Random(f"{number}:{duplicate}:{swiss}")
    ratings = {entrant: 1500.0 for entrant in strengths}
    players = {entrant: _player(strength) for entrant, strength in strengths.items()}
    history: list[list[BoardResult]] = []
    holdings: list[Holding] = []
    games = 0
    cycle = round_robin(list(strengths))
    seeds = pairing_numbers(ratings)
    for round_number in range(1, (ROUNDS if swiss else len(cycle)) + 1):
        boards = pair_swiss(entrants_after(ratings, history)) if swiss else cycle[round_number - 1]
        played = [board for board in boards if not board.bye]
        rotations = [seeded_rotation(index, top_seat([seeds[entrant] for entrant in board.entrants]), 2)
                     for index, board in enumerate(played)]  # fmt: skip
        round_seed = f"event {number} round {round_number}"
        results = [BoardResult(entrants=board.entrants, points=(1.0,), bye=True) for board in boards if board.bye]
        for index, board in enumerate(played):
            rotation = rotations[index] if duplicate else 0
            seed = round_seed if duplicate else f"{round_seed} board {index}"
            seat_places, cards = _play(seed, rotation, [players[entrant] for entrant in board.entrants], rng,
                                       duplicate=duplicate)  # fmt: skip
            games += 1
            points = tuple(1.0 if place < max(seat_places) else (0.5 if min(seat_places) == max(seat_places) else 0.0)
                           for place in seat_places)  # fmt: skip
            results.append(BoardResult(entrants=board.entrants, points=points, first=board.entrants[0]))
            for seat, entrant in enumerate(board.entrants):
                holdings.append(Holding(deal=f"{round_number}", hand=(seat + rotation) % 2, holder=entrant,
                                        place=seat_places[seat], cards_left=cards[seat]))  # fmt: skip
        history.append(results)
    totals: dict[str, Fraction] | None = duplicate_totals(holdings, strengths) if duplicate else None
    ranked = standings(ratings, history, scoring=Scoring(), duplicate=totals, by_duplicate=duplicate)
    by_points = standings(ratings, history, scoring=Scoring(), duplicate=totals)
    return _order(ranked), _order(by_points), games


def _order(lines: Sequence[object]) -> list[str]:
    return [line.entrant for line in lines]  # type: ignore[attr-defined]


def spearman(order: Sequence[str], strengths: Mapping[str, float]) -> float:
    """Spearman's rho between the final order (best first) and the strengths (strongest first)."""
    true_rank = {entrant: rank for rank, entrant in enumerate(sorted(strengths, key=lambda one: -strengths[one]))}
    count = len(order)
    squares = sum((rank - true_rank[entrant]) ** 2 for rank, entrant in enumerate(order))
    return 1 - 6 * squares / (count * (count * count - 1))


def _strengths(number: int, players: int, weakest: float) -> dict[str, float]:
    """Event ``number``'s field: strengths spread evenly from ``weakest`` to 1, dealt to the names at random
    (seeded by the event), so that neither a name's order nor its pairing number says how strong it is."""
    values = [weakest + (1 - weakest) * index / (players - 1) for index in range(players)]
    random.Random(f"field {number}").shuffle(values)
    return {f"e{index + 1}": value for index, value in enumerate(values)}


def _pair_of_events(task: tuple[int, int, bool, float]) -> tuple[dict[str, float], int]:
    """Event ``number`` played plain and duplicate: the rank correlation of each kind, and the games played."""
    number, players, swiss, weakest = task
    strengths = _strengths(number, players, weakest)
    plain_order, _, plain_games = _event(number, False, strengths, swiss=swiss)
    duplicate_order, points_order, duplicate_games = _event(number, True, strengths, swiss=swiss)
    found = {
        "plain": spearman(plain_order, strengths),
        "duplicate": spearman(duplicate_order, strengths),
        "duplicate_tiebreak": spearman(points_order, strengths),
    }
    return found, plain_games + duplicate_games


def _measure(
    events: int, players: int, *, swiss: bool, weakest: float, workers: int, first: int = 0
) -> tuple[dict[str, list[float]], int]:
    """The rank correlations of ``events`` events of each kind: plain, duplicate by the total, duplicate by
    points (the total breaking ties); and the games played, on ``workers`` processes."""
    tasks = [(number, players, swiss, weakest) for number in range(first, first + events)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_pair_of_events, tasks))
    else:
        done = [_pair_of_events(task) for task in tasks]
    found: dict[str, list[float]] = {kind: [values[kind] for values, _ in done] for kind in KINDS}
    return found, sum(games for _, games in done)


def _deal_share(strength: float, deals: int, plays: int) -> float:
    """The share of a game's outcome that the deal decides, between two bots of ``strength``: each of ``deals``
    deals is played ``plays`` times (the bots swapping hands), scoring the hand that leads 1, 1/2 or 0; the
    variance of the deals' true means (one-way random effects: the spread of the deals' means less what the
    within-deal variance puts into it) over that plus the within-deal variance."""
    bot = _player(strength)
    rng = random.Random(f"deal share {strength}")
    means, within = [], []
    for number in range(deals):
        seed = f"deal share {number}"
        base = deal(RULES, 2, seed=seed, salt="bench")
        leader = first_attacker_for(RULES, base.hands, base.trump)
        scores = []
        for play in range(plays):
            rotation = play % 2
            seat_places, _ = _play(seed, rotation, [bot, bot], rng, duplicate=True)
            mine, theirs = seat_places[seat_of_hand(leader, rotation, 2)], seat_places[seat_of_hand(1 - leader, rotation, 2)]
            scores.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        means.append(statistics.mean(scores))
        within.append(statistics.variance(scores))
    within_variance = statistics.mean(within)
    between = max(0.0, statistics.variance(means) - within_variance / plays)
    return between / (between + within_variance) if between + within_variance else 0.0


def _stderr(values: list[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def main() -> None:
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--events", type=int, default=None, help=f"events of each kind and field ({EVENTS})")
    options.add_argument("--workers", type=int, default=1, help="processes that play the events (1)")
    options.add_argument("--first", type=int, default=0, help="the first event's number (0), to extend a run")
    options.add_argument("--field", action="append",
                         choices=[prefix.rstrip("_") or "swiss" for prefix, *_ in FIELDS] + ["deal_share"],
                         help="play only this field (repeatable; all by default)")
    own, rest = options.parse_known_args()
    args = parse_args(__doc__.splitlines()[0], rest)
    events = own.events or (QUICK_EVENTS if args.quick else EVENTS)
    started = time.perf_counter()
    figures: dict[str, float | int] = {}
    rows = []
    games = 0
    for prefix, players, swiss, weakest in FIELDS:
        if own.field and (prefix.rstrip("_") or "swiss") not in own.field:
            continue
        label = (f"Swiss, {players} bots, {ROUNDS} rounds" if swiss else f"round robin, {players} bots") + (
            f", strengths {weakest:g} to 1")
        found, played = _measure(events, players, swiss=swiss, weakest=weakest, workers=own.workers, first=own.first)
        games += played
        for kind, values in found.items():
            figures[f"{prefix}{kind}_rank_correlation"] = round(statistics.mean(values), 4)
            figures[f"{prefix}{kind}_rank_correlation_stderr"] = round(_stderr(values), 4)
            rows.append([label, KINDS[kind], figures[f"{prefix}{kind}_rank_correlation"],
                         figures[f"{prefix}{kind}_rank_correlation_stderr"]])  # fmt: skip
    if not own.field or "deal_share" in own.field:
        deals = 2 if args.quick else DEAL_SHARE_DEALS
        for strength in DEAL_SHARE_STRENGTHS:
            figures[f"deal_share_{strength:g}"] = round(_deal_share(strength, deals, DEAL_SHARE_PLAYS), 4)
            games += deals * DEAL_SHARE_PLAYS
            rows.append([f"two bots of strength {strength:g}, {deals} deals x {DEAL_SHARE_PLAYS}",
                         "the deal's share of a game's outcome", figures[f"deal_share_{strength:g}"], ""])  # fmt: skip
    figures["events"] = events
    figures["games"] = games
    print(f"{events} events of each kind and format, {games} games in {time.perf_counter() - started:.0f} s")
    print_table(["event", "scoring", "rank correlation with strength", "standard error"], rows)
    if args.json:
        write_report(args.json, figures)


if __name__ == "__main__":
    main()
