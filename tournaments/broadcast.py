"""Telling a tournament's open pages that it moved: one group per tournament, one event kind.

The pages redraw their parts (standings, pairings, the reader's own game) from the server when told, so
the event carries no data, and nothing in it is private to anyone.
"""

from __future__ import annotations

from games.broadcast import send_to_group


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    send_to_group(tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id})
