"""Sending views after a commit: each seat its own view, spectators the public one, the lobby its list.

Group names: `game.<id>` (every socket watching or playing the game) and `lobby`. A change of a game is
one event for the whole group, carrying each seat's view and the public one (`game_event`): one
message through the channel layer a move instead of one a seat. The event stays inside the servers: a
consumer sends its socket only the view its reader may see (`view_in_event`: his seat's, or the public
one), never the event. Views carry their log not yet in words; each consumer puts it in its reader's
language (games.selectors.message_in_language).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from durak_site.channel_layer import LocalFirstChannelLayer
from games.engine import State, public_view
from games import lag
from games.models import Game, Result, Seat
from games.selectors import lobby_tables, view_common, view_for_seat

logger = logging.getLogger(__name__)

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


# A process without consumers (a Celery worker) sends on a loop of its own that lives as long as the
# process: `async_to_sync` would start a thread and a loop for each message, and the Redis layers keep
# their connections per loop, so each bot move paid for a new connection to Redis. (pid, loop): a forked
# worker child starts its own.
_sending: tuple[int, asyncio.AbstractEventLoop] | None = None
_sending_lock = threading.Lock()


def _sending_loop() -> asyncio.AbstractEventLoop:
    global _sending
    with _sending_lock:
        if _sending is None or _sending[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-layer-sends", daemon=True).start()
            _sending = (os.getpid(), loop)
        return _sending[1]


def _loop_for_sending() -> asyncio.AbstractEventLoop | None:
    """The loop a synchronous caller's message must go out on, or None where `async_to_sync` serves: with
    the in-memory layer the server's loop (its queues live there) unless the caller runs on it; with Redis,
    outside a server, the process's own sending loop."""
    loop = _server_loop
    serving = loop is not None and loop.is_running()
    if not isinstance(get_channel_layer(), InMemoryChannelLayer):
        return None if serving else _sending_loop()
    if not serving:
        return None
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    return None if running is loop else loop


R = TypeVar("R")
# How synchronous code awaits a coroutine function: `_run`, or `_run_due` on a due send's timer thread.
Run = Callable[[Callable[[], Awaitable[Any]]], Any]


def _run(call: Callable[[], Awaitable[R]]) -> R:
    """Await `call()` from synchronous code, on the loop `_loop_for_sending` names; its result."""
    loop = _loop_for_sending()
    if loop is None:
        return async_to_sync(call)()
    return asyncio.run_coroutine_threadsafe(call(), loop).result(timeout=SEND_TIMEOUT_S)  # type: ignore[arg-type]


Send = Callable[[], Awaitable[None]]

# The sends a socket's own database call leaves to its consumer (`deferring`), or None: send at once.
_deferred: contextvars.ContextVar[list[Send] | None] = contextvars.ContextVar("deferred_sends", default=None)


