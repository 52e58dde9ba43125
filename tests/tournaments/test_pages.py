"""The tournament pages with Django's test client: the list with past winners, a tournament with its live
part, entering and taking one's seat, the rounds, crosstable, entrant and log pages, the CSV and JSON
exports, a director's new tournament and his acts (each logged, refused for anyone else)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments import services
from tournaments.models import (
    AuditAction, AuditEntry, Entrant, MatchGame, Pairing, PairingStatus, ResultKind, StandingRow, Tournament,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


def _text(response: object) -> str:
    html = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _finished_event() -> Tournament:
    chief = director()
    event = tournament(chief, rounds=1, name="Spring Cup")
    enter(event, bots(4))
    services.tournament_start(tournament=event, by=chief)
    play_games(event)
    event.refresh_from_db()
    return event


def test_the_list_shows_past_championships_with_their_winners(client: Client) -> None:
    event = _finished_event()
    upcoming = tournament(name="Summer Cup")
    text = _text(client.get(reverse("tournaments:list")))
    assert "Spring Cup" in text and "Summer Cup" in text
    winners = StandingRow.objects.filter(tournament=event, rank=1).select_related("entrant__user")
    assert any(row.entrant.user.public_name in text for row in winners)
    assert upcoming.name in _text(client.get(reverse("home")))


def test_a_tournament_page_shows_standings_pairings_and_links(client: Client) -> None:
    event = _finished_event()
    response = client.get(reverse("tournaments:detail", args=[event.pk]))
    assert response.status_code == 200
    text = _text(response)
    assert "Finished." in text and "Winner:" in text and "Standings" in text
    live = client.get(reverse("tournaments:live", args=[event.pk]))
    assert live.status_code == 200 and "<html" not in live.content.decode()
    for name, args in [("round", [event.pk, 1]), ("crosstable", [event.pk]), ("log", [event.pk]),
                       ("entrant", [event.pk, 1])]:  # fmt: skip
        assert client.get(reverse(f"tournaments:{name}", args=args)).status_code == 200, name
    assert client.get(reverse("tournaments:round", args=[event.pk, 9])).status_code == 404
    game = MatchGame.objects.filter(pairing__tournament=event).first()
    assert game is not None
    assert reverse("games:game-record", args=[game.game_id]) in client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()


def test_the_exports(client: Client) -> None:
    event = _finished_event()
    client.force_login(event.director)
    direct = client.get(reverse("tournaments:direct", args=[event.pk]) + "?round=1").content.decode()
    assert "Change this game's result" in direct and "/replay/" in direct
    response = client.get(reverse("tournaments:standings-csv", args=[event.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:6] == ["rank", "entrant", "name", "rating", "status", "points"]
    assert rows[0][6:] == list(event.tiebreaks) and len(rows) == 5
    exported = json.loads(client.get(reverse("tournaments:export", args=[event.pk])).content)
    assert exported["rounds_planned"] == 1 and len(exported["rounds"][0]["pairings"]) == 2
    assert [line["entrant"] for line in exported["standings"]] == [row[1] for row in rows[1:]]


def test_a_player_registers_takes_his_seat_and_is_sent_to_his_game(client: Client) -> None:
    chief = director()
    event = tournament(chief, rounds=1)
    anna = person()
    client.force_login(anna)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert 'id="register-button"' in page
    client.post(reverse("tournaments:register", args=[event.pk]))
    assert Entrant.objects.filter(tournament=event, user=anna).exists()
    assert 'id="withdraw-button"' in client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    enter(event, bots(1))
    services.tournament_start(tournament=event, by=chief)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert 'id="take-seat"' in page
    pairing = Pairing.objects.get(tournament=event)
    response = client.post(reverse("tournaments:check-in", args=[event.pk, pairing.pk]))
    game = MatchGame.objects.get(pairing=pairing)
    assert response["Location"] == reverse("games:game", args=[game.game_id])
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'data-follow="{reverse("games:game", args=[game.game_id])}"' in page
    # His profile tells him too.
    assert reverse("games:game", args=[game.game_id]) in client.get(reverse("accounts:profile")).content.decode()


def test_a_director_creates_a_tournament_and_others_may_not(client: Client) -> None:
    chief = director()
    client.force_login(person())
    assert client.get(reverse("tournaments:create")).status_code == 403
    client.force_login(chief)
    assert client.get(reverse("tournaments:create")).status_code == 200
    start = timezone.localtime(timezone.now() + datetime.timedelta(hours=2))
    form = {
        "name": "Autumn Swiss", "description": "", "preset": "podkidnoy", "deck": "36", "throw_in": "all",
        "first_bout_limit": "6", "format": "swiss", "rounds": "5", "seating": "heads-up", "table_size": "4",
        "team_size": "2", "games_per_pairing": "2", "points_win": "1", "points_draw": "0.5", "place_points": "",
        "tiebreaks": "", "registration_opens": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": start.strftime("%Y-%m-%dT%H:%M"), "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
        "round_interval": "60", "turn_seconds": "30", "grace_seconds": "300", "no_show": "forfeit",
        "bots_allowed": "on", "auto_advance": "on", "qualify_count": "0",
    }  # fmt: skip
    response = client.post(reverse("tournaments:create"), {**form, "starts_at": "nonsense"})
    assert response.status_code == 400 and not Tournament.objects.exists()
    response = client.post(reverse("tournaments:create"), form)
    event = Tournament.objects.get(name="Autumn Swiss")
    assert response["Location"] == reverse("tournaments:detail", args=[event.pk])
    assert event.games_per_pairing == 2 and event.director == chief


def test_director_acts_are_logged_and_refused_to_others(client: Client) -> None:
    chief = director()
    event = tournament(chief, rounds=2)
    anna, boris = person(), person()
    for player in (anna, boris):
        services.tournament_register(tournament=event, user=player)
    client.force_login(boris)
    assert client.get(reverse("tournaments:direct", args=[event.pk])).status_code == 403
    assert client.post(reverse("tournaments:act", args=[event.pk, "start"])).status_code == 403
    client.force_login(chief)
    assert client.get(reverse("tournaments:direct", args=[event.pk])).status_code == 200
    client.post(reverse("tournaments:act", args=[event.pk, "start"]))
    event.refresh_from_db()
    assert event.status == TournamentStatus.RUNNING
    pairing = Pairing.objects.get(tournament=event, round__number=1)
    page = client.get(reverse("tournaments:direct", args=[event.pk]) + "?round=1")
    assert page.status_code == 200 and 'name="outcome" value="draw"' in page.content.decode()
    # A reason is required; without one nothing changes.
    client.post(reverse("tournaments:act", args=[event.pk, "forfeit"]),
                {"pairing": pairing.pk, "forfeiting": [Entrant.objects.get(user=anna).pk]})
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.WAITING
    client.post(reverse("tournaments:act", args=[event.pk, "forfeit"]),
                {"pairing": pairing.pk, "forfeiting": [Entrant.objects.get(user=anna).pk], "reason": "Did not answer",
                 "version": 0})
    pairing.refresh_from_db()
    assert pairing.result_kind == ResultKind.FORFEIT
    client.post(reverse("tournaments:act", args=[event.pk, "set_result"]),
                {"pairing": pairing.pk, "points": "0.5 0.5", "reason": "Agreed draw after all", "version": 1})
    assert sorted(StandingRow.objects.filter(tournament=event).values_list("points", flat=True)) == [0.5, 0.5]
    client.post(reverse("tournaments:act", args=[event.pk, "pause"]), {"reason": "Lunch"})
    log = _text(client.get(reverse("tournaments:log", args=[event.pk])))
    assert "Did not answer" in log and "Agreed draw after all" in log and "Lunch" in log
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.RESULT_SET, actor=chief).exists()
    assert client.post(reverse("tournaments:act", args=[event.pk, "nonsense"])).status_code == 404


def test_two_directors_deciding_one_pairing_the_second_is_told_not_obeyed(client: Client) -> None:
    chief, deputy = director(), director()
    event = tournament(chief, rounds=2)
    anna, boris = person(), person()
    for player in (anna, boris):
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    pairing = Pairing.objects.get(tournament=event, round__number=1)
    page = reverse("tournaments:direct", args=[event.pk]) + "?round=1"
    # Both open the director's page: each form carries the version it shows.
    shown = []
    for who in (chief, deputy):
        client.force_login(who)
        found = re.search(
            rf'direct/board/{pairing.pk}/result/".*?name="version" value="(\d+)"', client.get(page).content.decode(), re.S
        )
        assert found is not None
        shown.append(int(found.group(1)))
    assert shown == [0, 0]
    act = reverse("tournaments:act", args=[event.pk, "set_result"])
    client.force_login(chief)
    client.post(act, {"pairing": pairing.pk, "points": "1 0", "reason": "Boris conceded", "version": shown[0]})
    client.force_login(deputy)
    answer = client.post(act, {"pairing": pairing.pk, "points": "0 1", "reason": "Anna left", "version": shown[1]},
                         follow=True)
    assert "changed after you looked at it" in _text(answer)
    # The same for a forfeit on the old version, and for a form without any version.
    forfeit = reverse("tournaments:act", args=[event.pk, "forfeit"])
    client.post(forfeit, {"pairing": pairing.pk, "forfeiting": [Entrant.objects.get(user=anna).pk],
                          "reason": "Anna left", "version": shown[1]})
    answer = client.post(act, {"pairing": pairing.pk, "points": "0 1", "reason": "Anna left"}, follow=True)
    assert "The form is incomplete" in _text(answer)
    pairing.refresh_from_db()
    assert list(pairing.seats.order_by("position").values_list("points", flat=True)) == [1.0, 0.0]  # the chief's
    assert pairing.result_kind == ResultKind.OVERRIDE and pairing.version == 1
    assert list(AuditEntry.objects.filter(tournament=event, action__in=[AuditAction.RESULT_SET, AuditAction.FORFEIT])
                .values_list("actor", flat=True)) == [chief.pk]
    # Seeing the new version, the deputy may decide again.
    client.post(act, {"pairing": pairing.pk, "points": "0.5 0.5", "reason": "Both agree", "version": 1})
    pairing.refresh_from_db()
    assert pairing.version == 2 and list(pairing.seats.values_list("points", flat=True)) == [0.5, 0.5]


def test_the_pages_are_in_russian_too(client: Client) -> None:
    event = _finished_event()
    client.cookies["django_language"] = "ru"
    text = _text(client.get(reverse("tournaments:detail", args=[event.pk])))
    assert "Турнирная таблица" in text and "Победитель" in text
    assert "Прошедшие чемпионаты" in _text(client.get(reverse("tournaments:list")))
