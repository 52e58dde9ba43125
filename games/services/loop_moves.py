"""A person's move from a kept game, made on his socket's event loop: no hop to a writer thread.

The kept move (games.services.kept, `actions._kept_move`) needs no read and one statement, in autocommit.
Made on a game writer thread, its cost around the engine was mostly the hop there and back (the thread pool's
hand-off, the thread's wake-up, asgiref's futures, the pooled Django connection checked out and given back)
and Django's cursor around psycopg. Here the consumer makes it where the socket's message arrived: the copy
taken, the move played and recorded (`actions.kept_move_played`, the same steps), the views' event built,
and the one statement sent on an asyncpg connection of the loop's own, awaited without blocking the loop
(asyncpg rather than psycopg's `AsyncConnection`, whose wait for each answer, a reader added and removed on
the loop, cost about three times as much; docs/experiments.md); when it wrote, the state is cached, the game kept again for the next move and the event sent to the
game's group. The guarantees are the kept move's: the write happens only if the row is as this process last
wrote it (its `xmin`), so one writer per game whatever other processes do; the move is durable before its
views go out; a stale or repeated message finds no copy or a version that does not match, and goes the
thread's way, which refuses it.

It gives the move to the thread's way (`game_submit_action`: a locked read, or a kept copy there) instead of
making it when: the setting is off or the database is not PostgreSQL; no copy is kept; the move is not a
plain one (`kept_move_played` says so); a turn timer's task must be sent (once a turn's length in a game:
the broker's round trip stays off the loop); the statement matched nothing (another writer came first) or
failed. A copy taken and not written is dropped, and the thread's way then reads the row. Anything
unexpected before the write (a view that would touch the database, which a loop must not) is logged and
given to the thread's way too: nothing was written. When the loop's connections are all busy, the move
waits for one (`LoopConnections`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
import socket
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils.functional import LazyObject, empty

from games import broadcast
from games.services import kept
from games.services.actions import KeptMove, kept_move_played, kept_move_written
from games.services.sql import kept_write_arguments, kept_write_sql
from games.snapshots import remember

logger = logging.getLogger(__name__)


class LoopConnections:
    """A few autocommit connections of one event loop for the kept moves' statements. `take` gives an idle
    one, opens one while fewer than `size` are open, or waits for one to be given back (a move on the loop
    costs a fraction of a writer thread's, so it waits its turn rather than going there)."""

    def __init__(self, size: int, loop: asyncio.AbstractEventLoop) -> None:
        self.size, self.loop = size, loop
        self.idle: list[Any] = []
        self.opened = 0
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()

    async def take(self) -> Any:
        if self.idle:
            return self.idle.pop()
        if self.opened >= self.size:
            waiter: asyncio.Future[Any] = self.loop.create_future()
            self.waiting.append(waiter)
            try:
                return await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self.give_back(waiter.result())
                raise
        import asyncpg

        self.opened += 1
        try:
            return await asyncpg.connect(**_connection_params())
        except BaseException:
            self.opened -= 1
            raise

    def give_back(self, connection: Any) -> None:
        """A connection back after its statement: handed to the first move waiting, or kept, if it is open and
        in no transaction; else closed (and a move waiting opens another)."""
        if not connection.is_closed() and not connection.is_in_transaction():
            while self.waiting:
                waiter = self.waiting.popleft()
                if not waiter.done():
                    waiter.set_result(connection)
                    return
            self.idle.append(connection)
            return
        self.opened -= 1
        connection.terminate()
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)  # its move goes to a writer thread
                return


def _connection_params() -> dict[str, Any]:
    """The site's database as asyncpg's `connect` takes it, from Django's settings for it."""
    settings_dict = connections["default"].settings_dict
    params = {
        "host": settings_dict.get("HOST") or None,
        "port": int(settings_dict["PORT"]) if settings_dict.get("PORT") else None,
        "user": settings_dict.get("USER") or None,
        "password": settings_dict.get("PASSWORD") or None,
        "database": settings_dict.get("NAME") or None,
    }
    return {key: value for key, value in params.items() if value is not None}


