"""How the tournament readers write points and entrants out, shared by tournaments.selectors,
tournaments.duplicate_selectors and the API (a module of its own, so that each imports it at the top)."""

from __future__ import annotations

from tournaments.models import Entrant


def number(value: float | None) -> float | int | None:
    """Points as people write them: 1, not 1.0; 6.5 stays."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else float(value)


def entrant_label(entrant: Entrant) -> str:
    return entrant.team_name or entrant.user.public_name
