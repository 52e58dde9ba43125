"""Reads about accounts that pages need."""

from __future__ import annotations

from accounts.models import User
from accounts.roles import TOURNAMENT_DIRECTORS_GROUP, Role


def user_roles(*, user: User) -> list[Role]:
    if user.is_bot:
        return []
    roles = [Role.PLAYER]
    if user.groups.filter(name=TOURNAMENT_DIRECTORS_GROUP).exists():
        roles.append(Role.TOURNAMENT_DIRECTOR)
    if user.is_superuser:
        roles.append(Role.ADMIN)
    return roles


def bot_accounts() -> list[User]:
    return list(User.objects.filter(is_bot=True).order_by("bot_engine", "bot_level", "username"))
