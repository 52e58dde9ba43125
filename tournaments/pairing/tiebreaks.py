"""Tie-breaks and standings after FIDE's Tie-Break Regulations (Handbook C.07, 2023), plus Durak's own.

Sources: "Play-off and Tie-Break Regulations", FIDE Handbook C.07, applied from 1 September 2023; each
tie-break names its article beside it. The article numbers are as we read that text (the August 2024
edition kept them): check one against the Handbook before quoting it. Every value is computed in exact
fractions and given out as a float, so that equal values compare equal whatever the order of the sum.

Unplayed rounds (byes, forfeits, absences) count as C.07 art. 16 says: an opponent's later voluntarily
unplayed rounds as draws (16.3), the entrant's own as a game against a dummy opponent with his own final
points (16.4), and a cut drops such a round first (14). Tables of three to six, which FIDE does not cover,
count each round as one value, the mean over the table's opponents; heads-up every tie-break reduces to
FIDE's definition. The details: docs/architecture.md, "Tie-breaks".
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.pairing.duplicate import DUPLICATE_TOTAL
from tournaments.pairing.model import EntrantId, PairingInputError, Round


class TieBreak(enum.Enum):
    """The tie-breaks a tournament can list, by the names the standings JSON uses."""

    BUCHHOLZ = "buchholz"  # C.07 8.1
    BUCHHOLZ_CUT1 = "buchholz_cut1"  # C.07 8.1 with 14.1 (Cut-1)
    MEDIAN_BUCHHOLZ = "median_buchholz"  # C.07 8.1 with 14.3 (Median-1)
    SONNEBORN_BERGER = "sonneborn_berger"  # C.07 9.1
    PROGRESSIVE = "progressive"  # C.07 7.5
    DIRECT_ENCOUNTER = "direct_encounter"  # C.07 6
    WINS = "wins"  # C.07 7.1 (WIN: with or without playing)
    GAMES_WON = "games_won"  # C.07 7.2 (WON: over the table)
    AVERAGE_RATING_OF_OPPONENTS = "average_rating_of_opponents"  # C.07 10.1
    DURAK_FINISHES = "durak_finishes"  # ours: fewer is better
    EPAULETTES_HUNG = "epaulettes_hung"  # ours: epaulettes the entrant hung on a durak


# Our defaults, after the examples of C.07 art. 4-5: Buchholz-based for Swiss, results-based for
# round robins (where every entrant meets the same opponents, so Buchholz tells nothing).
SWISS_ORDER = (
    TieBreak.BUCHHOLZ_CUT1,
    TieBreak.BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.PROGRESSIVE,
    TieBreak.DIRECT_ENCOUNTER,
    TieBreak.WINS,
)
ROUND_ROBIN_ORDER = (
    TieBreak.DIRECT_ENCOUNTER,
    TieBreak.WINS,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.DURAK_FINISHES,
)

_LOWER_IS_BETTER = frozenset({TieBreak.DURAK_FINISHES})

# A duplicate tournament's standings carry each entrant's duplicate total under this name (not a TieBreak a
# director lists: the tournament's duplicate scoring places it).
DUPLICATE = DUPLICATE_TOTAL


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for a win and for a draw; with tables, ``win`` is the first place's points."""

    win: float = 1.0
    draw: float = 0.5


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``as_dict`` is the shape DESIGN.md's simulate_tournament JSON uses."""

    rank: int
    entrant: EntrantId
    points: float
    tiebreaks: Mapping[str, float]

    def as_dict(self) -> dict[str, object]:
        return {"rank": self.rank, "entrant": self.entrant, "points": self.points, "tiebreaks": dict(self.tiebreaks)}


class _Kind(enum.Enum):
    PLAYED = "played"
    PAIRING_BYE = "pairing_bye"
    FULL_BYE = "full_bye"
    HALF_BYE = "half_bye"
    ZERO_BYE = "zero_bye"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    ABSENT = "absent"


# C.07 16.2: the unplayed rounds an entrant chose (or caused), as opposed to those the pairing gave him.
_VOLUNTARY = frozenset({_Kind.HALF_BYE, _Kind.ZERO_BYE, _Kind.FORFEIT_LOSS, _Kind.ABSENT})


@dataclass(frozen=True, slots=True)
class _Record:
    """One entrant's round: what kind, his points, his opponents and his pairwise result against each."""

    kind: _Kind
    points: Fraction
    opponents: tuple[EntrantId, ...] = ()
    results: tuple[Fraction, ...] = ()  # game points against each opponent: 1, 1/2, 0 (played only)
    won: bool = False
    durak_finishes: int = 0
    epaulettes_hung: int = 0

    @property
    def voluntary(self) -> bool:
        return self.kind in _VOLUNTARY


