"""Game review's services and task: who may ask, what is refused (a running game, a game the analysis does not
cover, past the daily allowance, in the reader's language), and that an analysis is stored once however often
it is asked for or run, at once or one after another."""

from __future__ import annotations

import datetime
import types
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts.roles import Role
from accounts.services import user_role_grant
from games import services as game_services
from games.models import Game
from games.selectors import game_record_json
from review import services, tasks
from review.models import AnalysisStatus, GameAnalysis, SeatAccuracy
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import finished_game
from tests.review.conftest import FakeSearch
from tests.review.fakes import fake_analysis

pytestmark = pytest.mark.django_db


def _finished(**options: Any) -> tuple[Any, Any, Game]:
    anna, boris = person(), person()
    game, _result = finished_game([anna, boris], **options)
    return anna, boris, game


def _refusal(call: Any) -> services.AnalysisRefused:
    with pytest.raises(services.AnalysisRefused) as refused:
        call()
    return refused.value


def test_a_player_asks_and_the_task_stores_the_analysis_with_each_seats_accuracy(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris, game = _finished()
    with django_capture_on_commit_callbacks(execute=True):
        analysis = services.analysis_request(user=anna, game=game)
    assert queued == [analysis.pk]
    assert (analysis.status, analysis.requested_by, analysis.budget) == (AnalysisStatus.QUEUED, anna, "default")
    assert analysis.progress_total == len(game.record["actions"])

    tasks.analyse_game(analysis.pk)
    analysis.refresh_from_db()
    expected = fake_analysis(game_record_json(game=game))
    assert analysis.status == AnalysisStatus.DONE and analysis.finished is not None
    assert analysis.result == expected.to_json() and analysis.accuracy == expected.accuracy()
    assert analysis.progress_done == analysis.progress_total == len(game.record["actions"])
    seats = list(SeatAccuracy.objects.filter(analysis=analysis).values_list("seat", "user_id", "accuracy"))
    assert seats == [(0, game.rated_game.changes.get(seat=0).user_id, expected.accuracy()[0]),
                     (1, game.rated_game.changes.get(seat=1).user_id, expected.accuracy()[1])]  # fmt: skip
    assert {user for _seat, user, _accuracy in seats} == {anna.pk, boris.pk}
    assert expected.accuracy()[0] == 100.0 and (expected.accuracy()[1] or 100.0) < 100.0  # the seats differ


def test_the_task_run_again_stores_nothing_twice(search: FakeSearch, queued: list[int]) -> None:
    anna, _boris, game = _finished(loser=1)
    analysis = services.analysis_request(user=anna, game=game)
    tasks.analyse_game(analysis.pk)
    first = GameAnalysis.objects.get(pk=analysis.pk)
    tasks.analyse_game(analysis.pk)
    again = GameAnalysis.objects.get(pk=analysis.pk)
    assert search.calls == [game.pk]  # the second run saw it done and did not search
    assert search.ended_early == [True]  # a finished game may have ended by a surrender, a flag or a decision
    assert (again.finished, again.result) == (first.finished, first.result)
    assert SeatAccuracy.objects.filter(analysis=analysis).count() == 2


def test_a_second_run_while_the_first_holds_the_row_does_nothing(search: FakeSearch, queued: list[int]) -> None:
    anna, _boris, game = _finished()
    analysis = services.analysis_request(user=anna, game=game)
    second: list[Any] = []

    def run_again(ply: int) -> None:
        if ply == 2:  # the first run is searching: a second delivery of the task arrives
            second.append(services.analysis_run(analysis_id=analysis.pk))
            second.append(GameAnalysis.objects.get(pk=analysis.pk).status)

    search.during = run_again
    stored = services.analysis_run(analysis_id=analysis.pk)
    assert second == [None, AnalysisStatus.RUNNING]
    assert stored is not None and stored.status == AnalysisStatus.DONE
    assert search.calls == [game.pk]
    assert SeatAccuracy.objects.filter(analysis=analysis).count() == 2


def test_a_run_that_lost_the_row_to_another_stores_nothing(search: FakeSearch, queued: list[int]) -> None:
    """A run past the time limit is taken over; when the first run ends after all, its result is not stored
    over the one that holds the row now."""
    anna, _boris, game = _finished()
    analysis = services.analysis_request(user=anna, game=game)

    def taken_over(ply: int) -> None:
        if ply == 0:
            GameAnalysis.objects.filter(pk=analysis.pk).update(run_token="another-run")

    search.during = taken_over
    assert services.analysis_run(analysis_id=analysis.pk) is None
    fresh = GameAnalysis.objects.get(pk=analysis.pk)
    assert fresh.status == AnalysisStatus.RUNNING and fresh.result is None
    assert not SeatAccuracy.objects.filter(analysis=analysis).exists()


def test_a_run_held_past_the_time_limit_is_taken_over(search: FakeSearch, queued: list[int]) -> None:
    anna, _boris, game = _finished(loser=0)
    analysis = services.analysis_request(user=anna, game=game)
    recently = datetime.timedelta(seconds=services.ANALYSIS_TIME_LIMIT_S - 60)
    from django.utils import timezone

    GameAnalysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.RUNNING, run_token="killed",
                                                       started=timezone.now() - recently)  # fmt: skip
    assert services.analysis_run(analysis_id=analysis.pk) is None and search.calls == []
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        started=timezone.now() - datetime.timedelta(seconds=services.ANALYSIS_TIME_LIMIT_S + 1)
    )
    stored = services.analysis_run(analysis_id=analysis.pk)
    assert stored is not None and stored.status == AnalysisStatus.DONE and search.calls == [game.pk]


