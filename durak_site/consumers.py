"""The base of the site's WebSocket consumers, and a WebSocket that answers pings, through the channel layer,
so clients and probes can test the live stack."""

from __future__ import annotations

from typing import Any

import orjson
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.functional import Promise


def _plain(value: Any) -> Any:
    """What orjson cannot encode itself: a lazily translated text becomes its text."""
    if isinstance(value, Promise):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """A consumer whose messages may meet a socket that the other side has just closed: a group event (a
    move's view) taken from the channel layer before Daphne told the consumer of the close. Daphne then
    raises autobahn's Disconnected from the send; there is nobody left to tell, and the disconnect handler
    runs next, so the message is dropped instead of ending the consumer with a traceback.

    Messages are encoded with orjson: a game's view carries the whole log in words, and the standard
    library's encoder was the largest single cost of sending it (6 % of a Daphne process's CPU in the
    live bench's profile)."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return orjson.dumps(content, default=_plain, option=orjson.OPT_NON_STR_KEYS).decode()

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            pass

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' send_json calls the send above this class's, not this one.
        try:
            await super().send_json(content, close=close)
        except Disconnected:
            pass


class PingConsumer(LiveConsumer):
    """Echoes {"type": "ping", "payload": ...} as {"type": "pong", ...}.

    The answer goes out through the channel layer (to this consumer's own channel) rather than straight
    back, so a pong shows that the layer delivers too: in-memory locally, Redis in production.
    """

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "error": "expected {\"type\": \"ping\"}"})
            return
        await self.channel_layer.send(
            self.channel_name, {"type": "ping.echo", "payload": content.get("payload")}
        )

    async def ping_echo(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "payload": event["payload"], "user": username})
