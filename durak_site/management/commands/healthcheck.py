"""Print the /healthz report from the command line; exit status 1 when a service does not answer."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from durak_site.health import health_report
from durak_site.tasks import task_system_probe


class Command(BaseCommand):
    help = "Check the database, the channel layer and the task broker (and with --worker, a Celery worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--worker", action="store_true", help="also send a probe task and wait for a worker to answer it"
        )
        parser.add_argument("--worker-timeout", type=float, default=30.0)

    def handle(self, *args: Any, **options: Any) -> None:
        report = async_to_sync(health_report)()
        answer = report.as_json()
        if options["worker"]:
            if settings.TASKS_IN_PROCESS:
                raise CommandError("--worker needs a broker (REDIS_URL); without one tasks run in the server")
            probe = task_system_probe.apply_async()
            answer["worker"] = probe.get(timeout=options["worker_timeout"])
        self.stdout.write(json.dumps(answer, indent=2))
        if not report.ok:
            raise CommandError("a service does not answer")