def test_two_requests_store_one_analysis_and_queue_one_task(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris, game = _finished(loser=0)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.analysis_request(user=anna, game=game)
    with django_capture_on_commit_callbacks(execute=True):
        second = services.analysis_request(user=boris, game=game)
    assert first.pk == second.pk and queued == [first.pk]
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert second.requested_by == anna  # boris's request returned anna's: counted against nobody else
    # Another budget is another analysis.
    with django_capture_on_commit_callbacks(execute=True):
        deep = services.analysis_request(user=boris, game=game, budget="deep")
    assert deep.pk != first.pk and queued == [first.pk, deep.pk]


def test_who_may_ask(search: FakeSearch, queued: list[int]) -> None:
    anna, _boris, game = _finished(loser=0)
    stranger, admin = person(), person()
    user_role_grant(user=admin, role=Role.ADMIN)
    assert _refusal(lambda: services.analysis_request(user=stranger, game=game)).status == 403
    assert _refusal(lambda: services.analysis_request(user=AnonymousUser(), game=game)).status == 403  # type: ignore[arg-type]
    assert not GameAnalysis.objects.exists()
    assert services.analysis_request(user=admin, game=game).requested_by == admin
    assert services.analysis_request(user=anna, game=game).requested_by == admin


def test_a_running_game_is_never_analysed(search: FakeSearch, queued: list[int]) -> None:
    anna, boris = person(), person()
    at = table(anna, turn_seconds=3600)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = latest_game(at)
    refused = _refusal(lambda: services.analysis_request(user=anna, game=game))
    assert refused.status == 409 and "still being played" in refused.messages[0]
    assert not GameAnalysis.objects.exists() and queued == [] and search.calls == []


def test_a_game_the_analysis_does_not_cover_is_refused(search: FakeSearch, queued: list[int]) -> None:
    anna, _boris, game = _finished(loser=0)
    search.covers = False
    refused = _refusal(lambda: services.analysis_request(user=anna, game=game))
    assert refused.status == 409 and not GameAnalysis.objects.exists()
    assert _refusal(lambda: services.analysis_request(user=anna, game=game, budget="forever")).status == 400


def test_the_daily_allowance_counts_new_analyses_only_and_says_so_in_the_readers_language(
    search: FakeSearch, queued: list[int], settings: Any
) -> None:
    settings.ANALYSES_PER_DAY = 2
    anna, boris = person(), person()
    games = [finished_game([anna, boris], loser=number % 2)[0] for number in range(3)]
    first = services.analysis_request(user=anna, game=games[0])
    services.analysis_request(user=anna, game=games[1])
    assert services.analysis_request(user=anna, game=games[0]).pk == first.pk  # a stored one: not counted
    with translation.override("en"):
        refused = _refusal(lambda: services.analysis_request(user=anna, game=games[2]))
    assert refused.status == 429
    assert refused.messages == ["You may ask for 2 new analyses a day; try again tomorrow."]
    with translation.override("ru"):
        russian = _refusal(lambda: services.analysis_request(user=anna, game=games[2]))
    assert russian.messages == ["Можно заказать не больше 2 новых разборов в день; попробуйте завтра."]
    assert GameAnalysis.objects.count() == 2
    # Boris has his own allowance; anna's comes back a day later.
    assert services.analysis_request(user=boris, game=games[2]).requested_by == boris
    from django.utils import timezone

    GameAnalysis.objects.filter(requested_by=anna).update(created=timezone.now() - datetime.timedelta(hours=25))
    assert services.analysis_request(user=anna, game=games[2]).requested_by == boris  # stored: returned
    games.append(finished_game([anna, boris], loser=0)[0])
    assert services.analysis_request(user=anna, game=games[3]).requested_by == anna


def test_a_failed_analysis_is_stored_as_failed_and_queued_again_when_staff_ask(
    search: FakeSearch, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    anna, _boris, game = _finished(loser=0)
    with django_capture_on_commit_callbacks(execute=True):
        analysis = services.analysis_request(user=anna, game=game)
    search.failure = ValueError("the record is not over")
    tasks.analyse_game(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.FAILED and "not over" in analysis.error
    search.failure = None
    # A player is given the failed one (its failure would mostly repeat); staff may have it run again.
    with django_capture_on_commit_callbacks(execute=True):
        same = services.analysis_request(user=anna, game=game)
    assert same.status == AnalysisStatus.FAILED and queued == [analysis.pk]
    admin = person()
    user_role_grant(user=admin, role=Role.ADMIN)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.analysis_request(user=admin, game=game)
    assert again.pk == analysis.pk and again.status == AnalysisStatus.QUEUED and queued == [analysis.pk, analysis.pk]
    tasks.analyse_game(analysis.pk)
    assert GameAnalysis.objects.get(pk=analysis.pk).status == AnalysisStatus.DONE


def test_progress_is_written_and_told_at_most_every_half_second(
    search: FakeSearch, queued: list[int], monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    anna, _boris, game = _finished()
    analysis = services.analysis_request(user=anna, game=game)
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(services, "analysis_changed", lambda game_id, message: told.append(message))
    clock = iter(0.2 * step for step in range(1, 10_000))  # each decision takes 0.2 s of the fake search
    monkeypatch.setattr(services, "time", types.SimpleNamespace(monotonic=lambda: next(clock)))
    written: list[int] = []
    search.during = lambda ply: written.append(GameAnalysis.objects.get(pk=analysis.pk).progress_done)
    with django_capture_on_commit_callbacks(execute=True):  # the last message leaves after the result's commit
        services.analysis_run(analysis_id=analysis.pk)
    total = len(game.record["actions"])
    assert total > 12
    progress = [message["done"] for message in told if message["type"] == "analysis.progress"]
    assert progress[0] == 0 and progress[-1] == total  # running at 0, then the last decision
    assert progress == sorted(progress) and len(progress) <= 2 + total // 3  # every third decision at most
    assert all(later - earlier >= 3 for earlier, later in zip(progress[1:-1], progress[2:-1], strict=False))
    assert told[-1] == {"type": "analysis.done", "game": game.pk, "budget": "default", "status": "done",
                        "done": total, "total": total, "accuracy": told[-1]["accuracy"],
                        "url": f"/review/game/{game.pk}/analysis.json?budget=default"}  # fmt: skip
    assert set(written) == {0, *progress[1:-1]}  # what the row said while the search ran: the told counts
