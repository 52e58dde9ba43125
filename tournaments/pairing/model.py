"""The plain data that pairing and tie-breaks work on: entrants, pairings, results, and the history replay.

Everything here is a frozen value. ``tournaments/services/`` (the Django side) loads rows, builds these
values, calls the pairing or standings functions and stores what they return; nothing in this package
touches the database.

The values are named apart from the rows of ``tournaments/models.py`` they are loaded from or stored as: an
:class:`EntrantState` (an ``Entrant`` row's score and history), a :class:`Board` (a ``Pairing`` row), a
:class:`BoardResult` (what a board produced).

"First attack" plays the part that colour plays in chess: the entrant seated first attacks first. A
heads-up pairing lists its two entrants in seat order, so ``entrants[0]`` attacks first; a table lists
its three to six entrants in seat order.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

EntrantId = str


class Side(enum.Enum):
    """Who attacked first in a game: the Durak counterpart of white and black."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class Float(enum.Enum):
    """How an entrant was paired in a round relative to his own score (FIDE C.04.3 A.4)."""

    NONE = "none"
    DOWN = "down"  # met a lower score, or received the pairing-allocated bye (C.04.3 A.4.b)
    UP = "up"  # met a higher score


class PairingError(Exception):
    """A round that cannot be paired under the rules (e.g. every pairing left would be a rematch).

    A user error: the tournament director sees the message and decides (withdraw, end the event, ...).
    """


class PairingInputError(ValueError):
    """Input that no caller should ever pass (duplicate ids, a table size out of range): a bug."""


