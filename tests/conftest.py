"""Fixtures for every test folder: real services when they are configured, real processes, a browser.

Tests that need PostgreSQL and Redis ask for `real_services`; without them (plain `make test`) those
tests skip with the reason, and under CI=true a skip is a failure (tests/ci_enforcement.py).
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

from tests import processes
from tests.ci_enforcement import pytest_make_collect_report, pytest_runtest_makereport

__all__ = ["pytest_make_collect_report", "pytest_runtest_makereport"]


def pytest_configure(config: pytest.Config) -> None:
    # A failed test's report shows what Daphne and the Celery worker logged while it ran.
    config.pluginmanager.register(processes.ProcessLogs(), "process-logs")


# Property tests must not flake on a busy 2-core CI machine because one example ran slowly.
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI") == "true":
    hypothesis_settings.load_profile("ci")

CHROMIUM = "/usr/bin/chromium"


@functools.cache
def services_missing_reason() -> str | None:
    """Why PostgreSQL and Redis are not available to this run, or None when they are."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not name a PostgreSQL database (CI=true make test sets it)"
    if settings.TASKS_IN_PROCESS:
        return "REDIS_URL is not set (CI=true make test sets it)"
    import redis

    try:
        redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis at REDIS_URL does not answer: {error}"
    return None


@pytest.fixture(scope="session")
def real_services() -> None:
    reason = services_missing_reason()
    if reason:
        pytest.skip(f"needs PostgreSQL and Redis: {reason}")


@pytest.fixture(scope="session")
def test_database_url(django_db_setup: None) -> str:
    """DATABASE_URL of this session's test database, for processes started by tests."""
    from django.db import connection

    return processes.database_url(connection.settings_dict)


@pytest.fixture(scope="session")
def live_server_url(request: pytest.FixtureRequest, test_database_url: str) -> Iterator[str]:
    """Daphne serving the site on a free port, on the test database; shared by the session's tests. With a
    broker (CI=true) the site's tasks need a worker, so one starts beside it, as `make run` starts one: in a
    test worker process (pytest-xdist) no earlier test may have started it."""
    if not settings.TASKS_IN_PROCESS:
        request.getfixturevalue("celery_worker")
    with processes.daphne(processes.subprocess_environment(database=test_database_url)) as url:
        yield url


@pytest.fixture(scope="session")
def celery_worker(real_services: None, test_database_url: str) -> Iterator[processes.RunningProcess]:
    """A real Celery worker on Redis and the PostgreSQL test database."""
    with processes.celery_worker(processes.subprocess_environment(database=test_database_url)) as worker:
        yield worker


@pytest.fixture(autouse=True)
def site_quiet_before_flush(request: pytest.FixtureRequest, _django_db_marker: None) -> Iterator[None]:
    """After a test that used the site's real processes, wait until they stop writing to its database.

    A transactional test's database is emptied (TRUNCATE) after the test; Daphne still closing the test's
    sockets (``seat_connected`` counts a seat's sockets down) or the worker finishing a task would be
    writing meanwhile, and PostgreSQL then breaks the deadlock by failing the flush. The fixture asks for
    ``_django_db_marker`` so that it ends before the flush."""
    yield
    if not {"live_server_url", "celery_worker"} & set(request.fixturenames):
        return
    if request.node.get_closest_marker("django_db") is None:
        return
    processes.wait_until_quiet()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if path is None:
        pytest.skip("needs Debian's chromium (CI=true make test installs it: apt-get install chromium)")
    return path


@pytest.fixture(autouse=True)
def default_rating_pools(request: pytest.FixtureRequest, _django_db_marker: None) -> None:
    """The rating pools a data migration makes (ratings/migrations/0002_default_pools.py) are there for every
    test that uses the database: a transactional test's flush empties every table, and with the suite split
    between worker processes (pytest-xdist) a database test may come after such a flush in its worker."""
    if request.node.get_closest_marker("django_db") is None:
        return
    import importlib

    from django.apps import apps

    from ratings.models import RatingPool

    if not RatingPool.objects.exists():
        importlib.import_module("ratings.migrations.0002_default_pools").create_pools(apps, None)


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer instance. pytest-asyncio gives every async test a new event
    loop, and channels-redis binds a receive lock to the loop that first used the layer: a layer kept from
    an earlier test fails with "bound to a different event loop"."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def no_loop_connection_outlives_its_test() -> Iterator[None]:
    """The database connections a test's event loop opened for its kept moves (games.services.loop_moves)
    are closed as it ends: the loop is gone, and an open connection would keep the test database from being
    dropped."""
    yield
    from games.services.loop_moves import forget_connections

    forget_connections()


@pytest.fixture(autouse=True)
def no_task_outlives_its_test() -> Iterator[None]:
    """Calls a test left scheduled on the in-process runner (a game's turn timer or clock, minutes ahead) are
    dropped when it ends: they would run against the next test's database, or keep the runner busy where the
    next test waits for it to be idle."""
    yield
    from durak_site.inprocess_tasks import in_process_runners

    for runner in in_process_runners():
        runner.cancel_scheduled()
