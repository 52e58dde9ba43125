"""Guessing passwords on the log-in page is throttled (issue 10): five failures for one user name from one
address lock that pair out, even with the right password, with a clear page in the visitor's language."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_sign_up

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-enough-passw0rd"


def _player(username: str) -> User:
    return user_sign_up(username=username, email=f"{username}@example.com", password=PASSWORD, preferred_language="en")


def _log_in(client: Client, username: str, password: str, address: str = "203.0.113.7") -> tuple[int, str]:
    response = client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address)
    return response.status_code, response.content.decode()


def test_five_wrong_passwords_lock_the_name_from_that_address_even_for_the_right_one() -> None:
    _player("vasya")
    client = Client()
    for _ in range(4):
        status, _page = _log_in(client, "vasya", "wrong-guess")
        assert status == 200  # the form again, with its error
    status, page = _log_in(client, "vasya", "wrong-guess")
    assert status == 429
    assert "Too many failed log-ins" in page

    status, page = _log_in(client, "vasya", PASSWORD)
    assert status == 429
    assert "_auth_user_id" not in client.session


def test_the_lock_is_for_that_name_from_that_address_only() -> None:
    _player("vasya")
    _player("petya")
    for _ in range(5):
        _log_in(Client(), "vasya", "wrong-guess")

    assert _log_in(Client(), "petya", PASSWORD)[0] == 302
    assert _log_in(Client(), "vasya", PASSWORD, address="198.51.100.20")[0] == 302
    assert _log_in(Client(), "vasya", PASSWORD)[0] == 429


def test_a_success_clears_the_count() -> None:
    _player("vasya")
    for _ in range(4):
        _log_in(Client(), "vasya", "wrong-guess")
    assert _log_in(Client(), "vasya", PASSWORD)[0] == 302
    for _ in range(4):
        _log_in(Client(), "vasya", "wrong-guess")
    assert _log_in(Client(), "vasya", PASSWORD)[0] == 302


def test_the_refusal_speaks_russian_to_a_russian_visitor() -> None:
    _player("vasya")
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    for _ in range(5):
        _log_in(client, "vasya", "wrong-guess")
    status, page = _log_in(client, "vasya", PASSWORD)
    assert status == 429
    assert "Слишком много неудачных попыток входа" in page
    assert PASSWORD not in page


def test_authentication_without_a_request_is_not_throttled_and_still_checks_the_password() -> None:
    _player("vasya")
    for _ in range(6):
        assert authenticate(username="vasya", password="wrong-guess") is None
    assert authenticate(username="vasya", password=PASSWORD) is not None
