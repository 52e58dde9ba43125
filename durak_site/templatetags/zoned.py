"""`{{ moment|zoned }}`: a time in the reader's zone with the zone's name ("04.12.2026 14:05 MSK");
`{{ moment|zoned:"H:i" }}` with a format of its own. The zone is the request's (durak_site.time_zones)."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format

from durak_site.time_zones import zone_label

register = template.Library()


@register.filter
def zoned(value: datetime.datetime | None, format_name: str = "SHORT_DATETIME_FORMAT") -> str:
    if not isinstance(value, datetime.datetime):
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{date_format(local, format_name)} {zone_label(local)}"


@register.simple_tag
def current_zone_label() -> str:
    """The active zone's name as `zoned` writes it, for a form that asks for times ("times in MSK")."""
    return zone_label(timezone.localtime(timezone.now()))
