"""Start the site's real processes (Daphne, a Celery worker) for tests, and stop them again."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from durak_site.celery import TASK_QUEUES
from durak_site.management.commands.run_site import daphne_command

PROJECT_DIR = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url(settings_dict: Mapping[str, object]) -> str:
    """The DATABASE_URL that names this (test) database, for a subprocess to open the same one."""
    engine = str(settings_dict["ENGINE"])
    name = str(settings_dict["NAME"])
    if engine.endswith("sqlite3"):
        return f"sqlite:///{name}"
    if engine.endswith("postgresql"):
        user = quote(str(settings_dict.get("USER") or ""))
        password = quote(str(settings_dict.get("PASSWORD") or ""))
        credentials = f"{user}:{password}@" if password else f"{user}@" if user else ""
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{credentials}{host}:{port}/{quote(name)}"
    raise ValueError(f"no URL form for database engine {engine}")


@dataclass
class RunningProcess:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_since(self, offset: int, *, most: int = 20_000) -> str:
        """What the process wrote from byte `offset` on, its last `most` characters."""
        try:
            with self.log_path.open("rb") as written:
                written.seek(offset)
                text = written.read().decode(errors="replace")
        except OSError:
            return ""
        return text[-most:]


# The processes this test process has started and not yet stopped, by name ("daphne", "celery-worker"): a failed
# test's report shows what they logged during it (ProcessLogs).
RUNNING: dict[str, RunningProcess] = {}


class ProcessLogs:
    """A pytest plugin: a test that fails while this process runs the site's processes gets what each of them
    logged during the test as a section of its report, so that a failure under CI's load can be read
    afterwards (the logs themselves are deleted with the processes)."""

    def __init__(self) -> None:
        self._offsets: dict[str, int] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield
        # After the setup: a session's processes start in the first test that asks for them.
        self._offsets = {name: running.log_size() for name, running in RUNNING.items()}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        report = outcome.get_result()
        if not report.failed or call.when == "setup":
            return
        for name, running in RUNNING.items():
            logged = running.log_since(self._offsets.get(name, 0))
            report.sections.append((f"{name} logged during the test", logged or "(nothing)"))


def _wait_until(ready: Callable[[], bool], running: RunningProcess, *, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if running.process.poll() is not None:
            raise RuntimeError(f"{what} exited with {running.process.returncode}:\n{running.log()[-3000:]}")
        if ready():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what} not ready after {timeout_s} s:\n{running.log()[-3000:]}")


def _port_open(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


def stop(running: RunningProcess) -> None:
    if running.process.poll() is None:
        running.process.terminate()
        try:
            running.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            running.process.kill()
            running.process.wait()


@contextlib.contextmanager
def started(command: list[str], *, environment: Mapping[str, str], name: str) -> Iterator[RunningProcess]:
    # DURAK_TEST_PROCESS_LOGS=DIR keeps each process's log in DIR after the run (to read why a test failed).
    kept = os.environ.get("DURAK_TEST_PROCESS_LOGS")
    if kept:
        os.makedirs(kept, exist_ok=True)
    with tempfile.NamedTemporaryFile(prefix=f"{name}-", suffix=".log", delete=False, dir=kept or None) as log_file:
        log_path = Path(log_file.name)
        process = subprocess.Popen(
            command, cwd=PROJECT_DIR, env=dict(environment), stdout=log_file, stderr=subprocess.STDOUT
        )
    running = RunningProcess(process=process, log_path=log_path)
    # A test may start its own process of a name a session's process has (tests/foundation/test_healthz.py's
    # Daphne beside the live server's): the session's is named again when the test's stops.
    previous = RUNNING.get(name)
    RUNNING[name] = running
    try:
        yield running
    finally:
        if previous is not None and previous.process.poll() is None:
            RUNNING[name] = previous
        else:
            RUNNING.pop(name, None)
        stop(running)
        if not kept:
            log_path.unlink(missing_ok=True)


def subprocess_environment(*, database: str, **overrides: str) -> dict[str, str]:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings.test",
        "DATABASE_URL": database,
        "PYTHONUNBUFFERED": "1",
    }
    environment.update(overrides)
    return environment


@contextlib.contextmanager
def daphne(environment: Mapping[str, str]) -> Iterator[str]:
    """Serve the ASGI application with Daphne on a free port; yields its base URL."""
    port = free_port()
    command = daphne_command("127.0.0.1", port)
    with started(command, environment=environment, name="daphne") as running:
        _wait_until(lambda: _port_open(port), running, timeout_s=60, what="Daphne")
        yield f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def celery_worker(environment: Mapping[str, str]) -> Iterator[RunningProcess]:
    """A real `celery -A durak_site worker` on every queue, one task at a time."""
    command = [
        sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--pool=solo", "--loglevel=INFO",
        "-Q", ",".join(TASK_QUEUES), "-n", f"pytest-{os.getpid()}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with started(command, environment=environment, name="celery-worker") as running:
        _wait_until(lambda: " ready." in running.log(), running, timeout_s=60, what="Celery worker")
        yield running


def wait_until_quiet(*, timeout_s: float = 15.0, quiet_polls: int = 3, poll_s: float = 0.1) -> bool:
    """Wait until no person's socket is still counted at a seat and no other session on this (PostgreSQL)
    database is inside a statement or a transaction, ``quiet_polls`` looks in a row; False on timeout."""
    from django.db import connection

    from games.models import Seat

    deadline = time.monotonic() + timeout_s
    quiet = 0
    while time.monotonic() < deadline:
        busy = Seat.objects.filter(connections__gt=0).exists()
        if not busy and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                    " AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')"
                )
                busy = cursor.fetchone()[0] > 0
        quiet = 0 if busy else quiet + 1
        if quiet >= quiet_polls:
            return True
        time.sleep(poll_s)
    return False
