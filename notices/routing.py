"""WebSocket routes of notices; durak_site.routing collects them."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from notices.consumers import NoticesConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/notices/", NoticesConsumer.as_asgi(), name="ws-notices"),
]
