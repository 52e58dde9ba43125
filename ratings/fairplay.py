"""Fair-play signals for directors to review (issue 10): pure functions over plain data, no Django.

Nothing here decides anything: each flag is a reason to look at the games, with the numbers that raised it.

- **Frequent pair**: two accounts whose rated games are mostly against each other (rating trading).
- **Losing pattern**: one account finishes behind one particular opponent far more often than behind
  everyone else (an account feeding another its rating).
- **Bot-like timing**: a human account whose thinking times are too quick or too regular for a person.
- **Accuracy above his rating** (game review, issue 34): an account whose mean accuracy over its analysed
  games stands far above the mean of the players rated near it in the same pool (within ``accuracy_band``),
  as lichess compares a player's accuracy with his rating's.
- **Steady accuracy**: a high mean accuracy with little spread over many analysed games; people have bad
  games, an engine does not.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

FREQUENT_PAIR = "frequent_pair"
LOSING_PATTERN = "losing_pattern"
BOT_TIMING = "bot_timing"
ACCURACY_ABOVE_RATING = "accuracy_above_rating"
STEADY_ACCURACY = "steady_accuracy"


@dataclass(frozen=True)
class RatedResult:
    """One rated game: the accounts in it by finishing place, best first (a group finished together)."""

    key: str
    places: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(player for group in self.places for player in group)


@dataclass(frozen=True)
class AccuracySample:
    """One player's accuracy (0 to 100) in one analysed rated game, with his rating in the game's pool before it."""

    user: int
    pool: int
    rating: float
    accuracy: float
    key: str = ""


@dataclass(frozen=True)
class Flag:
    kind: str
    users: tuple[int, ...]
    # How strong the signal is, 0 to 1, for ordering the list; the evidence says why.
    score: float
    evidence: dict[str, float] = field(default_factory=dict)
    games: tuple[str, ...] = ()


@dataclass(frozen=True)
class Thresholds:
    pair_min_games: int = 10
    pair_share: float = 0.5  # of the less active account's rated games
    pattern_min_games: int = 8
    pattern_loss_rate: float = 0.85  # finishes behind this one opponent
    pattern_margin: float = 0.35  # more than behind everyone else
    timing_min_moves: int = 60
    timing_max_cv: float = 0.2  # standard deviation / mean of thinking times
    timing_max_median_s: float = 0.35
    accuracy_min_games: int = 5  # analysed games of the account
    accuracy_band: float = 100.0  # peers: games of others rated within this of the account's mean rating
    accuracy_min_peer_games: int = 10
    accuracy_margin: float = 15.0  # points of accuracy above the peers' mean
    steady_min_games: int = 10
    steady_min_mean: float = 90.0
    steady_max_spread: float = 4.0  # population standard deviation of the game accuracies


def _pairs(
    results: Iterable[RatedResult],
) -> tuple[Counter[tuple[int, int]], Counter[int], dict[tuple[int, int], list[str]]]:
    together: Counter[tuple[int, int]] = Counter()
    played: Counter[int] = Counter()
    keys: dict[tuple[int, int], list[str]] = defaultdict(list)
    for result in results:
        players = sorted(set(result.players))
        played.update(players)
        for pair in combinations(players, 2):
            together[pair] += 1
            keys[pair].append(result.key)
    return together, played, keys


def frequent_pairs(results: Sequence[RatedResult], limits: Thresholds = Thresholds()) -> list[Flag]:
    together, played, keys = _pairs(results)
    flags = []
    for (first, second), count in together.items():
        if count < limits.pair_min_games:
            continue
        share = count / min(played[first], played[second])
        if share >= limits.pair_share:
            flags.append(
                Flag(
                    kind=FREQUENT_PAIR,
                    users=(first, second),
                    score=min(1.0, share),
                    evidence={"games_together": count, "share": round(share, 3),
                              "games_first": played[first], "games_second": played[second]},
                    games=tuple(keys[(first, second)][-20:]),
                )
            )  # fmt: skip
    return sorted(flags, key=lambda flag: -flag.score)


def losing_patterns(results: Sequence[RatedResult], limits: Thresholds = Thresholds()) -> list[Flag]:
    """For every ordered pair (loser, winner) that met often enough: how often the loser finished behind
    this winner, against how often he finished behind anyone else he met."""
    behind: Counter[tuple[int, int]] = Counter()  # (a, b): a finished behind b
    met: Counter[tuple[int, int]] = Counter()  # ordered, both ways
    keys: dict[tuple[int, int], list[str]] = defaultdict(list)
    for result in results:
        place_of = {player: index for index, group in enumerate(result.places) for player in group}
        for a, b in combinations(sorted(place_of), 2):
            met[(a, b)] += 1
            met[(b, a)] += 1
            keys[(min(a, b), max(a, b))].append(result.key)
            if place_of[a] > place_of[b]:
                behind[(a, b)] += 1
            elif place_of[b] > place_of[a]:
                behind[(b, a)] += 1
    opponents: dict[int, set[int]] = defaultdict(set)
    for a, b in met:
        opponents[a].add(b)
    total_met: Counter[int] = Counter()
    total_behind: Counter[int] = Counter()
    for (a, _b), count in met.items():
        total_met[a] += count
    for (a, _b), count in behind.items():
        total_behind[a] += count
    flags = []
    for (loser, winner), count in met.items():
        if count < limits.pattern_min_games:
            continue
        rate = behind[(loser, winner)] / count
        others = total_met[loser] - count
        if rate < limits.pattern_loss_rate or others < limits.pattern_min_games:
            continue
        rate_others = (total_behind[loser] - behind[(loser, winner)]) / others
        # A strong player finishes ahead of everyone: only a winner who is ordinary against the others
        # (finishes ahead of them far less often than ahead of this loser) makes a pattern.
        winner_others = total_met[winner] - count
        ahead_others = (
            sum(behind[(other, winner)] for other in opponents[winner] if other != loser) / winner_others
            if winner_others
            else 0.0
        )
        if rate - rate_others >= limits.pattern_margin and rate - ahead_others >= limits.pattern_margin:
            flags.append(
                Flag(
                    kind=LOSING_PATTERN,
                    users=(loser, winner),
                    score=min(1.0, rate - rate_others),
                    evidence={"games_together": count, "loss_rate": round(rate, 3),
                              "loss_rate_others": round(rate_others, 3), "games_others": others,
                              "winner_ahead_rate_others": round(ahead_others, 3)},
                    games=tuple(keys[(min(loser, winner), max(loser, winner))][-20:]),
                )
            )  # fmt: skip
    return sorted(flags, key=lambda flag: -flag.score)


def bot_like_timing(thinking: Mapping[int, Sequence[float]], limits: Thresholds = Thresholds()) -> list[Flag]:
    """`thinking`: per human account, seconds from the move before to his move, for moves he made himself
    (not his timer's or autopilot's)."""
    flags = []
    for user, times in thinking.items():
        if len(times) < limits.timing_min_moves:
            continue
        mean = statistics.fmean(times)
        median = statistics.median(times)
        cv = statistics.pstdev(times) / mean if mean > 0 else 0.0
        if cv <= limits.timing_max_cv or median <= limits.timing_max_median_s:
            regular = max(0.0, 1 - cv / limits.timing_max_cv) if cv <= limits.timing_max_cv else 0.0
            quick = max(0.0, 1 - median / limits.timing_max_median_s) if median <= limits.timing_max_median_s else 0.0
            flags.append(
                Flag(
                    kind=BOT_TIMING,
                    users=(user,),
                    score=max(0.5, regular, quick),
                    evidence={"moves": len(times), "median_s": round(median, 3), "cv": round(cv, 3)},
                )
            )
    return sorted(flags, key=lambda flag: -flag.score)


def _by_player(samples: Iterable[AccuracySample]) -> dict[tuple[int, int], list[AccuracySample]]:
    players: dict[tuple[int, int], list[AccuracySample]] = defaultdict(list)
    for sample in samples:
        players[(sample.user, sample.pool)].append(sample)
    return players


def accuracy_above_rating(samples: Sequence[AccuracySample], limits: Thresholds = Thresholds()) -> list[Flag]:
    """Per account and pool: his mean accuracy against the mean accuracy, in the same pool, of the other
    accounts' games played at a rating within ``accuracy_band`` of his mean rating."""
    flags = []
    for (user, pool), own in _by_player(samples).items():
        if len(own) < limits.accuracy_min_games:
            continue
        rating = statistics.fmean(sample.rating for sample in own)
        peers = [
            sample.accuracy for sample in samples
            if sample.pool == pool and sample.user != user and abs(sample.rating - rating) <= limits.accuracy_band
        ]  # fmt: skip
        if len(peers) < limits.accuracy_min_peer_games:
            continue
        mean = statistics.fmean(sample.accuracy for sample in own)
        usual = statistics.fmean(peers)
        if mean - usual >= limits.accuracy_margin:
            flags.append(
                Flag(
                    kind=ACCURACY_ABOVE_RATING,
                    users=(user,),
                    score=min(1.0, (mean - usual) / (2 * limits.accuracy_margin)),
                    evidence={"games": len(own), "mean_accuracy": round(mean, 1), "rating": round(rating),
                              "band_mean_accuracy": round(usual, 1), "band_games": len(peers)},
                    games=tuple(sample.key for sample in own[-20:] if sample.key),
                )
            )  # fmt: skip
    return sorted(flags, key=lambda flag: -flag.score)


