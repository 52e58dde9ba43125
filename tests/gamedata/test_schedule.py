"""The monthly task: Celery beat runs it on the 1st of each month, on the "tournaments" queue, and it exports
the month before (UTC) whatever the site's zone between UTC-12 and UTC+12."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from celery.schedules import crontab
from django.conf import settings as django_settings

from durak_site.celery import app
from gamedata import tasks as gamedata_tasks
from gamedata.models import MonthlyExport
from gamedata.services import previous_month


def _entry() -> dict[str, Any]:
    return next(entry for entry in app.conf.beat_schedule.values() if entry["task"] == "gamedata.tasks.export_last_month")


def test_the_beat_schedule_names_the_task_for_the_first_of_each_month() -> None:
    entry = _entry()
    assert isinstance(entry["schedule"], crontab)
    schedule: Any = entry["schedule"]  # celery's stubs do not name a crontab's fields
    assert schedule.day_of_month == {1}
    assert schedule.month_of_year == set(range(1, 13)) and schedule.day_of_week == set(range(7))
    assert len(schedule.hour) == 1 and len(schedule.minute) == 1  # once that day
    assert "gamedata.tasks.export_last_month" in app.tasks


def test_the_task_runs_on_the_tournaments_queue_with_time_for_a_whole_month() -> None:
    route = app.amqp.router.route({}, "gamedata.tasks.export_last_month")
    assert route["queue"].name == "tournaments"
    assert (gamedata_tasks.export_last_month.time_limit or 0) >= 60 * 60


@pytest.mark.parametrize("zone", [django_settings.CELERY_TIMEZONE, "UTC", "Etc/GMT+12", "Etc/GMT-12", "America/Los_Angeles"])
def test_the_run_on_the_first_exports_the_month_that_just_ended_in_utc(zone: str) -> None:
    """Where the run falls in UTC, for the site's zone and the extremes (Etc/GMT+12 is UTC-12)."""
    schedule: Any = _entry()["schedule"]
    (hour,), (minute,) = schedule.hour, schedule.minute
    for year, month, ended in ((2026, 12, datetime.date(2026, 11, 1)), (2027, 1, datetime.date(2026, 12, 1)),
                               (2027, 3, datetime.date(2027, 2, 1))):  # fmt: skip
        run = datetime.datetime(year, month, 1, hour, minute, tzinfo=ZoneInfo(zone))
        assert previous_month(run) == ended
        # At least half an hour after the month ended in UTC: its last games are finalised by then.
        month_end = datetime.datetime(year, month, 1, tzinfo=datetime.UTC)
        assert run - month_end >= datetime.timedelta(minutes=30)


@pytest.mark.django_db
def test_the_task_makes_last_months_file(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.GAME_DATA_DIR = tmp_path
    moment = datetime.datetime(2024, 4, 1, 9, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(gamedata_tasks.timezone, "now", lambda: moment)
    assert gamedata_tasks.export_last_month.apply().get() == "durak_games_2024-03.jsonl.gz"
    export = MonthlyExport.objects.get()
    assert export.month == datetime.date(2024, 3, 1) and (tmp_path / export.file_name).is_file()
    # Run again (a redelivered message): the same file and row, nothing added.
    gamedata_tasks.export_last_month.apply().get()
    assert MonthlyExport.objects.count() == 1
