"""Settings from the environment: both backend configurations, and the production guard."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from durak_site.environment import (
    database_settings,
    worker_redis_url,
    DEVELOPMENT_SECRET_KEY,
    backends_from_environment,
    channel_layer_settings,
    production_settings_check,
)
from tests.processes import PROJECT_DIR

BASE_DIR = Path("/srv/durak")
REAL_SECRET_KEY = "k3J9-qv8ZpL2xW7mN4rT6yB1cD5fG0hA-sE8uI3oP9lK2jH7gF4dS1aQ6wE0rT5y"


def test_nothing_set_means_sqlite_in_memory_layer_and_in_process_tasks() -> None:
    backends = backends_from_environment({}, base_dir=BASE_DIR)

    database = backends.databases["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == "/srv/durak/db.sqlite3"
    assert backends.channel_layers["default"] == {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    assert backends.tasks_in_process is True
    assert backends.celery_broker_url == "memory://"
    assert backends.celery_result_backend is None


def test_empty_variables_count_as_not_set() -> None:
    backends = backends_from_environment({"DATABASE_URL": "", "REDIS_URL": ""}, base_dir=BASE_DIR)
    assert backends.databases["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert backends.tasks_in_process is True


def test_database_and_redis_urls_mean_postgresql_redis_layer_and_a_real_broker() -> None:
    backends = backends_from_environment(
        {
            "DATABASE_URL": "postgres://durak:s%40cret@db.internal:6432/championships",
            "REDIS_URL": "redis://cache.internal:6379/2",
        },
        base_dir=BASE_DIR,
    )

    database = backends.databases["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == ("championships", "durak", "s@cret")
    assert (database["HOST"], database["PORT"]) == ("db.internal", 6432)
    # Connections come from a pool (Daphne's threads borrow them), never kept by a thread.
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"]["max_size"] == 10
    sized = backends_from_environment(
        {"DATABASE_URL": "postgres://durak@db.internal/durak", "DATABASE_POOL_SIZE": "24"}, base_dir=BASE_DIR
    )
    assert sized.databases["default"]["OPTIONS"]["pool"]["max_size"] == 24
    layer = backends.channel_layers["default"]
    assert layer["BACKEND"] == "durak_site.channel_layer.LocalFirstChannelLayer"
    assert layer["CONFIG"]["hosts"] == [{"address": "redis://cache.internal:6379/2"}]
    # Pub/Sub channels are the Redis server's, not a database's: the prefix names the database, so sites on
    # other databases of the same Redis never hear this one's games.
    assert layer["CONFIG"]["prefix"] == "durak.2."
    assert channel_layer_settings(redis_url="redis://cache.internal:6379")["CONFIG"]["prefix"] == "durak.0."
    assert channel_layer_settings(redis_url="redis://cache.internal:6379?db=5")["CONFIG"]["prefix"] == "durak.5."
    # CHANNEL_LAYER=lists: the layer of a Redis list a channel, whose socket outwaits its 5 s blocking pop.
    lists = backends_from_environment(
        {"REDIS_URL": "redis://cache.internal:6379/2", "CHANNEL_LAYER": "lists"}, base_dir=BASE_DIR
    ).channel_layers["default"]
    assert lists["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert lists["CONFIG"]["hosts"] == [{"address": "redis://cache.internal:6379/2", "socket_timeout": 20}]
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_LAYER"):
        backends_from_environment({"REDIS_URL": "redis://cache.internal:6379/2", "CHANNEL_LAYER": "kafka"}, base_dir=BASE_DIR)
    assert backends.tasks_in_process is False
    assert backends.celery_broker_url == "redis://cache.internal:6379/2"
    assert backends.celery_result_backend == "redis://cache.internal:6379/2"


def test_postgresql_uses_psycopg_3() -> None:
    import importlib

    assert importlib.import_module("django.db.backends.postgresql.psycopg_any").is_psycopg3


_SETTINGS_VARIABLES = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}


def _settings_in_subprocess(module: str, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Load a settings module in a fresh interpreter, as a server would at start-up."""
    script = (
        "import json, django; from django.conf import settings; django.setup(); print(json.dumps({"
        "'engine': settings.DATABASES['default']['ENGINE'],"
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'],"
        "'broker': settings.CELERY_BROKER_URL, 'in_process': settings.TASKS_IN_PROCESS,"
        "'debug': settings.DEBUG}))"
    )
    clean = {name: value for name, value in os.environ.items() if name not in _SETTINGS_VARIABLES}
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": module, **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_local_settings_module_follows_the_environment() -> None:
    plain = _settings_in_subprocess("durak_site.settings.local", {})
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout) == {
        "engine": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "broker": "memory://",
        "in_process": True,
        "debug": True,
    }

    served = _settings_in_subprocess(
        "durak_site.settings.local",
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/durak", "REDIS_URL": "redis://127.0.0.1:6379/0"},
    )
    assert served.returncode == 0, served.stderr
    assert json.loads(served.stdout) == {
        "engine": "django.db.backends.postgresql",
        "layer": "durak_site.channel_layer.LocalFirstChannelLayer",
        "broker": "redis://127.0.0.1:6379/0",
        "in_process": False,
        "debug": True,
    }


