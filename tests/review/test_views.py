"""Game review's pages: asking for an analysis by a form (CSRF, a redirect back, or htmx's fragment; refusals
in the reader's language) and reading the stored analysis as JSON (403, 404 and 409 as the case is)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import services as game_services
from review import tasks
from review.models import AnalysisStatus, GameAnalysis
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import finished_game
from tests.review.conftest import FakeSearch

pytestmark = pytest.mark.django_db


def _client(user: Any = None, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def test_a_player_asks_by_the_form_and_is_sent_back(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris = person(), person()
    game, _ = finished_game([anna, boris], loser=1)
    url = f"/review/game/{game.pk}/analyse/"
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(anna).post(url, {"budget": "default", "next": f"/play/game/{game.pk}/"})
    assert response.status_code == 302 and response["Location"] == f"/play/game/{game.pk}/"
    analysis = GameAnalysis.objects.get(game=game)
    assert queued == [analysis.pk] and analysis.requested_by == anna
    # Somewhere else to go back to is not followed.
    response = _client(boris).post(url, {"next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == f"/play/game/{game.pk}/"
    # htmx gets the fragment in place.
    fragment = _client(boris).post(url, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and b"Analysing: 0 of" in fragment.content
    assert queued == [analysis.pk] and GameAnalysis.objects.count() == 1


def test_the_form_needs_its_csrf_token_and_a_signed_in_player(search: FakeSearch, queued: list[int]) -> None:
    anna, boris = person(), person()
    game, _ = finished_game([anna, boris], loser=1)
    url = f"/review/game/{game.pk}/analyse/"
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(anna)
    assert strict.post(url).status_code == 403
    response = Client().post(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/log-in/")
    assert _client(anna).get(url).status_code == 405
    assert not GameAnalysis.objects.exists()


def test_refusals_are_in_the_readers_language(search: FakeSearch, queued: list[int]) -> None:
    anna, boris, stranger = person(), person(), person()
    game, _ = finished_game([anna, boris], loser=1)
    url = f"/review/game/{game.pk}/analyse/"
    response = _client(stranger).post(url, {"next": "/ratings/"})
    assert response.status_code == 302 and response["Location"] == "/ratings/"
    assert [str(message) for message in get_messages(response.wsgi_request)] == [
        "Only the game's players, its tournament's directors and staff may ask for its analysis."
    ]
    russian = _client(stranger, "ru").post(url, HTTP_HX_REQUEST="true")
    assert russian.status_code == 200 and russian["X-Refused-Status"] == "403"
    assert "Разбор партии могут заказать только её игроки, судьи её турнира и администраторы." in russian.content.decode()
    assert not GameAnalysis.objects.exists()


def test_the_analysis_json_for_each_reader(search: FakeSearch, queued: list[int]) -> None:
    anna, boris, stranger = person(), person(), person()
    game, _ = finished_game([anna, boris])
    url = f"/review/game/{game.pk}/analysis.json"
    assert _client(anna).get(url).status_code == 404  # not analysed yet
    assert _client(anna).post(f"/review/game/{game.pk}/analyse/").status_code == 302
    waiting = _client(anna).get(url).json()
    assert waiting["status"] == AnalysisStatus.QUEUED and waiting["analysis"] is None
    tasks.analyse_game(GameAnalysis.objects.get(game=game).pk)
    done = _client(boris).get(url)
    assert done.status_code == 200
    answer = done.json()
    assert answer["status"] == "done" and answer["analysis"]["version"] == 1
    assert len(answer["analysis"]["decisions"]) == len(game.record["actions"])
    assert [player["username"] for player in answer["players"]] == [
        game.rated_game.changes.get(seat=seat).user.username for seat in (0, 1)
    ]
    assert _client(stranger).get(url).status_code == 403
    assert _client().get(url).status_code == 403
    assert _client(anna).get(url + "?budget=deep").status_code == 404
    assert _client(anna).get(url + "?budget=forever").status_code == 400
    assert _client(anna).get("/review/game/999999/analysis.json").status_code == 404


def test_a_running_game_has_no_analysis(search: FakeSearch, queued: list[int]) -> None:
    anna, boris = person(), person()
    at = table(anna, turn_seconds=3600)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = latest_game(at)
    assert _client(anna).get(f"/review/game/{game.pk}/analysis.json").status_code == 409
    fragment = _client(anna, "ru").post(f"/review/game/{game.pk}/analyse/", HTTP_HX_REQUEST="true")
    assert fragment["X-Refused-Status"] == "409"
    assert "Партию разбирают, когда она окончена: эта ещё идёт." in fragment.content.decode()
    assert not GameAnalysis.objects.exists() and search.calls == []


def test_the_finished_games_page_offers_its_players_the_analysis(search: FakeSearch, queued: list[int]) -> None:
    anna, boris, stranger = person(), person(), person()
    game, _ = finished_game([anna, boris], loser=1)
    page = _client(anna).get(f"/play/game/{game.pk}/").content.decode()
    assert 'data-part="analysis-panel"' in page and f'action="/review/game/{game.pk}/analyse/"' in page
    assert "Analyse the game" in page and f'data-socket="/ws/analysis/{game.pk}/"' in page
    assert 'data-part="analysis-panel"' not in _client(stranger).get(f"/play/game/{game.pk}/").content.decode()
    assert _client(anna).post(f"/review/game/{game.pk}/analyse/").status_code == 302
    russian = _client(anna, "ru").get(f"/play/game/{game.pk}/").content.decode()
    assert "Идёт разбор: 0 из" in russian and "Разобрать партию" not in russian
    tasks.analyse_game(GameAnalysis.objects.get(game=game).pk)
    done = _client(anna).get(f"/play/game/{game.pk}/").content.decode()
    assert "The analysis is done." in done and f"/review/game/{game.pk}/analysis.json?budget=default" in done
    running = table(anna, turn_seconds=3600)
    game_services.table_join(table=running, user=anna)
    game_services.table_join(table=running, user=boris)
    playing = latest_game(running)
    assert 'data-part="analysis-panel"' not in _client(anna).get(f"/play/game/{playing.pk}/").content.decode()


def test_the_replay_offers_the_analysis_to_its_players_and_draws_it_once_stored(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris, stranger = person(), person(), person()
    game, _ = finished_game([anna, boris])  # played out, so that there are decisions to mark
    url = f"/play/game/{game.pk}/replay/"
    page = _client(anna).get(url).content.decode()
    assert f'action="/review/game/{game.pk}/analyse/"' in page and 'data-part="chart"' not in page
    assert f"/review/game/{game.pk}/analyse/" not in _client(stranger).get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        _client(anna).post(f"/review/game/{game.pk}/analyse/", {"budget": "default"})
    tasks.analyse_game(queued[0])
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == AnalysisStatus.DONE
    page = _client(stranger).get(url).content.decode()  # a stored analysis is drawn for whoever sees the replay
    assert 'data-part="chart"' in page and 'data-part="accuracy"' in page
    # The fake search marks seat 1's decisions at every fourth ply from 1: its first mark is linked.
    first = next(item["ply"] for item in (analysis.result or {"decisions": []})["decisions"] if item["mark"])
    assert f'href="?move={first}" data-part="first-marked"' in page
