"""The create page on the server's side: a preset's card followed without JavaScript fills the form, the
tie-breaks are sent by name in order and stored as codes, errors of fields taken together land beside the
field to change (in the reader's language), and a Swiss qualifier creates its round-robin final with it."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import bots, director, enter, tournament
from tournaments import services
from tournaments.models import Format, Tournament, TournamentStatus
from tournaments.pairing import ROUND_ROBIN_ORDER

pytestmark = pytest.mark.django_db


def _local(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def _form(**changes: Any) -> dict[str, Any]:
    start = timezone.now() + datetime.timedelta(hours=2)
    form = {
        "name": "Autumn Swiss", "description": "", "preset": "podkidnoy", "deck": "36", "throw_in": "all",
        "first_bout_limit": "6", "format": "swiss", "rounds": "5", "seating": "heads-up", "table_size": "4",
        "team_size": "2", "games_per_pairing": "1", "points_win": "1", "points_draw": "0.5", "place_points": "",
        "registration_opens": _local(timezone.now()), "registration_closes": _local(start), "starts_at": _local(start),
        "round_interval": "60", "turn_seconds": "30", "grace_seconds": "300", "no_show": "forfeit",
        "bots_allowed": "on", "auto_advance": "on", "qualify_count": "0", "final_size": "0",
    }  # fmt: skip
    form.update(changes)
    return form


def _field_errors(html: str, name: str) -> str:
    """The error messages inside the field's own box (games/_field.html)."""
    box = re.search(
        rf'<div class="field[^"]*has-errors[^"]*">(?:(?!<div class="field).)*?name="{name}".*?</div>', html, re.S
    )
    return " ".join(re.findall(r'<p class="error" role="alert">([^<]*)</p>', box.group(0))) if box else ""


def test_a_presets_card_without_javascript_fills_the_form(client: Client) -> None:
    client.force_login(director())
    page = client.get(reverse("tournaments:create") + "?preset=qualifier").content.decode()
    assert 'name="rounds" value="5"' in page and 'name="final_size" value="4"' in page
    page = client.get(reverse("tournaments:create") + "?preset=blitz").content.decode()
    assert 'name="rounds" value="11"' in page and 'name="round_interval" value="30"' in page
    assert "a Swiss of many short rounds" in page, "the blitz card says it is a Swiss, not an arena"
    page = client.get(reverse("tournaments:create") + "?preset=no-such").content.decode()
    assert 'name="rounds" value="5"' in page  # an unknown preset is the plain form
    names = re.findall(r'<li class="tiebreak" data-code="(\w+)">', page)
    assert names[:2] == ["buchholz_cut1", "buchholz"] and "Buchholz cut 1" in page, "tie-breaks by name"


def test_tie_breaks_are_stored_in_the_order_sent_or_the_formats_own(client: Client) -> None:
    client.force_login(director())
    client.post(
        reverse("tournaments:create"), _form(name="Ordered", tiebreaks=["wins", "buchholz"], tiebreaks_custom="1")
    )
    assert Tournament.objects.get(name="Ordered").tiebreaks == ["wins", "buchholz"]
    # Left as shown (the Swiss list, whatever the format): the format's usual order.
    client.post(reverse("tournaments:create"), _form(name="Robin", format=Format.ROUND_ROBIN,
                                                     tiebreaks=["buchholz_cut1", "buchholz"], tiebreaks_custom="0"))  # fmt: skip
    assert Tournament.objects.get(name="Robin").tiebreaks == [tiebreak.value for tiebreak in ROUND_ROBIN_ORDER]
    for forged in (["wins", "wins"], ["wins", "shoe-size"]):
        response = client.post(
            reverse("tournaments:create"), _form(name="Forged", tiebreaks=forged, tiebreaks_custom="1")
        )
        assert response.status_code == 400 and not Tournament.objects.filter(name="Forged").exists()
        assert "tie-break" in response.content.decode()


def test_errors_of_fields_taken_together_are_shown_beside_the_field_in_the_readers_language(client: Client) -> None:
    client.force_login(director())
    response = client.post(
        reverse("tournaments:create"), _form(format=Format.ROUND_ROBIN, seating="tables", points_draw="2")
    )
    html = response.content.decode()
    assert response.status_code == 400 and not Tournament.objects.exists()
    assert "not at tables" in _field_errors(html, "seating")
    assert "worth more than a draw" in _field_errors(html, "points_draw")
    client.cookies["django_language"] = "ru"
    start = timezone.now() + datetime.timedelta(hours=2)
    html = client.post(
        reverse("tournaments:create"),
        _form(final_size="4", final_starts_at=_local(start - datetime.timedelta(hours=1))),
    ).content.decode()
    assert "Финал начинается после швейцарки." in _field_errors(html, "final_starts_at")
    assert not Tournament.objects.exists()


def test_a_swiss_qualifier_creates_its_round_robin_final_which_waits_for_it(client: Client) -> None:
    chief = director()
    client.force_login(chief)
    start = timezone.now() + datetime.timedelta(hours=2)
    final_at = start + datetime.timedelta(hours=3)
    response = client.post(
        reverse("tournaments:create"), _form(name="Spring Open", final_size="4", final_starts_at=_local(final_at))
    )
    qualifier = Tournament.objects.get(name="Spring Open")
    assert response["Location"] == reverse("tournaments:detail", args=[qualifier.pk])
    final = Tournament.objects.get(qualifier=qualifier)
    assert (final.format, final.qualify_count, final.seating, final.director) == (
        Format.ROUND_ROBIN,
        4,
        "heads-up",
        chief,
    )
    assert final.name == "Spring Open: final" and abs((final.starts_at - final_at).total_seconds()) < 60
    # The final's time comes while its qualifier still runs: it waits instead of being cancelled for want of players.
    running = tournament(chief, rounds=3)
    enter(running, bots(4))
    services.tournament_start(tournament=running, by=chief)
    waiting = tournament(chief, format=Format.ROUND_ROBIN, qualifier=running, qualify_count=3,
                         starts_at=timezone.now() + datetime.timedelta(minutes=1))  # fmt: skip
    services.tournament_start(tournament=waiting, now=timezone.now() + datetime.timedelta(minutes=5))
    waiting.refresh_from_db()
    assert waiting.status == TournamentStatus.REGISTRATION


def test_a_team_qualifier_gets_a_team_final_and_a_refused_final_leaves_nothing_behind() -> None:
    from django.core.exceptions import ValidationError

    from tournaments.services import presets

    chief = director()
    start = timezone.now() + datetime.timedelta(hours=1)
    qualifier, final = presets.tournament_create_staged(
        director=chief, name="Pairs Cup", starts_at=start, seating="teams", team_size=2, final_size=4,
        final_starts_at=start + datetime.timedelta(hours=4),
    )  # fmt: skip
    assert final is not None and (final.seating, final.team_size, final.rules) == ("teams", 2, qualifier.rules)
    with pytest.raises(ValidationError):
        presets.tournament_create_staged(director=chief, name="Too Big", starts_at=start, final_size=20,
                                         final_starts_at=start + datetime.timedelta(hours=4))  # fmt: skip
    assert not Tournament.objects.filter(name__startswith="Too Big").exists(), "the Swiss is not left without its final"
