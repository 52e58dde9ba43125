"""The server's lag, credited to the player it kept waiting (issue 36): a turn timer never fires against a
player because the server was slow to show him his turn.

Each game event carries the moment it was sent (`games.broadcast.game_event`, a field no reader receives).
When a seated player's socket hands him a view in which the game waits for him, the consumer measures how
long after that moment the view went out; from `CREDIT_FROM_MS` on it notes the delay in the shared cache
(Django's: Redis when the site has one, so every server process and worker sees it), keyed by game,
version and seat. Below that nothing is written, so a server that keeps up pays nothing for this.

When the game's turn timer (or a clock's fall) comes due, `games.services.game_timeout` takes the credits
of the seats it waited for at that version: the longest is added to the deadline (to the running clocks of
a clock game), the timer is scheduled again and nothing is played. A credit is taken once.

What is not covered: a view still undelivered when the timer fires (the server more than a whole turn
behind) is not known to be late yet, and a player's own slow network is his, as on any site.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import cache

# A view that reaches its socket this much after the change is credited; below it the lag is the
# ordinary cost of a move (a few milliseconds) and nothing is written.
CREDIT_FROM_MS = 250
# No credit is longer than this: a server that far behind is failing, and the game must still end.
CREDIT_MAX_MS = 60_000
# How long a noted credit waits to be taken (longer than any turn).
KEPT_S = 2 * 60 * 60


def sent_at() -> float:
    """The moment a game event is sent (seconds since the epoch, as every process on the machines reads it)."""
    return time.time()


def late_ms(event: Mapping[str, Any]) -> int:
    """How many milliseconds after its sending a game event's view is handed to its socket (0: unknown)."""
    sent = event.get("sent")
    if not isinstance(sent, (int, float)):
        return 0
    return max(0, int((time.time() - sent) * 1000))


def _key(game_id: int, seq: int, seat: int) -> str:
    return f"game-lag:{game_id}:{seq}:{seat}"


async def note(*, game_id: int, seq: int, seat: int, delay_ms: int) -> None:
    """A view of version `seq` on which the game waits for `seat` reached his socket `delay_ms` late; kept
    if it is long enough to be credited (the longest of his sockets' delays)."""
    if delay_ms < CREDIT_FROM_MS:
        return
    key = _key(game_id, seq, seat)
    kept = await cache.aget(key)
    if kept is None or kept < delay_ms:
        await cache.aset(key, min(delay_ms, CREDIT_MAX_MS), KEPT_S)


def take(*, game_id: int, seq: int, seats: Iterable[int]) -> dict[int, int]:
    """The credits noted for `seats` at version `seq`, by seat (the seats with none left out); taken, so
    that a second timer of the same version finds none."""
    keys = {_key(game_id, seq, seat): seat for seat in seats}
    if not keys:
        return {}
    found = cache.get_many(list(keys))
    if found:
        cache.delete_many(list(found))
    return {keys[key]: int(delay) for key, delay in found.items()}