@pytest.mark.parametrize(
    ("environment", "complaint"),
    [
        ({"ALLOWED_HOSTS": "durak.example"}, "SECRET_KEY is not set"),
        ({"SECRET_KEY": DEVELOPMENT_SECRET_KEY, "ALLOWED_HOSTS": "durak.example"}, "not a real secret"),
        ({"SECRET_KEY": "short", "ALLOWED_HOSTS": "durak.example"}, "not a real secret"),
        ({"SECRET_KEY": REAL_SECRET_KEY, "DEBUG": "true", "ALLOWED_HOSTS": "durak.example"}, "DEBUG is on"),
        ({"SECRET_KEY": REAL_SECRET_KEY}, "ALLOWED_HOSTS is not set"),
    ],
)
def test_production_settings_refuse_to_start(environment: dict[str, str], complaint: str) -> None:
    result = _settings_in_subprocess("durak_site.settings.production", environment)
    assert result.returncode != 0
    assert "ImproperlyConfigured: Production settings refuse to start" in result.stderr
    assert complaint in result.stderr


def test_production_settings_start_with_a_real_key_and_debug_off() -> None:
    result = _settings_in_subprocess(
        "durak_site.settings.production", {"SECRET_KEY": REAL_SECRET_KEY, "ALLOWED_HOSTS": "durak.example"}
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["debug"] is False


def test_production_guard_lists_every_problem_at_once() -> None:
    with pytest.raises(ImproperlyConfigured) as refusal:
        production_settings_check(secret_key="", debug=True, allowed_hosts=[])
    message = str(refusal.value)
    assert "SECRET_KEY is not set" in message
    assert "DEBUG is on" in message
    assert "ALLOWED_HOSTS is not set" in message


def test_production_guard_accepts_a_real_configuration() -> None:
    production_settings_check(secret_key=REAL_SECRET_KEY, debug=False, allowed_hosts=["durak.example"])


def test_each_test_worker_takes_a_redis_database_of_its_own() -> None:
    """pytest-xdist's workers (durak_site.settings.test): gw0 keeps the given database, gw1 the next, and the
    channel layer's prefix follows, so two workers' games of the same id never meet."""
    first = worker_redis_url("redis://127.0.0.1:6379/1", "gw0")
    second = worker_redis_url("redis://127.0.0.1:6379/1", "gw1")
    assert (first, second) == ("redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/2")
    assert worker_redis_url("redis://user:secret@cache.internal:6379?db=5", "gw2") == "redis://user:secret@cache.internal:6379/7"
    prefixes = {channel_layer_settings(redis_url=url)["CONFIG"]["prefix"] for url in (first, second)}
    assert prefixes == {"durak.1.", "durak.2."}


def test_a_test_worker_and_the_processes_it_starts_shift_the_redis_database_once() -> None:
    """The settings of worker gw3 move REDIS_URL three databases on; Daphne or Celery started by that worker
    inherit the moved URL and the mark, and read the same database."""
    script = "from django.conf import settings; print(settings.CELERY_BROKER_URL)"
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "durak_site.settings.test", "PYTEST_XDIST_WORKER": "gw3",
                   "REDIS_URL": "redis://127.0.0.1:6379/1"}
    environment.pop("DURAK_REDIS_SHIFTED", None)
    worker = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + script], cwd=PROJECT_DIR,
                            env=environment, capture_output=True, text=True, check=True)
    assert worker.stdout.strip() == "redis://127.0.0.1:6379/4"
    inherited = {**environment, "REDIS_URL": "redis://127.0.0.1:6379/4", "DURAK_REDIS_SHIFTED": "1"}
    child = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + script], cwd=PROJECT_DIR,
                           env=inherited, capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "redis://127.0.0.1:6379/4"


def test_an_sqlite_file_named_by_the_url_is_shared_as_the_default_one() -> None:
    """The tests' Daphne and Celery open the test database by DATABASE_URL: its writers must queue for the
    lock (IMMEDIATE, a timeout) as the default file's do, not fail at once with "database is locked"."""
    named = database_settings(database_url="sqlite:////tmp/shared.sqlite3", base_dir=BASE_DIR)
    default = database_settings(database_url=None, base_dir=BASE_DIR)
    assert named["NAME"] == "/tmp/shared.sqlite3"
    assert named["OPTIONS"] == default["OPTIONS"]
    assert named["OPTIONS"]["transaction_mode"] == "IMMEDIATE" and named["OPTIONS"]["timeout"] >= 20
