"""Token authentication for the bot socket (/ws/bot/...): `Authorization: Bearer <key>` on the handshake.

The bot route uses no cookie, so it needs no Origin check: a page of another site cannot send this header
on a WebSocket handshake. A missing or wrong key leaves the user anonymous; the consumer refuses it.
"""

from __future__ import annotations

from typing import Any

from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser

from api import services
from api.authentication import key_from_header
from durak_site.db import database_call


def _user_for(key: str) -> Any:
    found = services.token_user(key=key)
    return found[0] if found is not None else AnonymousUser()


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = dict(scope)
        key = None
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                key = key_from_header(value.decode("latin-1"))
        scope["user"] = await database_call(_user_for)(key) if key else AnonymousUser()
        return await super().__call__(scope, receive, send)
