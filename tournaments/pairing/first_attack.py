"""Who attacks first: first-attack preferences and their allocation, after FIDE's colour rules.

First attack is Durak's white: the FIDE Dutch system's colour rules (Handbook C.04.1 and C.04.3, 2017
edition) are applied to it unchanged, with "white" read as "attacks first".
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.model import EntrantState, Side


class Strength(enum.IntEnum):
    """How strongly an entrant wants a side (C.04.3 A.6), weakest first."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True, slots=True)
class Preference:
    side: Side | None
    strength: Strength
    difference: int  # games attacking first minus games attacking second (C.04.3 A.6 "colour difference")


NO_PREFERENCE = Preference(side=None, strength=Strength.NONE, difference=0)


def preference(sides: Sequence[Side]) -> Preference:
    """An entrant's first-attack preference from the sides of his played games (C.04.3 A.6)."""
    if not sides:
        return NO_PREFERENCE  # A.6.d: no games played, no preference
    difference = sum(1 if side is Side.FIRST else -1 for side in sides)
    last = sides[-1]
    # A.6.a: absolute when the difference is beyond +-1 or the last two games had the same side
    # (C.04.1 f/g: never a difference beyond 2, never the same side three times in a row).
    if difference < -1:
        return Preference(Side.FIRST, Strength.ABSOLUTE, difference)
    if difference > 1:
        return Preference(Side.SECOND, Strength.ABSOLUTE, difference)
    if len(sides) >= 2 and sides[-2] is last:
        return Preference(last.other, Strength.ABSOLUTE, difference)
    # A.6.b: strong when the difference is +-1.
    if difference == -1:
        return Preference(Side.FIRST, Strength.STRONG, difference)
    if difference == 1:
        return Preference(Side.SECOND, Strength.STRONG, difference)
    # A.6.c: mild when even: alternate from the last game.
    return Preference(last.other, Strength.MILD, difference)


@dataclass(frozen=True, slots=True)
class Conflict:
    """What a pairing costs in unmet preferences, counted as C.04.3 C.3, C.12 and C.13 count them."""

    absolute: int  # both want the same side absolutely (C.3; we weigh it, FIDE forbids it)
    unmet: int  # entrants who do not get their preference (C.12)
    strong_unmet: int  # entrants who do not get a strong or absolute preference (C.13)


NO_CONFLICT = Conflict(0, 0, 0)


def conflict(first: Preference, second: Preference) -> Conflict:
    """The cost of pairing two entrants, given E.2: the weaker preference is the one left unmet."""
    if first.side is None or second.side is None or first.side is not second.side:
        return NO_CONFLICT
    loser = min(first.strength, second.strength)
    return Conflict(
        absolute=1 if loser is Strength.ABSOLUTE else 0,
        unmet=1,
        strong_unmet=1 if loser >= Strength.STRONG else 0,
    )


def allocate(
    higher: EntrantState,
    lower: EntrantState,
    *,
    higher_number: int,
    initial: Side = Side.FIRST,
) -> tuple[EntrantState, EntrantState]:
    """Seat a heads-up pair: returns (attacks first, attacks second) by C.04.3 E.1-E.5.

    ``higher`` is the higher-ranked of the two, ``higher_number`` his pairing number (1-based place in
    the initial order) and ``initial`` the side drawn for the top seed in round 1.
    """
    first, second, _ = allocate_explained(higher, lower, higher_number=higher_number, initial=initial)
    return first, second


def allocate_explained(
    higher: EntrantState,
    lower: EntrantState,
    *,
    higher_number: int,
    initial: Side = Side.FIRST,
) -> tuple[EntrantState, EntrantState, str]:
    """:func:`allocate`, and the rule of C.04.3 E that decided it ("E.1" to "E.5")."""
    high, low = preference(higher.sides), preference(lower.sides)
    wants, rule = _allocate_by_preference(higher, lower, high, low)
    if wants is None:
        # E.5: the higher-ranked gets the initial side with an odd pairing number, the other with an even.
        wants, rule = (initial if higher_number % 2 == 1 else initial.other), "E.5"
    return (higher, lower, rule) if wants is Side.FIRST else (lower, higher, rule)


def _allocate_by_preference(
    higher: EntrantState, lower: EntrantState, high: Preference, low: Preference
) -> tuple[Side | None, str]:
    """The side the higher-ranked entrant gets under E.1-E.4 (None when they leave it open), and the rule."""
    # E.1: grant both preferences when they differ (or one has none).
    if high.side is not None and low.side is not high.side:
        return high.side, "E.1"
    if high.side is None and low.side is not None:
        return low.side.other, "E.1"
    if high.side is None:
        return None, "E.5"
    # Both want the same side. E.2: grant the stronger preference; between two absolute ones, the
    # wider colour difference wins.
    if high.strength != low.strength:
        return (high.side if high.strength > low.strength else high.side.other), "E.2"
    if high.strength is Strength.ABSOLUTE and abs(high.difference) != abs(low.difference):
        return (high.side if abs(high.difference) > abs(low.difference) else high.side.other), "E.2"
    # E.3: alternate to the most recent round in which they had different sides.
    for mine, theirs in zip(reversed(higher.sides), reversed(lower.sides)):
        if mine is not theirs:
            return mine.other, "E.3"
    # E.4: grant the higher-ranked entrant's preference.
    return high.side, "E.4"
