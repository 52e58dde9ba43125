"""What the stored accuracies show: a player's accuracy by rating pool on his profile, and the fair-play page's
two accuracy signals (ratings.fairplay, pure, tested here without a database too). The display tests store
their analyses' rows directly: what is tested is what the pages read of them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.roles import Role
from accounts.services import user_role_grant
from ratings import fairplay
from ratings.fairplay import AccuracySample, Thresholds
from review.models import AnalysisStatus, GameAnalysis, SeatAccuracy
from review.selectors import accuracy_by_pool, game_players
from tests.games.factories import person
from tests.ratings.helpers import finished_game


def _samples(user: int, accuracies: list[float], *, rating: float = 1500.0, pool: int = 1) -> list[AccuracySample]:
    return [AccuracySample(user=user, pool=pool, rating=rating, accuracy=value, key=f"game:{user}{index}")
            for index, value in enumerate(accuracies)]  # fmt: skip


def test_accuracy_far_above_the_rating_band_is_flagged() -> None:
    peers = _samples(2, [60, 65, 55, 70, 62] * 2, rating=1520) + _samples(3, [58] * 5, rating=1480)
    strong = _samples(1, [88, 90, 85, 92, 87])
    flags = fairplay.accuracy_above_rating(strong + peers)
    assert [(flag.kind, flag.users) for flag in flags] == [(fairplay.ACCURACY_ABOVE_RATING, (1,))]
    assert flags[0].evidence["mean_accuracy"] == 88.4 and flags[0].evidence["band_games"] == 15
    # Peers rated far away are not his band; a pool is compared with itself only; too few games say nothing.
    assert fairplay.accuracy_above_rating(strong + _samples(2, [60] * 15, rating=1700)) == []
    assert fairplay.accuracy_above_rating(strong + _samples(2, [60] * 15, rating=1500, pool=2)) == []
    assert fairplay.accuracy_above_rating(strong[:4] + peers) == []
    # Within the margin: nothing.
    assert fairplay.accuracy_above_rating(_samples(1, [70] * 5) + peers) == []


def test_steady_high_accuracy_over_many_games_is_flagged() -> None:
    steady = _samples(1, [95, 96, 94, 95, 97, 95, 96, 94, 95, 96])
    flags = fairplay.steady_accuracy(steady)
    assert [(flag.kind, flag.users) for flag in flags] == [(fairplay.STEADY_ACCURACY, (1,))]
    assert fairplay.steady_accuracy(steady[:9]) == []  # too few games
    assert fairplay.steady_accuracy(_samples(1, [95, 80, 99, 85, 97, 90, 99, 84, 96, 99])) == []  # people vary
    assert fairplay.steady_accuracy(_samples(1, [70] * 12)) == []  # steady but ordinary
    # review() passes the accuracies on beside the other signals.
    assert [flag.kind for flag in fairplay.review([], {}, Thresholds(), accuracies=steady)] == [fairplay.STEADY_ACCURACY]


def _analysed(anna: User, boris: User, accuracy: dict[User, float], games: int) -> list[int]:
    """``games`` rated games of anna and boris (one gives up at once), each analysed with these accuracies."""
    ids = []
    for number in range(games):
        game, _ = finished_game([anna, boris], loser=number % 2)
        players = game_players(game=game)
        users = {user.pk: user for user in (anna, boris)}
        per_seat = [accuracy[users[players[seat] or 0]] + (number % 3) * 0.5 for seat in range(2)]
        analysis = GameAnalysis.objects.create(game=game, budget="default", status=AnalysisStatus.DONE,
                                               accuracy=per_seat, result={"version": 1})  # fmt: skip
        SeatAccuracy.objects.bulk_create(
            SeatAccuracy(analysis=analysis, seat=seat, user_id=players[seat], accuracy=per_seat[seat]) for seat in range(2)
        )
        ids.append(game.pk)
    return ids


@pytest.mark.django_db
def test_the_profile_shows_accuracy_by_pool() -> None:
    anna, boris = person("anna"), person("boris")
    page = Client().get(reverse("ratings:player", args=["anna"])).content.decode()
    assert "No analysed rated games yet." in page
    _analysed(anna, boris, {anna: 80.0, boris: 60.0}, games=3)
    rows = accuracy_by_pool(user=anna)
    assert [(row.games, row.mean) for row in rows] == [(3, 80.5)]
    page = Client().get(reverse("ratings:player", args=["anna"])).content.decode()
    assert "Games analysed" in page and f"<td>{rows[0].pool.name}</td><td class=\"number\">3</td>" in page
    assert "80.5%" in page
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("ratings:player", args=["boris"])).content.decode()
    assert "Средняя точность" in russian and "60.5%" in russian.replace(",", ".")


@pytest.mark.django_db
def test_the_fair_play_page_shows_the_accuracy_signals_to_directors() -> None:
    anna, boris = person("anna"), person("boris")
    games = _analysed(anna, boris, {anna: 95.0, boris: 60.0}, games=10)
    director = person("director")
    user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("ratings:fair-play")).content.decode()
    assert "Accuracy far above his rating&#x27;s usual" in page and "Steady bot-like accuracy" in page
    assert "Accuracies read in analysed games: 20." in page
    assert page.count(anna.public_name) >= 2 and f"#{games[-1]}" in page
    # boris's accuracy is below his band's (anna's): no accuracy signal names him.
    from ratings.selectors import fair_play_review

    accuracy_flags = [flag for flag in fair_play_review().flags
                      if flag.kind in (fairplay.ACCURACY_ABOVE_RATING, fairplay.STEADY_ACCURACY)]  # fmt: skip
    assert sorted(flag.kind for flag in accuracy_flags) == [fairplay.ACCURACY_ABOVE_RATING, fairplay.STEADY_ACCURACY]
    assert all(flag.users == (anna.pk,) for flag in accuracy_flags)
    stranger = Client()
    stranger.force_login(boris)
    assert stranger.get(reverse("ratings:fair-play")).status_code == 403
