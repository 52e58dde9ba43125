"""Telling a person's open pages that his notices changed: one group per person, one event kind.

The event carries nothing but the person's id; each socket reads his count (and his newest notice) itself,
in its reader's language, so nothing of one person's notices can reach another's socket.
"""

from __future__ import annotations

from games.broadcast import send_to_group


def notices_group(user_id: int) -> str:
    return f"notices.{user_id}"


def notices_changed(user_id: int) -> None:
    send_to_group(notices_group(user_id), {"type": "notices.changed"})
