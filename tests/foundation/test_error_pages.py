"""The site's own 403, 404 and 500 pages with DEBUG off, in both languages, never Django's debug pages; a
refused request is one log line without a traceback; the favicon is served."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.http import HttpResponse
from django.urls import path

from durak_site.urls import urlpatterns as site_urlpatterns

pytestmark = pytest.mark.django_db

DEBUG_TEXT = ("Traceback", "Django tried these URL patterns", "You're seeing this error because", "DEBUG = True")


def _broken(request: object) -> HttpResponse:
    raise RuntimeError("the database went away")


urlpatterns = [*site_urlpatterns, path("broken/", _broken)]


@pytest.fixture
def client_in() -> Iterator[object]:
    def make(language: str) -> Client:
        client = Client(raise_request_exception=False)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return client

    with override_settings(DEBUG=False):
        yield make


@pytest.fixture
def request_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """django.request's records (the logger does not propagate to the root, where caplog listens)."""
    logger = logging.getLogger("django.request")
    logger.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="django.request")
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["This card is not in the deck", "Page not found"]),
    ("ru", ["Такой карты нет в колоде", "Страница не найдена"]),
])  # fmt: skip
def test_a_missing_game_shows_the_friendly_404(client_in: object, language: str, words: list[str]) -> None:
    answer = client_in(language).get("/play/game/987654/")  # type: ignore[operator]
    assert answer.status_code == 404
    text = answer.content.decode()
    for word in words:
        assert word in text
    assert not any(debug in text for debug in DEBUG_TEXT)
    assert 'href="/play/"' in text  # the way back to the lobby


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["This seat is not yours", "Log in with an account"]),
    ("ru", ["Это место не ваше", "Войдите под учётной записью"]),
])  # fmt: skip
def test_a_refused_anonymous_request_gets_the_403_and_one_log_line(
    client_in: object, request_log: pytest.LogCaptureFixture, language: str, words: list[str]
) -> None:
    answer = client_in(language).get("/ratings/fair-play/")  # type: ignore[operator]
    assert answer.status_code == 403
    text = answer.content.decode()
    for word in words:
        assert word in text
    assert not any(debug in text for debug in DEBUG_TEXT)
    refusals = [record for record in request_log.records if record.name == "django.request"]
    assert len(refusals) == 1
    assert refusals[0].getMessage() == "Forbidden (Permission denied): /ratings/fair-play/"
    assert refusals[0].exc_info is None and not refusals[0].exc_text
    assert "Traceback" not in request_log.text


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Something went wrong", "Try again in a moment"]),
    ("ru", ["Что-то пошло не так", "Попробуйте ещё раз"]),
])  # fmt: skip
def test_a_failing_page_shows_the_500_without_the_database(
    client_in: object, request_log: pytest.LogCaptureFixture, language: str, words: list[str]
) -> None:
    answer = client_in(language).get("/broken/")  # type: ignore[operator]
    assert answer.status_code == 500
    text = answer.content.decode()
    for word in words:
        assert word in text
    assert not any(debug in text for debug in DEBUG_TEXT) and "the database went away" not in text
    # A server error keeps its traceback in the log: it is a fault, not a refusal.
    assert any(record.exc_info for record in request_log.records if record.levelno == logging.ERROR)


def test_the_500_page_renders_without_a_request_or_database(django_assert_num_queries: Any) -> None:
    """Django's server_error view draws 500.html with an empty context: nothing in it may need one."""
    from django.template import loader
    from django.utils import translation

    with django_assert_num_queries(0), translation.override("en"):
        html = loader.get_template("500.html").render()
    assert "Something went wrong" in html


def test_the_favicon_is_linked_and_served(client: Client) -> None:
    page = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == "/static/favicon.png"
    assert client.get("/static/favicon.png").status_code == 200
    assert client.get("/static/favicon.svg").status_code == 200


def test_the_demo_says_where_to_see_the_error_pages() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "/play/game/" in out.getvalue() and "DEBUG=false make run" in out.getvalue()
