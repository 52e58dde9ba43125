"""manage.py export_trf: a played Swiss written as a TRF that reads back to its pairings and scores."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import bots, director, enter, play_games, tournament
from tournaments import services
from tournaments.models import Entrant, Pairing, Seating
from tournaments.pairing.swiss import pairing_numbers
from tournaments.pairing.trf import read_trf

pytestmark = pytest.mark.django_db


def test_a_played_round_is_exported(tmp_path: Path) -> None:
    chief = director()
    event = tournament(chief, name="TRF Cup", rounds=3, games_per_pairing=1, round_interval=0)
    enter(event, bots(5))
    services.tournament_start(tournament=event, by=chief)
    out = io.StringIO()
    call_command("export_trf", str(event.pk), stdout=out)
    during = read_trf(out.getvalue())
    assert all(player.games == () for player in during.players)  # round 1 still being played: left out
    play_games(event)

    call_command("export_trf", str(event.pk), out=tmp_path / "cup.trf")
    raw = (tmp_path / "cup.trf").read_bytes().decode("utf-8")
    assert raw.startswith("012 TRF Cup\r\nXXR 3\r\nXXC white1\r\n") and raw.endswith("\r\n")
    exported = read_trf(raw)
    entrants = {entrant.key: entrant for entrant in Entrant.objects.filter(tournament=event).select_related("user")}
    numbers = pairing_numbers({key: entrant.rating for key, entrant in entrants.items()})
    by_number = {player.number: player for player in exported.players}
    assert sorted(by_number) == [1, 2, 3, 4, 5]
    event.refresh_from_db()  # its current round, which the standings count up to
    ranks = {standing.entrant: standing.rank for standing in services.standings_compute(tournament=event)}
    for key, entrant in entrants.items():
        assert by_number[numbers[key]].name == entrant.user.public_name
        assert by_number[numbers[key]].rank == ranks[key]  # the standings' (shared) ranks
    for pairing in Pairing.objects.filter(tournament=event).prefetch_related("seats__entrant"):
        seats = sorted(pairing.seats.all(), key=lambda seat: seat.position)
        player = by_number[numbers[seats[0].entrant.key]]
        (game,) = player.games
        if pairing.bye:
            assert (game.opponent, game.colour, game.result) == (None, "-", "U")
        else:
            # Seat 0 attacked first: white, and his opponent black.
            assert game.opponent == numbers[seats[1].entrant.key] and game.colour == "w"
            assert by_number[game.opponent].games[0].colour == "b"
    assert sum(player.points for player in exported.players) == pytest.approx(sum(
        float(seat.points or 0) for pairing in Pairing.objects.filter(tournament=event) for seat in pairing.seats.all()
    ))  # fmt: skip


def test_unknown_and_table_tournaments_are_refused() -> None:
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_trf", "999999", stdout=io.StringIO())
    event = tournament(director(), seating=Seating.TABLES, table_size=3)
    with pytest.raises(CommandError, match="heads-up"):
        call_command("export_trf", str(event.pk), stdout=io.StringIO())


def test_the_tournament_page_offers_the_trf_and_the_download_reads_back(client: Client) -> None:
    chief = director()
    event = tournament(chief, name="Кубок TRF", rounds=2, games_per_pairing=1, round_interval=0)
    enter(event, bots(4))
    services.tournament_start(tournament=event, by=chief)
    play_games(event)
    url = reverse("tournaments:export-trf", args=[event.pk])
    assert url in client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{event.pk}.trf"'
    text = response.content.decode("utf-8")
    assert text.startswith("012 Кубок TRF\r\n")
    exported = read_trf(text)
    assert len(exported.players) == 4 and all(len(player.games) == 1 for player in exported.players)
    # A tables tournament has no TRF: no link, and the address answers 404 in the reader's words.
    tables = tournament(chief, seating=Seating.TABLES, table_size=3)
    trf_url = reverse("tournaments:export-trf", args=[tables.pk])
    assert trf_url not in client.get(reverse("tournaments:detail", args=[tables.pk])).content.decode()
    assert client.get(trf_url, HTTP_ACCEPT_LANGUAGE="ru").status_code == 404
