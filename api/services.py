"""Every change the API app makes: tokens (made, used, revoked) and marking an account as a bot account."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from api.models import ApiToken, BotAccount
from games.models import Seat, TableStatus

KEY_PREFIX = "durak_"
PREFIX_SHOWN = 12  # "durak_" and six characters of the random part
MAX_TOKENS = 20
# A token's "last used" time is written at most this often, not on every request.
LAST_USED_RESOLUTION = datetime.timedelta(minutes=1)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``key`` is the only time the key exists in clear."""

    token: ApiToken
    key: str


@transaction.atomic
def token_create(*, user: User, name: str) -> NewToken:
    if user.is_bot:
        raise ValidationError("the site's own bots play through tasks, not tokens")
    if not user.is_active:
        raise ValidationError("an inactive account cannot make tokens")
    name = name.strip()[:60]
    if not name:
        raise ValidationError({"name": "a token needs a name"})
    User.objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise ValidationError(f"an account holds at most {MAX_TOKENS} tokens: revoke one first")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, prefix=key[:PREFIX_SHOWN], key_hash=key_hash(key))
    return NewToken(token=token, key=key)


@transaction.atomic
def token_revoke(*, user: User, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ValidationError("no such token")


def token_user(*, key: str) -> tuple[User, ApiToken] | None:
    """The active account a key belongs to, and its token; notes when the token was used."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=key_hash(key)).first()
    if token is None or not token.user.is_active or token.user.is_bot:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token.user, token


def is_bot_account(user: User | None) -> bool:
    """Whether a program plays this account (a bot account); the site's own bots are `User.is_bot`."""
    if user is None or not user.is_authenticated:
        return False
    return BotAccount.objects.filter(user_id=user.pk).exists()


@transaction.atomic
def bot_account_enable(*, user: User) -> BotAccount:
    """Mark the account as a bot account, for good. Refused for the site's own bots, for staff and
    tournament directors (a bot holds no role), and while the account sits at an open or running table
    (the game was joined as a person)."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    existing = BotAccount.objects.filter(user=locked).first()
    if existing is not None:
        return existing
    if locked.is_bot:
        raise ValidationError("the site's own bots are not bot accounts")
    if locked.is_staff or locked.is_superuser or locked.groups.exists():
        raise ValidationError("an account with a role (administrator, tournament director) cannot become a bot")
    if Seat.objects.filter(user=locked, bot_level="", table__status__in=[TableStatus.OPEN, TableStatus.PLAYING]).exists():
        raise ValidationError("leave your tables and finish your games first")
    return BotAccount.objects.create(user=locked)
