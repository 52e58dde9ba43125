"""Celery: last month's file of open game data, made on the first of each month (durak_site.celery's beat)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from gamedata.services import monthly_export_make, previous_month


# A month's export reads every game of the month: far longer than the project's two-minute task limit.
@shared_task(time_limit=3 * 60 * 60, soft_time_limit=3 * 60 * 60 - 60)
def export_last_month() -> str:
    """Export the month (UTC) before the current one; run again, it makes the same file again."""
    export = monthly_export_make(month=previous_month(timezone.now()))
    return export.file_name