def standings(
    ratings: Mapping[EntrantId, float],
    rounds: Sequence[Round],
    *,
    order: Sequence[TieBreak] = SWISS_ORDER,
    scoring: Scoring | None = None,
    forfeits_as_played: bool = False,
    duplicate: Mapping[EntrantId, Fraction] | None = None,
    by_duplicate: bool = False,
) -> list[Standing]:
    """Rank every entrant in ``ratings`` by points, then by the tie-breaks in ``order``.

    Entrants still level after the last tie-break share a rank (C.07 4.2 would draw lots; we leave
    that to the director) and are listed by id. ``forfeits_as_played`` counts forfeited games as
    played against the scheduled opponent, as C.07 does for round robins. Every tie-break value is
    given with each standing, whether it is in ``order`` or not; ``direct_encounter`` is shown for the
    group of entrants level on points.

    ``duplicate`` (a duplicate tournament, tournaments.pairing.duplicate): each entrant's duplicate total,
    given with his tie-breaks as ``duplicate``; it breaks ties on points before the tie-breaks in ``order``,
    or with ``by_duplicate`` it ranks first, points then breaking its ties.
    """
    scoring = scoring or Scoring()
    records = _records(ratings, rounds, scoring, forfeits_as_played)
    values = _values(ratings, records, scoring)
    points = {entrant: sum((record.points for record in records[entrant]), Fraction(0)) for entrant in ratings}
    groups = _split(list(ratings), lambda entrant: -points[entrant])
    totals = {entrant: Fraction((duplicate or {}).get(entrant, 0)) for entrant in ratings}
    if duplicate is not None:
        first, then = (totals, points) if by_duplicate else (points, totals)
        groups = [
            part for group in _split(list(ratings), lambda entrant: -first[entrant])
            for part in _split(group, lambda entrant: -then[entrant])
        ]  # fmt: skip
    for level_points in {points[entrant] for entrant in ratings}:
        tied = [entrant for entrant in ratings if points[entrant] == level_points]
        for entrant, value in _direct_encounter(tied, records).items():
            values[entrant][TieBreak.DIRECT_ENCOUNTER] = value
    for tiebreak in order:
        refined: list[list[EntrantId]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif tiebreak is TieBreak.DIRECT_ENCOUNTER:
                refined.extend(_split_direct_encounter(group, records))
            else:
                refined.extend(_split(group, _sort_key(values, tiebreak)))
        groups = refined
    table: list[Standing] = []
    rank = 1
    for group in groups:
        for entrant in sorted(group):
            table.append(
                Standing(
                    rank=rank,
                    entrant=entrant,
                    points=float(points[entrant]),
                    tiebreaks={tiebreak.value: _number(value) for tiebreak, value in values[entrant].items()}
                    | ({DUPLICATE: _number(totals[entrant])} if duplicate is not None else {}),
                )
            )
        rank += len(group)
    return table


def _sort_key(values: dict[EntrantId, dict[TieBreak, Fraction]], tiebreak: TieBreak) -> Callable[[EntrantId], Fraction]:
    """Sort key putting the better value of ``tiebreak`` first."""
    sign = 1 if tiebreak in _LOWER_IS_BETTER else -1
    return lambda entrant: sign * values[entrant][tiebreak]


def _number(value: Fraction) -> float:
    """A tie-break value for output: an int when whole (wins, counts), else a float."""
    return int(value) if value.denominator == 1 else float(value)


def _split(group: list[EntrantId], key: Callable[[EntrantId], Fraction]) -> list[list[EntrantId]]:
    """Order ``group`` by ``key`` (smaller first) and cut it where the key changes."""
    ordered = sorted(group, key=lambda entrant: (key(entrant), entrant))
    parts: list[list[EntrantId]] = []
    previous = Fraction(0)
    for entrant in ordered:
        current = key(entrant)
        if parts and current == previous:
            parts[-1].append(entrant)
        else:
            parts.append([entrant])
        previous = current
    return parts


def _records(
    ratings: Mapping[EntrantId, float],
    rounds: Sequence[Round],
    scoring: Scoring,
    forfeits_as_played: bool,
) -> dict[EntrantId, list[_Record]]:
    """Every entrant's record of every round, absences included."""
    win = Fraction(scoring.win)
    records: dict[EntrantId, list[_Record]] = {entrant: [] for entrant in ratings}
    for number, results in enumerate(rounds, start=1):
        seen: set[EntrantId] = set()
        for result in results:
            points = [Fraction(value) for value in result.points]
            durak = result.durak_finishes or (0,) * len(result.entrants)
            hung = result.epaulettes_hung or (0,) * len(result.entrants)
            for index, entrant in enumerate(result.entrants):
                if entrant not in records:
                    raise PairingInputError(f"round {number} names {entrant!r}, who has no rating")
                if entrant in seen:
                    raise PairingInputError(f"round {number} names {entrant!r} twice")
                seen.add(entrant)
                kind = _kind(result.bye, result.forfeit and not forfeits_as_played, points, index, win)
                opponents = tuple(other for other in result.entrants if other != entrant)
                results_against: tuple[Fraction, ...] = ()
                won = False
                if kind is _Kind.PLAYED:
                    results_against = tuple(
                        _pairwise(points, index, other, win) for other in range(len(result.entrants)) if other != index
                    )
                    won = all(points[index] > points[other] for other in range(len(points)) if other != index)
                records[entrant].append(
                    _Record(
                        kind=kind,
                        points=points[index],
                        opponents=opponents,
                        results=results_against,
                        won=won,
                        durak_finishes=durak[index],
                        epaulettes_hung=hung[index],
                    )
                )
        for entrant, history in records.items():
            if entrant not in seen:
                history.append(_Record(kind=_Kind.ABSENT, points=Fraction(0)))
    return records


def _kind(bye: bool, forfeit: bool, points: list[Fraction], index: int, win: Fraction) -> _Kind:
    if len(points) == 1:
        if bye:
            return _Kind.PAIRING_BYE
        if points[0] >= win:
            return _Kind.FULL_BYE
        return _Kind.HALF_BYE if points[0] > 0 else _Kind.ZERO_BYE
    if forfeit:
        best = max(points)
        alone = points.count(best) == 1
        return _Kind.FORFEIT_WIN if best > 0 and alone and points[index] == best else _Kind.FORFEIT_LOSS
    return _Kind.PLAYED


def _pairwise(points: list[Fraction], index: int, other: int, win: Fraction) -> Fraction:
    """Game points (1, 1/2, 0) against one opponent: heads-up the points scored, at a table by places."""
    if len(points) == 2:
        return points[index] / win
    if points[index] > points[other]:
        return Fraction(1)
    return Fraction(1, 2) if points[index] == points[other] else Fraction(0)


def _values(
    ratings: Mapping[EntrantId, float],
    records: dict[EntrantId, list[_Record]],
    scoring: Scoring,
) -> dict[EntrantId, dict[TieBreak, Fraction]]:
    """Every tie-break value of every entrant but the direct encounter (which depends on the tie)."""
    draw = Fraction(scoring.draw)
    win = Fraction(scoring.win)
    final = {entrant: sum((record.points for record in history), Fraction(0)) for entrant, history in records.items()}
    adjusted = {entrant: _adjusted_score(history, draw) for entrant, history in records.items()}
    values: dict[EntrantId, dict[TieBreak, Fraction]] = {}
    for entrant, history in records.items():
        buchholz: list[tuple[Fraction, bool]] = []  # per round: (value, voluntarily unplayed)
        sonneborn_berger = Fraction(0)
        opponent_ratings: list[Fraction] = []
        for record in history:
            if record.kind is _Kind.PLAYED:
                # C.07 8.1: the opponent's score, adjusted by 16.3; a table's opponents are averaged.
                scores = [adjusted[opponent] for opponent in record.opponents]
                buchholz.append((sum(scores, Fraction(0)) / len(scores), False))
                # C.07 9.1: the opponent's score times the game points scored against him.
                sonneborn_berger += sum(
                    (score * result for score, result in zip(scores, record.results, strict=True)), Fraction(0)
                ) / len(scores)
                opponent_ratings.extend(Fraction(ratings[opponent]) for opponent in record.opponents)
            else:
                # C.07 16.4: a dummy opponent with the entrant's own final points.
                buchholz.append((final[entrant], record.voluntary))
                sonneborn_berger += final[entrant] * record.points / win
        total = Fraction(0)
        progressive = Fraction(0)
        for record in history:
            total += record.points
            progressive += total  # C.07 7.5: the sum of the running scores after every round
        values[entrant] = {
            TieBreak.BUCHHOLZ: sum((value for value, _ in buchholz), Fraction(0)),
            TieBreak.BUCHHOLZ_CUT1: _cut(buchholz, lowest=1, highest=0),
            TieBreak.MEDIAN_BUCHHOLZ: _cut(buchholz, lowest=1, highest=1),
            TieBreak.SONNEBORN_BERGER: sonneborn_berger,
            TieBreak.PROGRESSIVE: progressive,
            # C.07 7.1: rounds that brought a win's points, with or without playing.
            TieBreak.WINS: Fraction(sum(1 for record in history if _is_win(record, win))),
            TieBreak.GAMES_WON: Fraction(sum(1 for record in history if record.won)),
            TieBreak.AVERAGE_RATING_OF_OPPONENTS: _average_rating(opponent_ratings),
            TieBreak.DURAK_FINISHES: Fraction(sum(record.durak_finishes for record in history)),
            TieBreak.EPAULETTES_HUNG: Fraction(sum(record.epaulettes_hung for record in history)),
            TieBreak.DIRECT_ENCOUNTER: Fraction(0),
        }
    return values


def _is_win(record: _Record, win: Fraction) -> bool:
    if record.kind is _Kind.PLAYED:
        return record.won
    return record.points >= win


def _adjusted_score(history: list[_Record], draw: Fraction) -> Fraction:
    """An entrant's score as it enters his opponents' Buchholz (C.07 16.3).

    His voluntarily unplayed rounds without a scheduled opponent that come after his last round that
    was not voluntarily unplayed count as draws; every other round counts its points.
    """
    last_chosen = max((index for index, record in enumerate(history) if not record.voluntary), default=-1)
    return sum(
        (
            draw if index > last_chosen and record.voluntary and not record.opponents else record.points
            for index, record in enumerate(history)
        ),
        Fraction(0),
    )


def _cut(values: list[tuple[Fraction, bool]], *, lowest: int, highest: int) -> Fraction:
    """The sum after cutting the ``lowest`` least and ``highest`` most significant values (C.07 14).

    The least significant value cut is a voluntarily unplayed round's if there is one (C.07 14).
    """
    remaining = list(values)
    for _ in range(min(lowest, len(remaining))):
        voluntary = [item for item in remaining if item[1]]
        remaining.remove(min(voluntary or remaining, key=lambda item: item[0]))
    for _ in range(min(highest, len(remaining))):
        remaining.remove(max(remaining, key=lambda item: item[0]))
    return sum((value for value, _ in remaining), Fraction(0))


def _average_rating(ratings: list[Fraction]) -> Fraction:
    """C.07 10.1: the opponents' average rating, rounded to the nearest whole number (halves up)."""
    if not ratings:
        return Fraction(0)
    mean = sum(ratings, Fraction(0)) / len(ratings)
    return Fraction(math.floor(mean + Fraction(1, 2)))


def _encounters(
    group: list[EntrantId], records: dict[EntrantId, list[_Record]]
) -> dict[EntrantId, dict[EntrantId, Fraction]]:
    """Each member's average game points against each other member he has played (C.07 6)."""
    members = set(group)
    scored: dict[EntrantId, dict[EntrantId, list[Fraction]]] = {entrant: {} for entrant in group}
    for entrant in group:
        for record in records[entrant]:
            if record.kind is not _Kind.PLAYED:
                continue
            for opponent, result in zip(record.opponents, record.results, strict=True):
                if opponent in members:
                    scored[entrant].setdefault(opponent, []).append(result)
    return {
        entrant: {opponent: sum(results, Fraction(0)) / len(results) for opponent, results in against.items()}
        for entrant, against in scored.items()
    }


def _direct_encounter(group: list[EntrantId], records: dict[EntrantId, list[_Record]]) -> dict[EntrantId, Fraction]:
    """Each member's points against the other members (a pair met twice counts its average)."""
    return {entrant: sum(against.values(), Fraction(0)) for entrant, against in _encounters(group, records).items()}


def _split_direct_encounter(group: list[EntrantId], records: dict[EntrantId, list[_Record]]) -> list[list[EntrantId]]:
    """Order a tied group by direct encounter (C.07 6), best first, still-tied members kept together.

    6.1: when every member has met every other, the points scored among them rank them. 6.2: when some
    have not met, a member is ranked above the rest only if his points there exceed what any of the
    rest could have reached by winning the encounters he missed. The rule is applied again inside
    each smaller group that stays tied (6.3).
    """
    if len(group) < 2:
        return [group]
    encounters = _encounters(group, records)
    scores = {entrant: sum(against.values(), Fraction(0)) for entrant, against in encounters.items()}
    missing = {entrant: len(group) - 1 - len(against) for entrant, against in encounters.items()}
    ordered = sorted(group, key=lambda entrant: (-scores[entrant], entrant))
    parts: list[list[EntrantId]] = []
    if all(count == 0 for count in missing.values()):
        parts = _split(group, lambda entrant: -scores[entrant])
    else:
        rest = ordered
        while len(rest) > 1 and all(scores[rest[0]] > scores[other] + missing[other] for other in rest[1:]):
            parts.append([rest[0]])
            rest = rest[1:]
        parts.append(rest)
    result: list[list[EntrantId]] = []
    for part in parts:
        if 1 < len(part) < len(group):
            result.extend(_split_direct_encounter(part, records))
        else:
            result.append(part)
    return result
