"""Every page and endpoint of the URL configuration, as every kind of visitor (issue 10, security):

- GET as anonymous, a player, a seated player, a tournament director and an admin: each route answers each
  visitor its expected status (EXPECTED_STATUS), and no page shows a visitor one card he has not seen (a card
  of another hand, or of the stock below its face-up card), at the deal and some moves in.
- POST without a CSRF token as a logged-in player: refused (403), or the method is not allowed (405) —
  never accepted — and nothing in the database changes.

The URLs are read from the resolver, and a route without expected answers fails the test; their parameters
are filled with the real objects they name (tests.leakproof.fill_route: a game, a table, a tournament, a
player, a pool), and with ids that exist nowhere where there is none (their 404 is expected).
"""

from __future__ import annotations

import datetime
import gzip
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

from accounts.roles import Role
from accounts.services import user_role_grant
from gamedata.services import monthly_export_make
from games import services
from games.engine import seat_view
from games.engine.cards import names
from games.models import Seat
from games.snapshots import state_of
from games.turns import waiting_seats
from ratings.models import RatingPool
from tests.games.factories import latest_game, person, table
from tests.leakproof import SKIP_PREFIXES, cards_in, fill_route, hidden_from, routes, site_urls
from tests.tournaments.factories import enter, tournament

pytestmark = pytest.mark.django_db

# Pages whose text is the same whatever the game (the rules' examples, the API's documentation): the scan
# passes them by; the proof by difference does not.
FIXED_TEXT = ("/rules/", "/api/docs/", "/api/redoc/", "/api/schema/", "/bots/")
# The profile form's country list: ISO codes that read as cards (AS American Samoa, AD Andorra, KH Cambodia,
# BJ Benin), the same list for everyone. A hand holding AS, AD and KH once failed the check on it.
COUNTRY_SELECT = re.compile(r"<select[^>]*\bname=\"country\".*?</select>", re.DOTALL)


def _this_months_export() -> str:
    """The open game data file of the month the crawl's game is played in, made now: it must not hold it."""
    month = timezone.now().astimezone(datetime.UTC).date().replace(day=1)
    return monthly_export_make(month=month).file_name


@pytest.fixture
def site(settings: Any, tmp_path: Path) -> dict[str, Any]:
    settings.GAME_DATA_DIR = tmp_path / "gamedata"
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
    pool = RatingPool.objects.get(slug="podkidnoy-36-heads-up")
    event = tournament(by=director)
    enter(event, [owner])
    samples: dict[str, Any] = {
        "game_id": game.pk, "table_id": seated_table.pk, "tournament_id": event.pk, "number": 1,
        "username": owner.username, "slug": pool.slug, "token": seated_table.link_token,
        "file_name": _this_months_export(),
    }  # fmt: skip
    return {
        "owner": owner,
        "visitors": {"player": person("passer-by"), "guest (seated)": guest, "director": director, "admin": admin},
        "samples": samples,
        "owner_hand": set(names(state.hands[owner_seat])),
        "owner_seat": owner_seat,
        "guest_seat": 1 - owner_seat,
        "game": game,
        "people": {owner_seat: owner, 1 - owner_seat: guest},
    }


def _urls(samples: dict[str, Any]) -> list[str]:
    return site_urls(samples)


def _clients(site: dict[str, Any]) -> dict[str, Client]:
    clients = {"anonymous": Client()}
    for role, user in site["visitors"].items():
        client = Client()
        client.force_login(user)
        clients[role] = client
    return clients


