"""The site's Celery app for the worker tests/review/test_worker.py starts: the same app, tasks and settings,
with the analysis's search replaced by the tests' fake (tests.review.fakes), since the search is being written
elsewhere. Each call of the fake writes a line to the file REVIEW_FAKE_CALLS names and takes about 1.5 s, so
that two runs of the task started together overlap; REVIEW_RUNS gets when each run started and ended."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from celery import signals

from durak_site.celery import app
from games.bots import review as core
from tests.review.fakes import fake_analysis

SEARCH_SECONDS = 1.5


def _analyse_record(
    record: Mapping[str, Any], *, budget: str = "default", seed: int = 0, progress: Any = None, ended_early: bool = False
) -> Any:
    with open(os.environ["REVIEW_FAKE_CALLS"], "a", encoding="utf-8") as calls:
        calls.write(f"{os.getpid()} {seed}\n")
    pause = SEARCH_SECONDS / max(1, len(record["actions"]))
    return fake_analysis(record, budget=budget, progress=progress, during=lambda ply: time.sleep(pause))


@signals.task_prerun.connect
def _run_starts(**_: Any) -> None:
    _note("start")


@signals.task_postrun.connect
def _run_ends(**_: Any) -> None:
    _note("end")


def _note(what: str) -> None:
    """When each run of a task starts and ends, in REVIEW_RUNS: the test checks that the two runs overlapped."""
    with open(os.environ["REVIEW_RUNS"], "a", encoding="utf-8") as runs:
        runs.write(f"{what} {os.getpid()} {time.time()}\n")


core.analyse_record = _analyse_record
core.analysable = lambda rules, players: True

__all__ = ["app"]
