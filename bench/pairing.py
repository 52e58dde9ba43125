"""Benchmark of tournaments/pairing: how long a Swiss round takes to pair, and seating at tables of six.

Figures (DESIGN.md, "Benchmarks"):
- ``swiss_100_s``, ``swiss_1000_s``, ``swiss_5000_s``: wall-clock seconds for ``pair_swiss`` to pair
  round 5 of a heads-up Swiss of that many entrants, after 4 rounds paired by the same function and
  played out with results drawn from the ratings (the median of several runs of the same round).
  Target: under 2 s for 1,000 entrants.
- ``dutch_100_s``, ``dutch_1000_s``, ``dutch_5000_s``: the same for ``pair_dutch``, the exact FIDE Dutch engine
  that pairs the site's heads-up Swiss rounds (``TOURNAMENT_DUTCH_PAIRING``, on by default), every round of the
  Swiss paired by it (issue 35's targets: 1,000 entrants in under 2 s, 5,000 in under 20 s; each round's CPU
  time, and 5,000 to round 9, in bench/dutch_rounds.py).
- ``dutch_rounds_equal``: the share of rounds that ``pair_dutch`` pairs exactly as the independent engine
  ``caissify-pairings`` (a test-only dependency) pairs the same history: same pairs and the same bye, over
  random tournaments of 10 to 60 entrants (draws, forfeits, requested byes, late entries, withdrawals) played
  by ``pair_dutch`` (``tests/tournaments/pairing/dutch_oracle.py``). ``dutch_first_equal`` is the share with
  the same first attack on every board too, ``dutch_first_equal_by_number`` the same under the oracle's
  reading of C.04.3 E.4 (the higher-ranked player is the lower pairing number; FIDE ranks by score first).
  Skipped when the oracle is not installed.
- ``rematches``: pairings that repeat an earlier meeting, counted over every round paired above (all
  five rounds of every field size). Must be 0.
- ``tables_600_s``: seconds for ``seat_tables`` to seat round 5 of 600 entrants at tables of 6, after 4
  rounds seated the same way. Target: under 2 s.

- ``standings_queries_1000``: database queries for the tournament page (its standings of every entrant,
  the current round's pairings) of a finished 1,000-entrant Swiss, played through tournaments.services
  (manage.py simulate_tournament --fast, rolled back) in a throwaway test database. The same page of a
  100-entrant Swiss is counted too (``standings_queries_100``): the number must not grow with the field.
  ``standings_page_1000_s`` is that page's rendering time.

Usage: ``python bench/pairing.py [--quick] [--json PATH]``. ``--quick`` times each round once instead
of taking the median of three. Seeded: the same run pairs the same rounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if not __package__:
    # Run as `python bench/pairing.py`, this script's folder comes first on sys.path: put the repository
    # root there instead, as `python -m bench.pairing` has it.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._common import parse_args, print_table, write_report
from tournaments.pairing import (
    Board,
    BoardResult,
    EntrantState,
    entrants_after,
    pair_swiss,
    repeat_meetings,
    seat_tables,
)
from tournaments.pairing.dutch import pair_dutch

SEED = 7
STANDINGS_SIZES = (100, 1000)
SWISS_SIZES = (100, 1000, 5000)
DUTCH_SIZES = (100, 1000, 5000)
DUTCH_SEEDS = range(1, 11)  # the oracle's tournaments: 10 to 60 entrants, 5 to 9 rounds
DUTCH_QUICK_SEEDS = range(2, 4)
TABLE_ENTRANTS = 600
TABLE_SIZE = 6
TIMED_ROUND = 5
DRAW_RATE = 0.1  # heads-up Durak draws (nobody left holding cards) are rare


def _ratings(count: int, rng: random.Random) -> dict[str, float]:
    return {f"e{index}": float(rng.randint(1000, 2400)) for index in range(count)}


def _expected(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def _play_heads_up(pairings: Sequence[Board], ratings: dict[str, float], rng: random.Random) -> list[BoardResult]:
    results = []
    for pairing in pairings:
        if pairing.bye:
            results.append(BoardResult(entrants=pairing.entrants, points=(1.0,), bye=True))
            continue
        first, second = pairing.entrants
        if rng.random() < DRAW_RATE:
            points = (0.5, 0.5)
        elif rng.random() < _expected(ratings[first], ratings[second]):
            points = (1.0, 0.0)
        else:
            points = (0.0, 1.0)
        results.append(BoardResult(entrants=pairing.entrants, points=points, first=first))
    return results


def _play_table(pairings: Sequence[Board], ratings: dict[str, float], rng: random.Random) -> list[BoardResult]:
    """Places by rating plus luck; points by place, the durak (last) scoring 0."""
    results = []
    for table in pairings:
        order = sorted(table.entrants, key=lambda entrant: -ratings[entrant] + rng.gauss(0, 250))
        points = {entrant: float(len(order) - 1 - place) for place, entrant in enumerate(order)}
        results.append(
            BoardResult(entrants=table.entrants, points=tuple(points[e] for e in table.entrants), first=table.entrants[0])
        )
    return results


def _rematches(entrants: Sequence[EntrantState], pairings: Sequence[Board]) -> int:
    met = {entrant.id: set(entrant.opponents) for entrant in entrants}
    return sum(1 for pairing in pairings if not pairing.bye and pairing.entrants[1] in met[pairing.entrants[0]])


def _timed(pair: Callable[[], list[Board]], repeats: int) -> tuple[float, list[Board]]:
    """Median wall-clock seconds of ``repeats`` calls, and what the last call returned."""
    seconds = []
    pairings: list[Board] = []
    for _ in range(repeats):
        start = time.perf_counter()
        pairings = pair()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), pairings


def swiss(count: int, repeats: int) -> tuple[float, int, list[float]]:
    """(seconds for round 5, rematches over rounds 1-5, seconds of rounds 1-4) for a Swiss of ``count``."""
    rng = random.Random(SEED + count)
    ratings = _ratings(count, rng)
    results: list[list[BoardResult]] = []
    rematches = 0
    earlier: list[float] = []
    for _ in range(TIMED_ROUND - 1):
        entrants = entrants_after(ratings, results)
        start = time.perf_counter()
        pairings = pair_swiss(entrants)
        earlier.append(time.perf_counter() - start)
        rematches += _rematches(entrants, pairings)
        results.append(_play_heads_up(pairings, ratings, rng))
    entrants = entrants_after(ratings, results)
    seconds, pairings = _timed(lambda: pair_swiss(entrants), repeats)
    rematches += _rematches(entrants, pairings)
    return seconds, rematches, earlier


def dutch(count: int, repeats: int) -> tuple[float, int]:
    """(seconds for round 5, rematches over rounds 1-5) for a Swiss of ``count`` paired by ``pair_dutch``."""
    rng = random.Random(SEED + count)
    ratings = _ratings(count, rng)
    results: list[list[BoardResult]] = []
    rematches = 0
    for _ in range(TIMED_ROUND - 1):
        entrants = entrants_after(ratings, results)
        pairings = pair_dutch(entrants)
        rematches += _rematches(entrants, pairings)
        results.append(_play_heads_up(pairings, ratings, rng))
    entrants = entrants_after(ratings, results)
    seconds, pairings = _timed(lambda: pair_dutch(entrants), repeats)
    return seconds, rematches + _rematches(entrants, pairings)


def dutch_equal(seeds: Sequence[int]) -> tuple[int, int, int, int] | None:
    """(rounds, identical pairs, identical first attack, identical under the oracle's E.4) over the seeded
    tournaments; None without the oracle."""
    try:
        from tests.tournaments.pairing.dutch_oracle import play_and_compare
    except ImportError:
        return None
    checks = [check for seed in seeds for check in play_and_compare(seed)]
    return (
        len(checks), sum(check.pairs_equal for check in checks), sum(check.first_equal for check in checks),
        sum(check.first_equal_by_number for check in checks),
    )  # fmt: skip


def tables(count: int, repeats: int) -> tuple[float, int]:
    """(seconds to seat round 5, repeat meetings at round 5's tables) for ``count`` entrants at tables of 6."""
    rng = random.Random(SEED)
    ratings = _ratings(count, rng)
    results: list[list[BoardResult]] = []
    for _ in range(TIMED_ROUND - 1):
        seating = seat_tables(entrants_after(ratings, results), table_size=TABLE_SIZE)
        results.append(_play_table(seating, ratings, rng))
    entrants = entrants_after(ratings, results)
    seconds, seating = _timed(lambda: seat_tables(entrants, table_size=TABLE_SIZE), repeats)
    return seconds, repeat_meetings(entrants, seating)


def standings_pages(sizes: Sequence[int], rounds: int) -> dict[int, tuple[int, float]]:
    """(queries, seconds) of the tournament page of a finished Swiss of each size, in a test database."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from tournaments.models import Tournament
    from tournaments.simulation import SimulationOptions, simulate

    setup_test_environment()
    database = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    measured: dict[int, tuple[int, float]] = {}
    try:
        for size in sizes:

            def page(event: Tournament, size: int = size) -> None:
                client = Client()
                client.get(reverse("tournaments:detail", args=[event.pk]))  # warm: templates, translations
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    response = client.get(reverse("tournaments:detail", args=[event.pk]))
                    seconds = time.perf_counter() - start
                if response.status_code != 200 or response.content.count(b"data-entrant=") != size:
                    raise RuntimeError(f"the page of {size} entrants did not list them all")
                measured[size] = (len(queries), seconds)

            simulate(SimulationOptions(players=size, rounds=rounds, seed=SEED, fast=True), inspect=page)
    finally:
        connection.creation.destroy_test_db(database, verbosity=0)
    return measured


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "pairing benchmark", argv)
    repeats = 1 if args.quick else 3
    figures: dict[str, float | int] = {}
    rows: list[list[object]] = []
    rematches = 0
    for count in SWISS_SIZES:
        seconds, round_rematches, earlier = swiss(count, repeats)
        rematches += round_rematches
        figures[f"swiss_{count}_s"] = round(seconds, 4)
        rows.append([f"swiss_{count}_s", round(seconds, 4), f"rounds 1-4: {', '.join(f'{s:.2f}' for s in earlier)} s"])
    for count in DUTCH_SIZES:
        seconds, dutch_rematches = dutch(count, repeats)
        figures[f"dutch_{count}_s"] = round(seconds, 4)
        note = f"pair_dutch, round {TIMED_ROUND}; {dutch_rematches} rematches"
        rows.append([f"dutch_{count}_s", round(seconds, 4), note])
    equal = dutch_equal(DUTCH_QUICK_SEEDS if args.quick else DUTCH_SEEDS)
    if equal is None:
        rows.append(["dutch_rounds_equal", "-", "caissify-pairings is not installed"])
    else:
        total, same_pairs, same_first, same_by_number = equal
        for name, same in (
            ("dutch_rounds_equal", same_pairs), ("dutch_first_equal", same_first),
            ("dutch_first_equal_by_number", same_by_number),
        ):  # fmt: skip
            figures[name] = round(same / total, 4)
            rows.append([name, round(same / total, 4), f"{same} of {total} rounds like caissify-pairings"])
    figures["rematches"] = rematches
    rows.append(["rematches", rematches, f"over rounds 1-{TIMED_ROUND} of every field; must be 0"])
    seconds, repeats_at_tables = tables(TABLE_ENTRANTS, repeats)
    figures["tables_600_s"] = round(seconds, 4)
    rows.append(["tables_600_s", round(seconds, 4), f"round {TIMED_ROUND}, {repeats_at_tables} repeat meetings"])
    pages = standings_pages(STANDINGS_SIZES, rounds=1 if args.quick else TIMED_ROUND)
    for size, (queries, _seconds) in pages.items():
        figures[f"standings_queries_{size}"] = queries
        rows.append([f"standings_queries_{size}", queries, f"the tournament page of {size} entrants"])
    figures["standings_page_1000_s"] = round(pages[1000][1], 4)
    rows.append(["standings_page_1000_s", round(pages[1000][1], 4), "rendering that page"])
    print_table(["figure", "value", "note"], rows)
    if args.json:
        write_report(args.json, figures)


if __name__ == "__main__":
    main()
