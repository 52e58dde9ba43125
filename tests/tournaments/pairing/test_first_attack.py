"""First-attack preferences and allocation after FIDE's colour rules (C.04.3 A.6 and E).

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import pytest

from tournaments.pairing import EntrantState, Side
from tournaments.pairing.first_attack import Strength, allocate, conflict, preference

F, S = Side.FIRST, Side.SECOND


@pytest.mark.parametrize(
    ("sides", "wanted", "strength"),
    [
        ((), None, Strength.NONE),
        ((F,), S, Strength.STRONG),  # difference +1
        ((F, S), F, Strength.MILD),  # even: alternate from the last game
        ((F, F), S, Strength.ABSOLUTE),  # difference +2 and two in a row
        ((S, F, F), S, Strength.ABSOLUTE),  # two in a row although the difference is +1
        ((S, S, F), F, Strength.STRONG),  # difference -1
        ((S, F, S, F, S, S), F, Strength.ABSOLUTE),
    ],
)
def test_preference(sides: tuple[Side, ...], wanted: Side | None, strength: Strength) -> None:
    result = preference(sides)
    assert (result.side, result.strength) == (wanted, strength)


def test_conflict_counts_the_weaker_preference_as_unmet() -> None:
    strong_first = preference((S,))
    mild_first = preference((F, S))
    absolute_first = preference((S, S))
    assert conflict(strong_first, preference((F,))).unmet == 0
    assert conflict(strong_first, mild_first) == conflict(mild_first, strong_first)
    assert (conflict(strong_first, mild_first).unmet, conflict(strong_first, mild_first).strong_unmet) == (1, 0)
    assert conflict(absolute_first, strong_first).strong_unmet == 1
    assert conflict(absolute_first, absolute_first).absolute == 1


def _seat(higher: tuple[Side, ...], lower: tuple[Side, ...], number: int = 1) -> tuple[str, str]:
    first, second = allocate(EntrantState("h", 2000, sides=higher), EntrantState("l", 1900, sides=lower), higher_number=number)
    return first.id, second.id


def test_allocation_rules() -> None:
    assert _seat((S,), (F,)) == ("h", "l")  # E.1: both preferences granted
    assert _seat((F,), (F, F)) == ("h", "l")  # E.2: both want second; the lower's absolute wish wins
    assert _seat((F, S), (S,)) == ("l", "h")  # E.2: the strong preference beats the mild one
    assert _seat((S, S), (S,)) == ("h", "l")  # E.2: the absolute preference beats the strong one
    # E.3: both mildly want second and had the same sides in the last two games; in the one before,
    # h attacked first and l second, so now h attacks second.
    assert _seat((S, F, S, F), (F, S, S, F)) == ("l", "h")
    assert _seat((F, S), (F, S)) == ("h", "l")  # E.4: identical histories, the higher-ranked is granted
    assert _seat((), (), number=1) == ("h", "l")  # E.5: odd pairing number, initial side
    assert _seat((), (), number=2) == ("l", "h")  # E.5: even pairing number, the other side
    assert _seat((), (F,)) == ("h", "l")  # E.1: only the lower-ranked has a preference, granted
