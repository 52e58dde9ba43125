"""A clock per player, as lichess plays it: a base time and an increment a move (3+2: three minutes, two
seconds more after each move). Plain values only; games.services keeps them on the Game under its row lock.

A game's clocks are the remaining milliseconds of each seat as they stood at `since`, and the seats whose
clock has run since then: the seats the game waits for (games.turns.waiting_seats). Anyone else may act at
any time (a throw-in while the defender thinks, an accusation) without losing time, and only a move of a seat
whose clock was running earns the increment, so that optional moves cannot buy time. When several seats are
waited for at once (throwers who still have to say "beaten"), all their clocks run: each of them holds the
bout up until he has answered.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_BASE_SECONDS = 30
MAX_BASE_SECONDS = 60 * 60
MAX_INCREMENT_SECONDS = 60


@dataclass(frozen=True)
class Clocks:
    """Remaining time per seat (ms) at `since`, and the seats whose clock runs from `since` on."""

    remaining_ms: tuple[int, ...]
    running: tuple[int, ...]
    since: datetime.datetime

    def at(self, now: datetime.datetime) -> tuple[int, ...]:
        """Each seat's remaining time at `now` (a running clock may be below zero: it has fallen)."""
        elapsed = elapsed_ms(self.since, now)
        return tuple(left - elapsed if seat in self.running else left for seat, left in enumerate(self.remaining_ms))

    def fallen(self, now: datetime.datetime) -> int | None:
        """The running seat whose time is out at `now` (the one that fell first), or None."""
        left = self.at(now)
        out = [seat for seat in self.running if left[seat] <= 0]
        return min(out, key=lambda seat: (left[seat], seat)) if out else None

    def falls_at(self) -> datetime.datetime | None:
        """When the first running clock falls; None when none runs."""
        if not self.running:
            return None
        return self.since + datetime.timedelta(milliseconds=min(self.remaining_ms[seat] for seat in self.running))


def elapsed_ms(since: datetime.datetime, now: datetime.datetime) -> int:
    """Whole milliseconds from `since` to `now`, never negative (two servers' clocks may differ a little)."""
    return max(0, (now - since) // datetime.timedelta(milliseconds=1))


def clocks_start(*, players: int, base_seconds: int, running: Sequence[int], now: datetime.datetime) -> Clocks:
    return Clocks(remaining_ms=(base_seconds * 1000,) * players, running=tuple(running), since=now)


def clocks_after_move(
    clocks: Clocks, *, mover: int | None, increment_ms: int, running: Sequence[int], now: datetime.datetime
) -> Clocks:
    """The clocks after a move of `mover` at `now` (None: no seat moved, a redeal or the end): the running
    clocks are charged the time since `since`, the mover earns the increment if his clock was running, and
    from `now` on the clocks of `running` (the seats the game now waits for) run."""
    left = list(clocks.at(now))
    if mover is not None and mover in clocks.running:
        left[mover] += increment_ms
    return Clocks(remaining_ms=tuple(left), running=tuple(running), since=now)


def clocks_credited(clocks: Clocks, credit_ms: Mapping[int, int]) -> Clocks:
    """The clocks with time given back to seats (ms by seat: the server's lag, games.lag); `since` and the
    running seats unchanged."""
    remaining = tuple(left + credit_ms.get(seat, 0) for seat, left in enumerate(clocks.remaining_ms))
    return Clocks(remaining_ms=remaining, running=clocks.running, since=clocks.since)


def clock_text(base_seconds: int, increment_seconds: int) -> str:
    """The setting as players write it: "3+2" (minutes + seconds), "0.5+0" for thirty seconds, "1.25+1"."""
    return f"{round(base_seconds / 60, 2):g}+{increment_seconds}"
