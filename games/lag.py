"""The server's lag, credited to the player it kept waiting (issue 36): a turn timer never fires against a
player because the server was slow to show him his turn. The view's delivery starts his turn.

Each game event carries the moment the game began to wait at its version (`since`: a per-move timer's
deadline less the turn's length, a clock game's `clock_since`; `turn_since`), and so does a view sent on
request (a socket's first view, a resync, the answer to a stale move). When a seated player's socket is about
to hand him a view in which the game waits for him, the consumer asks `deliver`: from `CREDIT_FROM_MS` after
that moment on, the delivery's moment is noted in the shared cache (Django's: Redis when the site has one, so
every server process and worker sees it), keyed by game, version and seat, with an atomic add, so the first
late delivery of a version to a seat is the one that counts and a later one (another socket, a reconnection)
writes nothing. Below that nothing is written, so a server that keeps up pays nothing for this. The note is
written before the view is sent, so a timer that finds no note fires before the player could see the view.

When the game's turn timer (or a clock's fall) comes due, `games.services.game_timeout` calls `take` for
the seats it waits for, under the game's lock: the noted deliveries are taken (marked `TAKEN`, so that no
later delivery of the version notes again and no later timer credits again); a per-move turn then runs to
the latest delivery plus the turn's length (a clock game gives each running clock the time from `since` to
its delivery back), its timer is scheduled again and nothing is played. With nothing noted, when the timer
is to play, `close` closes each seat's key (`CLOSED`), also by an atomic add: a view of that version still on
its way is then not sent (`deliver` says so), since it is stale and the timer's move sends the next one (the
consumer then gives the seat back from the autopilot, `games.services.seat_arrived`). A note that slips in
between is credited as above.

Bounds: a delivery counts at most `CREDIT_MAX_MS` after `since`, and once a version and seat; a seat that
never has a view delivered (no socket) gets nothing, so a genuinely absent player still times out. A
player's own slow network is his, as on any site.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache

from games.turns import turn_seconds

# A view that reaches its socket this much after its version began is noted; below it the lag is the
# ordinary cost of a move (a few milliseconds) and nothing is written.
CREDIT_FROM_MS = 250
# No delivery counts later than this after its version began: a server that far behind is failing, and the
# game must still end.
CREDIT_MAX_MS = 60_000
# How long a note is kept (longer than any turn).
KEPT_S = 2 * 60 * 60
# A note's value: the moment (seconds since the epoch) of the version's first late delivery to the seat;
# these two mark a note credited, and a version the timer played with nothing noted.
TAKEN = 0.0
CLOSED = -1.0


def sent_at() -> float:
    """The moment a game event is sent (seconds since the epoch, as every process on the machines reads it;
    `time.time()`, which `timezone.now()` reads too, without the settings' look-up on every view)."""
    return _now()


def _now() -> float:
    return time.time()


def turn_since(game: Any) -> float | None:
    """The moment (seconds since the epoch) the game began to wait at its version: a clock game's
    `clock_since`, else the per-move deadline less the turn's length (later by any credit given); None when
    no timer runs."""
    if game.clock_ms:
        return game.clock_since.timestamp() if game.clock_since is not None else None
    if game.deadline is None:
        return None
    return (game.deadline - datetime.timedelta(seconds=turn_seconds(game))).timestamp()


def _key(game_id: int, seq: int, seat: int) -> str:
    return f"game-lag:{game_id}:{seq}:{seat}"


def _late_moment(since: float | None) -> float | None:
    """The moment to note for a view delivered now of a version that began at `since`; None: on time."""
    if since is None:
        return None
    now = _now()
    if (now - since) * 1000 < CREDIT_FROM_MS:
        return None
    return min(now, since + CREDIT_MAX_MS / 1000)


async def deliver(*, game_id: int, seq: int, seat: int, since: float | None) -> bool:
    """A view of version `seq` that waits for `seat` is about to be handed to his socket: a late one is
    noted first. False when it must not be sent: the timer played that version without him."""
    moment = _late_moment(since)
    if moment is None:
        return True
    key = _key(game_id, seq, seat)
    if await cache.aadd(key, moment, KEPT_S):
        return True
    return bool(await cache.aget(key) != CLOSED)


def deliver_now(*, game_id: int, seq: int, seat: int, since: float | None) -> bool:
    """`deliver` for a synchronous caller (a view read on a database thread)."""
    moment = _late_moment(since)
    if moment is None:
        return True
    key = _key(game_id, seq, seat)
    return bool(cache.add(key, moment, KEPT_S) or cache.get(key) != CLOSED)


def take(*, game_id: int, seq: int, seats: Iterable[int]) -> dict[int, float]:
    """The first late delivery's moment of each of `seats` at version `seq` that had one, by seat; taken
    (marked `TAKEN`), so that no later delivery of the version notes again and no later timer credits it."""
    keys = {_key(game_id, seq, seat): seat for seat in seats}
    if not keys:
        return {}
    found = {key: value for key, value in cache.get_many(list(keys)).items() if _is_note(value)}
    if found:
        cache.set_many(dict.fromkeys(found, TAKEN), KEPT_S)
    return {keys[key]: float(value) for key, value in found.items()}


def close(*, game_id: int, seq: int, seats: Iterable[int]) -> dict[int, float]:
    """The timer is about to play version `seq` (the game locked, nothing noted): each seat's key is closed,
    so that a view of the version still on its way is not sent. A delivery noted meanwhile wins: its moment
    is returned as `take` returns it, and the keys closed here are opened again (the turn goes on)."""
    closed, found = [], {}
    for seat in seats:
        key = _key(game_id, seq, seat)
        if cache.add(key, CLOSED, KEPT_S):
            closed.append(key)
        elif _is_note(value := cache.get(key)):
            found[seat] = float(value)
            cache.set(key, TAKEN, KEPT_S)
    if found:
        cache.delete_many(closed)
    return found


def _is_note(value: Any) -> bool:
    return isinstance(value, (int, float)) and value > 0
