"""WebSocket routes of game review; durak_site.routing collects them."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from review.consumers import AnalysisConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/analysis/<int:game_id>/", AnalysisConsumer.as_asgi(), name="ws-analysis"),
]
