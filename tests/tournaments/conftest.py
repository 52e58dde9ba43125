"""Fixtures of the tournament tests: a real `celery beat` beside the worker (CI=true provides Redis)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tests import processes


@pytest.fixture
def celery_beat(
    real_services: None, test_database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[processes.RunningProcess]:
    """`celery -A durak_site beat` with django_celery_beat's database scheduler on the test database."""
    folder = tmp_path_factory.mktemp("beat")
    command = [
        sys.executable, "-m", "celery", "-A", "durak_site", "beat", "--loglevel=INFO",
        "--scheduler", "django_celery_beat.schedulers:DatabaseScheduler", "--pidfile", str(folder / "beat.pid"),
    ]  # fmt: skip
    environment = processes.subprocess_environment(database=test_database_url)
    with processes.started(command, environment=environment, name="celery-beat") as running:
        processes._wait_until(lambda: "beat: Starting..." in running.log(), running, timeout_s=60, what="Celery beat")
        yield running
