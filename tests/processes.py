"""Start the site's real processes (Daphne, a Celery worker) for tests, and stop them again."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

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
    with tempfile.NamedTemporaryFile(prefix=f"{name}-", suffix=".log", delete=False) as log_file:
        log_path = Path(log_file.name)
        process = subprocess.Popen(
            command, cwd=PROJECT_DIR, env=dict(environment), stdout=log_file, stderr=subprocess.STDOUT
        )
    running = RunningProcess(process=process, log_path=log_path)
    try:
        yield running
    finally:
        stop(running)
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