def deferring(function: Callable[..., R], sends: list[Send]) -> Callable[..., R]:
    """``function``, its deferrable game views (``send_game(deferrable=True)``) put in ``sends`` instead of
    sent: a consumer runs a move on a database thread and then sends them on its own loop, after the
    commit as ever, without the thread waiting for a hop to the loop and back (``async_to_sync``)."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> R:
        token = _deferred.set(sends)
        try:
            return function(*args, **kwargs)
        finally:
            _deferred.reset(token)

    return run


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def game_event(*, game: Game, seats: Sequence[Seat], state: State, result: Result | None) -> dict[str, Any]:
    """The group event of a game's change: what every reader's view shares (`common`), and for each seat
    in order and then for the spectators what is that reader's own (`readers`: his seat, his view...).
    Each consumer unpacks the whole event, so the shared part (the players, the log) goes once, not once
    a reader."""
    common = view_common(game=game, seats=seats, state=state, result=result)
    public = public_view(state)
    views = [view_for_seat(common, state, seat, public) for seat in range(game.players)]
    views.append(view_for_seat(common, state, None, public))
    readers = [{key: value for key, value in view.items() if common.get(key, _NONE) is not value} for view in views]
    # The log's entries, the bulk of the event, as one blob: the channel layer unpacks the event once for
    # each socket, the blob is unpacked once a version in each process (selectors.message_in_language).
    # `sent`: when it went out (each process's encoded views are kept by it); `since`: when the game began to
    # wait at this version, for the consumers to note a view that reached its player late (games.lag). No
    # reader receives either.
    return {
        "type": "game.view",
        "common": {**common, "log_entries": orjson.dumps(common["log_entries"])},
        "readers": readers,
        "sent": lag.sent_at(),
        "since": lag.turn_since(game),
    }


_NONE = object()


def view_in_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """What a socket of `seat` (None: a spectator) may receive of a game event: its seat's view, or the
    public one."""
    readers: list[dict[str, Any]] = event["readers"]
    spectators = len(readers) - 1
    own = readers[seat] if seat is not None and 0 <= seat < spectators else readers[spectators]
    return {**event["common"], **own}


def send_game(
    *, game: Game, seats: Sequence[Seat], state: State, result: Result | None, deferrable: bool = False
) -> None:
    """Send the game's views to its group. ``deferrable``: a socket's own database call may leave the send
    to its consumer (``deferring``), which sends it as the call returns; only where nothing scheduled by the
    same commit sends a later view of the game (a bot's move, the finish), since a view sent after a later
    one would be late (readers drop a view older than the one they show, docs/protocol.md)."""
    layer = get_channel_layer()
    if layer is None:
        return
    event = game_event(game=game, seats=seats, state=state, result=result)

    async def send() -> None:
        await layer.group_send(game_group(game.pk), event)

    sends = _deferred.get() if deferrable else None
    if sends is not None:
        sends.append(send)
        return
    _run(send)


async def send_event(game_id: int, event: dict[str, Any]) -> None:
    """A game event (`game_event`) sent to the game's group from the server's loop, after its commit: a move
    made on the socket's loop (games.services.loop_moves)."""
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(game_group(game_id), event)


def send_to_group(group: str, event: dict[str, Any]) -> None:
    """Send one event to a group from synchronous code (a service's on-commit callback, a task), on the
    server's loop when the layer is in memory; other apps' live pages use it too."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        await layer.group_send(group, event)

    _run(send)


# The lobby's list is sent at most once in this many seconds by a process (LOBBY_SEND_EVERY_S): when a
# change is the first since the last send, a send is due that long after it, and the changes meanwhile
# ride on it (it reads the tables as they are then).
_lobby_due = False
_lobby_lock = threading.Lock()


def send_lobby() -> None:
    """The lobby's list of tables sent to its sockets, after a table changed: at once where the setting
    `LOBBY_SEND_EVERY_S` is 0, else once for every change in that many seconds (when five hundred games of a
    round end within a minute, each end read and sent the whole list: the web processes' busiest moment). Where
    no socket listens to the lobby, in any process, the tables are not read (`_lobby_listened`)."""
    every_s = settings.LOBBY_SEND_EVERY_S
    if every_s <= 0:
        _send_lobby_now()
        return
    global _lobby_due
    with _lobby_lock:
        if _lobby_due:
            return
        _lobby_due = True
    timer = threading.Timer(every_s, _send_due_lobby)
    timer.daemon = True
    timer.start()


def _send_due_lobby() -> None:
    """The due send, on the timer's own thread."""
    global _lobby_due
    with _lobby_lock:
        _lobby_due = False
    try:
        send = _lobby_send(_run_due)
        if send is not None:
            _run_due(send)
    except Exception as error:
        # Most often a process stopping: its database pool closed before a due send (bench/soak.py's end).
        logger.warning("the lobby's list was not sent: %r", error)
    finally:
        close_old_connections()


def _run_due(call: Callable[[], Awaitable[R]]) -> R:
    """Await `call()` from the timer's thread: on the server's loop where this process serves sockets (the
    in-memory layer's queues live there, and the Redis layer's connections), else on its sending loop."""
    loop = _server_loop if _server_loop is not None and _server_loop.is_running() else _sending_loop()
    return asyncio.run_coroutine_threadsafe(call(), loop).result(timeout=SEND_TIMEOUT_S)  # type: ignore[arg-type]


def _send_lobby_now() -> None:
    send = _lobby_send(_run)
    if send is not None:
        _run(send)


def _lobby_send(run: Run) -> Send | None:
    """The lobby's list as it is now, and its send; None without a channel layer, or where no socket listens
    to the lobby (`_lobby_listened`, which `run` lets await Redis): then the tables are not read at all."""
    layer = get_channel_layer()
    if layer is None or not _lobby_listened(layer, run):
        return None
    tables = lobby_tables()

    async def send() -> None:
        await layer.group_send(LOBBY_GROUP, {"type": "lobby.tables", "tables": tables})

    return send


def _lobby_listened(layer: Any, run: Run) -> bool:
    """Whether any socket, of this process or another, is in the lobby's group: one of this process's (the
    in-memory layer's group, or the site's Redis layer's on any of its loops), else, with Redis, a subscriber
    of the group's channel (`LocalFirstChannelLayer.group_subscribers`: another process has a lobby socket).
    Another layer (CHANNEL_LAYER=lists) is not asked: the list is sent.

    A send left out loses nothing. A lobby socket joins the group before it reads the list
    (`games.consumers.LobbyConsumer.connect`: `group_add`, then `lobby_tables`), and the Redis layer's
    `group_add` returns once Redis has the subscription (durak_site.channel_layer: the first socket's hello).
    A socket this check did not count joined after it, so reads the tables after it, and so after the change
    that made the send due, committed before the send was asked for: its list at connect holds the change.
    Where Redis did not confirm the subscription in time, the list may be missed, as any message through Redis
    may be then (delivery is at most once)."""
    if isinstance(layer, LocalFirstChannelLayer):
        if layer.group_has_sockets_here(LOBBY_GROUP):
            return True

        async def subscribers() -> int:
            return await layer.group_subscribers(LOBBY_GROUP)

        return int(run(subscribers)) > 0
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(LOBBY_GROUP))
    return True
