"""Create the PostgreSQL database named in DATABASE_URL if it does not exist yet (CI starts from a bare server)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connections


class Command(BaseCommand):
    help = "Create the configured PostgreSQL database if missing; nothing to do for SQLite."

    def handle(self, *args: Any, **options: Any) -> None:
        import psycopg
        from psycopg import sql

        connection = connections["default"]
        if connection.vendor != "postgresql":
            self.stdout.write(f"{connection.vendor}: the database file is created on first use")
            return
        params = connection.get_connection_params()
        name = params.pop("dbname")
        # Connect to the server's maintenance database: the target may not exist yet.
        params["dbname"] = "postgres"
        params.pop("cursor_factory", None)
        params.pop("context", None)
        try:
            with psycopg.connect(**params, autocommit=True, connect_timeout=5) as server:
                exists = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
                if exists:
                    self.stdout.write(f"database {name!r} exists")
                    return
                server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.OperationalError as error:
            raise CommandError(f"PostgreSQL does not answer: {error}") from error
        self.stdout.write(self.style.SUCCESS(f"database {name!r} created"))
