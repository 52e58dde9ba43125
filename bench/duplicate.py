"""Benchmark of duplicate rounds (issue 37): how much less the final standings depend on the deal.

Many heads-up events of bots of known strength are played with the engine (no database). Three kinds of field:

- policies (the issue's figures): the 16 heuristic bots of bench.handicapped, each with its own set of four
  handicaps (habits of weaker players: no counting out the endgame, no throwing in, hoarding trumps, leading
  high), one of each in every event. A policy's true strength is measured, not assumed: its mean score
  against the other 15 on fresh deals (``calibrate``: every pair plays each deal from both sides, under the
  same way of acting as the events). They play with the defender answering before the attacker throws in
  (``ordered``: arena.play_game's ``first_listed``), so that a game is decided by the deal, the seats and the
  two policies alone: the deal is the only luck, as the issue means it ("a Swiss of seven rounds ranks luck
  nearly as much as play"), and players differ by how they play, as a championship's do. ``policy_race_``:
  the same field with the arena's draw of who acts first when both may, a luck of the play that no deal
  explains (it decides most of a game between two handicapped bots: ``policy_race_deal_share_*``).
- search bots (``search_``): the search bot capped at each of SEARCH_BUDGETS iterations a move (1 to 64),
  each budget twice in an event of 16 (``--search-budgets``: other budgets, each 16 / their number times),
  the defender first, every bot's random numbers seeded by the deal and the hand it holds
  (bench.searchers), so that a game depends on the deal, the seats and the two budgets alone, and players
  differ by degree of one style. Their strengths are calibrated as the policies' are
  (``calibrate_field``), a budget's copies sharing theirs, so the rank correlation counts ties
  (``spearman_tied``). These fields are played only when named (a search game costs about a quarter of a CPU
  second, a hundred times a policy's).
- random moves (``random_moves_`` and the other prefixes, measured first): a bot of strength s plays the
  heuristic bot's move with probability s and a random legal move otherwise, strengths spread evenly from 0
  (or 0.5, 0.8) to 1. Their luck is the random moves, not the deal (``deal_share_<s>`` is near 0 below s =
  1), so these fields cannot show what duplicate scoring takes out; they are kept as they were measured.

Strengths (or policies) are dealt to the entrants' names at random, event by event (every rating is 1500,
so the names give the pairing numbers and break the last ties: names in strength order would rank by
strength for free). Each event is played twice, with the same field, pairing program
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

- ``plain_rank_correlation``, ``duplicate_rank_correlation``: the issue's Swiss, 16 policies and 5 rounds;
- ``duplicate_tiebreak_rank_correlation``: the duplicate events ranked by points, the duplicate total
  breaking ties (the other scoring choice);
- ``duplicate_minus_plain``, ``duplicate_tiebreak_minus_plain``: the differences, event by event (plain
  and duplicate events of a number share their field, so their standard error is the paired one);
- ``policy_strength_<policy>``: the calibration (handicaps joined by "_");
- ``policy_race_*``: the same for the policies with the arena's draw of who acts;
- ``policy_round_robin_*``: the 16 policies (the defender first) in a round robin (15 rounds);
- ``random_moves_*``: the Swiss of 16 random-move bots, strengths from 0 to 1 (``plain_rank_correlation``
  and ``duplicate_rank_correlation`` before the policies' field);
- ``round_robin_*``: the same for a round robin of 10 random-move bots (9 rounds), where every entrant meets
  the same field, so that a hand's holders are compared across opponents of every strength;
- ``close_swiss_*``, ``close_round_robin_*``: the same with a close field (strengths from 0.5 to 1);
- ``strong_swiss_*``: the Swiss with strengths from 0.8 to 1, where few moves are random;
- ``deal_share_<s>``, ``policy_deal_share_<policy>``, ``policy_race_deal_share_<policy>``: how much the deal
  decides between two copies of one bot (``_deal_share``): a deal can only take out of the standings the
  luck that is the deal's (two copies of an ordered policy play a deal the same way every time: 1 by
  construction);
- ``policy_common_deal_share``, ``policy_race_common_deal_share``: how much of a game between two policies
  of the field the deal decides the same way whoever plays it (``_common_deal_share``), the part of the
  deal's luck a comparison of a hand's holders across boards can take out;
- ``search_swiss_*``, ``search_round_robin_*``: the same for the field of search bots (the Swiss of 16 and 5
  rounds, and a round robin of 15 rounds); ``search_strength_<iterations>``: their calibration (every pair
  of budgets, ``search_calibration_deals`` deals each from both sides); ``search_common_deal_share``: the
  common part of the deal's luck for this field (``search_common_deals`` deals, its standard error by
  resampling the deals); ``search_self_deal_share_<iterations>`` (``--field search_self_share``): how much
  the deal decides between two copies of one budget whose random numbers are fresh at each replay
  (``search_self_deal_share``), each budget of the field, ``search_common_deals`` deals;
- ``events``, ``games``, ``calibration_deals``; ``*_stderr``: the standard error of each mean.

Usage: ``python bench/duplicate.py [--quick] [--json PATH] [--events N] [--first N] [--workers N]
[--calibration-deals N] [--search-calibration-deals N] [--search-calibrate] [--search-strengths PATH]
[--search-common-deals N] [--search-budgets N,N,...] [--field NAME ...]`` (a field: swiss, policy_race,
policy_round_robin, random_moves, round_robin, close_swiss, close_round_robin, strong_swiss, deal_share,
search_swiss, search_round_robin, search_deal_share, search_self_share; --quick alone plays QUICK_FIELDS;
without --field every field but the search bots').
``--search-strengths PATH`` takes the search budgets' strengths from an earlier report instead of
calibrating again, so that a long run of the search field can be played in parts. ``--search-budgets``
plays every search field, its calibration and ``search_common_deal_share`` at other iteration caps (the
figures keep their names: a report of another field says so in its table, and its strengths are
``search_strength_<iterations>``).
Seeded: event n plays the same games whatever the workers; docs/experiments.md has the runs and what they say.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._common import parse_args, print_table, write_report
from bench.handicapped import all_policies, handicapped
from bench.searchers import Searcher
from games.bots import BOTS
from games.bots.arena import play_game
from games.bots.knowledge import Observation
from games.engine.actions import Action
from games.engine import deal, first_attacker_for, places
from games.engine.rules import preset_rules
from tournaments.pairing import BoardResult, Scoring, entrants_after, pair_swiss, round_robin, standings
from tournaments.pairing.duplicate import (
    Holding, duplicate_totals, hand_at, lead_seat, places_of, seat_of_hand, seeded_rotation, top_seat,
)
from tournaments.pairing.swiss import pairing_numbers

PLAYERS = 16
ROUNDS = 5
ROUND_ROBIN_PLAYERS = 10


@dataclass(frozen=True)
class Field:
    """A kind of event: its figures' prefix, its bots, Swiss or round robin, and the weakest random-move
    bot's strength (None: the field of handicapped policies, bench.handicapped, one of each); ``ordered``:
    the defender answers before the attacker throws in (else the arena draws who acts when both may);
    ``search``: the field of search bots (bench.searchers, each of SEARCH_BUDGETS twice) instead."""

    prefix: str
    players: int
    swiss: bool
    weakest: float | None
    ordered: bool = False
    search: bool = False

    @property
    def name(self) -> str:
        return self.prefix.rstrip("_") or "swiss"


# The Swiss of players who differ by policy first, then the random-move bots: the same Swiss, a round
# robin (every entrant meets the same field), each also with a close field, where the deal decides more.
FIELDS = (
    Field("", PLAYERS, True, None, ordered=True),
    Field("policy_race_", PLAYERS, True, None),
    Field("policy_round_robin_", PLAYERS, False, None, ordered=True),
    Field("random_moves_", PLAYERS, True, 0.0),
    Field("round_robin_", ROUND_ROBIN_PLAYERS, False, 0.0),
    Field("close_swiss_", PLAYERS, True, 0.5),
    Field("close_round_robin_", ROUND_ROBIN_PLAYERS, False, 0.5),
    Field("strong_swiss_", PLAYERS, True, 0.8),
    Field("search_swiss_", PLAYERS, True, None, ordered=True, search=True),
    Field("search_round_robin_", PLAYERS, False, None, ordered=True, search=True),
)
POLICIES = all_policies()
# The policies' strengths: every pair plays CALIBRATION_DEALS deals, each from both sides.
CALIBRATION_DEALS = 10
QUICK_CALIBRATION_DEALS = 1
# The deal's share: two bots of one strength (or one policy) play each of DEAL_SHARE_DEALS deals
# DEAL_SHARE_PLAYS times.
DEAL_SHARE_STRENGTHS = (0.5, 0.75, 0.9, 1.0)
DEAL_SHARE_POLICIES = ("heuristic", "throws+trumps", "endgame+throws+trumps+leads")
DEAL_SHARE_DEALS = 100
DEAL_SHARE_PLAYS = 8
# The field of search bots: the search at each of these iteration caps a move (bench.searchers: its random
# numbers the deal's), each twice in an event of PLAYERS; calibrated as the policies are, with
# SEARCH_CALIBRATION_DEALS deals a pair.
SEARCH_BUDGETS = (1, 2, 4, 8, 12, 16, 32, 64)


def search_field(budgets: Sequence[int]) -> tuple[dict[str, Searcher], list[str]]:
    """The searchers of ``budgets`` (iterations a move, distinct) by name, and the field of PLAYERS that plays
    each of them PLAYERS // len(budgets) times, copies side by side (``--search-budgets``: a field at other
    budgets; their number must divide PLAYERS)."""
    if not budgets or len(set(budgets)) != len(budgets) or PLAYERS % len(budgets) or min(budgets) < 1:
        raise ValueError(f"search budgets must be distinct, positive, and their number divide {PLAYERS}: {budgets}")
    searchers = {f"search{iterations}": Searcher(iterations) for iterations in budgets}
    return searchers, [name for name in searchers for _ in range(PLAYERS // len(searchers))]


SEARCHERS, SEARCH_FIELD = search_field(SEARCH_BUDGETS)
SEARCH_CALIBRATION_DEALS = 12
SEARCH_COMMON_DEALS = 30
EVENTS = 20
QUICK_EVENTS = 2
# --quick without --field: the Swiss, the random-move Swiss and the deal's shares (within a minute).
QUICK_FIELDS = ("swiss", "random_moves", "deal_share")
KINDS = {
    "plain": "plain deals, points",
    "duplicate": "duplicate deals, the duplicate total",
    "duplicate_tiebreak": "duplicate deals, points (the total breaks ties)",
}
RULES = preset_rules("podkidnoy")
Bot = Callable[[Observation, random.Random], Action]
# A player: a bot, or a searcher that builds its bot for each game from the deal and its hand.
Player = Bot | Searcher


def _player(strength: float) -> Bot:
    """A bot of ``strength``: the heuristic bot's move with that probability, else a random legal move."""
    heuristic, random_move = BOTS["heuristic"], BOTS["random"]

    def choose(observation: Observation, rng: random.Random) -> Action:
        return heuristic(observation, rng) if rng.random() < strength else random_move(observation, rng)

    return choose


