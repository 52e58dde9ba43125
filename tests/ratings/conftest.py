"""The pools of the data migration in every test: a transactional test's flush removes migration data."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps


@pytest.fixture(autouse=True)
def default_pools(request: pytest.FixtureRequest) -> None:
    if "django_db_setup" not in request.fixturenames and not any(
        marker.name == "django_db" for marker in request.node.iter_markers()
    ):
        return
    request.getfixturevalue("_django_db_helper")
    importlib.import_module("ratings.migrations.0002_default_pools").create_pools(apps, None)
