"""A notice by e-mail: in the recipient's preferred language and time zone, to his address if he has one."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone, translation

from durak_site.time_zones import zone_or_none
from notices import selectors
from notices.models import Notice


def notice_email_send(*, notice: Notice) -> bool:
    """Send the notice to its recipient's address; False when he has none (or is a bot)."""
    user = notice.user
    if not user.email or user.is_bot:
        return False
    language = user.preferred_language or settings.LANGUAGE_CODE
    zone = zone_or_none(user.time_zone) or zoneinfo.ZoneInfo(settings.TIME_ZONE)
    with translation.override(language), timezone.override(zone):
        shown = selectors.shown([notice])[0]
        context = {"notice": shown, "user": user, "site_url": getattr(settings, "SITE_URL", "")}
        subject = render_to_string("notices/email/subject.txt", context).strip()
        body = render_to_string("notices/email/body.txt", context)
    send_mail(subject, body, None, [user.email])
    return True
