"""Benchmark of ratings/elo.py: recomputation speed of one pool, and prediction quality against OpenSkill.

Figures (DESIGN.md, "Benchmarks"):
- ``recompute_games``, ``recompute_s``: wall-clock seconds for ``ratings.elo.recompute`` over that many
  synthetic rated games of one pool (4-player tables), games built beforehand as ``manage.py
  ratings_recompute`` would load them. Target: 1,000,000 games in under 60 s on one core.
- ``logloss_elo``, ``logloss_openskill``, ``brier_elo``, ``brier_openskill``: quality of each game's
  pre-game prediction on a synthetic population with known strengths, our Elo against openskill's
  Plackett-Luce model, both updated after every game of the same sequence (see PREDICTION below).

Usage: ``python bench/ratings.py [--quick] [--json PATH]``. Seeded: the same run gives the same games.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

if not __package__:
    # Run as `python bench/ratings.py`, this script's folder comes first on sys.path and this very file would
    # hide the ratings package: put the repository root there instead, as `python -m bench.ratings` has it.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._common import parse_args, print_table, write_report
from ratings.elo import EloGame, EloRating, Outcome, apply_game, expected_score, recompute

SEED = 6

# The synthetic Durak: a player's performance in a game is his hidden strength plus Gaussian luck; players
# go out in order of performance. Adjacent performances closer than TIE_MARGIN go out in the same bout
# (a shared place); if the last group holds two or more players nobody is durak: a drawn game, rated as a
# draw for the whole table (as ratings.elo.outcome_from_result does). Strengths are Elo-scaled: with luck
# of 200 points per player (Elo's own normal model), a 200-point stronger player finishes ahead 76 % of
# the time.
STRENGTH_MEAN = 1500.0
STRENGTH_SPREAD = 150.0
LUCK = 200.0
TIE_MARGIN = 20.0

PREDICTION = (
    "Predicted: before each game is rated, for every pair of players at the table (lower seat first),\n"
    "the probability that the first finishes ahead of the second (goes out in an earlier bout, or the\n"
    "other is the durak). Elo: the FIDE-capped logistic expected score; OpenSkill: PlackettLuce.predict_win\n"
    "of the two players. Pairs that finished level (same bout, or a drawn game) are left out.\n"
    "log-loss = mean of -ln(probability given to the actual order); Brier = mean of (p - y)^2, y = 1 if\n"
    "the first finished ahead. Lower is better; a coin flip scores 0.6931 and 0.2500.\n"
    "Context rows, not figures: 'OpenSkill, PL pairwise' is the same OpenSkill ratings read through the\n"
    "Plackett-Luce likelihood they were fitted with, 1 / (1 + exp((mu_b - mu_a) / c)), c over the table;\n"
    "'true strengths' is P(performance_a > performance_b) from the hidden strengths, the best possible."
)


@dataclass(frozen=True)
class Sizes:
    recompute_games: int
    recompute_players: int
    other_pool_games: int
    population: int
    games_per_pool: int


FULL = Sizes(
    recompute_games=1_000_000,
    recompute_players=20_000,
    other_pool_games=100_000,
    population=500,
    games_per_pool=25_000,
)
QUICK = Sizes(
    recompute_games=100_000, recompute_players=5_000, other_pool_games=0, population=200, games_per_pool=3_000
)


def finishing_places(performances: Sequence[float]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by finishing place from their performances, best first, as rated by ratings.elo."""
    order = sorted(range(len(performances)), key=lambda seat: -performances[seat])
    groups: list[list[int]] = [[order[0]]]
    for previous, seat in zip(order, order[1:], strict=False):
        if performances[previous] - performances[seat] < TIE_MARGIN:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    if len(groups[-1]) > 1:
        # Nobody is left holding cards alone: a drawn game, a draw for everyone at the table.
        return (tuple(range(len(performances))),)
    return tuple(tuple(group) for group in groups)


def synthetic_games(
    rng: random.Random, strengths: Sequence[float], count: int, seats: int, teams: bool = False
) -> list[EloGame[int]]:
    """``count`` games of one pool between players drawn uniformly from ``strengths``."""
    players = range(len(strengths))
    games: list[EloGame[int]] = []
    gauss = rng.gauss
    for _ in range(count):
        table = tuple(rng.sample(players, seats))
        performances = [strengths[player] + gauss(0.0, LUCK) for player in table]
        if teams:
            # 2v2: partners on seats 0, 2 and 1, 3; a team's performance is its members' sum.
            team_performances = [performances[0] + performances[2], performances[1] + performances[3]]
            team_places = finishing_places(team_performances)
            pairs = ((0, 2), (1, 3))
            places = tuple(tuple(seat for team in group for seat in pairs[team]) for group in team_places)
            outcome = Outcome(places=places, teams=pairs)
        else:
            outcome = Outcome(places=finishing_places(performances))
        games.append(EloGame(players=table, outcome=outcome))
    return games


