"""The demo has life in it (issue 38): load_demo keeps its three promises however often it runs (a bots' Swiss
running or due, a championship open for registration, a rated pool with a history), the sweep schedules the
next bots' Swiss when the last is over, the administrator's password is written to its file and printed again
by run_site once the server answers, and a bot's every move is no line of the server's console."""

from __future__ import annotations

import datetime
import io
import logging
import socket
import stat
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.utils import timezone

from durak_site.management.commands import run_site
from games.tasks import bot_move
from ratings.models import RatedGame, RatingPool
from ratings.selectors import leaderboard
from tests.tournaments.factories import bots, director, enter, tournament
from tournaments import demo, selectors, tasks
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _load(password_file: Path) -> str:
    out = io.StringIO()
    call_command("load_demo", password_file=password_file, stdout=out)
    return out.getvalue()


def _state() -> tuple[list[tuple[str, str]], int, list[tuple[int, float]]]:
    pool = RatingPool.objects.get(slug=demo.HISTORY_POOL)
    return (
        list(Tournament.objects.order_by("pk").values_list("name", "status")),
        RatedGame.objects.filter(pool=pool).count(),
        list(pool.player_ratings.order_by("user_id").values_list("user_id", "rating")),
    )


def test_load_demo_keeps_its_three_promises_and_is_the_same_when_repeated(tmp_path: Path) -> None:
    started = time.monotonic()
    _load(tmp_path / "password")
    assert time.monotonic() - started < 30  # quick: no game is played, the history is drawn
    first = _state()
    _load(tmp_path / "password")
    assert _state() == first  # nothing twice

    now = timezone.now()
    swiss = Tournament.objects.get(name=demo.BOTS_SWISS)
    assert swiss.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)
    assert swiss.starts_at <= now + datetime.timedelta(minutes=1) and swiss.entrants.count() == len(demo.DEMO_ENTRANTS)
    open_swiss = Tournament.objects.get(name=demo.OPEN_SWISS)
    assert selectors.registration_open(open_swiss)
    pool = RatingPool.objects.get(slug=demo.HISTORY_POOL)
    assert RatedGame.objects.filter(pool=pool, game_key__startswith=demo.HISTORY_KEY).count() == demo.HISTORY_GAMES
    board = leaderboard(pool=pool)
    assert len(board) == len(demo.DEMO_ENTRANTS)  # every bench bot has played enough to be listed
    assert len({round(row.rating.rating) for row in board}) > 3  # a history, not twelve equal ratings
    played = list(RatedGame.objects.filter(pool=pool).values_list("played_at", flat=True))
    assert max(played) - min(played) >= datetime.timedelta(days=2)  # the charts have a course to draw


def test_the_sweep_schedules_the_next_bots_swiss_when_the_last_is_over(tmp_path: Path) -> None:
    _load(tmp_path / "password")
    first = Tournament.objects.get(name=demo.BOTS_SWISS)
    tasks.sweep()
    assert Tournament.objects.filter(name__startswith=demo.BOTS_SWISS).count() == 1  # one is due: nothing new

    Tournament.objects.filter(pk=first.pk).update(status=TournamentStatus.FINISHED)
    tasks.sweep()
    second = Tournament.objects.get(name=f"{demo.BOTS_SWISS} #2")
    assert second.status == TournamentStatus.REGISTRATION and second.director_id == first.director_id
    assert second.starts_at == first.starts_at + demo.BOTS_SWISS_EVERY  # 30 minutes after the last began
    assert second.entrants.count() == len(demo.DEMO_ENTRANTS)
    tasks.sweep()
    assert Tournament.objects.filter(name__startswith=demo.BOTS_SWISS).count() == 2

    # Long after the last began, the next starts at once.
    Tournament.objects.filter(pk=second.pk).update(status=TournamentStatus.CANCELLED)
    later = second.starts_at + datetime.timedelta(hours=5)
    third = demo.demo_bots_swiss_renew(now=later)
    assert third is not None and third.starts_at == later + demo.BOTS_SWISS_FIRST_IN


def test_the_sweep_opens_the_next_open_swiss_once_the_last_has_started(tmp_path: Path) -> None:
    _load(tmp_path / "password")
    first = Tournament.objects.get(name=demo.OPEN_SWISS)
    tasks.sweep()
    assert Tournament.objects.filter(name__startswith=demo.OPEN_SWISS).count() == 1  # it takes registrations

    Tournament.objects.filter(pk=first.pk).update(status=TournamentStatus.RUNNING)
    before = timezone.now()
    tasks.sweep()
    second = Tournament.objects.get(name=f"{demo.OPEN_SWISS} #2")
    assert selectors.registration_open(second) and second.starts_at >= before + demo.OPEN_SWISS_AHEAD
    assert second.entrants.count() == demo.OPEN_SWISS_BOTS
    tasks.sweep()
    assert Tournament.objects.filter(name__startswith=demo.OPEN_SWISS).count() == 2


def test_without_the_demo_the_sweep_creates_no_bots_swiss() -> None:
    """A club's own tournaments, even named as the demo's, are never renewed: only those load_demo made."""
    chief = director()
    for name in ("Club Championship", f"{demo.BOTS_SWISS} of the club", f"{demo.OPEN_SWISS} of the club"):
        event = tournament(chief, name=name)
        enter(event, bots(2))
        Tournament.objects.filter(pk=event.pk).update(status=TournamentStatus.FINISHED)
    tasks.sweep()
    assert demo.demo_bots_swiss_renew() is None and demo.demo_open_swiss_renew() is None
    assert Tournament.objects.count() == 3


def test_the_administrators_password_is_written_to_its_file(tmp_path: Path) -> None:
    path = tmp_path / ".demo-admin-password"
    output = _load(path)
    password = path.read_text(encoding="utf-8").strip()
    assert f"password {password!r}" in output and str(path) in output
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert authenticate(username="admin", password=password) is not None
    _load(path)  # a new password at every start, the file follows
    assert path.read_text(encoding="utf-8").strip() != password


def test_run_site_prints_the_password_again_once_the_server_answers(tmp_path: Path) -> None:
    path = tmp_path / "password"
    path.write_text("s3cret-demo\n", encoding="utf-8")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    out = io.StringIO()
    command = run_site.Command(stdout=out)
    # The "server" answers only after a moment: the password waits for it.
    threading.Timer(0.6, listener.listen).start()
    started = time.monotonic()
    try:
        command._announce_password(path, "127.0.0.1", port, {})
    finally:
        listener.close()
    assert time.monotonic() - started >= 0.6
    assert "'s3cret-demo'" in out.getvalue() and "username 'admin'" in out.getvalue()


def test_a_bots_move_is_no_line_of_the_console_but_a_failure_is(caplog: pytest.LogCaptureFixture) -> None:
    """Tasks run as the in-process runner (durak_site.celery._run_in_process) and a worker run them:
    through Celery's tracer, which writes a line for each task that succeeded."""
    with caplog.at_level(logging.DEBUG):
        # A move the game no longer waits for: the task runs and succeeds, as every bot move does.
        assert bot_move.apply(args=(10**9, 0), task_id="quiet-move").successful()
        assert not [record for record in caplog.records if "quiet-move" in record.getMessage()]
        # A task that fails is still reported.
        assert bot_move.apply(args=("not a game", 0), task_id="loud-move").failed()
    failures = [record for record in caplog.records if "loud-move" in record.getMessage()]
    assert failures and all(record.levelno >= logging.WARNING for record in failures)
