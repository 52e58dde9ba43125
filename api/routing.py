"""The bot socket's routes, served behind token authentication (durak_site.asgi), not the site's cookie stack.

Named `bot_websocket_urlpatterns`, not `websocket_urlpatterns`, so that durak_site.routing does not also
serve them behind session cookies.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from api.consumers import BotGameConsumer

BOT_PREFIX = "/ws/bot/"

bot_websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/bot/game/<int:game_id>/", BotGameConsumer.as_asgi(), name="ws-bot-game"),
]
