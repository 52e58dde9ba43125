"""Round robin by the Berger tables of FIDE Handbook C.05 Annex 1, single or double.

The published tables pair the players by number 1..n (n even; with an odd field, number n is a dummy
and meeting it is a bye). Annex 1 builds them with Berger's rule, reproduced here:

- Round r (1-based) has a "pivot" p = ((r - 1) * n/2) mod (n - 1) + 1 who meets player n on board 1;
  p attacks first in odd rounds, player n in even rounds.
- The other boards pair p + k (first) against p - k (second) for k = 1 .. n/2 - 1, counting around
  the ring 1 .. n-1 (so after n-1 comes 1, and before 1 comes n-1).

For n = 6 that gives round 1: 1-6, 2-5, 3-4; round 2: 6-4, 5-3, 1-2; round 3: 2-6, 3-1, 4-5, which is
FIDE's table. The second cycle of a double round robin repeats the first with the first attack reversed.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.model import Board, EntrantId, PairingInputError

MIN_PLAYERS = 3
MAX_PLAYERS = 16


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table for ``players`` (3..16): per round, (first, second) by player number.

    An odd field is completed with a dummy numbered ``players + 1``; its games are the byes.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PairingInputError(f"Berger tables cover {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    size = players + players % 2  # C.05 Annex 1: an odd field plays as the next even one with a bye
    ring = size - 1
    half = size // 2
    rounds: list[list[tuple[int, int]]] = []
    for number in range(1, size):
        pivot = ((number - 1) * half) % ring + 1
        boards = [(pivot, size) if number % 2 == 1 else (size, pivot)]
        for step in range(1, half):
            first = (pivot - 1 + step) % ring + 1
            second = (pivot - 1 - step) % ring + 1
            boards.append((first, second))
        rounds.append(boards)
    return rounds


def round_robin(entrants: Sequence[EntrantId], *, double: bool = False) -> list[list[Board]]:
    """Every round of a round robin, entrants given in pairing-number order (the first is number 1).

    Each round lists its boards in the table's order, seat order inside each (the first attacks
    first); with an odd field the entrant drawn against the dummy has a bye, listed last. ``double``
    appends the second cycle: the same rounds with the first attack reversed.
    """
    if len(set(entrants)) != len(entrants):
        raise PairingInputError("entrant ids must be unique")
    table = berger_table(len(entrants))
    rounds: list[list[Board]] = []
    for boards in table:
        rounds.append(_round(entrants, boards, reverse=False))
    if double:
        for boards in table:
            rounds.append(_round(entrants, boards, reverse=True))
    return rounds


def _round(entrants: Sequence[EntrantId], boards: list[tuple[int, int]], *, reverse: bool) -> list[Board]:
    games: list[Board] = []
    byes: list[Board] = []
    for first, second in boards:
        if reverse:
            first, second = second, first
        if first > len(entrants):
            byes.append(Board(entrants=(entrants[second - 1],), bye=True))
        elif second > len(entrants):
            byes.append(Board(entrants=(entrants[first - 1],), bye=True))
        else:
            games.append(Board(entrants=(entrants[first - 1], entrants[second - 1])))
    return games + byes
