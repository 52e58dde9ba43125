"""Celery tasks: in-process mode runs them at their time; with a broker a real worker runs them."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from accounts.services import user_sign_up
from durak_site.celery import app
from durak_site.inprocess_tasks import InProcessTaskRunner, in_process_runner, repeat_in_process
from durak_site.tasks import task_system_probe
from tests.processes import RunningProcess

# (marker, time.monotonic() when the task ran); tasks below append to it from the runner thread.
runs: list[tuple[str, float]] = []
runs_changed = threading.Condition()


@app.task(name="tests.foundation.record_run")
def record_run(marker: str) -> None:
    with runs_changed:
        runs.append((marker, time.monotonic()))
        runs_changed.notify_all()


@app.task(name="tests.foundation.explode")
def explode() -> None:
    raise RuntimeError("this task always fails")


def _wait_for_runs(count: int, *, timeout_s: float) -> list[tuple[str, float]]:
    with runs_changed:
        runs_changed.wait_for(lambda: len(runs) >= count, timeout=timeout_s)
        return list(runs)


@pytest.fixture
def in_process() -> Iterator[None]:
    """In-process task mode whatever the run's REDIS_URL, and a clean record of runs."""
    runs.clear()
    with override_settings(TASKS_IN_PROCESS=True):
        yield
        assert in_process_runner().wait_until_idle(timeout_s=10)


def test_countdown_task_runs_after_its_delay_and_not_before(in_process: None) -> None:
    sent_at = time.monotonic()
    record_run.apply_async(args=["timer"], countdown=1.5)

    time.sleep(1.0)
    assert runs == [], "ran before its countdown"

    ran = _wait_for_runs(1, timeout_s=5)
    assert [marker for marker, _ in ran] == ["timer"]
    assert ran[0][1] - sent_at >= 1.5


def test_eta_task_runs_at_its_time(in_process: None) -> None:
    sent_at = time.monotonic()
    record_run.apply_async(args=["round"], eta=timezone.now() + datetime.timedelta(seconds=1))

    assert runs == []
    ran = _wait_for_runs(1, timeout_s=5)
    assert ran[0][1] - sent_at >= 0.9  # eta is wall-clock, measured here on the monotonic clock


def test_tasks_run_in_order_of_their_due_time_not_of_sending(in_process: None) -> None:
    record_run.apply_async(args=["late"], countdown=0.8)
    record_run.apply_async(args=["early"], countdown=0.3)
    record_run.delay("now")

    ran = _wait_for_runs(3, timeout_s=5)
    assert [marker for marker, _ in ran] == ["now", "early", "late"]


def test_delay_returns_before_the_task_runs(in_process: None) -> None:
    """Like a worker, the runner works on its own thread: the caller is never blocked by the task."""
    gate = threading.Event()

    def hold_the_runner() -> None:
        gate.wait(5)

    in_process_runner().submit(call=hold_the_runner)
    record_run.delay("after the gate")
    assert runs == []
    gate.set()
    assert [marker for marker, _ in _wait_for_runs(1, timeout_s=5)] == ["after the gate"]


@app.task(name="review.tasks.tests_record_run")
def analysis_record_run(marker: str) -> None:
    """A task routed to the "analysis" queue (review.tasks.*)."""
    record_run(marker)


def test_the_analysis_queue_runs_on_its_own_thread(in_process: None) -> None:
    """A game analysis (minutes of CPU) never holds up the games' tasks, nor they it."""
    games_busy, analysis_busy = threading.Event(), threading.Event()

    def hold(event: threading.Event) -> Callable[[], None]:
        return lambda: None if event.wait(5) else None

    try:
        in_process_runner().submit(call=hold(games_busy))  # the games' runner is held
        analysis_record_run.delay("analysis")
        assert [marker for marker, _ in _wait_for_runs(1, timeout_s=3)] == ["analysis"]
        games_busy.set()
        assert in_process_runner("analysis") is not in_process_runner()
        in_process_runner("analysis").submit(call=hold(analysis_busy))  # now the analysis runner is held
        record_run.delay("game")
        assert [marker for marker, _ in _wait_for_runs(2, timeout_s=3)] == ["analysis", "game"]
    finally:
        games_busy.set()
        analysis_busy.set()
    assert in_process_runner("analysis").wait_until_idle(timeout_s=5)


def test_an_expired_task_does_not_run(in_process: None) -> None:
    record_run.apply_async(args=["expired"], countdown=0.5, expires=0.1)
    record_run.apply_async(args=["fresh"], countdown=0.6)
    assert [marker for marker, _ in _wait_for_runs(1, timeout_s=5)] == ["fresh"]
    assert in_process_runner().wait_until_idle(timeout_s=5)
    assert [marker for marker, _ in runs] == ["fresh"]


def test_a_failing_task_does_not_stop_the_runner(in_process: None, caplog: pytest.LogCaptureFixture) -> None:
    explode.delay()
    record_run.delay("still running")
    assert [marker for marker, _ in _wait_for_runs(1, timeout_s=5)] == ["still running"]
    assert "this task always fails" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_delay_on_commit_waits_for_the_commit(in_process: None) -> None:
    with transaction.atomic():
        record_run.delay_on_commit("committed")
        time.sleep(0.3)
        assert runs == []
    assert [marker for marker, _ in _wait_for_runs(1, timeout_s=5)] == ["committed"]


def test_runner_wakes_up_for_a_call_due_sooner_than_the_one_it_waits_for() -> None:
    runner = InProcessTaskRunner()
    ran: list[str] = []
    runner.submit(call=lambda: ran.append("in an hour"), delay_s=3600)
    runner.submit(call=lambda: ran.append("soon"), delay_s=0.1)
    deadline = time.monotonic() + 5
    while not ran and time.monotonic() < deadline:
        time.sleep(0.02)
    assert ran == ["soon"]
    assert runner.pending_count() == 1


def test_a_repeated_call_goes_on_after_a_failure_until_stopped(caplog: pytest.LogCaptureFixture) -> None:
    """The in-process sweeps (games' stalled games, tournaments') repeat on the runner without Celery beat."""
    runner, stop = InProcessTaskRunner(), threading.Event()
    turns: list[float] = []

    def sweep() -> None:
        turns.append(time.monotonic())
        if len(turns) == 2:
            raise RuntimeError("this sweep fails once")

    repeat_in_process(sweep, every_s=0.05, first_in_s=0.05, what="the test sweep", runner=runner, stop=stop)
    deadline = time.monotonic() + 5
    while len(turns) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(turns) >= 4 and all(later - earlier >= 0.04 for earlier, later in zip(turns, turns[1:]))
    assert "the test sweep failed" in caplog.text and "this sweep fails once" in caplog.text
    stop.set()
    assert runner.wait_until_idle(timeout_s=5)
    count = len(turns)
    time.sleep(0.2)
    assert len(turns) == count


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_task_against_postgresql(celery_worker: RunningProcess) -> None:
    """`celery -A durak_site worker` on Redis, reading this session's PostgreSQL test database."""
    assert not settings.TASKS_IN_PROCESS
    user_sign_up(username="worker-check", email="w@example.com", password="a-Long-passw0rd", preferred_language="en")

    answer = task_system_probe.apply_async().get(timeout=60)

    from django.db import connection

    assert answer == {
        "database_vendor": "postgresql",
        "database_name": connection.settings_dict["NAME"],
        "user_count": 1,
        "tasks_in_process": False,
    }
    assert "durak_site.task_system_probe" in celery_worker.log()
