"""Whether the database, the channel layer and the task broker answer; behind /healthz and `manage.py healthcheck`."""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections
from kombu import Connection

from durak_site.inprocess_tasks import in_process_runner

logger = logging.getLogger(__name__)

# A health probe must answer before the balancer gives up on it, even when a service hangs.
CHECK_TIMEOUT_S = 3


@dataclass(frozen=True)
class ComponentStatus:
    ok: bool
    backend: str
    # The exception's class only: the report is public, and messages can name internal hosts.
    error: str | None = None


@dataclass(frozen=True)
class HealthReport:
    database: ComponentStatus
    channel_layer: ComponentStatus
    task_broker: ComponentStatus

    @property
    def ok(self) -> bool:
        return self.database.ok and self.channel_layer.ok and self.task_broker.ok

    def as_json(self) -> dict[str, Any]:
        return {
            "status": "ok" if self.ok else "unavailable",
            "database": asdict(self.database),
            "channel_layer": asdict(self.channel_layer),
            "task_broker": asdict(self.task_broker),
        }


def _failed(component: str, backend: str, error: BaseException) -> ComponentStatus:
    logger.warning("health check: %s (%s) does not answer: %r", component, backend, error)
    return ComponentStatus(ok=False, backend=backend, error=type(error).__name__)


def database_status() -> ComponentStatus:
    connection = connections["default"]
    try:
        if getattr(connection, "pool", None) is not None:
            # A pool waits for a free or new connection up to its timeout; the check asks the server
            # itself, at once, with the pool's own connection parameters.
            import psycopg

            params = connection.get_connection_params()
            with psycopg.connect(**params, connect_timeout=CHECK_TIMEOUT_S) as direct:
                direct.execute("SELECT 1").fetchone()
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except Exception as error:
        return _failed("database", connection.vendor, error)
    finally:
        # This runs outside a request cycle: leave no connection behind in the worker thread.
        connection.close()
    return ComponentStatus(ok=True, backend=connection.vendor)


async def channel_layer_status() -> ComponentStatus:
    layer = get_channel_layer()
    backend = type(layer).__name__
    try:
        if layer is None:
            raise LookupError("no channel layer configured")
        channel = await layer.new_channel("healthz.")
        nonce = secrets.token_hex(8)
        await layer.send(channel, {"type": "healthz.ping", "nonce": nonce})
        message = await asyncio.wait_for(layer.receive(channel), timeout=CHECK_TIMEOUT_S)
        if message.get("nonce") != nonce:
            raise ValueError("the channel layer returned another message")
    except Exception as error:
        return _failed("channel layer", backend, error)
    return ComponentStatus(ok=True, backend=backend)


def task_broker_status() -> ComponentStatus:
    if settings.TASKS_IN_PROCESS:
        if not in_process_runner().is_alive():
            return _failed("task broker", "in-process", RuntimeError("the in-process task thread died"))
        return ComponentStatus(ok=True, backend="in-process")

    broker_url = settings.CELERY_BROKER_URL
    backend = broker_url.split("://", 1)[0]
    try:
        with Connection(broker_url, connect_timeout=CHECK_TIMEOUT_S) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=CHECK_TIMEOUT_S)
    except Exception as error:
        return _failed("task broker", backend, error)
    return ComponentStatus(ok=True, backend=backend)


async def health_report() -> HealthReport:
    async def within_timeout(check: Any, component: str) -> ComponentStatus:
        try:
            return await asyncio.wait_for(check, timeout=CHECK_TIMEOUT_S + 1)
        except TimeoutError as error:
            return _failed(component, "unknown", error)

    database, channel_layer, task_broker = await asyncio.gather(
        within_timeout(sync_to_async(database_status, thread_sensitive=False)(), "database"),
        within_timeout(channel_layer_status(), "channel layer"),
        within_timeout(sync_to_async(task_broker_status, thread_sensitive=False)(), "task broker"),
    )
    return HealthReport(database=database, channel_layer=channel_layer, task_broker=task_broker)