# What each visitor is answered, route by route: (anonymous, a player, the seated guest, a director, an admin).
# A new route fails the crawl until its expected answers are written here, so that a page answering 403, 404 or
# 500 to everyone cannot pass for one that shows nothing hidden.
EXPECTED_STATUS: dict[str, tuple[int, int, int, int, int]] = {
    "": (200, 200, 200, 200, 200),
    "accounts/log-in/": (200, 302, 302, 302, 302),
    "accounts/log-out/": (405, 405, 405, 405, 405),
    "accounts/password/change/": (302, 200, 200, 200, 200),
    "accounts/password/change/done/": (302, 200, 200, 200, 200),
    "accounts/password/reset/": (200, 200, 200, 200, 200),
    "accounts/password/reset/<uidb64>/<token>/": (200, 200, 200, 200, 200),
    "accounts/password/reset/done/": (200, 200, 200, 200, 200),
    "accounts/password/reset/sent/": (200, 200, 200, 200, 200),
    "accounts/profile/": (302, 200, 200, 200, 200),
    "accounts/sessions/revoke/": (302, 405, 405, 405, 405),
    "accounts/sound/": (405, 405, 405, 405, 405),
    "accounts/sign-up/": (200, 302, 302, 302, 302),
    "analysis/": (200, 200, 200, 200, 200),
    "api/docs/": (200, 200, 200, 200, 200),
    "api/redoc/": (200, 200, 200, 200, 200),
    "api/schema/": (200, 200, 200, 200, 200),
    "api/v1/account/": (401, 200, 200, 200, 200),
    "api/v1/account/bot/": (401, 405, 405, 405, 405),
    "api/v1/account/games/": (401, 200, 200, 200, 200),
    "api/v1/games/": (200, 200, 200, 200, 200),
    "api/v1/games/<id:pk>/": (200, 200, 200, 200, 200),
    "api/v1/games/<id:pk>/actions/": (401, 405, 405, 405, 405),
    "api/v1/games/<id:pk>/analysis/": (401, 403, 409, 403, 409),  # its players and staff, once it is over
    "api/v1/games/<id:pk>/record/": (409, 409, 409, 409, 409),
    "api/v1/games/<id:pk>/redeal/": (401, 405, 405, 405, 405),
    "api/v1/games/<id:pk>/surrender/": (401, 405, 405, 405, 405),
    "api/v1/games/<id:pk>/view/": (200, 200, 200, 200, 200),
    "api/v1/players/": (200, 200, 200, 200, 200),
    "api/v1/players/<str:username>/": (200, 200, 200, 200, 200),
    "api/v1/players/<str:username>/history/": (200, 200, 200, 200, 200),
    "api/v1/pools/": (200, 200, 200, 200, 200),
    "api/v1/pools/<slug:slug>/": (200, 200, 200, 200, 200),
    "api/v1/pools/<slug:slug>/leaderboard/": (200, 200, 200, 200, 200),
    "api/v1/records/analysis/": (405, 405, 405, 405, 405),
    "api/v1/tables/": (200, 200, 200, 200, 200),
    "api/v1/tables/<id:pk>/": (200, 200, 200, 200, 200),
    "api/v1/tables/<id:pk>/bots/": (401, 405, 405, 405, 405),
    "api/v1/tables/<id:pk>/join/": (401, 405, 405, 405, 405),
    "api/v1/tables/<id:pk>/leave/": (401, 405, 405, 405, 405),
    "api/v1/tables/<id:pk>/start/": (401, 405, 405, 405, 405),
    "api/v1/tokens/": (401, 200, 200, 200, 200),
    "api/v1/tokens/<id:pk>/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/audit/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/entrants/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/export/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/pairings/<id:pairing_id>/forfeit/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/pairings/<id:pairing_id>/result/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/register/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/rounds/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/standings/": (200, 200, 200, 200, 200),
    "api/v1/tournaments/<id:pk>/start/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/team/accept/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/team/decline/": (401, 405, 405, 405, 405),
    "api/v1/tournaments/<id:pk>/withdraw/": (401, 405, 405, 405, 405),
    "bots/": (200, 200, 200, 200, 200),
    "data/": (200, 200, 200, 200, 200),
    # A month's file of open game data (made by the fixture for the month of the running game), decompressed
    # before it is scanned.
    "data/<str:file_name>": (200, 200, 200, 200, 200),
    "bots/account/": (302, 405, 405, 405, 405),
    "bots/tokens/": (302, 200, 200, 200, 200),
    "bots/tokens/<int:token_id>/revoke/": (302, 405, 405, 405, 405),
    "favicon.ico": (301, 301, 301, 301, 301),
    "healthz": (200, 200, 200, 200, 200),
    "language/": (405, 405, 405, 405, 405),
    "notices/": (302, 200, 200, 200, 200),
    "notices/read/": (302, 405, 405, 405, 405),
    "play/": (200, 200, 200, 200, 200),
    "play/game/<int:game_id>/": (200, 200, 200, 200, 200),
    "play/game/<int:game_id>/record.json": (403, 403, 403, 403, 403),
    # The crawl's game is being played: its replay is a page that says so, with no card.
    "play/game/<int:game_id>/replay/": (403, 403, 403, 403, 403),
    "play/link/<str:token>/": (302, 302, 302, 302, 302),
    "play/table/<int:table_id>/": (302, 302, 302, 302, 302),
    "play/table/<int:table_id>/bots/": (302, 405, 405, 405, 405),
    "play/table/<int:table_id>/bots/remove/": (302, 405, 405, 405, 405),
    "play/table/<int:table_id>/join/": (302, 405, 405, 405, 405),
    "play/table/<int:table_id>/leave/": (302, 405, 405, 405, 405),
    "play/table/<int:table_id>/seats/": (200, 200, 200, 200, 200),
    "play/table/<int:table_id>/start/": (302, 405, 405, 405, 405),
    "play/tables/": (200, 200, 200, 200, 200),
    "play/tables/new/": (302, 405, 405, 405, 405),
    "ratings/": (200, 200, 200, 200, 200),
    "ratings/fair-play/": (403, 403, 403, 200, 200),
    "ratings/player/<str:username>/": (200, 200, 200, 200, 200),
    "ratings/pool/<slug:slug>/": (200, 200, 200, 200, 200),
    "review/game/<int:game_id>/analyse/": (302, 405, 405, 405, 405),
    "review/game/<int:game_id>/analysis.json": (403, 403, 409, 403, 409),  # a running game is never analysed
    "rules/": (200, 200, 200, 200, 200),
    "tournaments/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/crosstable/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/direct/": (302, 403, 403, 200, 200),
    "tournaments/<int:tournament_id>/direct/<str:act>/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/direct/avoidances/<int:avoidance_id>/remove/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/direct/avoidances/add/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/direct/board/<int:pairing_id>/result/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/direct/game/<int:match_game_id>/decide/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/entrant/<int:number>/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/hall/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/hall/live/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/live/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/log/": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/pairing/<int:pairing_id>/dispute/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/pairing/<int:pairing_id>/seat/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/register/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/round/<int:number>/": (404, 404, 404, 404, 404),
    "tournaments/<int:tournament_id>/round/<int:number>/sheets/": (404, 404, 404, 404, 404),
    "tournaments/<int:tournament_id>/standings.csv": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/team/<str:answer>/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/tournament.json": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/tournament.trf": (200, 200, 200, 200, 200),
    "tournaments/<int:tournament_id>/withdraw/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/check-in/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/entrants/<str:act>/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/entrants/preview/": (302, 405, 405, 405, 405),
    "tournaments/<int:tournament_id>/entrants/search/": (302, 403, 403, 200, 200),
    "tournaments/invitation/<str:invitation>/": (404, 404, 404, 404, 404),
    "tournaments/new/": (302, 403, 403, 200, 200),
}


