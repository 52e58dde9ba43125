"""WebSocket routes of live games; durak_site.routing collects them."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from games.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi(), name="ws-game"),
    path("ws/lobby/", LobbyConsumer.as_asgi(), name="ws-lobby"),
]
