"""Simulated tournaments for the pairing tests: results drawn from ratings, withdrawals, late entries."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.pairing import Board, BoardResult, EntrantState, entrants_after, pair_swiss


def expected(rating: float, other: float) -> float:
    """Elo's expected score, so that stronger entrants win more often."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def play(
    pairings: Sequence[Board],
    ratings: Mapping[str, float],
    rng: random.Random,
    *,
    draws: float = 0.1,
    forfeits: float = 0.0,
) -> list[BoardResult]:
    """Results of a heads-up round: a win, a draw (``draws``, one game in ten) or a loss, by rating; a share
    ``forfeits`` of the boards is not played (a forfeit, won by either side at even odds)."""
    results = []
    for pairing in pairings:
        if pairing.bye:
            results.append(BoardResult(entrants=pairing.entrants, points=(1.0,), bye=True))
            continue
        first, second = pairing.entrants
        chance = expected(ratings[first], ratings[second])
        draw = rng.random()
        if draw < forfeits:
            points = (1.0, 0.0) if rng.random() < 0.5 else (0.0, 1.0)
            results.append(BoardResult(entrants=pairing.entrants, points=points, forfeit=True))
            continue
        if draw < forfeits + draws:
            points = (0.5, 0.5)
        elif rng.random() < chance:
            points = (1.0, 0.0)
        else:
            points = (0.0, 1.0)
        results.append(BoardResult(entrants=pairing.entrants, points=points, first=first))
    return results


@dataclass
class PairedRound:
    """What the pairing saw before a round and what it made."""

    entrants: list[EntrantState]
    pairings: list[Board]
    withdrawn: set[str] = field(default_factory=set)


def run_swiss(
    ratings: Mapping[str, float],
    rounds: int,
    rng: random.Random,
    *,
    withdrawals: Mapping[int, Sequence[str]] | None = None,
    late_entries: Mapping[int, Mapping[str, float]] | None = None,
) -> tuple[list[PairedRound], list[list[BoardResult]]]:
    """Pair and play ``rounds`` rounds; ``withdrawals`` / ``late_entries`` take effect before a round."""
    field_ratings = dict(ratings)
    withdrawn: set[str] = set()
    history: list[PairedRound] = []
    results: list[list[BoardResult]] = []
    for number in range(1, rounds + 1):
        withdrawn.update((withdrawals or {}).get(number, ()))
        field_ratings.update((late_entries or {}).get(number, {}))
        entrants = entrants_after(field_ratings, results, withdrawn=withdrawn)
        pairings = pair_swiss(entrants)
        history.append(PairedRound(entrants, pairings, set(withdrawn)))
        results.append(play(pairings, field_ratings, rng))
    return history, results
