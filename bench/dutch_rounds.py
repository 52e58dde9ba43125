"""CPU seconds of every round of bench/pairing.py's heads-up Swiss paired by the exact Dutch engine, and a hash
of each round's boards (to check that a faster engine pairs exactly as before).

The tournament is bench/pairing.py's (its seed, ratings and results), every round paired by ``pair_dutch``;
each call is timed with ``time.process_time`` (CPU, not wall clock: the machine is shared).

Usage: ``python bench/dutch_rounds.py SIZE [SIZE ...] [--rounds N]``; one line a round:
``size round seconds hash``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench.pairing import SEED, _play_heads_up, _ratings
from games.engine._compiled import check_fresh
from tournaments.pairing import BoardResult, entrants_after
from tournaments.pairing.dutch import pair_dutch


def run(count: int, rounds: int) -> None:
    rng = random.Random(SEED + count)
    ratings = _ratings(count, rng)
    results: list[list[BoardResult]] = []
    for number in range(1, rounds + 1):
        entrants = entrants_after(ratings, results)
        start = time.process_time()
        boards = pair_dutch(entrants)
        seconds = time.process_time() - start
        digest = hashlib.sha256(repr([(b.entrants, b.bye) for b in boards]).encode()).hexdigest()[:16]
        print(f"{count} {number} {seconds:.3f} {digest}", flush=True)
        results.append(_play_heads_up(boards, ratings, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    check_fresh()  # the pairing package does not import the engine, whose import runs this guard
    for size in args.sizes:
        run(size, args.rounds)


if __name__ == "__main__":
    main()
