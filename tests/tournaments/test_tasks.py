"""The schedule: tasks and the sweep start tournaments, pair rounds when due and settle no-shows, each once;
and a whole scheduled tournament of bots runs by itself (in process, or under CI=true on a real Celery
worker and beat)."""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments import services, tasks
from tournaments.services import create, direction, standings
from tournaments.services import rounds as round_services
from tournaments.models import (
    AuditAction, AuditEntry, Pairing, PairingStatus, ResultKind, Round, RoundStatus, StandingRow, Tournament,
    TournamentStatus,
)


def _later(seconds: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(seconds=seconds)


@pytest.mark.django_db
def test_the_sweep_does_what_is_due_and_only_once() -> None:
    chief = director()
    event = tournament(chief, rounds=2, round_interval=600, grace_seconds=120, starts_at=_later(1))
    anna = person()
    services.tournament_register(tournament=event, user=anna)
    enter(event, bots(3))
    assert services.tournaments_sweep() == {"started": 0, "rounds": 0, "no_shows": 0, "standings": 0}

    # Due: it starts; Anna does not come, and after the grace period she forfeits.
    assert services.tournaments_sweep(now=_later(2)) == {"started": 1, "rounds": 0, "no_shows": 0, "standings": 0}
    event.refresh_from_db()
    assert event.status == TournamentStatus.RUNNING
    assert services.tournaments_sweep(now=_later(2))["started"] == 0
    play_games(event)  # the bots' game
    assert services.tournaments_sweep(now=_later(60))["no_shows"] == 0
    assert services.tournaments_sweep(now=_later(121))["no_shows"] == 1
    assert Pairing.objects.get(seats__entrant__user=anna, round__number=1).result_kind == ResultKind.FORFEIT
    first = Round.objects.get(tournament=event, number=1)
    assert first.status == RoundStatus.CLOSED
    # Round 2 is due after the interval, not before.
    assert services.tournaments_sweep(now=_later(300))["rounds"] == 0
    assert services.tournaments_sweep(now=_later(601))["rounds"] == 1
    assert Round.objects.get(tournament=event, number=2).status == RoundStatus.PAIRED
    assert services.tournaments_sweep(now=_later(601))["rounds"] == 0


@pytest.mark.django_db
def test_the_tasks_take_ids_and_do_nothing_when_not_due() -> None:
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(2))
    tasks.start_tournament(event.pk)  # an hour early: nothing
    event.refresh_from_db()
    assert event.status == TournamentStatus.REGISTRATION
    tasks.start_tournament(0)  # no such tournament: nothing
    tasks.seat_deadline(event.pk, 1)
    tasks.start_round(event.pk, 1)
    tasks.sweep()
    assert not Round.objects.filter(tournament=event).exists()


@pytest.mark.django_db
def test_pause_stops_the_schedule_and_resume_gives_a_fresh_grace_period() -> None:
    chief = director()
    anna, boris = person(), person()
    event = tournament(chief, rounds=1, grace_seconds=60)
    for player in (anna, boris):
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    services.tournament_pause(tournament=event, by=chief, reason="Server maintenance")
    assert services.round_enforce_seat_deadline(tournament=event, number=1, now=_later(3600)) == 0
    services.tournament_resume(tournament=event, by=chief)
    round_ = Round.objects.get(tournament=event, number=1)
    assert round_.seat_deadline is not None and round_.seat_deadline > _later(50)
    actions = list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert AuditAction.PAUSED in actions and AuditAction.RESUMED in actions
    assert Pairing.objects.get(tournament=event).status == PairingStatus.WAITING


@pytest.mark.django_db
def test_a_large_tournaments_standings_follow_a_moment_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above STANDINGS_AT_ONCE entrants a result only marks the standings stale; the task (or the sweep)
    recomputes them once for however many results came meanwhile."""
    monkeypatch.setattr(standings, "STANDINGS_AT_ONCE", 3)
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(4))
    services.tournament_start(tournament=event, by=chief)
    play_games(event)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED  # the final standings are computed at the end, at once
    assert sorted(StandingRow.objects.filter(tournament=event).values_list("points", flat=True)) != [0, 0, 0, 0]
    second = tournament(chief, rounds=2, round_interval=0)
    enter(second, bots(4))
    services.tournament_start(tournament=second, by=chief)
    play_games(second)
    second.refresh_from_db()
    assert second.standings_pending
    assert set(StandingRow.objects.filter(tournament=second).values_list("points", flat=True)) == {0}
    assert services.tournaments_sweep()["standings"] == 1
    second.refresh_from_db()
    assert not second.standings_pending
    assert sum(StandingRow.objects.filter(tournament=second).values_list("points", flat=True)) == 2
    tasks.refresh_standings(second.pk)  # nothing pending: nothing to do
    assert not services.standings_refresh_pending(tournament=second)


def _wait_for(condition: Any, *, timeout_s: float, what: str, logs: Any = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.5)
    raise AssertionError(f"{what} did not happen in {timeout_s} s" + (f"\n{logs()}" if logs else ""))


@pytest.mark.django_db(transaction=True)
def test_a_scheduled_tournament_runs_by_itself(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """No call after the creation and the entries: the start, each round (paired when due after the
    interval), each bot move and finalisation and the round's closing come from the schedule. Under CI=true
    the start is left to celery beat's sweep: the test process sends no task at all."""
    logs = None
    if not settings.TASKS_IN_PROCESS:
        worker = request.getfixturevalue("celery_worker")
        beat = request.getfixturevalue("celery_beat")
        for module in (create, direction, round_services, standings):  # where the services look _schedule up
            monkeypatch.setattr(module, "_schedule", lambda *args, **kwargs: None)

        def logs() -> str:
            return f"worker:\n{worker.log()[-3000:]}\nbeat:\n{beat.log()[-2000:]}"

    chief = director()
    event = tournament(chief, rounds=2, round_interval=1, games_per_pairing=1, starts_at=_later(2), turn_seconds=30)
    enter(event, bots(4))
    _wait_for(lambda: Tournament.objects.get(pk=event.pk).status == TournamentStatus.FINISHED, timeout_s=240,
              what="the tournament's end", logs=logs)  # fmt: skip
    rounds = list(Round.objects.filter(tournament=event).order_by("number"))
    assert [round_.status for round_ in rounds] == [RoundStatus.CLOSED, RoundStatus.CLOSED]
    assert rounds[1].paired_at is not None and rounds[0].closed_at is not None
    assert rounds[1].paired_at >= rounds[0].closed_at + datetime.timedelta(seconds=1)
    assert StandingRow.objects.filter(tournament=event).count() == 4
    assert all(pairing.status == PairingStatus.FINISHED for pairing in Pairing.objects.filter(tournament=event))
    if not settings.TASKS_IN_PROCESS:
        assert "tournaments.tasks.sweep" in beat.log()
        assert "tournaments.tasks.start_round" in worker.log()
