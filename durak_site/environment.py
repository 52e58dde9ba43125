"""Turns environment variables into the backend settings: SQLite or PostgreSQL, in-process or Redis.

Kept apart from the settings modules so that both configurations can be tested as plain functions,
without re-importing Django settings under a changed environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

# Used only by the local and test settings; production refuses it (see production_settings_check).
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

# Django's own deployment check (security.W009) treats these as "not a real secret".
_SECRET_KEY_MIN_LENGTH = 50
_SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5
_INSECURE_SECRET_KEY_PREFIX = "django-insecure-"


@dataclass(frozen=True)
class Backends:
    """What the site talks to, derived from DATABASE_URL and REDIS_URL."""

    databases: dict[str, dict[str, Any]]
    channel_layers: dict[str, dict[str, Any]]
    celery_broker_url: str
    celery_result_backend: str | None
    # True when no broker is configured: tasks run on a scheduler thread inside the server process.
    tasks_in_process: bool


DEFAULT_DATABASE_POOL_SIZE = 10


def _sqlite_options() -> dict[str, Any]:
    """The server, its in-process task thread and a test's Daphne share one file: WAL lets readers go on while
    one writer writes, IMMEDIATE takes the write lock at BEGIN so two writers queue instead of failing to
    upgrade a read lock, and a writer waits up to 20 s for the lock."""
    return {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20}


def database_settings(
    *, database_url: str | None, base_dir: Path, pool_size: int = DEFAULT_DATABASE_POOL_SIZE
) -> dict[str, Any]:
    if not database_url:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(base_dir / "db.sqlite3"), "OPTIONS": _sqlite_options()}
    config: dict[str, Any] = environ.Env.db_url_config(database_url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # A file named by DATABASE_URL (the tests' Daphne and Celery processes open theirs so) is shared the
        # same way: without these options its writers failed at once with "database is locked".
        config["OPTIONS"] = {**_sqlite_options(), **config.get("OPTIONS", {})}
    if config["ENGINE"] == "django.db.backends.postgresql":
        # Daphne serves requests from many threads and coroutines; a connection kept open across
        # requests would outlive its thread. Each request borrows one from the process's pool
        # (psycopg_pool, thread-safe) and gives it back at its end: no request pays for a new connection
        # (a few milliseconds), and a process holds at most `pool_size` of the server's connections.
        # A pool size of 0 turns the pool off (each request then opens and closes its own connection).
        config["CONN_MAX_AGE"] = 0
        config["CONN_HEALTH_CHECKS"] = True
        if pool_size > 0:
            config.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": pool_size, "timeout": 10}
    return config


CHANNEL_LAYER_SOCKET_TIMEOUT_S = 20


def _redis_database(redis_url: str) -> int:
    """The database number a redis:// URL names (its path, or `?db=`; 0 when it names none)."""
    parsed = urlsplit(redis_url)
    named = parsed.path.strip("/") or parse_qs(parsed.query).get("db", ["0"])[0]
    try:
        return int(named)
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL names no database number: {redis_url!r}") from None


def worker_redis_url(redis_url: str, worker: str) -> str:
    """`redis_url` moved to the database `worker`'s number ("gw2") past the one it names: a test worker's own."""
    parsed = urlsplit(redis_url)
    number = _redis_database(redis_url) + int(worker.removeprefix("gw"))
    return urlunsplit((parsed.scheme, parsed.netloc, f"/{number}", "", parsed.fragment))


def channel_layer_settings(*, redis_url: str | None, kind: str = "") -> dict[str, Any]:
    """The channel layer: in memory without Redis; with Redis, channels-redis's Pub/Sub layer, or with
    `kind` "lists" (CHANNEL_LAYER=lists) its older layer of one Redis list a channel."""
    if not redis_url:
        # One process: an in-memory layer reaches every consumer that exists.
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    if kind not in ("", "pubsub", "lists"):
        raise ImproperlyConfigured(f"CHANNEL_LAYER must be pubsub or lists, not {kind!r}")
    # Redis's Pub/Sub channels belong to the whole server, not to one of its numbered databases: two sites
    # on one Redis (a staging copy on db 2, say, or a benchmark beside the tests) would hear each other's
    # group messages, and a player could be sent another site's game of the same id. The prefix names the
    # database, so each site hears only its own.
    prefix = f"durak.{_redis_database(redis_url)}."
    if kind != "lists":
        # A group message is one PUBLISH, received once by each server process with sockets in the group,
        # which hands it to them; the list layer pushes a copy to each socket's list and each process
        # pops them one by one, which costs the server more CPU a move (docs/experiments.md, CHANNEL_LAYER).
        # Delivery is at most once: a message published while a process reconnects to Redis is lost
        # (the game page asks for its view again after a silence; a move's answer is the next view).
        # durak_site.channel_layer's subclass hands a group message to the sender's own sockets itself.
        return {
            "BACKEND": "durak_site.channel_layer.LocalFirstChannelLayer",
            "CONFIG": {"hosts": [{"address": redis_url}], "prefix": prefix},
        }
    # channels-redis waits for a socket's next message with a blocking pop of up to 5 s (brpop_timeout);
    # redis-py 8 gives up reading any socket after 5 s by default, so an idle socket's wait could end in
    # a TimeoutError, which closes the player's socket with 1011. Reads may take longer than the pop.
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": redis_url, "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT_S}],
            "prefix": prefix,
            "capacity": 1500,
            "expiry": 30,
        },
    }


def cache_settings(*, redis_url: str | None) -> dict[str, Any]:
    """Django's cache: the API's rate limits count there, so every server process must share it."""
    if not redis_url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "durak",
        }
    }


def backends_from_environment(environment: Mapping[str, str], *, base_dir: Path) -> Backends:
    database_url = environment.get("DATABASE_URL") or None
    redis_url = environment.get("REDIS_URL") or None
    pool_size = int(environment.get("DATABASE_POOL_SIZE") or DEFAULT_DATABASE_POOL_SIZE)
    return Backends(
        databases={"default": database_settings(database_url=database_url, base_dir=base_dir, pool_size=pool_size)},
        channel_layers={
            "default": channel_layer_settings(redis_url=redis_url, kind=environment.get("CHANNEL_LAYER", ""))
        },
        # "memory://" keeps Celery from reaching for a default AMQP server in in-process mode;
        # durak_site.celery.DurakTask never publishes to it there.
        celery_broker_url=redis_url or "memory://",
        celery_result_backend=redis_url,
        tasks_in_process=redis_url is None,
    )


def secret_key_is_real(secret_key: str) -> bool:
    return (
        len(secret_key) >= _SECRET_KEY_MIN_LENGTH
        and len(set(secret_key)) >= _SECRET_KEY_MIN_UNIQUE_CHARACTERS
        and not secret_key.startswith(_INSECURE_SECRET_KEY_PREFIX)
        and secret_key != DEVELOPMENT_SECRET_KEY
    )


def production_settings_check(*, secret_key: str, debug: bool, allowed_hosts: list[str]) -> None:
    """Refuse to start a production site that would leak sessions, secrets or stack traces."""
    problems = []
    if not secret_key:
        problems.append("SECRET_KEY is not set")
    elif not secret_key_is_real(secret_key):
        problems.append(
            f"SECRET_KEY is not a real secret (it needs {_SECRET_KEY_MIN_LENGTH}+ random characters, "
            f"not the development key)"
        )
    if debug:
        problems.append("DEBUG is on")
    if not allowed_hosts:
        problems.append("ALLOWED_HOSTS is not set")
    if problems:
        raise ImproperlyConfigured("Production settings refuse to start: " + "; ".join(problems) + ".")
