"""Helpers for the live-game tests: people, tables and games built through the services."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth.hashers import make_password

from accounts.models import User
from accounts.services import user_sign_up
from games import services
from games.engine import Rules
from games.models import Game, Table

_numbers = itertools.count(1)
PASSWORD = "a-Long-passw0rd"  # every person's


def person(name: str | None = None, language: str = "en") -> User:
    username = name or f"player{next(_numbers)}"
    return user_sign_up(username=username, email=f"{username}@example.com", password=PASSWORD,
                        preferred_language=language)


def table(owner: User, *, seats: int = 2, rules: dict[str, Any] | None = None, **options: Any) -> Table:
    return services.table_create(owner=owner, rules=Rules.from_dict(rules or {"preset": "podkidnoy"}), seats=seats,
                                 **options)


def table_unchecked(owner: User, *, rated: bool = False, password: str = "", **options: Any) -> Table:
    """A table with options ``table_create`` refuses together (a rated cheating table, a listed table with a
    password): opened without them, then written as a row made by hand would be, for the tests of how the
    site treats such a row."""
    made = table(owner, **options)
    Table.objects.filter(pk=made.pk).update(rated=rated, password_hash=make_password(password) if password else "")
    made.refresh_from_db()
    return made


def latest_game(of: Table) -> Game:
    return Game.objects.filter(table=of).latest("started")