def _crawl(site: dict[str, Any]) -> list[tuple[str, str, object]]:
    """Every route as every visitor: what answered other than expected, or showed him a card he has not seen."""
    game = site["game"]
    game.refresh_from_db()
    _this_months_export()  # the game as it stands now
    # The scan can see a hand: the seated owner's own game page shows his.
    own = Client()
    own.force_login(site["owner"])
    own_page = own.get(f"/play/game/{game.pk}/").content.decode()
    assert set(names(state_of(game).hands[site["owner_seat"]])) <= cards_in(own_page)
    every = sorted(set(routes(get_resolver().url_patterns)))
    crawled = [route for route in every if not route.startswith(SKIP_PREFIXES)]
    assert sorted(EXPECTED_STATUS) == crawled, "a route was added or removed: write its expected answers above"
    failures: list[tuple[str, str, object]] = []
    for index, (role, client) in enumerate(_clients(site).items()):
        seat = site["guest_seat"] if role == "guest (seated)" else None
        hidden = hidden_from(game, seat)
        assert len(hidden) > 20
        for route in crawled:
            url = fill_route(route, site["samples"])
            response = client.get(url)
            if response.status_code != EXPECTED_STATUS[route][index]:
                failures.append((role, url, response.status_code))
                continue
            body = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
            if response.get("Content-Type") == "application/gzip":
                body = gzip.decompress(body)
            if url.startswith(FIXED_TEXT) or not body:
                continue
            shown = cards_in(COUNTRY_SELECT.sub("", body.decode(errors="replace")))
            if shown & hidden:
                failures.append((role, url, sorted(shown & hidden)))
    return failures


def test_every_route_answers_each_visitor_as_expected_and_no_page_shows_a_hidden_card(site: dict[str, Any]) -> None:
    """At the deal and some moves in, every route answers its expected status, and no page shows the visitor
    one card he has not seen (another hand, the stock below its face-up card), in any form the card scan
    knows (tests/leakproof.py). The proof by difference (test_leaks_by_difference.py) covers the same pages."""
    game = site["game"]
    rng = random.Random(10)
    assert _crawl(site) == []
    for _ in range(6):
        game.refresh_from_db()
        state = state_of(game)
        seat = waiting_seats(state)[0]
        legal = seat_view(state, seat)["legal"]
        services.game_submit_action(game_id=game.pk, user=site["people"][seat], action=rng.choice(legal), seq=game.seq)
    assert _crawl(site) == []


def test_the_crawl_fails_on_a_page_that_shows_one_card_of_another_hand(
    site: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import views

    strings = views.client_strings
    game = site["game"]
    card = names(state_of(game).hands[site["owner_seat"]])[0]
    monkeypatch.setattr(views, "client_strings", lambda: {**strings(), "tip": f"try {card}"})
    failures = _crawl(site)
    assert failures and all(url == f"/play/game/{game.pk}/" and shown == [card] for _, url, shown in failures)


def test_the_crawl_fails_on_a_month_file_that_holds_the_running_game(
    site: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The planted defect: an export that takes the running game and writes its stored record (every hand)."""
    from gamedata import services as gamedata_services
    from games.models import Game

    game = site["game"]
    monkeypatch.setattr(gamedata_services, "month_games", lambda month: Game.objects.filter(pk=game.pk))
    monkeypatch.setattr(gamedata_services, "game_line", lambda game: dict(game.record))
    failures = _crawl(site)
    assert failures and all(url == f"/data/{site['samples']['file_name']}" for _, url, _ in failures)
    assert {role for role, _, _ in failures} == {"anonymous", "player", "guest (seated)", "director", "admin"}


def test_the_crawl_fails_on_a_route_that_answers_other_than_expected(
    site: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(EXPECTED_STATUS, "rules/", (404, 404, 404, 404, 404))
    assert ("anonymous", "/rules/", 200) in _crawl(site)


def _row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if model._meta.app_label in ("accounts", "games", "ratings", "tournaments", "api", "notices", "review")
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
