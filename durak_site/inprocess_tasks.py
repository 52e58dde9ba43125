"""Runs Celery tasks inside this process, each at its due time, for a site started without a broker.

One daemon thread takes calls off a heap ordered by due time, so a task given a 30-second countdown
runs 30 seconds later, not at once (Celery's eager mode would run it at once), and a task without
one runs as soon as the thread is free, after the caller has moved on, as it would with a worker.
Like a worker with a concurrency of one, it runs one task at a time. The "analysis" queue (game review's
searches, minutes of CPU) has a thread of its own, as it has workers of its own with a broker, so that an
analysis never holds up a game's timer or a bot's move.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)


@dataclass(order=True)
class _ScheduledCall:
    run_at: float  # time.monotonic() seconds
    sequence: int  # keeps calls due at the same moment in the order they were submitted
    call: Callable[[], None] = field(compare=False)


class InProcessTaskRunner:
    def __init__(self, name: str = "in-process-tasks") -> None:
        self._name = name
        self._scheduled: list[_ScheduledCall] = []
        self._condition = threading.Condition()
        self._sequence = itertools.count()
        self._thread: threading.Thread | None = None
        self._calls_running = 0

    def submit(self, *, call: Callable[[], None], delay_s: float = 0.0) -> None:
        with self._condition:
            run_at = time.monotonic() + max(0.0, delay_s)
            heapq.heappush(self._scheduled, _ScheduledCall(run_at, next(self._sequence), call))
            self._start_thread_if_needed()
            self._condition.notify_all()

    def pending_count(self) -> int:
        with self._condition:
            return len(self._scheduled) + self._calls_running

    def is_alive(self) -> bool:
        """Whether submitted calls will run: the thread runs, or starts with the first submission."""
        return self._thread is None or self._thread.is_alive()

    def wait_until_idle(self, *, timeout_s: float) -> bool:
        """Wait until nothing is scheduled or running; for tests and orderly shutdown."""
        deadline = time.monotonic() + timeout_s
        with self._condition:
            while self._scheduled or self._calls_running:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._condition.wait(remaining)
            return True

    def cancel_scheduled(self) -> int:
        """Drop every call not yet started (those running finish); for tests, so that one test's timers never
        run in, or keep busy, the next test. Returns how many were dropped."""
        with self._condition:
            dropped = len(self._scheduled)
            self._scheduled.clear()
            self._condition.notify_all()
            return dropped

    def _start_thread_if_needed(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run_forever, name=self._name, daemon=True)
            self._thread.start()

    def _run_forever(self) -> None:
        while True:
            with self._condition:
                scheduled = self._next_due_call()
                self._calls_running += 1
            try:
                scheduled.call()
            except Exception:
                # One failing task must not stop the thread that runs all the others.
                logger.exception("in-process task failed")
            finally:
                with self._condition:
                    self._calls_running -= 1
                    self._condition.notify_all()

    def _next_due_call(self) -> _ScheduledCall:
        """Block until the earliest call is due and take it; the caller holds the condition's lock."""
        while True:
            if not self._scheduled:
                self._condition.wait()
                continue
            wait_s = self._scheduled[0].run_at - time.monotonic()
            if wait_s <= 0:
                return heapq.heappop(self._scheduled)
            # Wakes early when an earlier call is submitted.
            self._condition.wait(wait_s)


_runner = InProcessTaskRunner()
# Queues whose tasks run on a thread of their own (durak_site.celery's queue names).
_lanes = {"analysis": InProcessTaskRunner(name="in-process-analysis")}


def in_process_runner(queue: str | None = None) -> InProcessTaskRunner:
    """The runner of a queue's tasks: its own for the queues in `_lanes`, else the one all others share."""
    return _lanes.get(queue or "", _runner)


def in_process_runners() -> list[InProcessTaskRunner]:
    return [_runner, *_lanes.values()]


def repeat_in_process(
    call: Callable[[], object], *, every_s: float, first_in_s: float, what: str,
    runner: InProcessTaskRunner | None = None, stop: threading.Event | None = None,
) -> None:
    """Run `call` on the in-process runner every `every_s` seconds, the first time after `first_in_s`: a
    site without a broker has no Celery beat, so its server process runs the periodic sweeps itself. A call
    that fails is logged and tried again at the next turn; each gets fresh database connections. The loop
    lasts as long as the process, or until `stop` is set (tests give it a runner of their own)."""
    on = runner or _runner

    def turn() -> None:
        from django.db import close_old_connections

        if stop is not None and stop.is_set():
            return
        close_old_connections()
        try:
            call()
        except Exception:  # the next turn tries again; one failure must not end the loop
            logger.exception("%s failed", what)
        finally:
            close_old_connections()
            on.submit(call=turn, delay_s=every_s)

    on.submit(call=turn, delay_s=first_in_s)