def _play(seed: str, rotation: int, bots: Sequence[Player], rng: random.Random, *, duplicate: bool,
          ordered: bool = False) -> tuple[list[int], list[int]]:  # fmt: skip
    """One game: each seat's place (0 the best) and cards left. A duplicate board leads with the hand that
    leads the deal; a plain one with its own lowest trump. ``ordered``: when both seats may act, the defender
    answers first (arena.play_game's ``first_listed``), else the arena draws who acts. A searcher plays with
    random numbers seeded by ``seed`` and the hand it holds."""
    dealt = deal(RULES, 2, seed=seed, salt="bench", rotation=rotation)
    lead = None
    if duplicate:
        base = deal(RULES, 2, seed=seed, salt="bench")
        lead = lead_seat(first_attacker_for(RULES, base.hands, base.trump), rotation, 2)
    state = dealt.state(first_attacker=lead)
    seated = [bot.for_game(seed, hand_at(seat, rotation, 2)) if isinstance(bot, Searcher) else bot
              for seat, bot in enumerate(bots)]  # fmt: skip
    play_game(state, seated, rng, check=False, first_listed=ordered)
    return places_of(places(state), 2), [hand.bit_count() for hand in state.hands]


def _event(number: int, duplicate: bool, bots: Mapping[str, Player], *, swiss: bool = True,
           ordered: bool = False) -> tuple[list[str], list[str], int]:  # fmt: skip
    """Play one Swiss (or round robin) of ``bots`` (by entrant); the final order (best first) by its scoring,
    by points then the duplicate total, and the number of games."""
    rng = random.Random(f"{number}:{duplicate}:{swiss}")
    ratings = {entrant: 1500.0 for entrant in bots}
    history: list[list[BoardResult]] = []
    holdings: list[Holding] = []
    games = 0
    cycle = round_robin(list(bots))
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
            seat_places, cards = _play(seed, rotation, [bots[entrant] for entrant in board.entrants], rng,
                                       duplicate=duplicate, ordered=ordered)  # fmt: skip
            games += 1
            points = tuple(1.0 if place < max(seat_places) else (0.5 if min(seat_places) == max(seat_places) else 0.0)
                           for place in seat_places)  # fmt: skip
            results.append(BoardResult(entrants=board.entrants, points=points, first=board.entrants[0]))
            for seat, entrant in enumerate(board.entrants):
                holdings.append(Holding(deal=f"{round_number}", hand=(seat + rotation) % 2, holder=entrant,
                                        place=seat_places[seat], cards_left=cards[seat]))  # fmt: skip
        history.append(results)
    totals: dict[str, Fraction] | None = duplicate_totals(holdings, bots) if duplicate else None
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


