"""Schemathesis against the API's own OpenAPI schema, in WSGI mode on the test database: every operation
with generated parameters and bodies, anonymously and with a player's token. No answer may be a server
error, and every answer must match the schema (status code, content type, body)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

from api import services
from games import services as game_services
from tests.games.factories import person, table
from tests.ratings.helpers import finished_game
from tests.tournaments.factories import director, enter, tournament

EXAMPLES = 8
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
NO_LIMITS = {"anon": None, "user": None}


def _checker(operation: schemathesis.APIOperation, headers: dict[str, str]) -> Callable[[], None]:
    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
    def check(case: schemathesis.Case) -> None:
        # A savepoint a call: a database error in one request would otherwise abort the test's transaction.
        with transaction.atomic():
            case.call_and_validate(headers=headers, checks=CHECKS)

    return check


@pytest.fixture
def connection_kept_open() -> Iterator[None]:
    """Django closes the database connection when a WSGI request ends; in a test that would close the test's
    transaction (Django's own test client disconnects the same handlers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.timeout(240)
@pytest.mark.django_db
def test_every_operation_answers_within_its_schema_and_never_with_a_server_error(
    connection_kept_open: None
) -> None:
    from django.conf import settings as django_settings

    anna, boris = person("anna"), person("boris")
    finished_game([anna, boris])
    running = table(anna, turn_seconds=3600)
    game_services.table_join(table=running, user=anna)
    game_services.table_join(table=running, user=boris)
    table(boris)
    event = tournament(director("boss"), rounds=1)
    enter(event, [anna, boris])
    key = services.token_create(user=anna, name="schemathesis").key
    cache.clear()
    rest = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": NO_LIMITS}
    with override_settings(REST_FRAMEWORK=rest):
        schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
        operations = []
        for result in schema.get_all_operations():
            assert isinstance(result, Ok), result
            operations.append(result.ok())
        assert len(operations) >= 25
        failures: list[str] = []
        for operation in operations:
            for headers in ({}, {"Authorization": f"Bearer {key}"}):
                try:
                    _checker(operation, headers)()
                except (Exception, BaseExceptionGroup) as error:  # each operation's failure is reported below
                    failures.append(f"{operation.label} {'with token' if headers else 'anonymous'}: {error}")
    assert not failures, "\n\n".join(failures)[:30000]
