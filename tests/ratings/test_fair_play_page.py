"""The fair-play review page: for tournament directors only, listing the accounts the signals point at."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.roles import Role
from accounts.services import user_role_grant
from ratings import elo
from ratings.models import RatingPool
from ratings.services import rating_apply_game
from tests.games.factories import person

pytestmark = pytest.mark.django_db


def _trading_pair() -> tuple[str, str]:
    pool = RatingPool.objects.filter(min_players__lte=2, max_players__gte=2).order_by("position").first()
    assert pool is not None
    feeder, receiver = person("feeder"), person("receiver")
    for number in range(12):
        rating_apply_game(
            pool=pool, game_key=f"test:{number}", players=[receiver, feeder],
            outcome=elo.Outcome(places=((0,), (1,))), played_at=timezone.now(),
        )  # fmt: skip
    return feeder.public_name, receiver.public_name


def test_a_director_sees_the_pair_that_trades_games() -> None:
    feeder, receiver = _trading_pair()
    director = person("director")
    user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
    client = Client()
    client.force_login(director)

    page = client.get(reverse("ratings:fair-play")).content.decode()
    assert "Often play each other" in page
    assert feeder in page and receiver in page
    assert "games_together=12" in page

    director.preferred_language = "ru"
    director.save(update_fields=["preferred_language"])
    client.cookies.load({"django_language": "ru"})
    russian = client.get(reverse("ratings:fair-play")).content.decode()
    assert "Часто играют друг с другом" in russian


def test_a_quiet_site_has_nothing_to_review() -> None:
    director = person("director")
    user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
    client = Client()
    client.force_login(director)
    response = client.get(reverse("ratings:fair-play"), {"days": "30"})
    assert response.status_code == 200
    assert "Nothing to review." in response.content.decode()


def test_players_and_visitors_may_not_see_it() -> None:
    _trading_pair()
    anonymous = Client().get(reverse("ratings:fair-play"))
    assert anonymous.status_code == 403
    client = Client()
    client.force_login(person("someone"))
    response = client.get(reverse("ratings:fair-play"))
    assert response.status_code == 403
    assert "feeder" not in response.content.decode()
