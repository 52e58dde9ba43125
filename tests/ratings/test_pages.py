"""The ratings pages in English and Russian, the leaderboard's conditions, and bounded query counts."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from ratings import elo, selectors
from ratings.models import PlayerRating, RatingPool
from ratings.services import rating_apply_game
from tests.ratings.helpers import person, synthetic_games

pytestmark = pytest.mark.django_db


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def _bot(name: str) -> User:
    return User.objects.create(username=name, is_bot=True, bot_engine="easy", bot_level="easy")


@pytest.fixture
def played() -> dict[str, Any]:
    """Twelve people and two bots with rated games in two pools, one game of them with epaulettes."""
    people = [person(f"p{number}") for number in range(12)] + [_bot("bot-a"), _bot("bot-b")]
    heads_up = RatingPool.objects.get(slug="podkidnoy-36-heads-up")
    multi = RatingPool.objects.get(slug="podkidnoy-36-multi")
    synthetic_games(heads_up, people, 40, seed=11)
    synthetic_games(multi, people, 16, seed=12, seats=(3, 6))
    now = timezone.now()
    PlayerRating.objects.update(last_played=now)
    rating_apply_game(pool=heads_up, game_key="epaulettes", players=people[:2], outcome=elo.heads_up(1.0),
                      played_at=now, epaulettes={"seat": 1, "by": 0, "rank": "6", "cards": ["6H", "6D"]})
    return {"people": people, "heads_up": heads_up, "multi": multi}


def test_the_navigation_link_opens_the_pool_list(client: Client, played: dict[str, Any]) -> None:
    response = client.get(reverse("home"))
    assert f'href="{reverse("ratings:list")}"' in response.content.decode()
    page = client.get(reverse("ratings:list"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'aria-current="page">Ratings' in html
    text = _text(page.content)
    for name in ("Podkidnoy 36, heads-up", "Perevodnoy 36, heads-up", "Podkidnoy 36, 3-6 players",
                 "Podkidnoy 36, 2 against 2"):
        assert name in text
    assert reverse("ratings:leaderboard", args=["podkidnoy-36-heads-up"]) in html


def test_the_leaderboard_keeps_to_its_conditions_and_marks_bots(played: dict[str, Any]) -> None:
    heads_up = played["heads_up"]
    everyone = PlayerRating.objects.filter(pool=heads_up)
    rows = selectors.leaderboard(pool=heads_up, min_games=1, active_days=None)
    assert len(rows) == everyone.count()
    assert [row.rating.rating for row in rows] == sorted((row.rating.rating for row in rows), reverse=True)
    assert [row.rank for row in rows] == list(range(1, len(rows) + 1))
    assert {row.user.username for row in rows if row.user.is_bot} == {"bot-a", "bot-b"}

    few = everyone.order_by("games").first()
    assert few is not None
    strict = selectors.leaderboard(pool=heads_up, min_games=few.games + 1, active_days=None)
    assert few.user_id not in {row.user.pk for row in strict}
    assert all(row.rating.games > few.games for row in strict)

    away = everyone.order_by("-rating").first()
    assert away is not None
    PlayerRating.objects.filter(pk=away.pk).update(last_played=timezone.now() - datetime.timedelta(days=40))
    recent = selectors.leaderboard(pool=heads_up, min_games=1, active_days=30)
    assert away.user_id not in {row.user.pk for row in recent} and len(recent) == len(rows) - 1
    assert away.user_id in {row.user.pk for row in selectors.leaderboard(pool=heads_up, min_games=1, active_days=60)}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_leaderboard_page_in_both_languages(client: Client, played: dict[str, Any], language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("ratings:leaderboard", args=[played["heads_up"].slug])
    response = client.get(url, {"min_games": "1", "days": "all"})
    assert response.status_code == 200
    text = _text(response.content)
    words = {"en": ("Podkidnoy 36, heads-up", "Rating", "Games", "Wins", "bot", "Recent rated games"),
             "ru": ("Подкидной 36, один на один", "Рейтинг", "Партии", "Победы", "бот", "Последние рейтинговые игры")}
    for word in words[language]:
        assert word in text, word
    if language == "ru":
        for english in ("Recent rated games", "Last played", "Wins", "Draws"):
            assert english not in text
    assert "bot-row" in response.content.decode()
    assert client.get(reverse("ratings:leaderboard", args=["no-such-pool"])).status_code == 404


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_player_page_draws_a_chart_per_pool_with_chart_js(client: Client, played: dict[str, Any],
                                                               language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    anna = played["people"][0]
    response = client.get(reverse("ratings:player", args=[anna.username]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "vendor/chart-4.6.1.umd.min.js" in html and "ratings/charts.js" in html
    charts = json.loads(re.search(r'<script id="rating-charts" type="application/json">(.*?)</script>', html,
                                  re.S).group(1))  # type: ignore[union-attr]
    ratings = {row.pool_id: row for row in PlayerRating.objects.filter(user=anna)}
    assert len(charts) == len(ratings) == html.count("<canvas")
    heads_up = ratings[played["heads_up"].pk]
    chart = next(chart for chart in charts if chart["pool"] in ("Podkidnoy 36, heads-up", "Подкидной 36, один на один"))
    assert len(chart["ratings"]) == heads_up.games + 1 and chart["ratings"][0] == 1500.0
    assert chart["ratings"][-1] == round(heads_up.rating, 1)
    text = _text(response.content)
    words = {"en": ("Record", "Epaulettes", "Hung", "Received", "Recent rated games", "All pools"),
             "ru": ("Итоги", "Погоны", "Повесил", "Получил", "Последние рейтинговые игры", "Все пулы")}
    for word in words[language]:
        assert word in text, word
    assert heads_up.shown in text


def test_the_record_counts_wins_durak_finishes_draws_and_epaulettes(played: dict[str, Any]) -> None:
    anna, boris = played["people"][:2]
    record = selectors.player_record(user=anna)
    rows = PlayerRating.objects.filter(user=anna)
    assert record.wins == sum(row.wins for row in rows) and record.draws == sum(row.draws for row in rows)
    # Heads-up every game is a win, a durak finish or a draw; at bigger tables some finish in between.
    heads_up = rows.get(pool=played["heads_up"])
    assert heads_up.games == heads_up.wins + heads_up.durak_finishes + heads_up.draws
    assert record.games >= record.wins + record.durak_finishes + record.draws
    hung = dict((rank, count) for rank, count, _ in record.epaulettes)
    assert hung.get("6", 0) >= 1
    received = dict((rank, count) for rank, _, count in selectors.player_record(user=boris).epaulettes)
    assert received.get("6", 0) >= 1


def test_the_profile_links_to_the_players_ratings(client: Client) -> None:
    anna = person("anna")
    client.force_login(anna)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert reverse("ratings:player", args=["anna"]) in html
    page = client.get(reverse("ratings:player", args=["anna"]))
    assert page.status_code == 200 and "No rated games yet." in _text(page.content)
    assert client.get(reverse("ratings:player", args=["nobody-here"])).status_code == 404


def test_pages_run_a_bounded_number_of_queries(
    client: Client, played: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    anna = played["people"][0]
    pages = [
        reverse("ratings:list"),
        reverse("ratings:leaderboard", args=[played["heads_up"].slug]) + "?min_games=1&days=all",
        reverse("ratings:player", args=[anna.username]),
    ]
    counts = []
    for url in pages:
        with django_assert_max_num_queries(12) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    # More games and players cost no more queries.
    synthetic_games(played["heads_up"], played["people"], 20, seed=13, prefix="more")
    synthetic_games(played["multi"], played["people"], 10, seed=14, seats=(3, 6), prefix="more")
    for url, count in zip(pages, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client.get(url).status_code == 200


def test_recent_games_list_the_players_best_first(played: dict[str, Any]) -> None:
    recent = selectors.recent_rated_games(pool=played["multi"], limit=30)
    assert len(recent) == 16
    assert [game.played_at for game in recent] == sorted((game.played_at for game in recent), reverse=True)
    for game in recent:
        place_of = {seat: index for index, group in enumerate(game.outcome["places"]) for seat in group}
        places = [place_of[change.seat] for change in game.seat_changes]  # type: ignore[attr-defined]
        assert places == sorted(places) and len(places) == len(place_of)
    mine = selectors.recent_rated_games(user=played["people"][0])
    assert mine and all(played["people"][0] in [change.user for change in game.seat_changes]  # type: ignore[attr-defined]
                        for game in mine)


def test_an_admin_adds_a_pool_and_a_cheating_one_is_refused(client: Client) -> None:
    admin = User.objects.create_superuser(username="root", email="root@example.com", password="a-Long-passw0rd")
    client.force_login(admin)
    url = reverse("admin:ratings_ratingpool_add")
    form = {"slug": "podkidnoy-24-heads-up", "name_en": "Podkidnoy 24, heads-up", "name_ru": "Подкидной 24",
            "rules": '{"preset": "podkidnoy", "deck": 24}', "format": "heads_up", "min_players": "2",
            "max_players": "2", "active": "on", "position": "9"}
    refused = client.post(url, {**form, "rules": '{"deck": 24, "cheating": true}'})
    assert refused.status_code == 200 and "Cheating is never on in rated games." in refused.content.decode()
    assert client.post(url, form).status_code == 302
    added = RatingPool.objects.get(slug="podkidnoy-24-heads-up")
    assert added.rules["deck"] == 24 and added.rules["cheating"] is False and "preset" not in added.rules
    from games.engine import Rules
    from ratings.services import pool_for_rules

    assert pool_for_rules(rules=Rules(deck=24), players=2) == added
    for name in ("ratings_playerrating", "ratings_ratedgame"):
        assert client.get(reverse(f"admin:{name}_changelist")).status_code == 200
