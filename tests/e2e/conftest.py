"""Fixtures of the browser tests: Chromium, the site's tasks, a test process that schedules nothing of its own.

Each module marks itself `browser`; without Chromium its tests skip with the reason (tests/conftest.py's
`chromium_path`), and under CI=true that skip is a failure (tests/ci_enforcement.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser

from tests.e2e.browsing import chromium


@pytest.fixture
def browser(chromium_path: str) -> Iterator[Browser]:
    """Headless Chromium for one test; each test opens its pages or contexts with its own viewport and locale.
    Function scope: Playwright's sync API runs an event loop on this thread, and Django refuses ORM calls from
    a thread with a running loop, so it must not outlive the test."""
    with chromium(chromium_path) as launched:
        yield launched


@pytest.fixture
def tasks_run(request: pytest.FixtureRequest) -> None:
    """The site's tasks (bots' moves, games' ends, rounds) run inside Daphne without a broker; with one (CI=true)
    they need a worker."""
    if not settings.TASKS_IN_PROCESS:
        request.getfixturevalue("celery_worker")


@pytest.fixture
def quiet_test_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test process builds positions: no bot move, timer or finalisation of its own is scheduled."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args, **kwargs: None)
