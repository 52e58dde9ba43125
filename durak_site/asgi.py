"""The ASGI application that Daphne serves: Django for HTTP, Channels consumers for WebSocket."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings.local")

# Set Django up before importing anything that touches models (consumers, auth middleware).
django_http_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from api.middleware import TokenAuthMiddleware  # noqa: E402
from api.routing import BOT_PREFIX, bot_websocket_urlpatterns  # noqa: E402
from durak_site.routing import PathPrefixRouter, websocket_urlpatterns  # noqa: E402

# A server process keeps many long-lived objects (modules, the state cache, sockets): a full collection
# every few thousand allocations is a pause in every game's next move. Those objects are moved out of the
# collector's sight once loaded, and young collections come less often.
gc.freeze()
gc.set_threshold(20_000, 20, 50)

application = ProtocolTypeRouter(
    {
        "http": django_http_application,
        "websocket": PathPrefixRouter(
            # Bots authenticate with an API token in the handshake's Authorization header, never a cookie.
            {BOT_PREFIX: TokenAuthMiddleware(URLRouter(bot_websocket_urlpatterns))},
            # The Origin check refuses pages of other sites that would ride on a player's session cookie.
            default=AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns()))),
        ),
    }
)

if os.environ.get("DURAK_SWEEP_STALLED_GAMES") == "1":
    from django.conf import settings

    if settings.TASKS_IN_PROCESS:
        # No broker, so no beat: this process sweeps for games whose timer or bot move was lost.
        from games.recovery import start_in_process_sweeps
        from tournaments.tasks import start_in_process_sweeps as start_tournament_sweeps

        start_in_process_sweeps()
        # And for tournaments: rounds due, no-shows, starts the timed tasks of another process left behind.
        start_tournament_sweeps()
