"""Every change to accounts goes through here: sign-up, profiles, bots, roles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import transaction
from django.db.models import F

from accounts.ledger import STARTING_GRANT, STARTING_GRANT_NOTE
from accounts.models import BotLevel, LedgerEntry, LedgerKind, User
from accounts.roles import TOURNAMENT_DIRECTOR_PERMISSIONS, TOURNAMENT_DIRECTORS_GROUP, Role

if TYPE_CHECKING:
    from games.models import Game


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str, preferred_language: str) -> User:
    user = User(username=username, email=email, preferred_language=preferred_language)
    user.set_password(password)
    user.full_clean()
    user.save()
    ledger_starting_grant_ensure(user=user)
    return user


@transaction.atomic
def user_profile_update(
    *, user: User, display_name: str, country: str, preferred_language: str, sound_muted: bool
) -> User:
    user.display_name = display_name.strip()
    user.country = country
    user.preferred_language = preferred_language
    user.sound_muted = sound_muted
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "country", "preferred_language", "sound_muted"])
    return user


def user_sound_muted_set(*, user: User, muted: bool) -> User:
    """The game page's mute switch, kept for the account so that every game's page starts as it was left."""
    if user.is_bot:
        raise ValidationError("a bot account hears nothing")
    if user.sound_muted != muted:
        user.sound_muted = muted
        user.save(update_fields=["sound_muted"])
    return user


def user_data_export_opt_out_set(*, user: User, opt_out: bool) -> User:
    """Whether his games are left out of the monthly open game data (gamedata.services): read when a month's
    file is made, so it holds for every file made from now on."""
    # Saved even when the instance already holds the value: a ModelForm writes the posted values onto it.
    user.data_export_opt_out = opt_out
    user.save(update_fields=["data_export_opt_out"])
    return user


def user_time_zone_set(*, user: User, time_zone: str) -> User:
    """The zone his times are shown in (durak_site.time_zones); empty: his browser's."""
    user.time_zone = time_zone.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["time_zone"])
    return user


def user_sessions_revoke(*, user: User) -> User:
    """Log the account out of every session (every browser, every device): each is checked against a
    hash that now differs. The caller keeps its own session with update_session_auth_hash."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
    user.refresh_from_db(fields=["session_generation"])
    return user


def user_language_set(*, user: User, language: str) -> User:
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"preferred_language": f"unknown language {language!r}"})
    if user.preferred_language != language:
        user.preferred_language = language
        user.save(update_fields=["preferred_language"])
    return user


@transaction.atomic
def bot_account_ensure(*, username: str, display_name: str, engine: str, level: BotLevel) -> User:
    """Create the bot account, or bring an existing one to this engine and level."""
    bot, _ = User.objects.select_for_update().get_or_create(
        username=username,
        defaults={"is_bot": True, "bot_engine": engine, "bot_level": level, "display_name": display_name},
    )
    if not bot.is_bot:
        raise ValidationError({"username": f"{username!r} belongs to a human account"})
    bot.display_name, bot.bot_engine, bot.bot_level = display_name, engine, level
    bot.set_unusable_password()
    bot.full_clean(exclude=["password"])
    bot.save()
    return bot


@transaction.atomic
def admin_account_ensure(*, username: str, email: str, password: str) -> User:
    """Create the administrator, or reset its password (the demo prints a new one at every start). He gets
    the starting grant like anyone who signs up, so that he can sit down at a table with a stake."""
    admin, _ = User.objects.select_for_update().get_or_create(username=username, defaults={"email": email})
    if admin.is_bot:
        raise ValidationError({"username": f"{username!r} is a bot account"})
    admin.is_staff = admin.is_superuser = admin.is_active = True
    admin.set_password(password)
    admin.save()
    ledger_starting_grant_ensure(user=admin)
    return admin


@transaction.atomic
def user_role_grant(*, user: User, role: Role) -> User:
    if user.is_bot:
        raise ValidationError("a bot account holds no role")
    if role == Role.TOURNAMENT_DIRECTOR:
        user.groups.add(_tournament_directors_group())
    elif role == Role.ADMIN:
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])
    return user


@transaction.atomic
def user_role_revoke(*, user: User, role: Role) -> User:
    if role == Role.TOURNAMENT_DIRECTOR:
        user.groups.remove(_tournament_directors_group())
    elif role == Role.ADMIN:
        user.is_staff = user.is_superuser = False
        user.save(update_fields=["is_staff", "is_superuser"])
    elif role == Role.PLAYER:
        raise ValidationError("every human account is a player")
    return user


def _tournament_directors_group() -> Group:
    group, _ = Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS_GROUP)
    return group


@transaction.atomic
def roles_sync(*, strict: bool = True) -> None:
    """Make the directors' group hold exactly TOURNAMENT_DIRECTOR_PERMISSIONS.

    strict: a listed permission that does not exist is an error. After migrations only: while they
    run, permissions of apps not yet migrated are missing and are added on a later call.
    """
    wanted = set(TOURNAMENT_DIRECTOR_PERMISSIONS)
    permissions = []
    found = set()
    for permission in Permission.objects.select_related("content_type").filter(
        codename__in=[code.split(".", 1)[1] for code in wanted]
    ):
        code = f"{permission.content_type.app_label}.{permission.codename}"
        if code in wanted:
            permissions.append(permission)
            found.add(code)
    if strict and found != wanted:
        raise ImproperlyConfigured(f"unknown permissions for tournament directors: {sorted(wanted - found)}")
    _tournament_directors_group().permissions.set(permissions)


@transaction.atomic
def ledger_grant(*, user: User, amount: int, note: str = "") -> LedgerEntry:
    """Give a user chips (an administrator's grant, the starting grant)."""
    if amount <= 0:
        raise ValidationError("a grant is a positive number of chips")
    return LedgerEntry.objects.create(user=user, amount=amount, kind=LedgerKind.GRANT, note=note[:100])


@transaction.atomic
def ledger_starting_grant_ensure(*, user: User) -> LedgerEntry | None:
    """The starting grant, once per human account; None if the account already had it or is a bot."""
    if user.is_bot:
        return None
    User.objects.select_for_update().filter(pk=user.pk).first()
    if LedgerEntry.objects.filter(user=user, kind=LedgerKind.GRANT, note=STARTING_GRANT_NOTE).exists():
        return None
    return ledger_grant(user=user, amount=STARTING_GRANT, note=STARTING_GRANT_NOTE)


@transaction.atomic
def ledger_record(
    *, entries: list[tuple[User | int, int, str]], game: Game | None = None, note: str = ""
) -> list[LedgerEntry]:
    """Write several rows at once (a game's stakes or settlement): (user or user id, amount, kind).
    Rows with a zero amount are left out."""
    rows = []
    for who, amount, kind in entries:
        if amount == 0:
            continue
        if kind not in LedgerKind.values:
            raise ValidationError(f"unknown ledger kind {kind!r}")
        user_id = who if isinstance(who, int) else who.pk
        rows.append(LedgerEntry(user_id=user_id, amount=amount, kind=kind, game=game, note=note[:100]))
    return LedgerEntry.objects.bulk_create(rows)
