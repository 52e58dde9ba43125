"""Sending views after a commit: each seat its own view, spectators the public one, the lobby its list.

Group names: `game.<id>.seat.<n>` (every socket of the person in seat n), `game.<id>.public` (spectators)
and `lobby`. Events carry the view with its log not yet in words; each consumer puts it in its reader's
language (games.selectors.message_in_language).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine import State
from games.models import Game, Result, Seat
from games.selectors import lobby_tables, view_payload

LOBBY_GROUP = "lobby"


def seat_group(game_id: int, seat: int) -> str:
    return f"game.{game_id}.seat.{seat}"


def public_group(game_id: int) -> str:
    return f"game.{game_id}.public"


def game_messages(
    *, game: Game, seats: Sequence[Seat], state: State, result: Result | None
) -> list[tuple[str, dict[str, Any]]]:
    """(group, event) for every seat of the game and for the spectators."""
    messages = []
    for seat in range(game.players):
        payload = view_payload(game=game, seats=seats, state=state, seat=seat, result=result)
        messages.append((seat_group(game.pk, seat), {"type": "game.view", "payload": payload}))
    payload = view_payload(game=game, seats=seats, state=state, seat=None, result=result)
    messages.append((public_group(game.pk), {"type": "game.view", "payload": payload}))
    return messages


def send_game(*, game: Game, seats: Sequence[Seat], state: State, result: Result | None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    messages = game_messages(game=game, seats=seats, state=state, result=result)

    async def send_all() -> None:
        for group, event in messages:
            await layer.group_send(group, event)

    async_to_sync(send_all)()


def send_lobby() -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.tables", "tables": lobby_tables()})