def spearman_tied(order: Sequence[str], strengths: Mapping[str, float]) -> float:
    """Spearman's rho where strengths may tie (copies of one bot): the correlation of the final places with
    the strength ranks, tied strengths sharing their mean rank. Without ties it equals ``spearman``."""
    ranked = sorted(strengths, key=lambda one: -strengths[one])
    true_rank: dict[str, float] = {}
    start = 0
    while start < len(ranked):
        end = start
        while end + 1 < len(ranked) and strengths[ranked[end + 1]] == strengths[ranked[start]]:
            end += 1
        for entrant in ranked[start:end + 1]:
            true_rank[entrant] = (start + end) / 2
        start = end + 1
    places = [float(place) for place in range(len(order))]
    return statistics.correlation(places, [true_rank[entrant] for entrant in order])


def _strengths(number: int, values: Sequence[float]) -> dict[str, float]:
    """Event ``number``'s field: ``values`` dealt to the names at random (seeded by the event), so that neither
    a name's order nor its pairing number says how strong it is."""
    values = list(values)
    random.Random(f"field {number}").shuffle(values)
    return {f"e{index + 1}": value for index, value in enumerate(values)}


def _spread(players: int, weakest: float) -> list[float]:
    """Random-move strengths spread evenly from ``weakest`` to 1."""
    return [weakest + (1 - weakest) * index / (players - 1) for index in range(players)]


