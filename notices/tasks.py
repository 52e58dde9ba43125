"""Celery tasks of notices: thin, they take a round's id, and the services send each notice once however
often they run (a repeated or late task tells nobody twice). They go to the default queue.

- ``pairing_notices``: as soon as a round is paired (notices.services.round_paired times it);
- ``seat_reminders``: shortly before the round's seat deadline.
"""

from __future__ import annotations

from celery import shared_task

from notices import services


@shared_task(name="notices.tasks.pairing_notices", soft_time_limit=100, time_limit=120)
def pairing_notices(round_id: int) -> None:
    services.pairing_notices_send(round_id=round_id)


@shared_task(name="notices.tasks.seat_reminders", soft_time_limit=100, time_limit=120)
def seat_reminders(round_id: int) -> None:
    services.seat_reminders_send(round_id=round_id)