_connections: dict[asyncio.AbstractEventLoop, LoopConnections] = {}


def _loop_connections() -> LoopConnections:
    loop = asyncio.get_running_loop()
    found = _connections.get(loop)
    if found is None:
        found = _connections[loop] = LoopConnections(settings.GAMES_LOOP_CONNECTIONS, loop)
    return found


def moves_on_loop() -> bool:
    """Whether a kept move may be made on the loop here: both settings on, and PostgreSQL."""
    return settings.GAMES_KEPT_MOVES and settings.GAMES_LOOP_CONNECTIONS > 0 and _postgresql()


@functools.cache
def _postgresql() -> bool:
    """Whether the site's database is PostgreSQL (read once: `connections[...]` is a context-local look-up)."""
    return bool(connections["default"].vendor == "postgresql")


def _resolved(user: Any) -> Any | None:
    """The socket's user if it is known without the database (a session's user is read lazily, on a thread:
    the socket's admission reads it), else None."""
    if isinstance(user, LazyObject):
        wrapped = getattr(user, "_wrapped", empty)
        return None if wrapped is empty else wrapped
    return user


async def kept_move_on_loop(*, game_id: int, user: Any, action: Any, seq: int) -> bool:
    """Make a person's move from the game this process kept, on the running loop; True when it was written
    and its views sent, False when nothing was written and the move is for `game_submit_action` (the module's
    text says when)."""
    if not moves_on_loop():
        return False
    user = _resolved(user)
    if user is None or not kept.held(game_id):
        return False
    pool = _loop_connections()
    connection = await pool.take()
    if connection is None:
        return False
    try:
        copy = kept.take(game_id)
        prepared = _prepared(copy, user=user, action=action, seq=seq) if copy is not None else None
        if copy is None or prepared is None:
            return False
        move, event, arguments = prepared
        try:
            row = await connection.fetchrow(kept_write_sql(), *arguments)
        except Exception:
            logger.exception("a kept move's statement of game %s failed on the loop; made on a thread", game_id)
            connection.terminate()
            return False
        if row is None:
            return False
        remember(move.game, move.state)
        kept_move_written(move, str(row[0]))
    finally:
        pool.give_back(connection)
    await broadcast.send_event(game_id, event)
    return True


def _prepared(copy: kept.Kept, *, user: Any, action: Any, seq: int) -> tuple[KeptMove, dict[str, Any], list[Any]] | None:
    """The move played on the copy, its views' event and its statement's arguments; None when it is for the
    thread's way (nothing written): not a plain move, a timer's task due, or anything raised (logged)."""
    try:
        move = kept_move_played(copy, user=user, action=action, seq=seq)
        if move is None or move.timer_in is not None:
            return None
        event = broadcast.game_event(game=move.game, seats=move.seats, state=move.state, result=None)
        return move, event, kept_write_arguments(move.game, move.logged, copy.row_version)
    except Exception:
        logger.exception("a kept move of game %s could not be made on the loop; made on a thread", copy.game.pk)
        return None


def forget_connections() -> None:
    """Close the idle connections of every loop and forget them. A test's event loop ends with the test, and
    a closed loop cannot close its transports: the connection's socket is shut down through a duplicate of
    its descriptor (the server ends the session; the socket itself is closed when it is collected)."""
    for pool in _connections.values():
        for connection in pool.idle:
            if not pool.loop.is_closed():
                connection.terminate()
                continue
            transport_socket = connection._transport.get_extra_info("socket")
            if transport_socket is not None and transport_socket.fileno() >= 0:
                with socket.socket(fileno=os.dup(transport_socket.fileno())) as duplicate:
                    with contextlib.suppress(OSError):
                        duplicate.shutdown(socket.SHUT_RDWR)
    _connections.clear()