def with_progress(games: Sequence[EloGame[int]], label: str) -> Iterator[EloGame[int]]:
    """Yield the games, reporting progress on standard error every tenth of the way."""
    step = max(len(games) // 10, 1)
    # On a terminal the line is rewritten in place; in a log each report is a line of its own.
    start, end = ("\r", "") if sys.stderr.isatty() else ("", "\n")
    started = time.perf_counter()
    for index, game in enumerate(games):
        if index and index % step == 0:
            elapsed = time.perf_counter() - started
            print(
                f"{start}  {label}: {index:,} / {len(games):,} games, {elapsed:.1f} s",
                end=end,
                file=sys.stderr,
            )
        yield game
    elapsed = time.perf_counter() - started
    print(f"{start}  {label}: {len(games):,} games done in {elapsed:.1f} s{' ' * 10}", file=sys.stderr)


def time_recompute(games: Sequence[EloGame[int]], label: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one recomputation; CPU time shows how much a busy machine slowed it."""
    started, started_cpu = time.perf_counter(), time.process_time()
    standings = recompute(with_progress(games, label))
    elapsed, elapsed_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    if sum(rating.games for rating in standings.values()) != sum(len(game.players) for game in games):
        raise AssertionError("recompute lost games")
    return elapsed, elapsed_cpu


@dataclass
class Score:
    """Running log-loss and Brier sums over predicted pairs."""

    pairs: int = 0
    log_loss: float = 0.0
    brier: float = 0.0

    def add(self, probability_first_ahead: float, first_ahead: bool) -> None:
        # Clamp so that a confident model's miss costs a large but finite amount.
        p = min(max(probability_first_ahead, 1e-12), 1 - 1e-12)
        self.pairs += 1
        self.log_loss -= math.log(p if first_ahead else 1 - p)
        self.brier += (p - (1.0 if first_ahead else 0.0)) ** 2

    def merged(self, other: Score) -> Score:
        return Score(self.pairs + other.pairs, self.log_loss + other.log_loss, self.brier + other.brier)

    @property
    def mean_log_loss(self) -> float:
        return self.log_loss / self.pairs

    @property
    def mean_brier(self) -> float:
        return self.brier / self.pairs


@dataclass
class PoolScores:
    elo: Score
    openskill: Score
    openskill_pl: Score
    oracle: Score
    elo_late: Score
    openskill_late: Score


def decisive_pairs(outcome: Outcome) -> Iterable[tuple[int, int, bool]]:
    """(first seat, second seat, first finished ahead) for every pair at the table that did not tie."""
    place_of = {seat: index for index, group in enumerate(outcome.places) for seat in group}
    seats = sorted(place_of)
    for position, first in enumerate(seats):
        for second in seats[position + 1 :]:
            if place_of[first] != place_of[second]:
                yield first, second, place_of[first] < place_of[second]


def score_pool(games: Sequence[EloGame[int]], strengths: Sequence[float], label: str) -> PoolScores:
    """Predict every game with both models before rating it with both; the second half is also kept apart."""
    from openskill.models import PlackettLuce  # imported here so that the recompute part runs without it

    model = PlackettLuce()
    skill = {player: model.rating() for player in range(len(strengths))}
    standings: dict[int, EloRating] = {}
    scores = PoolScores(Score(), Score(), Score(), Score(), Score(), Score())
    fresh = EloRating()
    oracle_spread = LUCK * math.sqrt(2.0)
    for index, game in enumerate(with_progress(games, label)):
        late = index >= len(games) // 2
        table = game.players
        # PlackettLuce rates a table with the likelihood exp(mu / c) / sum(exp(mu / c)), whose pairwise
        # marginal is logistic in (mu_a - mu_b) / c; predict_win instead applies a normal CDF.
        table_c = math.sqrt(sum(skill[player].sigma ** 2 + model.beta**2 for player in table))
        for first, second, first_ahead in decisive_pairs(game.outcome):
            one, other = table[first], table[second]
            elo_p = expected_score(standings.get(one, fresh).rating, standings.get(other, fresh).rating)
            openskill_p = model.predict_win([[skill[one]], [skill[other]]])[0]
            openskill_pl_p = 1.0 / (1.0 + math.exp((skill[other].mu - skill[one].mu) / table_c))
            scores.openskill_pl.add(openskill_pl_p, first_ahead)
            oracle_p = 0.5 * (1.0 + math.erf((strengths[one] - strengths[other]) / oracle_spread / math.sqrt(2)))
            scores.elo.add(elo_p, first_ahead)
            scores.openskill.add(openskill_p, first_ahead)
            scores.oracle.add(oracle_p, first_ahead)
            if late:
                scores.elo_late.add(elo_p, first_ahead)
                scores.openskill_late.add(openskill_p, first_ahead)
        apply_game(standings, game)
        place_of = {seat: place for place, group in enumerate(game.outcome.places) for seat in group}
        rated = model.rate([[skill[player]] for player in table], ranks=[place_of[seat] for seat in range(len(table))])
        for player, (new_skill,) in zip(table, rated, strict=True):
            skill[player] = new_skill
    return scores


def main() -> None:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "ratings benchmark")
    sizes = QUICK if args.quick else FULL
    rng = random.Random(SEED)

    print(f"Recompute: ratings.elo.recompute over one pool, {sizes.recompute_games:,} games (4-player tables)")
    strengths = [rng.gauss(STRENGTH_MEAN, STRENGTH_SPREAD) for _ in range(sizes.recompute_players)]
    started = time.perf_counter()
    pool = synthetic_games(rng, strengths, sizes.recompute_games, seats=4)
    print(f"  built the games in {time.perf_counter() - started:.1f} s (not counted)", file=sys.stderr)
    recompute_s, recompute_cpu_s = time_recompute(pool, "4-player pool")
    del pool
    rows: list[list[object]] = [
        ["4-player tables", sizes.recompute_games, recompute_s, recompute_cpu_s, sizes.recompute_games / recompute_s]
    ]
    if sizes.other_pool_games:
        # For comparison, the cheapest and the dearest pools, timed on fewer games and scaled to 1,000,000.
        scale = 1_000_000 / sizes.other_pool_games
        for label, seats, teams in (("heads-up", 2, False), ("2v2", 4, True), ("6-player tables", 6, False)):
            games = synthetic_games(rng, strengths, sizes.other_pool_games, seats=seats, teams=teams)
            seconds, cpu_seconds = time_recompute(games, label)
            rows.append(
                [f"{label} (scaled to 1M)", 1_000_000, seconds * scale, cpu_seconds * scale, len(games) / seconds]
            )
    print_table(["pool", "games", "seconds", "CPU seconds", "games/s"], rows)

    print()
    print(
        f"Prediction: {sizes.population} players, strength ~ N({STRENGTH_MEAN:.0f}, {STRENGTH_SPREAD:.0f}), "
        f"luck ~ N(0, {LUCK:.0f}) per game, same bout if within {TIE_MARGIN:.0f}; "
        f"{sizes.games_per_pool:,} games per pool"
    )
    print(PREDICTION)
    population = [rng.gauss(STRENGTH_MEAN, STRENGTH_SPREAD) for _ in range(sizes.population)]
    heads_up_games = synthetic_games(rng, population, sizes.games_per_pool, seats=2)
    four_player_games = synthetic_games(rng, population, sizes.games_per_pool, seats=4)
    heads_up = score_pool(heads_up_games, population, "heads-up pool")
    four_player = score_pool(four_player_games, population, "4-player pool")
    both_elo = heads_up.elo.merged(four_player.elo)
    both_openskill = heads_up.openskill.merged(four_player.openskill)
    rows = []
    for pool_label, scores in (("heads-up", heads_up), ("4-player", four_player)):
        rows.append(["Elo", pool_label, "all", scores.elo.pairs, scores.elo.mean_log_loss, scores.elo.mean_brier])
        rows.append(
            [
                "OpenSkill",
                pool_label,
                "all",
                scores.openskill.pairs,
                scores.openskill.mean_log_loss,
                scores.openskill.mean_brier,
            ]
        )
        for model_label, late in (("Elo", scores.elo_late), ("OpenSkill", scores.openskill_late)):
            rows.append([model_label, pool_label, "2nd half", late.pairs, late.mean_log_loss, late.mean_brier])
        pl = scores.openskill_pl
        rows.append(["OpenSkill, PL pairwise", pool_label, "all", pl.pairs, pl.mean_log_loss, pl.mean_brier])
        oracle = scores.oracle
        rows.append(["true strengths", pool_label, "all", oracle.pairs, oracle.mean_log_loss, oracle.mean_brier])
    rows.append(["Elo", "both", "all", both_elo.pairs, both_elo.mean_log_loss, both_elo.mean_brier])
    rows.append(
        [
            "OpenSkill",
            "both",
            "all",
            both_openskill.pairs,
            both_openskill.mean_log_loss,
            both_openskill.mean_brier,
        ]
    )
    print_table(["model", "pool", "games", "pairs", "log-loss", "Brier"], rows)
    better = "OpenSkill" if both_openskill.mean_log_loss < both_elo.mean_log_loss else "Elo"
    print(f"Better log-loss over both pools: {better}")

    figures: dict[str, float | int] = {
        "recompute_games": sizes.recompute_games,
        "recompute_s": round(recompute_s, 3),
        "logloss_elo": round(both_elo.mean_log_loss, 5),
        "logloss_openskill": round(both_openskill.mean_log_loss, 5),
        "brier_elo": round(both_elo.mean_brier, 5),
        "brier_openskill": round(both_openskill.mean_brier, 5),
    }
    if args.json:
        write_report(args.json, figures)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