def _pair_of_events(task: tuple[int, Field, Mapping[str, float], tuple[int, ...]]) -> tuple[dict[str, float], int]:
    """Event ``number`` played plain and duplicate: the rank correlation of each kind, and the games played.
    ``calibrated``: the policies' strengths (keyed "ordered:name" and "race:name"), for the field of policies,
    and the searchers' ("search:name"); ``budgets``: the search field's (search_field)."""
    number, field, calibrated, budgets = task
    correlation = spearman
    players: Mapping[str, Player]
    if field.search:
        searchers, search_names = search_field(budgets)
        name_of = _strengths(number, range(len(search_names)))
        players = {entrant: searchers[search_names[int(index)]] for entrant, index in name_of.items()}
        strengths = {entrant: calibrated[f"search:{search_names[int(index)]}"] for entrant, index in name_of.items()}
        correlation = spearman_tied
    elif field.weakest is None:
        policy_of = _strengths(number, range(len(POLICIES)))
        measured = _calibration_of(calibrated, field.ordered)
        players = {entrant: handicapped(POLICIES[int(index)]) for entrant, index in policy_of.items()}
        strengths = {entrant: measured[POLICIES[int(index)]] for entrant, index in policy_of.items()}
    else:
        strengths = _strengths(number, _spread(field.players, field.weakest))
        players = {entrant: _player(strength) for entrant, strength in strengths.items()}
    plain_order, _, plain_games = _event(number, False, players, swiss=field.swiss, ordered=field.ordered)
    duplicate_order, points_order, duplicate_games = _event(number, True, players, swiss=field.swiss,
                                                            ordered=field.ordered)  # fmt: skip
    found = {
        "plain": correlation(plain_order, strengths),
        "duplicate": correlation(duplicate_order, strengths),
        "duplicate_tiebreak": correlation(points_order, strengths),
    }
    return found, plain_games + duplicate_games


def _measure(
    events: int, field: Field, calibrated: Mapping[str, float], *, workers: int, first: int = 0,
    budgets: Sequence[int] = SEARCH_BUDGETS,
) -> tuple[dict[str, list[float]], int]:
    """The rank correlations of ``events`` events of each kind: plain, duplicate by the total, duplicate by
    points (the total breaking ties); and the games played, on ``workers`` processes (``budgets``: the search
    field's)."""
    tasks = [(number, field, calibrated, tuple(budgets)) for number in range(first, first + events)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_pair_of_events, tasks))
    else:
        done = [_pair_of_events(task) for task in tasks]
    found: dict[str, list[float]] = {kind: [values[kind] for values, _ in done] for kind in KINDS}
    return found, sum(games for _, games in done)


