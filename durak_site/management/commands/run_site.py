"""Start the whole site for `make run`: Daphne, and with a broker a Celery worker and beat; stop them together.

Ctrl-C (or SIGTERM) stops every process it started; when one of them dies, the others are stopped too,
so nothing is left running half-way. With ``--demo-password-file`` (`make run`), once the server answers,
the demo administrator's password that load_demo wrote there is printed again, below the server's own
start-up lines, where it is not lost.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from durak_site.celery import TASK_QUEUES

_STOP_GRACE_S = 10.0
_ANSWER_WAIT_S = 60.0  # how long the password waits for the server to answer before it is printed anyway


class _StopRequested(Exception):
    """Ctrl-C or SIGTERM arrived."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _StopRequested(signal.Signals(signum).name)


# Daphne gives a WebSocket 5 s to be accepted by default; on a loaded server (the soak of issue 10: 300
# games and a Swiss round starting on 2 cores) admitting a socket may wait longer than that for the
# database, and the player would see the connection fail instead of a slow start.
WEBSOCKET_CONNECT_TIMEOUT_S = 30


def daphne_command(host: str, port: int) -> list[str]:
    """The command line of a Daphne process serving the site (run_site, the tests' and benches' servers)."""
    return [sys.executable, "-m", "durak_site.serve", "-b", host, "-p", str(port),
            "--websocket_connect_timeout", str(WEBSOCKET_CONNECT_TIMEOUT_S), "durak_site.asgi:application"]  # fmt: skip


class Command(BaseCommand):
    help = "Serve the site with Daphne (plus a Celery worker and beat when REDIS_URL is set) until Ctrl-C."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--demo-password-file",
            type=Path,
            default=None,
            help="print the demo administrator's password from this file once the server answers",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        commands = {"daphne": daphne_command(options["host"], options["port"])}
        if not settings.TASKS_IN_PROCESS:
            celery = [sys.executable, "-m", "celery", "-A", "durak_site"]
            commands["celery-worker"] = [*celery, "worker", "--loglevel=INFO", "-Q", ",".join(TASK_QUEUES)]
            commands["celery-beat"] = [*celery, "beat", "--loglevel=INFO"]
        # Set both explicitly: a process started in the background by a shell inherits SIGINT as ignored,
        # and Ctrl-C must stop the site however it was started.
        signal.signal(signal.SIGINT, _raise_stop)
        signal.signal(signal.SIGTERM, _raise_stop)
        processes: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, command in commands.items():
                # Inherits DJANGO_SETTINGS_MODULE. Without a broker there is no beat: the server process
                # sweeps for games whose timer or bot move was lost (games.recovery).
                environment = {**os.environ, "DURAK_SWEEP_STALLED_GAMES": "1"} if name == "daphne" else None
                processes[name] = subprocess.Popen(command, env=environment)
                self.stdout.write(f"started {name} (pid {processes[name].pid})")
            mode = "in-process tasks" if settings.TASKS_IN_PROCESS else "Celery worker and beat on Redis"
            self.stdout.write(
                self.style.SUCCESS(f"Serving http://{options['host']}:{options['port']}/ with {mode}. Ctrl-C stops.")
            )
            if options["demo_password_file"] is not None:
                self._announce_password(options["demo_password_file"], options["host"], options["port"], processes)
            self._wait_for_first_exit(processes)
        except _StopRequested:
            self.stdout.write("stopping...")
        finally:
            self._stop_all(processes)

    def _announce_password(
        self, path: Path, host: str, port: int, processes: dict[str, subprocess.Popen[bytes]]
    ) -> None:
        deadline = time.monotonic() + _ANSWER_WAIT_S
        while time.monotonic() < deadline and all(process.poll() is None for process in processes.values()):
            try:
                with socket.create_connection((host, port), timeout=1.0):
                    break
            except OSError:
                time.sleep(0.3)
        time.sleep(0.5)  # the server's own lines about listening come out as it starts to answer
        try:
            password = path.read_text(encoding="utf-8").strip()
        except OSError:
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo administrator: username 'admin', password {password!r} (kept in {path}). "
                f"Log in at http://{host}:{port}/accounts/log-in/"
            )
        )

    def _wait_for_first_exit(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        while True:
            for name, process in processes.items():
                status = process.poll()
                if status is not None:
                    raise CommandError(f"{name} exited with status {status}; stopping the rest")
            time.sleep(0.5)

    def _stop_all(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + _STOP_GRACE_S
        for name, process in processes.items():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.stderr.write(f"{name} did not stop in {_STOP_GRACE_S:.0f} s; killing it")
                process.kill()
                process.wait()
        self.stdout.write("all stopped")
