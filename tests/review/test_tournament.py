"""A tournament that analyses every game queues each game's analysis as it finishes (counted against nobody);
its director may ask for and read the analyses of its games, a stranger may not."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from review import services, tasks
from review.models import AnalysisStatus, GameAnalysis
from tests.games.factories import person
from tests.review.conftest import FakeSearch
from tests.tournaments.factories import bots, director, enter, play_games, tournament
from tournaments import services as tournament_services
from tournaments.models import MatchGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_other_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commits run their callbacks here: every task but the analysis's (recorded by ``queued``) is dropped,
    the games' and the tournament's, which the helpers do themselves, and the notices'."""
    from durak_site.celery import DurakTask

    monkeypatch.setattr(DurakTask, "apply_async", lambda self, *args, **kwargs: None)


def _played(analyse_games: bool) -> tuple[Any, list[int]]:
    chief = director()
    event = tournament(chief, rounds=1, games_per_pairing=1, round_interval=0, analyse_games=analyse_games)
    enter(event, bots(4))
    tournament_services.tournament_start(tournament=event, by=chief)
    play_games(event)
    return chief, list(MatchGame.objects.filter(pairing__tournament=event).values_list("game_id", flat=True))


def test_a_tournament_that_analyses_every_game_queues_each_as_it_finishes(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        chief, games = _played(analyse_games=True)
    assert len(games) == 2
    analyses = list(GameAnalysis.objects.filter(game_id__in=games))
    assert sorted(analysis.game_id for analysis in analyses) == sorted(games)
    assert all(analysis.automatic and analysis.requested_by is None for analysis in analyses)
    assert sorted(queued) == sorted(analysis.pk for analysis in analyses)  # one task each, after the commit
    for analysis in analyses:
        tasks.analyse_game(analysis.pk)
    assert set(GameAnalysis.objects.values_list("status", flat=True)) == {AnalysisStatus.DONE}
    # Nobody's allowance was spent; the director's request returns the stored analysis.
    assert services.analysis_request(user=chief, game=analyses[0].game).pk == analyses[0].pk
    response = Client()
    response.force_login(chief)
    assert response.get(f"/review/game/{games[0]}/analysis.json").json()["status"] == "done"


def test_a_tournament_without_the_option_queues_nothing_and_its_director_may_ask(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        chief, games = _played(analyse_games=False)
    assert not GameAnalysis.objects.exists() and queued == []
    from games.models import Game

    game = Game.objects.get(pk=games[0])
    stranger = person()
    with pytest.raises(services.AnalysisRefused):
        services.analysis_request(user=stranger, game=game)
    with django_capture_on_commit_callbacks(execute=True):
        analysis = services.analysis_request(user=chief, game=game)
    assert analysis.requested_by == chief and queued == [analysis.pk]


def test_the_director_sets_the_option_on_the_create_form() -> None:
    chief = director()
    client = Client()
    client.force_login(chief)
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="analyse_games"' in page and "Analyse every game automatically" in page
