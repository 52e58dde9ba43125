"""Celery tasks of tournaments: thin, they take ids, and the services re-check state (a late or repeated
task does nothing). They run on the `tournaments` queue (durak_site.celery routes `tournaments.tasks.*`).

- ``start_tournament`` at the tournament's start time, ``start_round`` when a round is due,
  ``seat_deadline`` when a round's grace period for no-shows ends: timed with ``eta``;
- ``refresh_standings``: a large tournament's standings, a moment after a result (services.standings._standings_changed);
- ``sweep``: celery beat runs it every half minute (durak_site.celery's beat_schedule; without a broker
  the in-process beat does) and catches up on anything the timed tasks missed; on a demo site it also
  schedules the next bots' Swiss and opens the next open Swiss (tournaments.demo).
"""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments import services
from tournaments.demo import demo_bots_swiss_renew, demo_open_swiss_renew
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

SWEEP_INTERVAL_S = 30.0  # as durak_site.celery's beat_schedule


@shared_task(name="tournaments.tasks.start_tournament", soft_time_limit=100, time_limit=120)
def start_tournament(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        services.tournament_start(tournament=tournament)


@shared_task(name="tournaments.tasks.start_round", soft_time_limit=100, time_limit=120)
def start_round(tournament_id: int, number: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        services.round_start_due(tournament=tournament, number=number)


@shared_task(name="tournaments.tasks.seat_deadline", soft_time_limit=100, time_limit=120)
def seat_deadline(tournament_id: int, number: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        services.round_enforce_seat_deadline(tournament=tournament, number=number)


@shared_task(name="tournaments.tasks.refresh_standings", soft_time_limit=100, time_limit=120)
def refresh_standings(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        services.standings_refresh_pending(tournament=tournament)


@shared_task(name="tournaments.tasks.sweep", soft_time_limit=100, time_limit=120)
def sweep() -> None:
    counts = services.tournaments_sweep()
    if any(counts.values()):
        logger.info("tournament sweep: %s", counts)
    for renew in (demo_bots_swiss_renew, demo_open_swiss_renew):
        try:
            renewed = renew()
        except Exception:  # the demo's next edition must not hold up the sweep
            logger.exception("tournament sweep: %s failed", renew.__name__)
        else:
            if renewed is not None:
                logger.info("tournament sweep: the demo's next edition, %s, starts %s", renewed.name, renewed.starts_at)


def start_in_process_sweeps(*, first_in_s: float = 2.0) -> None:
    """Without a broker there is no beat: the server process sweeps on its in-process runner (the timed
    tasks of another process, such as `manage.py load_demo`, died with it)."""
    from durak_site.inprocess_tasks import repeat_in_process

    repeat_in_process(sweep, every_s=SWEEP_INTERVAL_S, first_in_s=first_in_s, what="the tournament sweep")