def steady_accuracy(samples: Sequence[AccuracySample], limits: Thresholds = Thresholds()) -> list[Flag]:
    """Per account and pool: a mean accuracy of at least ``steady_min_mean`` with a spread of at most
    ``steady_max_spread`` over at least ``steady_min_games`` analysed games."""
    flags = []
    for (user, _pool), own in _by_player(samples).items():
        if len(own) < limits.steady_min_games:
            continue
        values = [sample.accuracy for sample in own]
        mean = statistics.fmean(values)
        spread = statistics.pstdev(values)
        if mean >= limits.steady_min_mean and spread <= limits.steady_max_spread:
            flags.append(
                Flag(
                    kind=STEADY_ACCURACY,
                    users=(user,),
                    score=max(0.5, 1 - spread / limits.steady_max_spread),
                    evidence={"games": len(own), "mean_accuracy": round(mean, 1), "spread": round(spread, 2)},
                    games=tuple(sample.key for sample in own[-20:] if sample.key),
                )
            )  # fmt: skip
    return sorted(flags, key=lambda flag: -flag.score)


def review(
    results: Sequence[RatedResult],
    thinking: Mapping[int, Sequence[float]],
    limits: Thresholds = Thresholds(),
    accuracies: Sequence[AccuracySample] = (),
) -> list[Flag]:
    return [
        *frequent_pairs(results, limits), *losing_patterns(results, limits), *bot_like_timing(thinking, limits),
        *accuracy_above_rating(accuracies, limits), *steady_accuracy(accuracies, limits),
    ]  # fmt: skip
