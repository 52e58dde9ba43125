"""WebSocket routes of tournaments; durak_site.routing collects them."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi(), name="ws-tournament"),
]