def _score(seat_places: Sequence[int], seat: int) -> float:
    """A heads-up game's points for ``seat``: 1 a win, 1/2 a draw, 0 a loss."""
    mine, theirs = seat_places[seat], seat_places[1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _calibration_of(calibrated: Mapping[str, float], ordered: bool) -> dict[str, float]:
    """The policies' strengths under one way of acting, from ``calibrated`` keyed "ordered:name" / "race:name"."""
    mode = "ordered" if ordered else "race"
    return {name: calibrated[f"{mode}:{name}"] for name in POLICIES}


def calibrate(deals: int, *, ordered: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Each policy's true strength, measured: its mean score against the other policies of the field, every
    pair playing ``deals`` deals, each from both sides (the calibration's deals are none of the events', and
    the game is played as the field's events play it, ``ordered`` or not); and the standard error of each
    (over the policy's deals, a deal's two games taken together)."""
    return calibrate_field({name: handicapped(name) for name in POLICIES}, deals, ordered=ordered)


def calibrate_field(bots: Mapping[str, Player], deals: int, *,
                    ordered: bool) -> tuple[dict[str, float], dict[str, float]]:  # fmt: skip
    """``calibrate`` for any field of ``bots`` (by name, in the order the pairs are played)."""
    rng = random.Random("calibration")
    names = list(bots)
    per_deal: dict[str, list[float]] = {name: [] for name in names}
    for first_index, first in enumerate(names):
        for second in names[first_index + 1:]:
            for number in range(deals):
                seed = f"calibration {number}"
                both = 0.0
                for rotation in (0, 1):
                    seat_places, _ = _play(seed, rotation, [bots[first], bots[second]], rng, duplicate=True,
                                           ordered=ordered)  # fmt: skip
                    both += _score(seat_places, 0)
                per_deal[first].append(both / 2)
                per_deal[second].append(1 - both / 2)
    return ({name: statistics.mean(values) for name, values in per_deal.items()},
            {name: _stderr(values) for name, values in per_deal.items()})  # fmt: skip


def _deal_share(bot: Bot, label: str, deals: int, plays: int, *, ordered: bool = False) -> float:
    """The share of a game's outcome that the deal decides, between two copies of ``bot``: each of ``deals``
    deals is played ``plays`` times (the bots swapping hands), scoring the hand that leads 1, 1/2 or 0; the
    variance of the deals' true means (one-way random effects: the spread of the deals' means less what the
    within-deal variance puts into it) over that plus the within-deal variance."""
    return _share_of_deals(_replayed_deals(f"deal share {label}", deals, plays, lambda play: bot, ordered=ordered))


def _replayed_deals(label: str, deals: int, plays: int, player: Callable[[int], Player], *,
                    ordered: bool) -> list[list[float]]:  # fmt: skip
    """Each of ``deals`` deals played ``plays`` times by two copies of ``player(play)`` swapping hands, the
    random numbers seeded by ``label``: for each deal, the scores (1, 1/2 or 0) of the hand that leads."""
    rng = random.Random(label)
    scores = []
    for number in range(deals):
        seed = f"deal share {number}"
        base = deal(RULES, 2, seed=seed, salt="bench")
        leader = first_attacker_for(RULES, base.hands, base.trump)
        replays = []
        for play in range(plays):
            rotation = play % 2
            bot = player(play)
            seat_places, _ = _play(seed, rotation, [bot, bot], rng, duplicate=True, ordered=ordered)
            replays.append(_score(seat_places, seat_of_hand(leader, rotation, 2)))
        scores.append(replays)
    return scores


def _common_deal_share(deals: int, *, ordered: bool) -> float:
    """The share of a game's outcome between two policies of the field that is the deal's own, the same
    whoever plays it: each of ``deals`` deals is played at 8 boards, the 16 policies paired at random (seeded
    by the deal), the holder of the hand that leads scoring 1, 1/2 or 0; the variance of the deals' true
    means (the spread of the deals' means less what the within-deal variance puts into it) over the total.
    This is the luck a duplicate comparison of a hand's holders can take out; the rest is the players, and
    how the deal suits the two who play it."""
    bots = {name: handicapped(name) for name in POLICIES}
    scores = _common_deal_scores(deals, list(POLICIES), bots, random.Random(f"common deal share {ordered}"),
                                 ordered=ordered)  # fmt: skip
    return _share_of_deals(scores)


def _common_deal_scores(deals: int, field: list[str], bots: Mapping[str, Player], rng: random.Random, *,
                        ordered: bool) -> list[list[float]]:  # fmt: skip
    """``_common_deal_share``'s games: for each of ``deals`` deals, the score of the hand that leads at each
    of the boards of ``field`` (names of ``bots``, a name twice for two copies) paired at random."""
    found = []
    for number in range(deals):
        seed = f"common deal share {number}"
        base = deal(RULES, 2, seed=seed, salt="bench")
        leader = first_attacker_for(RULES, base.hands, base.trump)
        order = list(field)
        random.Random(seed).shuffle(order)
        scores = []
        for board in range(len(order) // 2):
            rotation = board % 2
            players = [bots[order[2 * board]], bots[order[2 * board + 1]]]
            seat_places, _ = _play(seed, rotation, players, rng, duplicate=True, ordered=ordered)
            scores.append(_score(seat_places, seat_of_hand(leader, rotation, 2)))
        found.append(scores)
    return found


def _share_of_deals(scores: Sequence[Sequence[float]]) -> float:
    """The deals' share of the scores' variance (one-way random effects, the deals' boards the groups)."""
    means = [statistics.mean(deal_scores) for deal_scores in scores]
    within_variance = statistics.mean([statistics.variance(deal_scores) for deal_scores in scores])
    boards = len(scores[0])
    between = max(0.0, statistics.variance(means) - within_variance / boards)
    return between / (between + within_variance) if between + within_variance else 0.0


def search_common_deal_share(deals: int, resamples: int = 1000,
                             budgets: Sequence[int] = SEARCH_BUDGETS) -> tuple[float, float]:  # fmt: skip
    """``_common_deal_share`` for the field of search bots at ``budgets`` (search_field, the defender first),
    and its standard error: the spread of the share over ``resamples`` draws of the deals with replacement."""
    searchers, search_names = search_field(budgets)
    scores = _common_deal_scores(deals, search_names, searchers, random.Random("search common deal share"),
                                 ordered=True)  # fmt: skip
    draw = random.Random("search common deal share resamples")
    shares = [_share_of_deals([scores[int(draw.random() * len(scores))] for _ in scores]) for _ in range(resamples)]
    return _share_of_deals(scores), statistics.stdev(shares)


def search_self_deal_share(iterations: int, deals: int, plays: int = DEAL_SHARE_PLAYS,
                           resamples: int = 1000) -> tuple[float, float]:  # fmt: skip
    """How much the deal decides between two copies of the search at ``iterations`` whose random numbers
    differ from replay to replay (``Searcher.stream``; the defender first): ``_deal_share`` with each of
    ``deals`` deals played ``plays`` times, the copies swapping hands, and its standard error by resampling
    the deals. With the field's seeding (the deal's numbers) two copies play a deal one way, a share of 1 by
    construction; with fresh numbers a replay measures how much of the game is the hand and how much the
    search's draws."""
    scores = _replayed_deals(f"search self deal share {iterations}", deals, plays,
                             lambda play: Searcher(iterations, stream=f"replay {play}"), ordered=True)  # fmt: skip
    draw = random.Random(f"search self deal share {iterations} resamples")
    shares = [_share_of_deals([scores[int(draw.random() * len(scores))] for _ in scores]) for _ in range(resamples)]
    return _share_of_deals(scores), statistics.stdev(shares)


def _stderr(values: list[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def _budgets(text: str) -> tuple[int, ...]:
    """``--search-budgets``: iterations a move, comma-separated, checked by search_field."""
    try:
        budgets = tuple(int(one) for one in text.split(","))
        search_field(budgets)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return budgets


def main() -> None:
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--events", type=int, default=None, help=f"events of each kind and field ({EVENTS})")
    options.add_argument("--workers", type=int, default=1, help="processes that play the events (1)")
    options.add_argument("--first", type=int, default=0, help="the first event's number (0), to extend a run")
    options.add_argument("--calibration-deals", type=int, default=None,
                         help=f"deals each pair of policies plays in the calibration ({CALIBRATION_DEALS})")
    options.add_argument("--search-calibration-deals", type=int, default=None,
                         help=f"deals each pair of search budgets plays in their calibration ({SEARCH_CALIBRATION_DEALS})")
    options.add_argument("--search-strengths", type=Path, default=None,
                         help="take the search budgets' strengths from this earlier --json report, not a new calibration")
    options.add_argument("--search-calibrate", action="store_true",
                         help="calibrate the search budgets even if no search field is played")
    options.add_argument("--search-common-deals", type=int, default=None,
                         help=f"deals of search_common_deal_share ({SEARCH_COMMON_DEALS})")
    options.add_argument("--search-budgets", type=_budgets, default=SEARCH_BUDGETS,
                         help=f"the search field's iterations a move, comma-separated, their number dividing {PLAYERS} "
                              f"({','.join(map(str, SEARCH_BUDGETS))})")
    options.add_argument("--field", action="append",
                         choices=[field.name for field in FIELDS] + ["deal_share", "search_deal_share",
                                                                     "search_self_share"],
                         help="play only this field (repeatable; all by default)")
    own, rest = options.parse_known_args()
    searchers, search_names = search_field(own.search_budgets)
    args = parse_args(__doc__.splitlines()[0], rest)
    events = own.events or (QUICK_EVENTS if args.quick else EVENTS)
    started = time.perf_counter()
    figures: dict[str, float | int] = {}
    rows: list[list[object]] = []
    games = 0
    calibrated: dict[str, float] = {}
    chosen = own.field or (QUICK_FIELDS if args.quick else None)
    # The search bots' fields cost far more a game: they are played only when named.
    wanted = [field for field in FIELDS if field.name in chosen] if chosen else [
        field for field in FIELDS if not field.search]
    deals = own.calibration_deals or (QUICK_CALIBRATION_DEALS if args.quick else CALIBRATION_DEALS)
    for ordered in sorted({field.ordered for field in wanted if field.weakest is None and not field.search}, reverse=True):
        strengths, errors = calibrate(deals, ordered=ordered)
        games += deals * len(POLICIES) * (len(POLICIES) - 1)
        figures["calibration_deals"] = deals
        prefix, how = ("policy_", "the defender first") if ordered else ("policy_race_", "who acts drawn")
        for name in sorted(POLICIES, key=lambda one: -strengths[one]):
            calibrated[f"{'ordered' if ordered else 'race'}:{name}"] = strengths[name]
            key = f"{prefix}strength_{name.replace('+', '_')}"
            figures[key] = round(strengths[name], 4)
            figures[f"{key}_stderr"] = round(errors[name], 4)
            rows.append([f"policy {name} ({how}), against the other {len(POLICIES) - 1}, {deals} deals x 2 a pair",
                         "mean score (its true strength)", figures[key], figures[f"{key}_stderr"]])  # fmt: skip
    if own.search_strengths is not None:
        earlier = json.loads(own.search_strengths.read_text())["figures"]
        for name in searchers:
            calibrated[f"search:{name}"] = earlier[f"search_strength_{name.removeprefix('search')}"]
    elif own.search_calibrate or any(field.search for field in wanted):
        search_deals = own.search_calibration_deals or (QUICK_CALIBRATION_DEALS if args.quick else SEARCH_CALIBRATION_DEALS)
        search_strengths, search_errors = calibrate_field(searchers, search_deals, ordered=True)
        games += search_deals * len(searchers) * (len(searchers) - 1)
        figures["search_calibration_deals"] = search_deals
        for name in searchers:
            calibrated[f"search:{name}"] = search_strengths[name]
            key = f"search_strength_{name.removeprefix('search')}"
            figures[key] = round(search_strengths[name], 4)
            figures[f"{key}_stderr"] = round(search_errors[name], 4)
            rows.append([f"search, {searchers[name].iterations} iterations a move, against the other "
                         f"{len(searchers) - 1} budgets, {search_deals} deals x 2 a pair",
                         "mean score (its true strength)", figures[key], figures[f"{key}_stderr"]])  # fmt: skip
    for field in wanted:
        described = (f"search bots at {','.join(map(str, own.search_budgets))} iterations, each "
                     f"{PLAYERS // len(searchers)} times, the defender first" if field.search else
                     f"policies, one of each, {'the defender first' if field.ordered else 'who acts drawn'}"
                     if field.weakest is None else f"random moves, strengths {field.weakest:g} to 1")  # fmt: skip
        label = (f"Swiss, {field.players} bots, {ROUNDS} rounds" if field.swiss else f"round robin, {field.players} bots") + (
            f", {described}")
        found, played = _measure(events, field, calibrated, workers=own.workers, first=own.first,
                                 budgets=own.search_budgets)  # fmt: skip
        games += played
        for kind, values in found.items():
            name = f"{field.prefix}{kind}_rank_correlation"
            figures[name] = round(statistics.mean(values), 4)
            figures[f"{name}_stderr"] = round(_stderr(values), 4)
            rows.append([label, KINDS[kind], figures[name], figures[f"{name}_stderr"]])
        for kind in ("duplicate", "duplicate_tiebreak"):
            # Plain and duplicate events of a number share their field: the difference's spread is paired.
            differences = [mine - plain for mine, plain in zip(found[kind], found["plain"], strict=True)]
            name = f"{field.prefix}{kind}_minus_plain"
            figures[name] = round(statistics.mean(differences), 4)
            figures[f"{name}_stderr"] = round(_stderr(differences), 4)
            rows.append([label, f"{KINDS[kind]} minus plain", figures[name], figures[f"{name}_stderr"]])
    if not chosen or "deal_share" in chosen:
        deals = 2 if args.quick else DEAL_SHARE_DEALS
        shares: list[tuple[str, str, Bot, str, bool]] = [
            (f"deal_share_{strength:g}", f"two bots of strength {strength:g}", _player(strength), str(strength), False)
            for strength in DEAL_SHARE_STRENGTHS
        ] + [
            (f"{prefix}deal_share_{name.replace('+', '_')}", f"two bots of policy {name}, {how}", handicapped(name),
             name, ordered)
            for prefix, how, ordered in (("policy_", "the defender first", True), ("policy_race_", "who acts drawn", False))
            for name in DEAL_SHARE_POLICIES
        ]  # fmt: skip
        for key, text, bot, seed, ordered in shares:
            figures[key] = round(_deal_share(bot, seed, deals, DEAL_SHARE_PLAYS, ordered=ordered), 4)
            games += deals * DEAL_SHARE_PLAYS
            rows.append([f"{text}, {deals} deals x {DEAL_SHARE_PLAYS}", "the deal's share of a game's outcome",
                         figures[key], ""])  # fmt: skip
        for prefix, how, ordered in (("policy_", "the defender first", True), ("policy_race_", "who acts drawn", False)):
            key = f"{prefix}common_deal_share"
            figures[key] = round(_common_deal_share(deals, ordered=ordered), 4)
            games += deals * len(POLICIES) // 2
            rows.append([f"the 16 policies paired at random, {how}, {deals} deals x {len(POLICIES) // 2} boards",
                         "the deal's share of a game's outcome, the same at every board", figures[key], ""])  # fmt: skip
    if chosen and "search_deal_share" in chosen:
        deals = 2 if args.quick else (own.search_common_deals or SEARCH_COMMON_DEALS)
        share, error = search_common_deal_share(deals, budgets=own.search_budgets)
        figures["search_common_deal_share"] = round(share, 4)
        figures["search_common_deal_share_stderr"] = round(error, 4)
        figures["search_common_deals"] = deals
        games += deals * len(search_names) // 2
        rows.append([f"the search field ({','.join(map(str, own.search_budgets))} iterations, each "
                     f"{PLAYERS // len(searchers)} times) paired at random, the defender "
                     f"first, {deals} deals x {len(search_names) // 2} boards",
                     "the deal's share of a game's outcome, the same at every board",
                     figures["search_common_deal_share"], figures["search_common_deal_share_stderr"]])  # fmt: skip
    if chosen and "search_self_share" in chosen:
        deals = 2 if args.quick else (own.search_common_deals or SEARCH_COMMON_DEALS)
        for name, searcher in searchers.items():
            share, error = search_self_deal_share(searcher.iterations, deals)
            key = f"search_self_deal_share_{searcher.iterations}"
            figures[key] = round(share, 4)
            figures[f"{key}_stderr"] = round(error, 4)
            games += deals * DEAL_SHARE_PLAYS
            rows.append([f"two copies of {name}, their random numbers fresh each replay, the defender first, "
                         f"{deals} deals x {DEAL_SHARE_PLAYS}", "the deal's share of a game's outcome",
                         figures[key], figures[f"{key}_stderr"]])  # fmt: skip
        figures["search_common_deals"] = deals
    figures["events"] = events
    figures["games"] = games
    summary = f"{events} events of each kind and format, " if wanted else ""
    print(f"{summary}{games} games in {time.perf_counter() - started:.0f} s")
    print_table(["event", "scoring", "rank correlation with strength", "standard error"], rows)
    if args.json:
        write_report(args.json, figures)


if __name__ == "__main__":
    main()