@dataclass(frozen=True, slots=True)
class EntrantState:
    """One entrant (a player or a team) as the pairing of the next round sees him.

    ``opponents`` lists every opponent met, once per meeting (a table of four adds three). ``sides``
    lists the first-attack history of the games actually played, oldest first; unplayed rounds leave
    no entry (a bye has no colour, C.04.1 c; a forfeit is treated alike). ``floats`` has one entry per round
    played or not, oldest first. ``byes`` counts pairing-allocated byes, ``forfeit_wins`` wins by an
    opponent's forfeit: FIDE C.04.1 d bars both from a further bye. ``scored_unplayed`` has one entry per
    round too: True when the round was not played over the board but scored points (a requested bye with
    points, a forfeit win; the pairing-allocated bye is already a downfloat in ``floats``), which the Dutch
    engine counts as a downfloat as well (C.04.3 A.4.b, as bbpPairings reads it).
    """

    id: EntrantId
    rating: float
    score: float = 0.0
    opponents: tuple[EntrantId, ...] = ()
    sides: tuple[Side, ...] = ()
    floats: tuple[Float, ...] = ()
    byes: int = 0
    forfeit_wins: int = 0
    withdrawn: bool = False
    scored_unplayed: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: entrants in seat order (the first attacks first), or a single entrant's bye."""

    entrants: tuple[EntrantId, ...]
    bye: bool = False

    @property
    def first(self) -> EntrantId | None:
        """The entrant who attacks first; None for a bye."""
        return None if self.bye else self.entrants[0]


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What one pairing of a round produced, as stored in DESIGN.md's simulate_tournament JSON.

    - A game (two or more entrants, ``forfeit`` false): ``points`` by entrant, ``first`` who attacked
      first (None if unknown).
    - A forfeit (two or more entrants, ``forfeit`` true): nobody played; the points were awarded. The
      entrant with the most points has a forfeit win, the others forfeit losses (a double forfeit gives
      everyone 0 and a forfeit loss).
    - A pairing-allocated bye (one entrant, ``bye`` true).
    - A requested bye (one entrant, ``bye`` false): a full-, half- or zero-point bye by its points.
    An entrant of the tournament who appears in no result of a round was absent from it.

    ``durak_finishes`` and ``epaulettes_hung`` are aligned with ``entrants`` (empty means all zero):
    how many games of this pairing the entrant finished as durak, and how many epaulettes he hung.
    """

    entrants: tuple[EntrantId, ...]
    points: tuple[float, ...]
    first: EntrantId | None = None
    bye: bool = False
    forfeit: bool = False
    durak_finishes: tuple[int, ...] = ()
    epaulettes_hung: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.points) != len(self.entrants) or not self.entrants:
            raise PairingInputError(f"result {self.entrants} needs one points value per entrant")
        if len(set(self.entrants)) != len(self.entrants):
            raise PairingInputError(f"result {self.entrants} names an entrant twice")
        if self.bye and len(self.entrants) != 1:
            raise PairingInputError("a bye has exactly one entrant")
        for counts in (self.durak_finishes, self.epaulettes_hung):
            if counts and len(counts) != len(self.entrants):
                raise PairingInputError(f"result {self.entrants}: counts must align with the entrants")

    @property
    def played(self) -> bool:
        """True when a game was played over the table (not a bye, not a forfeit)."""
        return len(self.entrants) > 1 and not self.forfeit


Round = Sequence[BoardResult]


def _record_meeting(
    result: BoardResult,
    before: Mapping[EntrantId, float],
    opponents: dict[EntrantId, list[EntrantId]],
    sides: dict[EntrantId, list[Side]],
    moved: dict[EntrantId, Float],
) -> None:
    """A played result into entrants_after's tallies: who met whom, who led, and in a heads-up pairing
    across score groups who floated (scores before the round)."""
    for entrant in result.entrants:
        others = [other for other in result.entrants if other != entrant]
        opponents[entrant].extend(others)
        if result.first is not None:
            sides[entrant].append(Side.FIRST if result.first == entrant else Side.SECOND)
        if len(result.entrants) == 2:
            other_score = before[others[0]]
            if before[entrant] > other_score:
                moved[entrant] = Float.DOWN
            elif before[entrant] < other_score:
                moved[entrant] = Float.UP


def entrants_after(
    ratings: Mapping[EntrantId, float],
    rounds: Sequence[Round],
    *,
    withdrawn: Collection[EntrantId] = (),
) -> list[EntrantState]:
    """Replay the results of the rounds so far into the :class:`EntrantState` values the next round pairs.

    ``ratings`` names every entrant of the tournament (late entries included: they simply have no
    results in the early rounds). The order of the returned list follows ``ratings``.
    """
    score = {entrant: 0.0 for entrant in ratings}
    opponents: dict[EntrantId, list[EntrantId]] = {entrant: [] for entrant in ratings}
    sides: dict[EntrantId, list[Side]] = {entrant: [] for entrant in ratings}
    floats: dict[EntrantId, list[Float]] = {entrant: [] for entrant in ratings}
    byes = dict.fromkeys(ratings, 0)
    forfeit_wins = dict.fromkeys(ratings, 0)
    scored_unplayed: dict[EntrantId, list[bool]] = {entrant: [] for entrant in ratings}
    for results in rounds:
        before = dict(score)
        moved = dict.fromkeys(ratings, Float.NONE)
        unplayed = dict.fromkeys(ratings, False)
        for result in results:
            for entrant in result.entrants:
                if entrant not in score:
                    raise PairingInputError(f"result names {entrant!r}, who has no rating")
            for entrant, points in zip(result.entrants, result.points, strict=True):
                score[entrant] += points
                unplayed[entrant] = not result.played and points > 0
            if len(result.entrants) == 1:
                if result.bye:
                    byes[result.entrants[0]] += 1
                    moved[result.entrants[0]] = Float.DOWN  # C.04.3 A.4.b: the bye is a downfloat
                continue
            if result.forfeit:  # not played: no meeting (the two may be paired again) and no colour
                best = max(result.points)
                if best > 0 and result.points.count(best) == 1:
                    forfeit_wins[result.entrants[result.points.index(best)]] += 1
                continue
            _record_meeting(result, before, opponents, sides, moved)
        for entrant in ratings:
            floats[entrant].append(moved[entrant])
            scored_unplayed[entrant].append(unplayed[entrant])
    gone = set(withdrawn)
    return [
        EntrantState(
            id=entrant,
            rating=rating,
            score=score[entrant],
            opponents=tuple(opponents[entrant]),
            sides=tuple(sides[entrant]),
            floats=tuple(floats[entrant]),
            byes=byes[entrant],
            forfeit_wins=forfeit_wins[entrant],
            withdrawn=entrant in gone,
            scored_unplayed=tuple(scored_unplayed[entrant]),
        )
        for entrant, rating in ratings.items()
    ]
