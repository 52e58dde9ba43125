"""The reader's time zone: his profile's setting, else the one his browser reported, else the site's.

The browser reports its zone once in the `tz` cookie (static/time_zone.js, from
Intl.DateTimeFormat().resolvedOptions().timeZone); `TimeZoneMiddleware` activates the zone for the request, so
that every time a template prints is in the reader's zone, and `zone_label` names it beside the time
("14:05 MSK", "14:05 UTC+5"). A zone is an IANA name that zoneinfo knows; anything else is ignored.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

TIME_ZONE_COOKIE = "tz"
MAX_ZONE_NAME = 64


@functools.cache
def known_zones() -> tuple[str, ...]:
    """Every IANA zone zoneinfo knows, sorted (the profile's list)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def zone_or_none(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of that IANA name, or None for an empty, malformed or unknown one."""
    if not name or len(name) > MAX_ZONE_NAME or name not in known_zones():
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def reader_zone(request: HttpRequest) -> zoneinfo.ZoneInfo | None:
    """The zone to show this request's times in: the account's setting wins over the browser's cookie."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        chosen = zone_or_none(getattr(user, "time_zone", ""))
        if chosen is not None:
            return chosen
    # The page writes the name as it is; an older page or another client may have percent-encoded its "/".
    return zone_or_none(unquote(request.COOKIES.get(TIME_ZONE_COOKIE, "")))


def zone_label(moment: datetime.datetime) -> str:
    """The zone of an aware local time as a reader knows it: its abbreviation where it has one of letters
    (MSK, CET, UTC), else its offset (UTC+5, UTC-3:30)."""
    name = moment.tzname() or ""
    if name.isalpha():
        return name
    offset = moment.utcoffset() or datetime.timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


class TimeZoneMiddleware:
    """Activates the reader's zone (after AuthenticationMiddleware, which gives the account)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = reader_zone(request)
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
