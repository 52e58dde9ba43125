"""Fixtures of the API tests: API clients with tokens, bot accounts, games running and finished."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from accounts.models import User
from api import services


@pytest.fixture(autouse=True)
def default_pools(request: pytest.FixtureRequest) -> None:
    """The rating pools of the data migration, also after a transactional test's flush."""
    if not any(marker.name == "django_db" for marker in request.node.iter_markers()):
        return
    request.getfixturevalue("_django_db_helper")
    importlib.import_module("ratings.migrations.0002_default_pools").create_pools(apps, None)


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, tuple[object, ...]]]]:
    """Scheduled tasks are recorded, not run: tests drive the games through the services."""
    from games import tasks

    scheduled: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: scheduled.append(("bot_move", args)))
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: scheduled.append(("finalise_game", args)))
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: scheduled.append(("timeout", args)))
    yield scheduled


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {services.token_create(user=user, name='tests').key}")
    return client


def bot_account(name: str) -> User:
    from tests.games.factories import person

    user = person(name)
    services.bot_account_enable(user=user)
    return user
