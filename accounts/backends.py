"""Authentication that admits humans only, and throttles guessing at passwords."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest

from accounts.models import User


class HumanOnlyBackend(ModelBackend):
    """Bots act through tasks, never through a login: refuse them at log-in and for existing sessions."""

    def user_can_authenticate(self, user: User | AnonymousUser | None) -> bool:
        return super().user_can_authenticate(user) and not getattr(user, "is_bot", False)


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lockout check for every log-in that comes with a request (the log-in page, the API's
    password authentication). Calls without a request (management commands, tests, the shell) cannot come
    from a guessing stranger: they pass on to the next backend instead of raising, as axes would."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username=username, password=password, **kwargs)
        return None
