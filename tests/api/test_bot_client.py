"""examples/bot_client.py, run as a separate process with a bot account's token, plays a whole game against
one of the site's bots over a real socket: Daphne (live_server_url), and under CI=true PostgreSQL, Redis and
a Celery worker that moves the site's bot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from api import services
from games.engine import load_record, replay_record
from games.models import ActionLog, Game, GameStatus, Result, Seat
from games.selectors import game_record_json
from tests.api.conftest import bot_account
from tests.processes import PROJECT_DIR


@pytest.fixture
def server_bots(request: pytest.FixtureRequest) -> None:
    """Whatever moves the site's bots for the live server: its own task thread, or a Celery worker on Redis."""
    if not settings.TASKS_IN_PROCESS:
        request.getfixturevalue("celery_worker")


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_whole_game_against_a_server_bot(live_server_url: str, server_bots: None) -> None:
    robot = bot_account("example-bot")
    key = services.token_create(user=robot, name="example").key
    finished = subprocess.run(
        [sys.executable, "examples/bot_client.py", "--server", live_server_url, "--level", "easy", "--seed", "7"],
        cwd=PROJECT_DIR, env={**os.environ, "DURAK_TOKEN": key}, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr[-3000:]
    summary = json.loads(finished.stdout.strip().splitlines()[-1])
    assert key not in finished.stdout + finished.stderr

    game = Game.objects.get(pk=summary["game"])
    assert game.status == GameStatus.FINISHED
    seats = {seat.number: seat for seat in Seat.objects.filter(table=game.table)}
    assert seats[summary["seat"]].user == robot and seats[1 - summary["seat"]].bot_level == "easy"
    result = Result.objects.get(game=game)
    assert summary["result"]["places"] == result.places
    replay = replay_record(load_record(game_record_json(game=game)))
    assert replay.ok and replay.state is not None and replay.state.finished
    moved = ActionLog.objects.filter(game=game, seat=summary["seat"], by_timer=False, by_autopilot=False).count()
    assert moved == summary["moves"] >= 1
    assert ActionLog.objects.filter(game=game, seat=1 - summary["seat"]).exists()
