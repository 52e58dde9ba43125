"""A person's move made on the server's event loop, without a game writer thread (issue 36).

A socket's move is most of the live site's work, and most moves need nothing but the locked read of the
game's row and its write with the log row: no bot to schedule, no turn timer to arm, no end to finish. Such
a move is made here, on the consumer's loop, with psycopg's async connection (a few kept per loop): BEGIN,
the locked read, the body of `games.services.actions.game_submit_action` (`person_move`) on the row, the
write and COMMIT, and after the commit the game's event sent to its group from the loop. No hop to a thread
and back, no pool checkout with its health check, no Django transaction around it. (Measured: no cheaper
than the writer thread's path; docs/experiments.md, "A move on the server's loop".)

The guarantees are game_change's, by the same code: the row is locked (`SELECT ... FOR UPDATE`, one writer
per game), the person's seat and the version are checked (`_seat_of`, `_check_playing`) and a refusal rolls
back and is raised as there, the move is durable before its event is sent, and the event is the one the
sync path sends (`broadcast.game_event`), each socket keeping its reader's part. Whatever needs more (the
seats not kept in the process at the row's `seats_version`, a move that ends the game or a clock's fall, a
bot or the autopilot to answer, a turn timer to schedule) is rolled back unwritten and made by the writer
thread's path (`game_submit_action`), which reads and checks everything again; so is a move whose connection
fails, which is then either made there or refused as stale if its commit went through.
"""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils import timezone
from psycopg import pq

from accounts.models import User
from games.broadcast import game_event, game_group
from games.models import GameStatus
from games.selectors import game_seats_kept
from games.services.actions import person_move
from games.services.changes import GameChange, _arm_timer, _bots_waiting, _check_playing, _seat_of
from games.services.errors import GameActionError
from games.services.sql import _game_of_row, _locked_game_sql, _write_statements
from games.snapshots import remember

logger = logging.getLogger(__name__)


class _NotHere(Exception):
    """The move needs more than its two statements: the writer thread's path makes it."""


def moves_on_loop() -> bool:
    """Whether a socket's move is first tried on its loop: PostgreSQL, and `GAMES_MOVES_ON_LOOP` (default on)."""
    return bool(getattr(settings, "GAMES_MOVES_ON_LOOP", True)) and connection.vendor == "postgresql"


async def game_submit_action_on_loop(*, game_id: int, user: User, action: Any, seq: int) -> bool:
    """Make a person's move on the running loop and send its views: True when it is made, False when it
    was left unwritten for `game_submit_action`; a refusal raises GameActionError, as there."""
    try:
        async with _connections().borrowed() as borrowed:
            change = await _move(borrowed, game_id=game_id, user=user, action=action, seq=seq)
    except _NotHere:
        return False
    except psycopg.Error:
        logger.warning("game %s: a move on the loop failed; the writer thread makes it", game_id, exc_info=True)
        return False
    assert change.state is not None
    remember(change.game, change.state)
    layer = get_channel_layer()
    if layer is not None:
        event = game_event(game=change.game, seats=change.seats, state=change.state, result=None)
        await layer.group_send(game_group(game_id), event)
    return True


async def _move(borrowed: psycopg.AsyncConnection[Any], *, game_id: int, user: User, action: Any, seq: int) -> GameChange:
    """The move in one transaction of `borrowed` (autocommit off by hand: BEGIN and COMMIT ride with the
    read and the write); rolled back on any refusal or `_NotHere`."""
    try:
        await borrowed.execute("BEGIN")
        row = await (await borrowed.execute(_locked_game_sql(), [game_id])).fetchone()
        if row is None:
            raise GameActionError("forbidden", "no such game")
        change = GameChange(_game_of_row(row))
        seats = game_seats_kept(change.game)
        if seats is None:
            raise _NotHere
        change._seats = seats
        change.person_seat = _seat_of(change.game, seats, user)
        _check_playing(change.game, seq)
        person_move(change, action)
        game, state = change.game, change.state
        if state is None or change.fields is not None or game.status != GameStatus.PLAYING:
            raise _NotHere
        if _bots_waiting(game, seats, state) or _arm_timer(game, timezone.now()) is not None:
            raise _NotHere
        statements = _write_statements(game, change.logged)
        for sql, params in statements:
            await borrowed.execute(sql, params)
        await borrowed.execute("COMMIT")
    except BaseException:
        await _roll_back(borrowed)
        raise
    return change


async def _roll_back(borrowed: psycopg.AsyncConnection[Any]) -> None:
    if borrowed.closed or borrowed.info.transaction_status == pq.TransactionStatus.IDLE:
        return
    try:
        await borrowed.execute("ROLLBACK")
    except psycopg.Error:
        await borrowed.close()  # not given back: `borrowed()` drops a connection it cannot trust


class _LoopConnections:
    """The async connections of one loop: at most `size` at once (the game writer threads' count), kept
    between moves; one that is broken or left in a transaction is closed instead of kept."""

    def __init__(self, size: int) -> None:
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.slots = asyncio.Semaphore(size)

    @asynccontextmanager
    async def borrowed(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self.slots:
            borrowed = self.idle.pop() if self.idle else await _connect()
            try:
                yield borrowed
            finally:
                if borrowed.closed or borrowed.broken or borrowed.info.transaction_status != pq.TransactionStatus.IDLE:
                    await borrowed.close()
                else:
                    self.idle.append(borrowed)

    async def close(self) -> None:
        idle, self.idle = self.idle, []
        for kept in idle:
            await kept.close()


async def _connect() -> psycopg.AsyncConnection[Any]:
    """A connection as Django's own (its parameters, adapters and time zone), in autocommit: the move
    sends its BEGIN and COMMIT itself."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    made = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    zone = connection.timezone_name
    if zone and made.info.parameter_status("TimeZone") != zone:
        await made.execute("SELECT set_config('TimeZone', %s, false)", [zone])
    return made


_by_loop: dict[asyncio.AbstractEventLoop, _LoopConnections] = {}


def _connections() -> _LoopConnections:
    """The running loop's connections; closed with the loop (a test's loop, or the server's at its stop)."""
    loop = asyncio.get_running_loop()
    kept = _by_loop.get(loop)
    if kept is None:
        kept = _by_loop[loop] = _LoopConnections(settings.GAME_WRITER_THREADS)
        original_close = loop.close

        def closing(self: asyncio.AbstractEventLoop) -> None:
            gone = _by_loop.pop(self, None)
            if gone is not None and not self.is_closed():
                self.run_until_complete(gone.close())
            self.close = original_close  # type: ignore[method-assign]
            original_close()

        loop.close = types.MethodType(closing, loop)  # type: ignore[method-assign]
    return kept
