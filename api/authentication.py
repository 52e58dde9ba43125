"""Token authentication for the REST API: `Authorization: Bearer <key>` (or `Token <key>`)."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from api import services

KEYWORDS = ("bearer", "token")


def key_from_header(value: str) -> str | None:
    """The key in an Authorization header's value, or None if it names another scheme."""
    parts = value.split()
    if len(parts) != 2 or parts[0].lower() not in KEYWORDS:
        return None
    return parts[1]


class ApiTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        key = key_from_header(header)
        if key is None:
            return None
        found = services.token_user(key=key)
        if found is None:
            # Never echo the key: the message says only that it was refused.
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        return found

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
