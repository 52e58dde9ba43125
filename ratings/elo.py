"""Elo ratings for Durak: heads-up, multi-player (pairwise by finishing order) and team games, pure.

No Django, no I/O. ``ratings/services.py`` loads ratings, calls :func:`apply_game` (or :func:`rate_game`)
and stores the result; ``manage.py ratings_recompute`` calls :func:`replay` / :func:`recompute`, which run
the very same :func:`apply_game` over the pool's games in order, so a recomputation gives bit-for-bit the
ratings the incremental updates gave. Ratings are unrounded floats (keep them in a float column, or a
recomputation stops matching) and are shown rounded half away from zero (FIDE 8.3.4).
The values here are named ``Elo*`` (:class:`EloRating`, :class:`EloGame`, :class:`EloChange`) so that they
are never taken for the rows of ``ratings/models.py`` (``PlayerRating``, ``RatedGame``, ``RatingChange``).

The formulas follow the FIDE Rating Regulations (Handbook B.02, 1 March 2024), each cited beside its code.
The deviations from FIDE, the Durak extensions (places, pairwise multi-player games, draws, teams), the
rounding policy and a worked heads-up example: docs/architecture.md, "Ratings".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

__all__ = [
    "ESTABLISHED_RATING",
    "INITIAL_RATING",
    "K_ESTABLISHED",
    "K_NEW",
    "K_STANDARD",
    "MAX_RATING_DIFFERENCE",
    "PROVISIONAL_GAMES",
    "Outcome",
    "EloRating",
    "EloGame",
    "EloChange",
    "apply_game",
    "display_delta",
    "display_rating",
    "expected_score",
    "format_rating",
    "heads_up",
    "is_provisional",
    "k_factor",
    "outcome_from_result",
    "rate_game",
    "recompute",
    "replay",
]

# Issue 6: everyone starts at 1500.
INITIAL_RATING = 1500.0
# FIDE 8.3.3 [8.56]: K = 40 "until they have completed events with at least 30 games". We count single games.
PROVISIONAL_GAMES = 30
K_NEW = 40
# FIDE 8.3.3 [8.56]: K = 20 "as long as a player's rating remains under 2400".
K_STANDARD = 20
# FIDE 8.3.3 [8.56]: K = 10 "once a player's published rating has reached 2400 ... even if the rating drops".
K_ESTABLISHED = 10
ESTABLISHED_RATING = 2400.0
# FIDE 8.3.1 [8.54]: "A difference in rating of more than 400 points shall be counted ... as 400 points."
MAX_RATING_DIFFERENCE = 400.0

P = TypeVar("P", bound=Hashable)


class EloRating(NamedTuple):
    """A player's standing in one pool.

    ``peak`` is the highest rating the player has held after any rated game (or the starting rating); it is
    kept because the K-factor stays 10 once 2400 has been reached, whatever the rating does afterwards.
    """

    rating: float = INITIAL_RATING
    games: int = 0
    peak: float = INITIAL_RATING


class EloChange(NamedTuple):
    """One player's rating before and after a game; ``after.rating == before.rating + delta``."""

    before: EloRating
    after: EloRating
    delta: float
    k: float


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a game as the rating needs it, seats numbered 0 .. n-1.

    ``places``: groups of seats in finishing order, best first; each seat appears exactly once. Seats in one
    group drew each other (they went out in the same bout); the durak's group, or the losing team, is last.
    A drawn game is a single group holding every seat.
    ``teams``: empty for every-player-for-himself games; otherwise the teams as groups of seats, each seat in
    exactly one team, and every group of ``places`` made of whole teams.
    """

    places: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class EloGame(Generic[P]):
    """A rated game of one pool: who sat where (``players[seat]``) and how it ended."""

    players: tuple[P, ...]
    outcome: Outcome


def expected_score(rating: float, opponent_rating: float) -> float:
    """Expected score of ``rating`` against ``opponent_rating``, between 0 and 1.

    Logistic Elo curve 1 / (1 + 10^(-D/400)) in place of FIDE's normal table 8.1.2 [8.1(b)], with D capped at
    400 points as FIDE 8.3.1 [8.54] does (so the expected score stays within 0.091 .. 0.909).
    """
    difference = rating - opponent_rating
    if difference > MAX_RATING_DIFFERENCE:
        difference = MAX_RATING_DIFFERENCE
    elif difference < -MAX_RATING_DIFFERENCE:
        difference = -MAX_RATING_DIFFERENCE
    expected: float = 1.0 / (1.0 + 10.0 ** (-difference / 400.0))
    return expected


def k_factor(player: EloRating) -> int:
    """The development coefficient for the player's next game (FIDE 8.3.3 [8.56])."""
    if player.games < PROVISIONAL_GAMES:
        return K_NEW
    if player.peak >= ESTABLISHED_RATING:
        return K_ESTABLISHED
    return K_STANDARD


