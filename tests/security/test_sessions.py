"""Sessions are revocable (issue 10): "log out on every other browser and device" ends every other session of
the account at once and keeps the one that asked; a password change does the same, as in Django."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import user_sign_up

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-enough-passw0rd"


def _logged_in(username: str, password: str = PASSWORD) -> Client:
    client = Client()
    response = client.post(reverse("accounts:login"), {"username": username, "password": password})
    assert response.status_code == 302
    return client


def _is_logged_in(client: Client) -> bool:
    return client.get(reverse("accounts:profile")).status_code == 200


def test_logging_out_everywhere_else_keeps_only_this_session() -> None:
    user_sign_up(username="vasya", email="vasya@example.com", password=PASSWORD, preferred_language="en")
    user_sign_up(username="petya", email="petya@example.com", password=PASSWORD, preferred_language="en")
    laptop, phone, tablet, petya = _logged_in("vasya"), _logged_in("vasya"), _logged_in("vasya"), _logged_in("petya")

    response = laptop.post(reverse("accounts:sessions-revoke"), follow=True)
    assert "You are logged out on every other browser and device." in response.content.decode()

    assert _is_logged_in(laptop)
    assert not _is_logged_in(phone)
    assert not _is_logged_in(tablet)
    assert _is_logged_in(petya)  # other accounts are untouched
    # The phone can log in again, and then the laptop stays in too.
    phone = _logged_in("vasya")
    assert _is_logged_in(phone) and _is_logged_in(laptop)


def test_it_takes_a_post() -> None:
    user_sign_up(username="vasya", email="vasya@example.com", password=PASSWORD, preferred_language="en")
    laptop, phone = _logged_in("vasya"), _logged_in("vasya")
    assert laptop.get(reverse("accounts:sessions-revoke")).status_code == 405
    assert _is_logged_in(phone)
