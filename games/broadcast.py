"""Sending views after a commit: each seat its own view, spectators the public one, the lobby its list.

Group names: `game.<id>.seat.<n>` (every socket of the person in seat n), `game.<id>.public` (spectators)
and `lobby`. Events carry the view with its log not yet in words; each consumer puts it in its reader's
language (games.selectors.message_in_language).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.engine import State
from games.models import Game, Result, Seat
from games.selectors import lobby_tables, view_common, view_for_seat

LOBBY_GROUP = "lobby"
SEND_TIMEOUT_S = 10

# The event loop of the server's consumers. The in-memory channel layer (a site without Redis) holds
# asyncio queues of that loop, so a task on the in-process runner's thread must send on that loop:
# a loop of its own would fill queues that no consumer is waiting on.
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called by consumers as they connect, on the server's loop."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def _run(send: Callable[[], Awaitable[None]]) -> None:
    loop = _server_loop
    if isinstance(get_channel_layer(), InMemoryChannelLayer) and loop is not None and loop.is_running():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            asyncio.run_coroutine_threadsafe(send(), loop).result(timeout=SEND_TIMEOUT_S)  # type: ignore[arg-type]
            return
    async_to_sync(send)()


def seat_group(game_id: int, seat: int) -> str:
    return f"game.{game_id}.seat.{seat}"


def public_group(game_id: int) -> str:
    return f"game.{game_id}.public"


def game_messages(
    *, game: Game, seats: Sequence[Seat], state: State, result: Result | None
) -> list[tuple[str, dict[str, Any]]]:
    """(group, event) for every seat of the game and for the spectators."""
    common = view_common(game=game, seats=seats, state=state, result=result)
    messages = []
    for seat in range(game.players):
        messages.append((seat_group(game.pk, seat), {"type": "game.view", "payload": view_for_seat(common, state, seat)}))
    messages.append((public_group(game.pk), {"type": "game.view", "payload": view_for_seat(common, state, None)}))
    return messages


def send_game(*, game: Game, seats: Sequence[Seat], state: State, result: Result | None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    messages = game_messages(game=game, seats=seats, state=state, result=result)

    async def send_all() -> None:
        # Side by side: each group_send is a few round trips to Redis, and the groups do not wait for
        # each other.
        await asyncio.gather(*(layer.group_send(group, event) for group, event in messages))

    _run(send_all)


def send_to_group(group: str, event: dict[str, Any]) -> None:
    """Send one event to a group from synchronous code (a service's on-commit callback, a task), on the
    server's loop when the layer is in memory; other apps' live pages use it too."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        await layer.group_send(group, event)

    _run(send)


def send_lobby() -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    tables = lobby_tables()

    async def send() -> None:
        await layer.group_send(LOBBY_GROUP, {"type": "lobby.tables", "tables": tables})

    _run(send)
