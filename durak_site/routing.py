"""WebSocket URL routes: the site's own, then each project app's `<app>/routing.py` `websocket_urlpatterns`.

An app adds live features by writing its own routing module (games/routing.py for the table, say);
nothing here needs to change.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.urls import URLPattern, URLResolver, path

from durak_site.consumers import PingConsumer

site_websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/ping/", PingConsumer.as_asgi(), name="ws-ping"),
]


def app_websocket_urlpatterns() -> list[URLPattern | URLResolver]:
    """The `websocket_urlpatterns` of every project app (not third-party ones) that has a routing module."""
    patterns: list[URLPattern | URLResolver] = []
    project_dir = Path(settings.BASE_DIR).resolve()
    for app_config in apps.get_app_configs():
        if app_config.name == "durak_site" or not Path(app_config.path).resolve().is_relative_to(project_dir):
            continue
        module_name = f"{app_config.name}.routing"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        patterns.extend(getattr(module, "websocket_urlpatterns", []))
    return patterns


def websocket_urlpatterns() -> list[URLPattern | URLResolver]:
    return site_websocket_urlpatterns + app_websocket_urlpatterns()


class PathPrefixRouter:
    """An ASGI application that hands a connection to the application of the first prefix its path starts
    with, else to `default`: routes that need another authentication stack (the bot socket's token) than
    the site's cookies."""

    def __init__(self, prefixes: dict[str, Any], *, default: Any) -> None:
        self.prefixes = prefixes
        self.default = default

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        path = scope.get("path", "")
        for prefix, application in self.prefixes.items():
            if path.startswith(prefix):
                return await application(scope, receive, send)
        return await self.default(scope, receive, send)
