"""Faults under CI=true (issue 10), against real processes: a Celery worker killed while bot moves are
pending, and the Redis broker itself killed and started again empty. Every game still ends, each action
applied once: the stored game is what its record replays to, with one action-log row per version, and one
result per game.

The test runs its own Redis (a private redis-server on a free port), its own worker and its own beat, so
that killing them disturbs no other test. Beat sweeps every 2 s here and a bot seat silent for 3 s counts
as stalled (settings GAMES_RECOVERY_SWEEP_S, GAMES_RECOVERY_BOT_AFTER_S).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

from durak_site.celery import TASK_QUEUES
from games import services
from games.engine import load_record, play
from games.engine.actions import action_from_json
from games.models import ActionLog, Game, GameStatus, Result
from games.snapshots import forget_all, state_of
from tests import processes
from tests.games.factories import person, table

GAMES = 8
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(420)]


@contextlib.contextmanager
def _private_redis(port: int) -> Iterator[subprocess.Popen[bytes]]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs redis-server to run a private Redis")
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while not processes._port_open(port):
                assert time.monotonic() < deadline, "the private Redis did not start"
                time.sleep(0.1)
            yield process
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def _worker_command() -> list[str]:
    return [
        sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--pool=solo", "--loglevel=INFO",
        "-Q", ",".join(TASK_QUEUES), "-n", f"faults-{time.monotonic_ns()}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip


def _beat_command() -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "durak_site", "beat", "--loglevel=INFO", "--max-interval", "1"]


def _progress() -> tuple[int, int, int]:
    games = Game.objects.filter(table__name__startswith="fault-")
    return (
        sum(games.values_list("seq", flat=True)),
        games.filter(status=GameStatus.FINISHED).count(),
        Result.objects.filter(game__in=games).count(),
    )


def _wait(condition: str, check: object, timeout_s: float, *logs: processes.RunningProcess) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.5)
    tails = "\n".join(log.log()[-2000:] for log in logs)
    raise AssertionError(f"{condition} not reached in {timeout_s} s; progress {_progress()}\n{tails}")


def _assert_intact(game: Game) -> None:
    forget_all()
    replayed = load_record({**game.record, "actions": []}).initial_state()
    for raw in game.record["actions"]:
        play(replayed, raw["seat"], action_from_json(raw))
    stored = state_of(game)
    assert replayed.hands == stored.hands and replayed.finished and stored.finished
    seqs = list(ActionLog.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.seq)), f"game {game.pk}: action log {seqs[:10]}... for version {game.seq}"
    assert Result.objects.filter(game=game).count() == 1


def test_games_survive_a_killed_worker_and_a_restarted_broker(
    real_services: None, test_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import tasks

    # The games start here with their first bot move lost, as if the broker had lost it: beat's sweep must
    # find them. The worker and beat below talk to the private Redis only.
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    for number in range(GAMES):
        level = ("easy", "medium")[number % 2]
        services.table_fill_bots(table=table(person(), seats=2, name=f"fault-{number}", turn_seconds=3600), level=level)
    assert Game.objects.filter(table__name__startswith="fault-", status=GameStatus.PLAYING).count() == GAMES

    port = processes.free_port()
    environment = processes.subprocess_environment(
        database=test_database_url,
        REDIS_URL=f"redis://127.0.0.1:{port}/0",
        GAMES_RECOVERY_SWEEP_S="2",
        GAMES_RECOVERY_BOT_AFTER_S="3",
    )
    with _private_redis(port) as redis_server:
        with processes.started(_beat_command(), environment=environment, name="beat") as beat:
            worker = processes.started(_worker_command(), environment=environment, name="worker-1")
            with worker as first:
                # Beat's sweep schedules the lost moves; the worker plays them.
                _wait("some progress", lambda: _progress()[0] >= 40, 120, first, beat)
                first.process.send_signal(signal.SIGKILL)  # mid-game, moves pending on the broker
                first.process.wait()
            seq_at_kill = _progress()[0]
            with processes.started(_worker_command(), environment=environment, name="worker-2") as second:
                _wait("progress after the worker died", lambda: _progress()[0] >= seq_at_kill + 40, 120, second, beat)
                # The broker dies and comes back empty: every queued task is gone.
                redis_server.kill()
                redis_server.wait()
                with _private_redis(port):
                    _wait("every game finished and finalised", lambda: _progress()[2] == GAMES, 240, second, beat)

    for game in Game.objects.filter(table__name__startswith="fault-"):
        _assert_intact(game)