def is_provisional(player: EloRating) -> bool:
    """Whether the rating is still provisional: fewer than 30 rated games, the same games that have K = 40.

    The rating has not settled yet; pages mark it with "?" (see :func:`format_rating`).
    """
    return player.games < PROVISIONAL_GAMES


def display_rating(rating: float) -> int:
    """A rating rounded for display, half away from zero (the rounding of FIDE 8.3.4)."""
    rounded = math.floor(abs(rating) + 0.5)
    return rounded if rating >= 0 else -rounded


def display_delta(change: EloChange) -> int:
    """A change as shown: the difference of the shown ratings, so that shown numbers add up."""
    return display_rating(change.after.rating) - display_rating(change.before.rating)


def format_rating(player: EloRating) -> str:
    """A rating as text, with "?" after a provisional one: ``1523?``."""
    return f"{display_rating(player.rating)}{'?' if is_provisional(player) else ''}"


def heads_up(score: float) -> Outcome:
    """The outcome of a heads-up game from seat 0's score: 1 (seat 1 is durak), 1/2 (draw) or 0."""
    if score == 1.0:
        return Outcome(places=((0,), (1,)))
    if score == 0.5:
        return Outcome(places=((0, 1),))
    if score == 0.0:
        return Outcome(places=((1,), (0,)))
    raise ValueError(f"a heads-up score is 1, 0.5 or 0, not {score!r}")


def _place_of_seats(places: Sequence[Sequence[int]], seats: int) -> list[int]:
    """Each seat's place index; raises ValueError unless ``places`` partitions ``range(seats)``."""
    place_of = [-1] * seats
    for index, group in enumerate(places):
        if not group:
            raise ValueError(f"place {index + 1} is an empty group")
        for seat in group:
            if not 0 <= seat < seats:
                raise ValueError(f"seat {seat} is not at a table of {seats}")
            if place_of[seat] != -1:
                raise ValueError(f"seat {seat} is placed twice")
            place_of[seat] = index
    if -1 in place_of:
        raise ValueError(f"seat {place_of.index(-1)} is not placed")
    return place_of


def _pairwise_changes(ratings: Sequence[float], ks: Sequence[float], place_of: Sequence[int]) -> list[float]:
    """Each side's change when every pair of sides plays a heads-up game scored by their places.

    FIDE 8.3.2 [8.55]: change = K * sum(score - expected); divided by the number of opponents (ours) so that a
    table weighs as much as one game. The pair's second side gets the exact negation of the first side's
    ``score - expected``, which keeps equal-K games zero-sum up to the final summation's rounding.
    """
    sides = len(ratings)
    if sides < 2:
        raise ValueError("a rated game needs at least two sides")
    surprise = [0.0] * sides
    for first in range(sides - 1):
        first_rating = ratings[first]
        first_place = place_of[first]
        for second in range(first + 1, sides):
            second_place = place_of[second]
            if first_place < second_place:
                score = 1.0
            elif first_place == second_place:
                score = 0.5
            else:
                score = 0.0
            difference = score - expected_score(first_rating, ratings[second])
            surprise[first] += difference
            surprise[second] -= difference
    opponents = sides - 1
    return [ks[side] * surprise[side] / opponents for side in range(sides)]


def _moved(player: EloRating, delta: float, k: float) -> EloChange:
    rating = player.rating + delta
    # Positional arguments and no max() call: this runs once per player per game in a recomputation.
    peak = rating if rating > player.peak else player.peak
    return EloChange(player, EloRating(rating, player.games + 1, peak), delta, k)


def rate_game(ratings: Sequence[EloRating], outcome: Outcome) -> list[EloChange]:
    """Every seat's rating change for one game; ``ratings[seat]`` is the seat's rating before the game.

    Raises ValueError when the outcome does not describe a game at a table of ``len(ratings)`` seats.
    """
    seats = len(ratings)
    place_of = _place_of_seats(outcome.places, seats)
    ks = [k_factor(player) for player in ratings]
    if not outcome.teams:
        deltas = _pairwise_changes([player.rating for player in ratings], ks, place_of)
        return [_moved(ratings[seat], deltas[seat], ks[seat]) for seat in range(seats)]

    team_of = _place_of_seats(outcome.teams, seats)
    team_ratings: list[float] = []
    team_ks: list[float] = []
    team_places: list[int] = []
    for index, team in enumerate(outcome.teams):
        # Issue 6: the team is rated by its members' average; it develops at its members' average K.
        team_ratings.append(sum(ratings[seat].rating for seat in team) / len(team))
        team_ks.append(sum(ks[seat] for seat in team) / len(team))
        team_place = {place_of[seat] for seat in team}
        if len(team_place) != 1:
            raise ValueError(f"team {index + 1} is split across places")
        team_places.append(team_place.pop())
    team_deltas = _pairwise_changes(team_ratings, team_ks, team_places)
    return [_moved(ratings[seat], team_deltas[team_of[seat]], team_ks[team_of[seat]]) for seat in range(seats)]


