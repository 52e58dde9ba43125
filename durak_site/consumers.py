"""A WebSocket that answers pings, through the channel layer, so clients and probes can test the live stack."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
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
