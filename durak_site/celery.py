"""The Celery app: JSON only, late acks, time limits, one queue per kind of work.

Every task of the project uses DurakTask as its base (it is the app's task class, so `@shared_task` and
`@app.task` get it without saying so). With a broker (REDIS_URL set) it is plain Celery. Without one
(settings.TASKS_IN_PROCESS) `apply_async`, `delay` and `delay_on_commit` hand the task to the
in-process runner, which runs it at its time: `turn_timeout.apply_async(args=[game_id, version],
countdown=30)` fires 30 s later in both modes, and `eta=` works the same way.

Routing: tasks go to the "games" queue unless routed elsewhere; tasks named `games.tasks.bot_*` go to
"bots", `tournaments.tasks.*` to "tournaments" and `review.tasks.*` (game analysis) to "analysis" (or pass
`queue=` to the task decorator). The monthly export of open game data (`gamedata.tasks.*`) goes to
"tournaments" too: it runs for minutes once a month, and on "games" it would hold up the turn timers and
finalisations that players wait on. Every place that starts a worker (run_site, tests/processes.py) consumes
TASK_QUEUES.
"""

from __future__ import annotations

import datetime
import fnmatch
import logging
import os
import uuid
from typing import Any

from celery import Celery, Task, signals
from celery.schedules import crontab
from celery.contrib.django.task import DjangoTask
from celery.result import AsyncResult
from django.utils import timezone
from kombu import Queue

from durak_site.inprocess_tasks import in_process_runner

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings.local")

logger = logging.getLogger(__name__)

TASK_QUEUES = ("games", "bots", "tournaments", "analysis")

# Celery's Redis transport hands an unacknowledged message to another worker after this long; with
# late acks a task waiting for its ETA is unacknowledged, so this must exceed the longest countdown
# we use (a round that starts later today) or the task would be delivered twice.
_REDIS_VISIBILITY_TIMEOUT_S = 24 * 60 * 60


def _delay_until(*, countdown: float | None, eta: datetime.datetime | None) -> float:
    if countdown is not None:
        return float(countdown)
    if eta is not None:
        if timezone.is_naive(eta):
            eta = timezone.make_aware(eta)
        return (eta - timezone.now()).total_seconds()
    return 0.0


def _expiry_moment(*, expires: float | datetime.datetime | None) -> datetime.datetime | None:
    if expires is None:
        return None
    if isinstance(expires, datetime.datetime):
        return expires if timezone.is_aware(expires) else timezone.make_aware(expires)
    return timezone.now() + datetime.timedelta(seconds=float(expires))


class DurakTask(DjangoTask):  # DjangoTask brings delay_on_commit and apply_async_on_commit
    def apply_async(
        self,
        args: Any = None,
        kwargs: Any = None,
        task_id: str | None = None,
        producer: Any = None,
        link: Any = None,
        link_error: Any = None,
        shadow: str | None = None,
        **options: Any,
    ) -> AsyncResult:
        from django.conf import settings

        if not settings.TASKS_IN_PROCESS:
            return super().apply_async(args, kwargs, task_id, producer, link, link_error, shadow, **options)
        task_id = task_id or str(uuid.uuid4())
        expires_at = _expiry_moment(expires=options.get("expires"))
        delay_s = _delay_until(countdown=options.get("countdown"), eta=options.get("eta"))

        def run_task() -> None:
            _run_in_process(self, args=tuple(args or ()), kwargs=dict(kwargs or {}), task_id=task_id,
                            expires_at=expires_at)

        in_process_runner(_queue_of(self.name, options)).submit(call=run_task, delay_s=delay_s)
        return AsyncResult(task_id, app=self.app)


def _queue_of(task_name: str, options: dict[str, Any]) -> str:
    """The queue a task goes to: the one asked for, else the first route whose pattern its name matches."""
    if options.get("queue"):
        return str(options["queue"])
    for pattern, route in (app.conf.task_routes or {}).items():
        if fnmatch.fnmatchcase(task_name, pattern):
            return str(route["queue"])
    return str(app.conf.task_default_queue)


def _run_in_process(
    task: Task,
    *,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    task_id: str,
    expires_at: datetime.datetime | None,
) -> None:
    from django.db import close_old_connections

    if expires_at is not None and timezone.now() > expires_at:
        logger.info("in-process task %s[%s] expired before it ran", task.name, task_id)
        return
    # Each task gets fresh database connections on this thread, as a worker's task would.
    close_old_connections()
    try:
        result = task.apply(args=args, kwargs=kwargs, task_id=task_id)
        if result.failed():
            logger.error("in-process task %s[%s] failed:\n%s", task.name, task_id, result.traceback)
    finally:
        close_old_connections()


# settings.GAMES_RECOVERY_SWEEP_S, read here from the environment too: this module loads before the settings.
_RECOVERY_SWEEP_S = float(os.environ.get("GAMES_RECOVERY_SWEEP_S") or 15.0)

app = Celery("durak_site", task_cls=DurakTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_accept_content=["json"],
    # A task is acknowledged after it ran, so a worker that dies mid-task leaves it to another;
    # tasks take ids and re-check state, so running twice is harmless.
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_time_limit=120,
    task_soft_time_limit=100,
    # Tasks report through the database; the few that answer a caller say ignore_result=False.
    task_ignore_result=True,
    result_expires=60 * 60,
    task_queues=[Queue(name) for name in TASK_QUEUES],
    task_default_queue="games",
    task_routes={
        "games.tasks.bot_*": {"queue": "bots"},
        "tournaments.tasks.*": {"queue": "tournaments"},
        "gamedata.tasks.*": {"queue": "tournaments"},
        # Game review's searches (review.tasks): minutes of CPU that must not hold up a move.
        "review.tasks.*": {"queue": "analysis"},
    },
    # Games whose next task was lost (a broker restarted empty, a worker killed) go on: games.recovery.
    beat_schedule={
        "resume-stalled-games": {"task": "games.tasks.resume_stalled_games", "schedule": _RECOVERY_SWEEP_S},
        # Tournaments whose timed task was lost, or is too far ahead to wait on the broker: tournaments.tasks.
        "tournaments-sweep": {"task": "tournaments.tasks.sweep", "schedule": 30.0},
        # Last month's open game data file, on the 1st. The task takes the month before the current UTC month;
        # 12:30 in the site's zone (CELERY_TIMEZONE) falls on the 1st or 2nd in UTC, at least half an hour after
        # the month ended there, for any zone from UTC-12 to UTC+12.
        "gamedata-monthly-export": {
            "task": "gamedata.tasks.export_last_month",
            "schedule": crontab(minute="30", hour="12", day_of_month="1"),
        },
    },
    broker_connection_retry_on_startup=True,
    broker_transport_options={"visibility_timeout": _REDIS_VISIBILITY_TIMEOUT_S},
)
app.autodiscover_tasks()


@signals.task_prerun.connect
def _fresh_connections(sender: Task | None = None, **_: Any) -> None:
    """Before a worker's task: give the pool back any connection that failed or outlived its age, as
    Django does at the start of a request (settings.CELERY_DB_REUSE_MAX keeps the pool itself)."""
    request = getattr(sender, "request", None)
    if request is not None and not getattr(request, "is_eager", False):
        from django.db import close_old_connections

        close_old_connections()
