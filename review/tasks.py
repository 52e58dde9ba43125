"""Celery tasks of game review, on their own queue ("analysis", durak_site.celery): an analysis's search takes
seconds to minutes of CPU and must not hold up the games' or the bots' workers. Thin: the service holds the
row, so a repeated or concurrent run stores nothing twice."""

from __future__ import annotations

from celery import shared_task

from review import services

# A little under the service's limit on a held run, so that a killed run's analysis is taken over only after
# the run is surely gone.
SOFT_TIME_LIMIT_S = services.ANALYSIS_TIME_LIMIT_S - 120
TIME_LIMIT_S = services.ANALYSIS_TIME_LIMIT_S - 60


@shared_task(name="review.tasks.analyse_game", soft_time_limit=SOFT_TIME_LIMIT_S, time_limit=TIME_LIMIT_S)
def analyse_game(analysis_id: int) -> None:
    services.analysis_run(analysis_id=analysis_id)
