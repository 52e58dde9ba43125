"""Rate limits of the REST API: per user for signed-in callers, per address for anonymous ones.

The counters live in Django's cache (durak_site.environment.cache_settings): Redis shared by every server
process in production, memory of the one process otherwise. Rates come from settings (API_RATE_USER,
API_RATE_ANON in the environment) and are read on every request, so tests can change them.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework import throttling


class _SettingsRate:
    scope: str

    def get_rate(self) -> str | None:
        rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        return rates.get(self.scope) if isinstance(rates, dict) else None


class AnonRateThrottle(_SettingsRate, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(_SettingsRate, throttling.UserRateThrottle):
    pass
