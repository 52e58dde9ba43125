"""Choosing a clock per player where a table or a tournament is made: the lobby's form, the API's table and
tournament create. Bad values get the service's errors beside their fields, in the reader's language, and
create nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from tests.api.conftest import token_client
from tests.games.factories import person
from tests.tournaments.factories import director as make_director

pytestmark = pytest.mark.django_db

VALID = {
    "name": "", "preset": "podkidnoy", "deck": "36", "players": "2", "throw_in": "all", "first_bout_limit": "6",
    "teams": "", "stake": "0", "turn_seconds": "30", "password": "",
}  # fmt: skip


def _client(language: str = "en") -> Client:
    client = Client()
    client.force_login(person())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _field_block(html: str, name: str) -> str:
    """The form's block of one field (_field.html), from its label to the end of its wrapper."""
    match = re.search(rf'<div class="field[^"]*">\s*<label for="id_{name}".*?</div>', html, re.S)
    assert match is not None, name
    return match.group(0)


def test_the_lobby_form_offers_the_clock_fields_under_their_choice() -> None:
    html = _client().get(reverse("games:play")).content.decode()
    assert '<select name="timing"' in html and 'data-timing-for="clock"' in html
    assert 'name="clock_base"' in html and 'name="clock_increment"' in html
    assert "games/clock_form.js" in html


def test_a_clock_table_is_created_with_its_base_and_increment() -> None:
    response = _client().post(
        reverse("games:table-create"),
        {**VALID, "timing": "clock", "clock_base": "1.5", "clock_increment": "2", "name": "Blitz"},
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Blitz")
    assert (table.clock_base, table.clock_increment) == (90, 2)
    page = _client().get(reverse("games:table", args=[table.pk])).content.decode()
    assert "clock 1.5+2" in page


def test_the_per_move_timer_ignores_the_clock_fields() -> None:
    response = _client().post(reverse("games:table-create"),
                              {**VALID, "timing": "turn", "clock_base": "999", "name": "Plain"})  # fmt: skip
    assert response.status_code == 302
    assert Table.objects.get(name="Plain").clock_base is None


@pytest.mark.parametrize(
    ("language", "values", "field", "message"),
    [
        ("en", {"clock_base": "0.25", "clock_increment": "2"}, "clock_base", "The base time is 30 seconds to 60 minutes."),
        ("en", {"clock_base": "61", "clock_increment": "0"}, "clock_base", "The base time is 30 seconds to 60 minutes."),
        ("en", {"clock_base": "3", "clock_increment": "61"}, "clock_increment", "The increment is 0 to 60 seconds a move."),
        ("en", {"clock_base": "", "clock_increment": "2"}, "clock_base", "Give each player's base time."),
        ("ru", {"clock_base": "0.25", "clock_increment": "2"}, "clock_base", "Основное время — от 30 секунд до 60 минут."),
        ("ru", {"clock_base": "3", "clock_increment": "-1"}, "clock_increment", "Добавка — от 0 до 60 секунд за ход."),
        ("ru", {"clock_base": "three", "clock_increment": "2"}, "clock_base", "Введите число."),
    ],
)  # fmt: skip
def test_bad_clock_values_are_refused_beside_their_fields_in_the_readers_language(
    language: str, values: dict[str, str], field: str, message: str
) -> None:
    response = _client(language).post(reverse("games:table-create"), {**VALID, "timing": "clock", **values})
    assert response.status_code == 400
    html = response.content.decode().replace("&#x27;", "'")
    assert message in _field_block(html, field)
    assert not Table.objects.exists()


def test_the_api_opens_a_clock_table_and_refuses_bad_values_by_field() -> None:
    client = token_client(person("anna"))
    made = client.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 2, "clock_base": 180,
                                           "clock_increment": 2}, format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert (made.json()["clock_base"], made.json()["clock_increment"]) == (180, 2)
    bad = client.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 2, "clock_base": 10},
                      format="json")  # fmt: skip
    assert bad.status_code == 400
    assert "30 seconds to 60 minutes" in bad.content.decode()
    assert Table.objects.count() == 1


def test_a_tournament_keeps_its_clock_and_refuses_a_bad_one() -> None:
    client = token_client(make_director("director"))
    starts = (timezone.now() + datetime.timedelta(hours=1)).isoformat()
    made = client.post("/api/v1/tournaments/", {"name": "Blitz cup", "starts_at": starts, "clock_base": 120,
                                                "clock_increment": 1}, format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert (made.json()["clock_base"], made.json()["clock_increment"]) == (120, 1)
    bad = client.post("/api/v1/tournaments/", {"name": "Bad cup", "starts_at": starts, "clock_base": 120,
                                               "clock_increment": 99}, format="json")  # fmt: skip
    assert bad.status_code == 400 and "0 to 60 seconds" in bad.content.decode()


def test_the_tournament_form_takes_a_clock_and_shows_its_errors_beside_the_fields() -> None:
    from tournaments.models import Tournament

    client = Client()
    client.force_login(make_director())
    page = client.get(reverse("tournaments:create")).content.decode()
    assert '<select name="timing"' in page and 'name="clock_base"' in page and "games/clock_form.js" in page
    start = timezone.localtime(timezone.now() + datetime.timedelta(hours=2))
    form = {
        "name": "Blitz Swiss", "description": "", "preset": "podkidnoy", "deck": "36", "throw_in": "all",
        "first_bout_limit": "6", "format": "swiss", "rounds": "3", "seating": "heads-up", "table_size": "4",
        "team_size": "2", "games_per_pairing": "1", "points_win": "1", "points_draw": "0.5", "place_points": "",
        "tiebreaks": "", "registration_opens": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": start.strftime("%Y-%m-%dT%H:%M"), "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
        "round_interval": "60", "turn_seconds": "30", "grace_seconds": "300", "no_show": "forfeit",
        "bots_allowed": "on", "auto_advance": "on", "qualify_count": "0", "timing": "clock",
    }  # fmt: skip
    refused = client.post(reverse("tournaments:create"), {**form, "clock_base": "0.1", "clock_increment": "0"})
    assert refused.status_code == 400 and not Tournament.objects.exists()
    assert "The base time is 30 seconds to 60 minutes." in _field_block(refused.content.decode(), "clock_base")
    made = client.post(reverse("tournaments:create"), {**form, "clock_base": "2", "clock_increment": "3"})
    assert made.status_code == 302
    event = Tournament.objects.get(name="Blitz Swiss")
    assert (event.clock_base, event.clock_increment) == (120, 3)
    detail = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "clock 2+3" in detail
