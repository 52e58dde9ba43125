"""Tasks of the site itself, as opposed to those of games and tournaments."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection


@shared_task(name="durak_site.task_system_probe", ignore_result=False)
def task_system_probe() -> dict[str, Any]:
    """Say what the process that ran this task sees, to show that a worker is running and wired up.

    `manage.py healthcheck --worker` and the worker test send it and compare the answer with their own.
    """
    return {
        "database_vendor": connection.vendor,
        "database_name": str(connection.settings_dict["NAME"]),
        "user_count": get_user_model().objects.count(),
        "tasks_in_process": settings.TASKS_IN_PROCESS,
    }
