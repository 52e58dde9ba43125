"""The analysis task sent twice at once to real Celery worker processes (two, on PostgreSQL and Redis): one
analysis is stored, by one search; the other run finds the row held and does nothing. Needs PostgreSQL and
Redis (CI=true make test); the worker runs the site's app with the fake search (tests/review/worker_app.py) on
a queue of its own, so that no other worker of the session takes these tasks."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from review import services, tasks
from review.models import AnalysisStatus, GameAnalysis, SeatAccuracy
from tests import processes
from tests.ratings.helpers import finished_game, person
from tests.review.conftest import FakeSearch


def _wait_until(done: Any, *, timeout_s: float, what: str, log: Any) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} not after {timeout_s} s:\n{log()[-3000:]}")


@pytest.mark.needs_services
@pytest.mark.django_db(transaction=True)
def test_the_task_run_twice_at_once_by_real_workers_stores_one_analysis(
    real_services: None, test_database_url: str, tmp_path: Path, search: FakeSearch, queued: list[int]
) -> None:
    anna, boris = person(), person()
    game, _ = finished_game([anna, boris])
    analysis = services.analysis_request(user=anna, game=game)
    assert queued == [analysis.pk]  # recorded, not sent: these tests send it themselves, to their own queue
    queue = f"analysis-test-{os.getpid()}"
    calls, runs = tmp_path / "searches", tmp_path / "runs"
    environment = processes.subprocess_environment(database=test_database_url, REVIEW_FAKE_CALLS=str(calls),
                                                   REVIEW_RUNS=str(runs))  # fmt: skip
    command = [
        sys.executable, "-m", "celery", "-A", "tests.review.worker_app", "worker", "--pool=prefork", "--concurrency=2",
        "--loglevel=INFO", "-Q", queue, "-n", f"review-{os.getpid()}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with processes.started(command, environment=environment, name="review-worker") as worker:
        _wait_until(lambda: " ready." in worker.log(), timeout_s=60, what="the worker", log=worker.log)
        for _ in range(2):
            tasks.analyse_game.apply_async(args=(analysis.pk,), queue=queue)
        # The settings keep the worker's "received" and "succeeded" lines out of its log: the runs' file says.
        _wait_until(lambda: runs.exists() and runs.read_text().count("end ") == 2, timeout_s=60,
                    what="both runs' end", log=worker.log)  # fmt: skip
        log = worker.log()
    # Both runs are over, in two processes, and the second began before the first ended. One searched.
    moments = [line.split() for line in runs.read_text().splitlines()]
    starts = sorted(float(at) for what, _pid, at in moments if what == "start")
    ends = sorted(float(at) for what, _pid, at in moments if what == "end")
    assert len(starts) == len(ends) == 2 and len({pid for _what, pid, _at in moments}) == 2, moments
    assert starts[1] < ends[0], f"the runs did not overlap: {moments}"
    searches = calls.read_text().splitlines()
    assert len(searches) == 1 and searches[0].endswith(f" {game.pk}"), log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    stored = GameAnalysis.objects.get(pk=analysis.pk)
    assert stored.status == AnalysisStatus.DONE and stored.result is not None
    assert SeatAccuracy.objects.filter(analysis=stored).count() == 2
    assert GameAnalysis.objects.filter(game=game).count() == 1


@pytest.mark.needs_services
@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_store_one_analysis_and_queue_one_task(
    real_services: None, search: FakeSearch, queued: list[int]
) -> None:
    """Two players ask at the same moment, each in his own transaction on PostgreSQL: the unique row decides."""
    import threading

    from django.db import connection

    anna, boris = person(), person()
    game, _ = finished_game([anna, boris], loser=0)
    start = threading.Barrier(2)
    answers: list[Any] = []

    def ask(user: Any) -> None:
        try:
            start.wait(timeout=10)
            answers.append(services.analysis_request(user=user, game=game).pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(user,)) for user in (anna, boris)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == 2 and answers[0] == answers[1]
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert queued == [answers[0]]  # one task, after the one commit that created the row
