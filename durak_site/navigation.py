"""The site's main navigation, offered to every template.

An entry whose URL name is not registered yet (its app has no pages so far) is shown greyed out,
so the layout stays the same while the sections arrive. An app that adds the section registers the
URL name listed here, e.g. `path("play/", include("games.urls"))` with `app_name = "games"` and a
route named "play".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class NavigationItem:
    label: str | Promise
    url: str | None  # None: the section is not open yet
    current: bool


_SECTIONS: tuple[tuple[Promise, str], ...] = (
    (_("Play"), "games:play"),
    (_("Tournaments"), "tournaments:list"),
    (_("Ratings"), "ratings:list"),
    (_("Rules"), "rules"),
)


def _url_or_none(url_name: str) -> str | None:
    try:
        return reverse(url_name)
    except NoReverseMatch:
        return None


def navigation(request: HttpRequest) -> dict[str, list[NavigationItem]]:
    items = []
    for label, url_name in _SECTIONS:
        url = _url_or_none(url_name)
        current = url is not None and (request.path == url or (url != "/" and request.path.startswith(url)))
        items.append(NavigationItem(label=label, url=url, current=current))
    return {"navigation_items": items}
