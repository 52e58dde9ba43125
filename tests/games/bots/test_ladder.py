"""The Elo ladder of bench/bots.py: the Bradley-Terry fit and the 95 % intervals it prints beside each rating."""

from __future__ import annotations

import math
import random

from bench.bots import elo_intervals, fit_elo, share_needed

TRUE = {"random": 1000.0, "easy": 1350.0, "heuristic": 1610.0, "hard": 1730.0, "search": 1850.0}
# The benchmark's heads-up podkidnoy plan: decided games per pairing, the stronger bot first.
PLAN = {
    ("easy", "random"): 2000, ("heuristic", "random"): 2000, ("heuristic", "easy"): 2000,
    ("search", "heuristic"): 240, ("search", "easy"): 20, ("search", "random"): 20, ("search", "hard"): 10,
    ("hard", "heuristic"): 20, ("hard", "easy"): 20, ("hard", "random"): 20,
}


def _share(first: str, second: str, ratings: dict[str, float]) -> float:
    return 1 / (1 + 10 ** ((ratings[second] - ratings[first]) / 400))


def _simulated(rng: random.Random) -> list[tuple[str, str, int, int]]:
    tallies = []
    for (first, second), games in PLAN.items():
        share = _share(first, second, TRUE)
        wins = sum(rng.random() < share for _ in range(games))
        tallies.append((first, second, wins, games - wins))
    return tallies


def test_two_bots_interval_is_the_binomial_standard_error_on_the_elo_scale() -> None:
    tallies = [("bot", "random", 150, 50)]
    ratings = fit_elo(tallies, anchor="random")
    # One virtual draw: 150.5 of 201 games, so the fitted share is exactly that.
    share = 150.5 / 201
    assert math.isclose(ratings["bot"], 1000 + 400 * math.log10(share / (1 - share)), abs_tol=1e-6)
    low, high = elo_intervals(tallies, ratings, anchor="random")["bot"]
    error = 400 / math.log(10) / math.sqrt(201 * share * (1 - share))
    assert math.isclose(high - ratings["bot"], 1.96 * error, rel_tol=1e-9)
    assert math.isclose(ratings["bot"] - low, 1.96 * error, rel_tol=1e-9)
    assert elo_intervals(tallies, ratings, anchor="random")["random"] == (1000.0, 1000.0)


def test_intervals_cover_the_true_ratings_about_95_times_in_100() -> None:
    rng = random.Random(7)
    trials = 200
    covered = dict.fromkeys(TRUE, 0)
    widths = []
    for _ in range(trials):
        tallies = _simulated(rng)
        ratings = fit_elo(tallies, anchor="random")
        intervals = elo_intervals(tallies, ratings, anchor="random")
        widths.append(intervals["search"][1] - intervals["search"][0])
        for name, (low, high) in intervals.items():
            covered[name] += low <= TRUE[name] <= high
    for name in ("easy", "heuristic", "hard", "search"):
        assert 0.88 <= covered[name] / trials <= 0.99, (name, covered[name])
    # The search's rating rests mostly on its 240 games against the heuristic: about +-58 Elo.
    assert 90 < sum(widths) / trials < 140


def test_a_bot_in_fewer_games_gets_a_wider_interval() -> None:
    rng = random.Random(3)
    tallies = _simulated(rng)
    ratings = fit_elo(tallies, anchor="random")
    intervals = elo_intervals(tallies, ratings, anchor="random")
    width = {name: high - low for name, (low, high) in intervals.items()}
    assert width["heuristic"] < width["search"] < width["hard"]


def test_share_needed_is_the_fewest_wins_that_reach_the_target() -> None:
    tallies = _simulated(random.Random(11))
    index = next(position for position, tally in enumerate(tallies) if tally[:2] == ("search", "heuristic"))
    decided = tallies[index][2] + tallies[index][3]
    for target in (1800.0, 1900.0, 2000.0):
        share = share_needed(tallies, "search", "heuristic", target, anchor="random")
        assert share is not None
        wins = round(share * decided)

        def rating(won: int) -> float:
            changed = list(tallies)
            changed[index] = ("search", "heuristic", won, decided - won)
            return fit_elo(changed, anchor="random")["search"]

        assert rating(wins) >= target > rating(wins - 1)
    # Out of reach: even every game won against the heuristic leaves the search under 3,000.
    assert share_needed(tallies, "search", "heuristic", 3000.0, anchor="random") is None