def apply_game(standings: MutableMapping[P, EloRating], game: EloGame[P]) -> list[EloChange]:
    """Rate one game against the current ``standings`` and store the new ratings in them.

    The one incremental step: services apply a finished game with it and :func:`replay` applies every
    game of a pool with it, which is why a recomputation matches the incremental ratings exactly. A player
    not yet in ``standings`` starts from ``EloRating()``. Returns the changes in seat order.
    """
    players = game.players
    if len(set(players)) != len(players):
        raise ValueError("a player sits at the table twice")
    fresh = EloRating()
    changes = rate_game([standings.get(player, fresh) for player in players], game.outcome)
    for player, change in zip(players, changes, strict=True):
        standings[player] = change.after
    return changes


def replay(
    games: Iterable[EloGame[P]], initial: Mapping[P, EloRating] | None = None
) -> Iterator[tuple[EloGame[P], list[EloChange]]]:
    """Apply ``games`` in order from ``initial`` (default: nobody rated yet), yielding each game's changes.

    For rewriting the per-game before/after history during a recomputation.
    """
    standings: dict[P, EloRating] = dict(initial) if initial is not None else {}
    for game in games:
        yield game, apply_game(standings, game)


def recompute(games: Iterable[EloGame[P]], initial: Mapping[P, EloRating] | None = None) -> dict[P, EloRating]:
    """Every player's rating after applying ``games`` in order from ``initial`` (default: nobody rated)."""
    standings: dict[P, EloRating] = dict(initial) if initial is not None else {}
    for game in games:
        apply_game(standings, game)
    return standings


def _seat_list(result: Mapping[str, object], key: str) -> list[int]:
    value = result.get(key)
    if not isinstance(value, list) or not all(isinstance(seat, int) for seat in value):
        raise TypeError(f"result[{key!r}] must be a list of seats")
    return [seat for seat in value if isinstance(seat, int)]


def outcome_from_result(
    result: Mapping[str, object],
    *,
    seats: int,
    teams: Sequence[Sequence[int]] | None = None,
    out_bouts: Sequence[int] | None = None,
) -> Outcome:
    """Build an :class:`Outcome` from the engine's ``result`` (DESIGN.md, "The game record").

    ``seats``: the number of seats at the table. ``teams``: the record's teams (lists of seats) in a team
    game; a decided team game can do without them (the losing team against everyone else), a drawn one
    cannot: without teams it would be rated as every player for himself.
    ``out_bouts``: parallel to ``result["out_order"]``, the number of the bout in which each of those players
    went out (any increasing numbering). The engine's result lists only the order, so the caller replays the
    game record and notes after each bout which seats have joined ``state.out``. Players with the same number
    went out in the same bout and share a place. Needed whenever two or more players went out; heads-up and
    team games do without it.
    """
    kind = result.get("outcome")
    team_groups = tuple(tuple(sorted(team)) for team in teams) if teams else ()
    if kind == "draw":
        return Outcome(places=(tuple(range(seats)),), teams=team_groups)
    if kind != "durak":
        raise ValueError(f"unknown outcome {kind!r}")

    if result.get("losing_team") is not None:
        losing = tuple(sorted(_seat_list(result, "losing_team")))
        winning = tuple(seat for seat in range(seats) if seat not in losing)
        return Outcome(places=(winning, losing), teams=team_groups or (winning, losing))

    durak = result.get("durak")
    if durak is None:
        raise ValueError("a durak outcome names the durak or the losing team")
    if not isinstance(durak, int):
        raise TypeError(f"result['durak'] must be a seat, not {durak!r}")
    out_order = _seat_list(result, "out_order")
    if sorted([*out_order, durak]) != list(range(seats)):
        raise ValueError("out_order and the durak must be every seat once")
    if out_bouts is None:
        if len(out_order) > 1:
            raise ValueError("out_bouts is needed to tell which players went out in the same bout")
        out_bouts = list(range(len(out_order)))
    if len(out_bouts) != len(out_order):
        raise ValueError("out_bouts must give one bout per player in out_order")
    if any(later < earlier for earlier, later in itertools.pairwise(out_bouts)):
        raise ValueError("out_bouts must not decrease along out_order")
    groups: list[list[int]] = []
    previous_bout: int | None = None
    for seat, bout in zip(out_order, out_bouts, strict=True):
        if bout != previous_bout:
            groups.append([])
            previous_bout = bout
        groups[-1].append(seat)
    groups.append([durak])
    return Outcome(places=tuple(tuple(group) for group in groups), teams=team_groups)
