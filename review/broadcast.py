"""Telling the analysis sockets of a game how its analysis goes: one group per game (`analysis.<game id>`),
whose event carries the analysis's state only (progress, status, accuracies): no card, and only finished games
are analysed."""

from __future__ import annotations

from typing import Any

from games.broadcast import send_to_group


def analysis_group(game_id: int) -> str:
    return f"analysis.{game_id}"


def analysis_changed(game_id: int, message: dict[str, Any]) -> None:
    send_to_group(analysis_group(game_id), {"type": "analysis.changed", "message": message})
