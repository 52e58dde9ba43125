"""Every page and endpoint of the URL configuration, as every kind of visitor (issue 10, security):

- GET as anonymous, a player, a seated player, a tournament director and an admin: never a server error,
  and no page shown to anyone but the seated player names a card of his hand, or the stock's order.
- POST without a CSRF token as a logged-in player: refused (403), or the method is not allowed (405) —
  never accepted — and nothing in the database changes.

The URLs are read from the resolver, so pages added later are covered without editing this test; their
parameters are filled with real objects where the name is known (a game, a table, a player, a pool).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.roles import Role
from accounts.services import user_role_grant
from games import services
from games.engine.cards import names
from games.models import Seat
from games.snapshots import state_of
from ratings.models import RatingPool
from tests.games.factories import latest_game, person, table
from tests.games.test_no_leaks import _cards_named

pytestmark = pytest.mark.django_db

# Parts of the site that are not ours to crawl: Django's admin has its own tests, static files are files.
SKIP_PREFIXES = ("admin/", "static/", "media/", "__debug__/")
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
# The profile form's country list: ISO codes that read as cards (AS American Samoa, AD Andorra, KH Cambodia,
# BJ Benin), the same list for everyone. A hand holding AS, AD and KH once failed the check on it.
COUNTRY_SELECT = re.compile(r"<select[^>]*\bname=\"country\".*?</select>", re.DOTALL)


def _patterns(resolvers: list[Any], prefix: str = "") -> Iterator[str]:
    for entry in resolvers:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            if route.startswith("^") or "(?P" in route:
                continue  # a regular-expression route (Django's own catch-alls)
            yield prefix + route


@pytest.fixture
def site() -> dict[str, Any]:
    owner, guest = person("owner"), person("guest")
    seated_table = table(owner, seats=2, turn_seconds=3600)
    services.table_join(table=seated_table, user=owner)
    services.table_join(table=seated_table, user=guest)
    game = latest_game(seated_table)
    state = state_of(game)
    owner_seat = Seat.objects.get(table=seated_table, user=owner, bot_level="").number
    director, admin = person("director"), person("boss")
    user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
    user_role_grant(user=admin, role=Role.ADMIN)
    pool = RatingPool.objects.first()
    samples: dict[str, Any] = {
        "game_id": game.pk, "table_id": seated_table.pk, "pk": game.pk, "id": game.pk,
        "username": owner.username, "slug": pool.slug if pool else "x", "token": seated_table.link_token,
    }  # fmt: skip
    tournament_model = apps.all_models.get("tournaments", {}).get("tournament")
    if tournament_model is not None:
        tournament = tournament_model._default_manager.first()
        if tournament is not None:
            samples["tournament_id"] = tournament.pk
    return {
        "owner": owner,
        "visitors": {"player": person("passer-by"), "guest (seated)": guest, "director": director, "admin": admin},
        "samples": samples,
        "owner_hand": set(names(state.hands[owner_seat])),
        "stock": [name for name in names(sum(1 << card for card in state.stock[:-1]))],
    }


def _path(route: str, samples: dict[str, Any]) -> str:
    def fill(match: re.Match[str]) -> str:
        converter, name = match.group("converter") or "str", match.group("name")
        if name in samples:
            return str(samples[name])
        return "1" if converter == "int" else "x"

    return "/" + PARAMETER.sub(fill, route)


def _urls(samples: dict[str, Any]) -> list[str]:
    routes = sorted(set(_patterns(get_resolver().url_patterns)))
    return [_path(route, samples) for route in routes if not route.startswith(SKIP_PREFIXES)]


def _clients(site: dict[str, Any]) -> dict[str, Client]:
    clients = {"anonymous": Client()}
    for role, user in site["visitors"].items():
        client = Client()
        client.force_login(user)
        clients[role] = client
    return clients


def test_no_page_fails_or_shows_a_hidden_card_to_anyone(site: dict[str, Any]) -> None:
    urls = _urls(site["samples"])
    assert len(urls) > 20
    # The check can see a hand: the seated owner's own game page shows his.
    own = Client()
    own.force_login(site["owner"])
    own_page = own.get(f"/play/game/{site['samples']['game_id']}/").content.decode()
    assert site["owner_hand"] <= _cards_named(own_page)
    failures: list[tuple[str, str, object]] = []
    for role, client in _clients(site).items():
        for url in urls:
            response = client.get(url)
            if response.status_code >= 500:
                failures.append((role, url, response.status_code))
                continue
            if response.get("Content-Type", "").startswith(("text/", "application/json")) and response.content:
                shown = _cards_named(COUNTRY_SELECT.sub("", response.content.decode(errors="replace")))
                leaked = shown & site["owner_hand"]
                # A card can be named for other reasons (the rules page's examples): only his whole hand,
                # or more than two of his cards on one page, is a leak.
                if len(leaked) >= 3 or leaked == site["owner_hand"]:
                    failures.append((role, url, sorted(leaked)))
    assert failures == []


def _row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if model._meta.app_label in ("accounts", "games", "ratings", "tournaments", "api")
    }


def test_no_form_or_endpoint_accepts_a_post_without_a_csrf_token(site: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(site["visitors"]["guest (seated)"])
    before = _row_counts()
    accepted = []
    for url in _urls(site["samples"]):
        if url.startswith("/api/"):
            continue  # token-authenticated; tests/api checks its session-authenticated writes
        response = client.post(url, {"name": "x", "seat": "0", "level": "easy"})
        if response.status_code not in (403, 405):
            accepted.append((url, response.status_code))
    assert accepted == []
    assert _row_counts() == before


def test_api_writes_with_a_session_need_the_csrf_token(site: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(site["visitors"]["director"])
    before = _row_counts()
    for url in _urls(site["samples"]):
        if not url.startswith("/api/") or "/docs" in url or "schema" in url:
            continue
        response = client.post(url, {}, content_type="application/json")
        assert response.status_code in (401, 403, 404, 405), (url, response.status_code)
    assert _row_counts() == before
