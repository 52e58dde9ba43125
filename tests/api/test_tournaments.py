"""The tournament endpoints: reads for anyone, writes for players and directors with the services' checks and
audit log; a non-director's writes are refused (403) and change nothing."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments.models import AuditAction, AuditEntry, Entrant, Pairing, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def test_only_directors_create_tournaments() -> None:
    body = {"name": "Spring Cup", "starts_at": (timezone.now() + datetime.timedelta(hours=2)).isoformat(),
            "rules": {"preset": "podkidnoy"}, "rounds": 3}
    refused = token_client(person("anna")).post("/api/v1/tournaments/", body, format="json")
    assert refused.status_code == 403 and not Tournament.objects.exists()
    assert APIClient().post("/api/v1/tournaments/", body, format="json").status_code in (401, 403)

    boss = director("boss")
    made = token_client(boss).post("/api/v1/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["director"] == "boss" and made.json()["rounds_planned"] == 3
    assert AuditEntry.objects.filter(tournament_id=made.json()["id"], action=AuditAction.CREATED, actor=boss).exists()
    bad = token_client(boss).post("/api/v1/tournaments/", {**body, "rounds": 3, "format": "round-robin",
                                                            "seating": "tables"}, format="json")
    assert bad.status_code == 400


def test_players_register_and_withdraw_and_only_the_director_enters_others_and_starts() -> None:
    boss = director("boss")
    event = tournament(boss, rounds=2)
    anna, boris = person("anna"), person("boris")
    anna_client = token_client(anna)
    entered = anna_client.post(f"/api/v1/tournaments/{event.pk}/register/", {}, format="json")
    assert entered.status_code == 201 and entered.json()["player"]["username"] == "anna"
    assert anna_client.post(f"/api/v1/tournaments/{event.pk}/register/", {"username": "boris"},
                            format="json").status_code == 403
    assert not Entrant.objects.filter(user=boris).exists()
    assert anna_client.post(f"/api/v1/tournaments/{event.pk}/start/").status_code == 403
    assert Tournament.objects.get(pk=event.pk).status == TournamentStatus.REGISTRATION

    boss_client = token_client(boss)
    assert boss_client.post(f"/api/v1/tournaments/{event.pk}/register/", {"username": "boris", "reason": "invited"},
                            format="json").status_code == 201
    enter(event, bots(2))
    assert token_client(boris).post(f"/api/v1/tournaments/{event.pk}/withdraw/", {}, format="json").status_code == 200
    entrants = APIClient().get(f"/api/v1/tournaments/{event.pk}/entrants/").json()
    assert [entrant["id"] for entrant in entrants][0] == "e1" and len(entrants) >= 3

    started = boss_client.post(f"/api/v1/tournaments/{event.pk}/start/")
    assert started.status_code == 200 and started.json()["status"] == TournamentStatus.RUNNING
    rounds = APIClient().get(f"/api/v1/tournaments/{event.pk}/rounds/").json()
    assert rounds[0]["number"] == 1 and rounds[0]["pairings"]


def test_standings_rounds_and_export_as_json_and_csv_and_adjudication_by_the_director_only() -> None:
    boss = director("boss")
    event = tournament(boss, rounds=1)
    enter(event, bots(4))
    token_client(boss).post(f"/api/v1/tournaments/{event.pk}/start/")
    play_games(event)
    client = APIClient()
    standings = client.get(f"/api/v1/tournaments/{event.pk}/standings/").json()
    assert len(standings) == 4 and standings[0]["rank"] == 1 and "buchholz" in standings[0]["tiebreaks"]
    as_csv = client.get(f"/api/v1/tournaments/{event.pk}/standings/?format=csv")
    assert as_csv["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert [row["entrant"] for row in rows] == [row["entrant"] for row in standings]
    exported = client.get(f"/api/v1/tournaments/{event.pk}/export/").json()
    assert exported["format"] == "swiss" and len(exported["entrants"]) == 4 and exported["rounds"][0]["pairings"]

    pairing = Pairing.objects.filter(tournament=event, bye=False).first()
    assert pairing is not None
    url = f"/api/v1/tournaments/{event.pk}/pairings/{pairing.pk}/result/"
    outsider = token_client(person("anna")).post(url, {"points": [0, 1], "reason": "I say so"}, format="json")
    assert outsider.status_code == 403
    no_reason = token_client(boss).post(url, {"points": [0, 1], "reason": " "}, format="json")
    assert no_reason.status_code == 400
    decided = token_client(boss).post(url, {"points": [0, 1], "reason": "seat 0 left the hall"}, format="json")
    assert decided.status_code == 200, decided.content
    assert [seat["points"] for seat in decided.json()["seats"]] == [0, 1]
    version = decided.json()["version"]
    # A decision taken on an older version of the pairing is refused and changes nothing.
    stale = token_client(boss).post(url, {"points": [1, 0], "reason": "late", "version": version - 1}, format="json")
    assert stale.status_code == 400 and "changed after you looked at it" in stale.content.decode()
    pairing.refresh_from_db()
    assert pairing.version == version
    audit = client.get(f"/api/v1/tournaments/{event.pk}/audit/").json()["results"]
    assert audit[0]["action"] == AuditAction.RESULT_SET and audit[0]["reason"] == "seat 0 left the hall"
    assert audit[0]["actor"] == "boss"

    forfeit_url = f"/api/v1/tournaments/{event.pk}/pairings/{pairing.pk}/forfeit/"
    keys = [seat.entrant.key for seat in pairing.seats.select_related("entrant")]
    assert token_client(person("vera")).post(forfeit_url, {"entrants": keys[:1], "reason": "r"},
                                             format="json").status_code == 403
    assert token_client(boss).post(forfeit_url, {"entrants": ["e999"], "reason": "r"}, format="json").status_code == 400
    forfeited = token_client(boss).post(forfeit_url, {"entrants": keys[:1], "reason": "no-show"}, format="json")
    assert forfeited.status_code == 200 and forfeited.json()["seats"][0]["forfeited"] is True

    listed = client.get("/api/v1/tournaments/?status=finished").json()
    assert [item["id"] for item in listed["results"]] == [event.pk]
    assert client.get("/api/v1/tournaments/?status=nonsense").status_code == 400
    assert client.get("/api/v1/tournaments/999999/standings/").status_code == 404
