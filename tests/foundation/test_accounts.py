"""Accounts: sign-up, log-in and out, profile, passwords, roles, bot accounts and the demo data."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.ledger import STARTING_GRANT, ledger_balance
from accounts.models import BotLevel, User
from accounts.roles import TOURNAMENT_DIRECTOR_PERMISSIONS, Role
from accounts.selectors import user_roles
from accounts.services import bot_account_ensure, roles_sync, user_role_grant, user_role_revoke, user_sign_up
from durak_site.management.commands.load_demo import DEMO_BOTS
from tournaments.demo import DEMO_ENTRANTS

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-enough-passw0rd"


def _player(username: str = "vasya", **fields: str) -> User:
    return user_sign_up(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        preferred_language=fields.get("preferred_language", "en"),
    )


def _session_user_id(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def test_sign_up_creates_a_player_logs_them_in_and_remembers_their_language(client: Client) -> None:
    assert client.get(reverse("accounts:sign-up")).status_code == 200

    response = client.post(
        reverse("accounts:sign-up"),
        {
            "username": "masha",
            "email": "masha@example.com",
            "preferred_language": "ru",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    user = User.objects.get(username="masha")
    assert not user.is_bot
    assert user.check_password(PASSWORD)
    assert user.preferred_language == "ru"
    assert _session_user_id(client) == str(user.pk)
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


def test_sign_up_with_mismatched_passwords_creates_nobody(client: Client) -> None:
    response = client.post(
        reverse("accounts:sign-up"),
        {
            "username": "masha",
            "email": "masha@example.com",
            "preferred_language": "en",
            "password1": PASSWORD,
            "password2": PASSWORD + "x",
        },
    )
    assert response.status_code == 200
    assert b'class="error"' in response.content
    assert not User.objects.filter(username="masha").exists()


def test_sign_up_refuses_a_taken_username(client: Client) -> None:
    _player("masha")
    response = client.post(
        reverse("accounts:sign-up"),
        {"username": "masha", "email": "m2@example.com", "preferred_language": "en",
         "password1": PASSWORD, "password2": PASSWORD},
    )  # fmt: skip
    assert response.status_code == 200
    assert User.objects.filter(username="masha").count() == 1


def test_log_in_and_log_out(client: Client) -> None:
    user = _player(preferred_language="ru")

    response = client.post(reverse("accounts:login"), {"username": "vasya", "password": PASSWORD})
    assert response.status_code == 302
    assert _session_user_id(client) == str(user.pk)
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert _session_user_id(client) is None


def test_log_in_with_a_wrong_password_fails(client: Client) -> None:
    _player()
    response = client.post(reverse("accounts:login"), {"username": "vasya", "password": "wrong"})
    assert response.status_code == 200
    assert _session_user_id(client) is None


def test_a_bot_cannot_log_in_even_with_a_password(client: Client) -> None:
    bot = bot_account_ensure(username="bot-1", display_name="Bot One", engine="random", level=BotLevel.EASY)
    assert not bot.has_usable_password()
    bot.set_password(PASSWORD)  # as if someone gave it one by hand
    bot.save()

    assert authenticate(username="bot-1", password=PASSWORD) is None
    response = client.post(reverse("accounts:login"), {"username": "bot-1", "password": PASSWORD})
    assert response.status_code == 200
    assert _session_user_id(client) is None


def test_a_bot_session_is_not_honoured(client: Client) -> None:
    bot = bot_account_ensure(username="bot-1", display_name="Bot One", engine="random", level=BotLevel.EASY)
    client.force_login(bot)
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_needs_a_login(client: Client) -> None:
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_page_shows_the_account_and_its_roles(client: Client) -> None:
    user = _player()
    user_role_grant(user=user, role=Role.TOURNAMENT_DIRECTOR)
    client.force_login(user)

    page = client.get(reverse("accounts:profile")).content.decode()

    assert "vasya@example.com" in page
    assert "Player" in page
    assert "Tournament director" in page
    assert 'name="display_name"' in page
    assert 'name="country"' in page
    assert 'name="preferred_language"' in page


def test_profile_form_saves_display_name_country_and_language(client: Client) -> None:
    user = _player()
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"), {"display_name": "  Vasya the Great ", "country": "KZ", "preferred_language": "ru"}
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.country.code, user.preferred_language) == ("Vasya the Great", "KZ", "ru")
    assert user.public_name == "Vasya the Great"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


def test_profile_form_through_htmx_redraws_only_the_form(client: Client) -> None:
    user = _player()
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Vasya", "country": "RU", "preferred_language": "en"},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("<form")
    assert "<html" not in body
    assert "Profile saved." in body
    assert "HX-Refresh" not in response  # same language: the rest of the page stays as it is
    user.refresh_from_db()
    assert user.display_name == "Vasya"


def test_profile_language_change_through_htmx_reloads_the_page(client: Client) -> None:
    client.force_login(_player())
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "", "country": "", "preferred_language": "ru"},
        headers={"HX-Request": "true"},
    )
    assert response["HX-Refresh"] == "true"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


def test_profile_form_with_an_unknown_country_keeps_the_old_values(client: Client) -> None:
    user = _player()
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "X", "country": "ZZ", "preferred_language": "en"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == ""


def test_password_change(client: Client) -> None:
    user = _player()
    client.force_login(user)
    new_password = "another-Long-passw0rd"

    response = client.post(
        reverse("accounts:password-change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password-change-done")
    user.refresh_from_db()
    assert user.check_password(new_password)


def test_password_reset_by_e_mail(client: Client) -> None:
    user = _player()
    new_password = "reset-Long-passw0rd"

    response = client.post(reverse("accounts:password-reset"), {"email": "vasya@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["vasya@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/\S+/)", str(message.body))
    assert link is not None, message.body

    # The link redirects once to a URL without the token (Django hides it from the Referer header).
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"] is True
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new_password, "new_password2": new_password}
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)


def test_password_reset_for_an_unknown_address_sends_nothing(client: Client) -> None:
    response = client.post(reverse("accounts:password-reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302  # the same answer, so addresses cannot be probed
    assert mail.outbox == []


def test_tournament_director_group_holds_its_permissions_after_migrate() -> None:
    roles_sync(strict=True)
    user = _player()
    assert not user.has_perm("accounts.direct_tournaments")

    user_role_grant(user=user, role=Role.TOURNAMENT_DIRECTOR)
    user = User.objects.get(pk=user.pk)  # permissions are cached on the instance

    assert all(user.has_perm(code) for code in TOURNAMENT_DIRECTOR_PERMISSIONS)
    assert user_roles(user=user) == [Role.PLAYER, Role.TOURNAMENT_DIRECTOR]

    user_role_revoke(user=user, role=Role.TOURNAMENT_DIRECTOR)
    user = User.objects.get(pk=user.pk)
    assert not user.has_perm("accounts.direct_tournaments")
    assert user_roles(user=user) == [Role.PLAYER]


def test_admin_role_is_a_superuser_with_the_admin_site(client: Client) -> None:
    user = _player()
    user_role_grant(user=user, role=Role.ADMIN)
    assert user_roles(user=user) == [Role.PLAYER, Role.ADMIN]
    client.force_login(user)
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_bot_holds_no_role() -> None:
    from django.core.exceptions import ValidationError

    bot = bot_account_ensure(username="bot-1", display_name="Bot One", engine="random", level=BotLevel.EASY)
    assert user_roles(user=bot) == []
    with pytest.raises(ValidationError):
        user_role_grant(user=bot, role=Role.TOURNAMENT_DIRECTOR)


def test_the_database_keeps_bot_fields_and_the_bot_flag_together() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="half-bot", is_bot=True, bot_engine="", bot_level="")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="human", is_bot=False, bot_engine="random", bot_level=BotLevel.EASY)


def test_demo_data_prints_a_working_admin_password_and_creates_bots() -> None:
    first_output, second_output = StringIO(), StringIO()
    call_command("load_demo", stdout=first_output)
    call_command("load_demo", stdout=second_output)  # safe to repeat at every `make run`

    passwords = [re.search(r"password '([^']+)'", out.getvalue()) for out in (first_output, second_output)]
    assert passwords[0] and passwords[1]
    assert passwords[0].group(1) != passwords[1].group(1)
    admin = authenticate(username="admin", password=passwords[1].group(1))
    assert isinstance(admin, User) and admin.is_superuser
    # He can sit at a staked table: the starting grant, once however often the demo is loaded.
    assert ledger_balance(user=admin) == STARTING_GRANT
    bots = User.objects.filter(is_bot=True)
    # The bench of bots and the demo championship's entrants (tournaments.demo), each once.
    assert bots.count() == len(DEMO_BOTS) + len(DEMO_ENTRANTS)
    assert {bot.bot_level for bot in bots} == {level.value for level in BotLevel}
    assert all(not bot.has_usable_password() for bot in bots)
