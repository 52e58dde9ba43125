"""A person's notices socket (ws/notices/): his unread count, and his newest notice when one arrives.

Only a signed-in person is admitted, and his socket only ever reads his own notices (the group event says
nothing but "changed"), in the language his page asked for.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, unquote

from django.conf import settings
from django.utils import timezone, translation

from durak_site.consumers import LiveConsumer
from durak_site.db import database_call
from durak_site.time_zones import TIME_ZONE_COOKIE, zone_or_none
from games.broadcast import remember_server_loop
from games.consumers import MessageBudget
from notices import selectors
from notices.broadcast import notices_group

CLOSE_NOT_SIGNED_IN = 4401
MAX_MESSAGE_CHARS = 256  # {"type": "sync"} is all it is ever sent


class NoticesConsumer(LiveConsumer):
    group: str
    language: str
    zone: Any
    budget: MessageBudget
    newest_seen: int

    async def connect(self) -> None:
        remember_server_loop()
        self.group = ""
        self.budget = MessageBudget()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or user.is_bot:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode())
        wanted = query.get("lang", [""])[0]
        self.language = wanted if wanted in dict(settings.LANGUAGES) else (user.preferred_language or settings.LANGUAGE_CODE)
        # Times in the reader's zone, as on his pages: his profile's, else his browser's (durak_site.time_zones).
        cookies = self.scope.get("cookies") or {}
        self.zone = zone_or_none(user.time_zone) or zone_or_none(unquote(cookies.get(TIME_ZONE_COOKIE, "")))
        self.group = notices_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        message = await database_call(self._message)(announce=False)
        await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """What is not a short JSON text, or comes faster than a page asks, is dropped unread."""
        if text_data is None or len(text_data) > MAX_MESSAGE_CHARS or not self.budget.take():
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Nothing is asked of this socket but a "sync", answered with the count."""
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.send_json(await database_call(self._message)(announce=False))

    async def notices_changed(self, event: dict[str, Any]) -> None:
        await self.send_json(await database_call(self._message)(announce=True))

    def _message(self, *, announce: bool) -> dict[str, Any]:
        """The count; with ``announce``, also his newest unread notice if it came since this socket last
        said so (a notice read elsewhere is not announced again)."""
        user = self.scope["user"]
        with translation.override(self.language), timezone.override(self.zone or timezone.get_default_timezone()):
            shown = selectors.notices_of(user=user, limit=1)
            count = selectors.unread_count(user=user)
        newest = shown[0] if shown else None
        message: dict[str, Any] = {"type": "notices.unread", "unread": count}
        last = getattr(self, "newest_seen", None)
        if newest is not None:
            if announce and newest.unread and (last is None or newest.id > last):
                message["notice"] = {"id": newest.id, "title": newest.title, "text": newest.text, "url": newest.url}
            self.newest_seen = max(newest.id, last or 0)
        return message
