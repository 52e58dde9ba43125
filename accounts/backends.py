"""Authentication that admits humans only."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser

from accounts.models import User


class HumanOnlyBackend(ModelBackend):
    """Bots act through tasks, never through a login: refuse them at log-in and for existing sessions."""

    def user_can_authenticate(self, user: User | AnonymousUser | None) -> bool:
        return super().user_can_authenticate(user) and not getattr(user, "is_bot", False)
