"""The API's analysis of a game (/api/v1/games/<id>/analysis/): GET the stored analysis, POST to ask for it,
answered per caller (a player, the tournament's director, a stranger, anonymous) and per game (running,
finished, analysed)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from review import tasks
from review.models import GameAnalysis
from tests.api.conftest import token_client
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import finished_game
from tests.review.conftest import FakeSearch

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}


def test_a_player_asks_through_the_api_and_reads_the_analysis(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris, stranger = person(), person(), person()
    game, _ = finished_game([anna, boris])
    url = f"/api/v1/games/{game.pk}/analysis/"
    player, other = token_client(anna), token_client(stranger)
    assert player.get(url).status_code == 404
    assert APIClient().get(url).status_code == 401
    assert APIClient().post(url, {}, format="json").status_code == 401
    assert other.post(url, {}, format="json").status_code == 403
    assert other.get(url).status_code == 403
    assert player.post(url, {"budget": "forever"}, format="json").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        asked = player.post(url, {}, format="json")
    assert asked.status_code == 200 and asked.json()["status"] == "queued" and asked.json()["analysis"] is None
    analysis = GameAnalysis.objects.get(game=game)
    assert queued == [analysis.pk]
    tasks.analyse_game(analysis.pk)
    answer = token_client(boris).get(url)
    assert answer.status_code == 200
    assert answer.json()["analysis"]["accuracy"] == analysis.__class__.objects.get(pk=analysis.pk).accuracy
    assert token_client(boris).post(url, {}, format="json").json()["status"] == "done"  # stored: returned
    assert queued == [analysis.pk]
    assert player.get(url + "?budget=deep").status_code == 404


def test_the_api_refuses_a_running_game_and_the_allowance_past_its_end(
    search: FakeSearch, queued: list[int], settings: Any
) -> None:
    anna, boris = person(), person()
    at = table(anna, turn_seconds=3600)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    running = latest_game(at)
    player = token_client(anna)
    assert player.get(f"/api/v1/games/{running.pk}/analysis/").status_code == 409
    refused = player.post(f"/api/v1/games/{running.pk}/analysis/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 409 and refused.json()["detail"] == "Партию разбирают, когда она окончена: эта ещё идёт."
    settings.ANALYSES_PER_DAY = 1
    first, _ = finished_game([anna, boris], loser=0)
    second, _ = finished_game([anna, boris], loser=1)
    assert player.post(f"/api/v1/games/{first.pk}/analysis/", {}, format="json").status_code == 200
    over = player.post(f"/api/v1/games/{second.pk}/analysis/", {}, format="json")
    assert over.status_code == 429 and over.json()["detail"] == "You may ask for 1 new analysis a day; try again tomorrow."
    assert GameAnalysis.objects.count() == 1
