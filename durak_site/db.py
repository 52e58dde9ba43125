"""Database calls from async code (consumers, socket middleware) that give their connection back.

Channels' ``database_sync_to_async`` closes old connections around a call in its thread handler, but asgiref
(3.13) runs the call itself in a copy of the caller's context, and Django's connections are context-local: the
handler's close looks at other connections than the one the call used. That one then stays checked out of
the process's pool (``durak_site.environment``: CONN_MAX_AGE 0, a psycopg pool) after the socket's last
message, until the garbage collector finds it; a socket refused at connect (a tournament that does not exist)
kept one each. ``database_call`` closes the call's connections inside the call, where it sees them: with
CONN_MAX_AGE 0 every connection is obsolete once the call is done, so it goes back to the pool.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.db import close_old_connections

R = TypeVar("R")


def database_call(function: Callable[..., R], **options: Any) -> Any:
    """``function`` as an awaitable run by ``database_sync_to_async(function, **options)``, its connections
    given back to the pool before it returns."""

    @functools.wraps(function)
    def closing(*args: Any, **kwargs: Any) -> R:
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return database_sync_to_async(closing, **options)
