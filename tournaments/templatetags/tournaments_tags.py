"""Template helpers of the tournament pages: points as people write them, a tie-break value by name, and
the parts other pages include (a player's tournament games on his profile, the running championships on
the home page)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

from accounts.models import User
from tournaments import selectors

register = template.Library()


@register.filter
def points(value: float | None) -> str:
    """1 and 6.5, not 1.0; a dash for no value."""
    return selectors.shown(value)


@register.filter
def value_of(values: Mapping[str, Any], name: str) -> Any:
    return values.get(name)


@register.filter
def name_at(seats: Sequence[selectors.SeatLine], position: int) -> str:
    """The name of the entrant at a pairing position (a game's seats name positions)."""
    return next((seat.name for seat in seats if seat.position == position), "")


@register.inclusion_tag("tournaments/_profile_games.html")
def tournament_games(user: User) -> dict[str, Any]:
    """The player's pairings of the current rounds of running tournaments: where he must take his seat."""
    return {"games": selectors.user_tournament_games(user=user) if user.is_authenticated else []}


@register.inclusion_tag("tournaments/_running.html")
def running_tournaments() -> dict[str, Any]:
    lists = selectors.tournament_lists()
    return {"running": lists.running, "upcoming": lists.open[:3]}
