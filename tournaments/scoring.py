"""Points of a game and of a match: pure functions over plain values, used by tournaments.services.

A pairing's entrants are numbered by *position* (0 attacks first in its first game). A game seats them
(a team's members take several seats), and its result is the engine's ``places``: groups of seats, best
first. From that:

- Heads-up and teams, a game is worth 1 to the side that won it, 1/2 each for a draw (game points); the
  match goes to the side with more game points: ``win`` points, a tie ``draw`` each, a loss 0.
- Tables: each game gives points by place (``place_points``: first place first; the durak always 0;
  by default k-1, k-2, ..., 1 at a table of k). Players who share a place share its points: the average
  of the places they span. The match points are the sum over the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What one game gave each pairing position: game points, a durak finish, epaulettes hung."""

    points: tuple[float, ...]
    durak: tuple[int, ...]
    epaulettes: tuple[int, ...]

    def as_json(self) -> dict[str, list[float] | list[int]]:
        return {"points": list(self.points), "durak": list(self.durak), "epaulettes": list(self.epaulettes)}


def points_by_place(size: int, configured: Sequence[float] = ()) -> list[Fraction]:
    """The points of places 1..size at a table of ``size``; the last place (the durak) scores 0."""
    if configured:
        values = [Fraction(value).limit_denominator(1000) for value in configured[: size - 1]]
        values += [Fraction(0)] * (size - 1 - len(values))
    else:
        values = [Fraction(size - place) for place in range(1, size)]
    return [*values, Fraction(0)]


def _seat_points(places: Sequence[Sequence[int]], by_place: Sequence[Fraction]) -> dict[int, Fraction]:
    """Each seat's points: a group of seats sharing a place shares the points of the places it spans."""
    points: dict[int, Fraction] = {}
    place = 0
    for group in places:
        spanned = by_place[place : place + len(group)]
        share = sum(spanned, Fraction(0)) / len(group)
        for seat in group:
            points[seat] = share
        place += len(group)
    return points


def game_outcome(
    *,
    places: Sequence[Sequence[int]],
    seats: Sequence[int],
    positions: int,
    table: bool,
    epaulettes_by: int | None = None,
    place_points: Sequence[float] = (),
) -> GameOutcome:
    """Score one game. ``seats[s]`` is the pairing position playing seat ``s``; ``epaulettes_by`` the seat
    that hung epaulettes, if any. Heads-up and teams score by side (1, 1/2, 0), tables by place."""
    durak = [0] * positions
    if len(places) > 1:
        for seat in places[-1]:
            durak[seats[seat]] = 1
    hung = [0] * positions
    if epaulettes_by is not None:
        hung[seats[epaulettes_by]] = 1
    totals = [Fraction(0)] * positions
    if table:
        for seat, value in _seat_points(places, points_by_place(len(seats), place_points)).items():
            totals[seats[seat]] += value
    elif len(places) == 1:
        totals = [Fraction(1, 2)] * positions
    else:
        losers = {seats[seat] for seat in places[-1]}
        totals = [Fraction(0) if position in losers else Fraction(1) for position in range(positions)]
    return GameOutcome(points=tuple(float(value) for value in totals), durak=tuple(durak), epaulettes=tuple(hung))


def match_points(game_points: Sequence[float], *, table: bool, win: float, draw: float) -> list[float]:
    """The match result from each position's summed game points: tables keep the sum; heads-up and
    teams give the side with more ``win``, a tie ``draw`` each, the other side 0."""
    if table:
        return list(game_points)
    first, second = game_points
    if first == second:
        return [draw, draw]
    return [win, 0.0] if first > second else [0.0, win]


def forfeit_points(
    forfeited: Sequence[bool], *, table: bool, win: float, place_points: Sequence[float] = (), games: int = 1
) -> list[float]:
    """Points when some positions forfeit and nobody plays: the forfeiters 0; heads-up the other side
    wins the match; at a table each player present scores the first place's points in every game of
    the match (a forfeit win)."""
    if all(forfeited):
        return [0.0] * len(forfeited)
    if table:
        first = float(points_by_place(len(forfeited), place_points)[0]) * games
        return [0.0 if gone else first for gone in forfeited]
    return [0.0 if gone else win for gone in forfeited]


def first_attacker_seat(game_number: int, seats: int) -> int:
    """The seat that leads game ``game_number`` (1-based) of a pairing: it goes round the seats, so that
    heads-up the first attack alternates and at a table every seat leads in turn."""
    return (game_number - 1) % seats


def game_seating(positions: int, team_size: int, game_number: int) -> list[tuple[int, int]]:
    """(pairing position, member of that entrant) at each seat of game ``game_number`` (1-based).

    Heads-up and tables: seat s is position s, the entrant himself (member 0). Teams (two positions):
    partners sit apart, so the seats alternate the two teams (RULES.md, Teams: even seats against odd
    seats), and game by game each team's members move one seat round, so that another member leads."""
    if team_size <= 1:
        return [(position, 0) for position in range(positions)]
    shift = (game_number - 1) % team_size
    return [(seat % 2, (seat // 2 + shift) % team_size) for seat in range(2 * team_size)]
