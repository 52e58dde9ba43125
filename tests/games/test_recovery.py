"""A game whose next task was lost (broker restarted empty, worker killed, server restarted) goes on: the
sweep of games.recovery schedules its bot move, turn timer or finalisation again, once per version."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Game, GameStatus, Result
from games.recovery import games_resume_stalled, stalled_games
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db


class Lost:
    """Stands in for the broker: keeps every task call and runs none (they are lost until replayed)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def take(self) -> list[tuple[str, tuple[Any, ...]]]:
        calls, self.calls = self.calls, []
        return calls


@pytest.fixture
def lost(monkeypatch: pytest.MonkeyPatch) -> Iterator[Lost]:
    broker = Lost()
    for name in ("bot_move", "turn_timeout", "finalise_game"):
        task = getattr(tasks, name)
        monkeypatch.setattr(task, "delay", lambda *args, _name=name: broker.calls.append((_name, args)))
        monkeypatch.setattr(
            task, "apply_async", lambda args=(), _name=name, **kwargs: broker.calls.append((_name, tuple(args)))
        )
    yield broker


def _later(seconds: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(seconds=seconds)


def _bot_game(committed: Any) -> Game:
    with committed(execute=True):
        services.table_fill_bots(table=table(person(), seats=2), level="easy")
    return latest_game(Game.objects.latest("started").table)


def test_a_bot_game_whose_bot_move_was_lost_is_resumed_and_played_to_the_end(
    lost: Lost, django_capture_on_commit_callbacks: Any
) -> None:
    game = _bot_game(django_capture_on_commit_callbacks)
    assert ("bot_move", (game.pk, 0)) in lost.take()  # scheduled, and lost

    # Just after the move the bot is still thinking: nothing to resume.
    assert stalled_games(now=_later(1)).total == 0

    found = games_resume_stalled(now=_later(25))
    assert found.bot_moves == [game.pk]
    assert found.timers == []
    assert lost.take() == [("bot_move", (game.pk, 0))]

    # Replaying each resumed call (and losing every follow-up) drives the game to its result.
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        games_resume_stalled(now=_later(25))
        for name, args in lost.take():
            with django_capture_on_commit_callbacks(execute=True):
                if name == "bot_move":
                    services.game_bot_move(game_id=args[0], seq=args[1])
    assert game.status == GameStatus.FINISHED
    assert lost.take() == [("finalise_game", (game.pk,))]  # scheduled by the last move, and lost
    assert not Result.objects.filter(game=game).exists()

    found = games_resume_stalled(now=_later(25))
    assert found.finalisations == [game.pk]
    assert lost.take() == [("finalise_game", (game.pk,))]
    services.game_finalise(game_id=game.pk)
    assert Result.objects.filter(game=game).count() == 1
    assert stalled_games(now=_later(25)).total == 0


def test_a_lost_turn_timer_is_resumed_only_once_its_deadline_has_passed(
    lost: Lost, django_capture_on_commit_callbacks: Any
) -> None:
    owner, guest = person(), person()
    people_table = table(owner, seats=2, turn_seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_join(table=people_table, user=owner)
        services.table_join(table=people_table, user=guest)
    game = latest_game(people_table)
    assert game.status == GameStatus.PLAYING
    lost.take()

    # Waiting for a person is no stall while his time runs, however long the bot threshold.
    assert stalled_games(now=_later(25)).total == 0
    assert stalled_games(now=_later(33)).total == 0  # within the slack after the deadline
    found = games_resume_stalled(now=_later(40))
    assert found.timers == [game.pk]
    assert found.bot_moves == []
    assert lost.take() == [("turn_timeout", (game.pk, game.seq))]

    with django_capture_on_commit_callbacks(execute=True):
        services.game_timeout(game_id=game.pk, seq=game.seq)
    game.refresh_from_db()
    assert game.seq > 0
    # A copy of the timer that was not lost after all changes nothing: it answers an old version.
    assert services.game_timeout(game_id=game.pk, seq=0) is None


def test_the_beat_task_sweeps(lost: Lost, django_capture_on_commit_callbacks: Any, monkeypatch: Any) -> None:
    game = _bot_game(django_capture_on_commit_callbacks)
    lost.take()
    later = _later(25)
    monkeypatch.setattr("games.recovery.timezone.now", lambda: later)
    assert tasks.resume_stalled_games.apply().get() == 1
    assert lost.take() == [("bot_move", (game.pk, 0))]
