"""`{% notice_bell %}`: the header's bell with the reader's unread count (one query), live over
ws/notices/ (static/notices/notices.js)."""

from __future__ import annotations

from typing import Any

from django import template

from notices import selectors

register = template.Library()


@register.inclusion_tag("notices/_bell.html", takes_context=True)
def notice_bell(context: Any) -> dict[str, Any]:
    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated and not user.is_bot)
    return {"signed_in": signed_in, "unread": selectors.unread_count(user=user) if signed_in else 0,
            "current_language": context.get("LANGUAGE_CODE", "")}
