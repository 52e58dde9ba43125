"""/healthz: 200 when the database, the channel layer and the task broker answer, 503 naming what does not."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings

from tests import processes

pytestmark = pytest.mark.django_db(transaction=True)

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
UNREACHABLE_POSTGRESQL = "postgres://postgres@127.0.0.1:1/durak"


def test_healthz_is_200_when_everything_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    report = response.json()
    assert report["status"] == "ok"
    for component in ("database", "channel_layer", "task_broker"):
        assert report[component]["ok"] is True, report
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_names_the_backends_in_use(client: Client) -> None:
    from django.conf import settings

    report = client.get("/healthz").json()
    assert report["database"]["backend"] == ("sqlite" if "sqlite" in settings.DATABASES["default"]["ENGINE"]
                                             else "postgresql")  # fmt: skip
    expected_broker = "in-process" if settings.TASKS_IN_PROCESS else "redis"
    assert report["task_broker"]["backend"] == expected_broker


def test_healthz_is_503_when_the_channel_layer_does_not_answer(client: Client) -> None:
    layer = {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [UNREACHABLE_REDIS]}}
    with override_settings(CHANNEL_LAYERS={"default": layer}):
        response = client.get("/healthz")

    assert response.status_code == 503
    report = response.json()
    assert report["status"] == "unavailable"
    assert report["channel_layer"] == {"ok": False, "backend": "RedisChannelLayer", "error": "ConnectionError"}
    assert report["database"]["ok"] is True


def test_healthz_is_503_when_the_task_broker_does_not_answer(client: Client) -> None:
    with override_settings(TASKS_IN_PROCESS=False, CELERY_BROKER_URL=UNREACHABLE_REDIS):
        response = client.get("/healthz")

    assert response.status_code == 503
    report = response.json()
    assert report["task_broker"]["ok"] is False
    assert report["task_broker"]["backend"] == "redis"
    assert report["database"]["ok"] is True


def test_healthz_is_503_from_a_server_whose_services_are_all_down() -> None:
    """A real Daphne started against a database and a Redis that refuse connections."""
    environment = processes.subprocess_environment(database=UNREACHABLE_POSTGRESQL, REDIS_URL=UNREACHABLE_REDIS)
    with processes.daphne(environment) as url:
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(f"{url}/healthz", timeout=20)

    assert answer.value.code == 503
    report = json.loads(answer.value.read())
    assert report["status"] == "unavailable"
    assert report["database"] == {"ok": False, "backend": "postgresql", "error": "OperationalError"}
    assert report["channel_layer"]["ok"] is False
    assert report["task_broker"]["ok"] is False


def test_healthcheck_command_prints_the_report_and_fails_when_a_service_is_down() -> None:
    output = StringIO()
    call_command("healthcheck", stdout=output)
    assert json.loads(output.getvalue())["status"] == "ok"

    with (
        override_settings(TASKS_IN_PROCESS=False, CELERY_BROKER_URL=UNREACHABLE_REDIS),
        pytest.raises(CommandError, match="does not answer"),
    ):
        call_command("healthcheck", stdout=StringIO())
