"""Requested avoidances through the services and the director's page: added and removed with a reason in the
log, refused when forged (an entrant and himself, an entrant of another tournament, a stranger), kept by the
pairing of a real tournament, and stated in the round's explanation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments import services
from tournaments.models import AuditAction, AuditEntry, Avoidance, Entrant, Format, Pairing, Seating, Tournament
from tournaments.services import avoidances

pytestmark = pytest.mark.django_db


def _text(response: object) -> str:
    html = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _entrants(event: Tournament) -> list[Entrant]:
    return list(Entrant.objects.filter(tournament=event).select_related("user").order_by("number"))


def _boards(event: Tournament, number: int) -> set[frozenset[int]]:
    return {
        frozenset(seat.entrant_id for seat in pairing.seats.all())
        for pairing in Pairing.objects.filter(tournament=event, round__number=number, bye=False).prefetch_related(
            "seats"
        )
    }


def test_an_avoidance_is_logged_with_its_reason_and_removed_with_another() -> None:
    chief = director()
    event = tournament(chief, rounds=3)
    enter(event, bots(4))
    first, second = _entrants(event)[:2]
    avoidance = avoidances.avoidance_add(tournament=event, first=second, second=first, by=chief, reason="brothers")
    assert (avoidance.first, avoidance.second) == (first, second), "stored in the entrants' order"
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.AVOIDANCE_ADDED)
    assert (
        entry.reason == "brothers"
        and entry.actor == chief
        and first.key in entry.subject
        and second.key in entry.subject
    )
    with pytest.raises(ValidationError):
        avoidances.avoidance_add(tournament=event, first=first, second=second, by=chief, reason="again")
    with pytest.raises(ValidationError):
        avoidances.avoidance_remove(avoidance=avoidance, by=chief, reason="  ")
    avoidances.avoidance_remove(avoidance=avoidance, by=chief, reason="not brothers after all")
    assert not Avoidance.objects.exists()
    removed = AuditEntry.objects.get(tournament=event, action=AuditAction.AVOIDANCE_REMOVED)
    assert removed.reason == "not brothers after all" and first.key in removed.subject


def test_the_service_refuses_himself_another_tournament_a_stranger_and_a_round_robin() -> None:
    chief = director()
    event, other = tournament(chief, rounds=3), tournament(chief, rounds=3)
    enter(event, bots(3))
    enter(other, bots(2))
    mine, theirs = _entrants(event), _entrants(other)
    refused: list[dict[str, Any]] = [
        dict(first=mine[0], second=mine[0], by=chief, reason="x"),
        dict(first=mine[0], second=theirs[0], by=chief, reason="x"),
        dict(first=mine[0], second=mine[1], by=person(), reason="x"),
        dict(first=mine[0], second=mine[1], by=chief, reason=""),
    ]
    for arguments in refused:
        with pytest.raises(ValidationError):
            avoidances.avoidance_add(tournament=event, **arguments)
    robin = tournament(chief, format=Format.ROUND_ROBIN)
    enter(robin, bots(2))
    with pytest.raises(ValidationError):
        avoidances.avoidance_add(
            tournament=robin, first=_entrants(robin)[0], second=_entrants(robin)[1], by=chief, reason="x"
        )
    assert not Avoidance.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditAction.AVOIDANCE_ADDED).exists()


def test_a_real_swiss_keeps_the_pair_apart_and_its_round_says_so() -> None:
    """Four bots: round 1 pairs 1 v 3 and 2 v 4 by rating. Without the avoidance the first and third meet
    (shown in a twin tournament); with it they do not, and the round's page and log say it was kept apart."""
    chief = director()
    players = bots(4)
    twin, event = tournament(chief, rounds=1), tournament(chief, rounds=1)
    for one in (twin, event):
        enter(one, players)
    ranked = sorted(_entrants(event), key=lambda entrant: (-entrant.rating, entrant.number))
    twin_ranked = sorted(_entrants(twin), key=lambda entrant: (-entrant.rating, entrant.number))
    services.tournament_start(tournament=twin, by=chief)
    assert frozenset({twin_ranked[0].pk, twin_ranked[2].pk}) in _boards(twin, 1)
    avoidances.avoidance_add(tournament=event, first=ranked[0], second=ranked[2], by=chief, reason="one club")
    services.tournament_start(tournament=event, by=chief)
    assert frozenset({ranked[0].pk, ranked[2].pk}) not in _boards(event, 1)
    paired = AuditEntry.objects.get(tournament=event, action=AuditAction.ROUND_PAIRED, round_number=1)
    assert len(paired.details["avoidances"]["kept_apart"]) == 1
    client = Client()
    text = _text(client.get(reverse("tournaments:round", args=[event.pk, 1])))
    name = ranked[0].user.public_name
    assert f"{ranked[0].key} {name}" in text and "they are kept apart as the director asked" in text
    assert "kept apart" not in _text(client.get(reverse("tournaments:round", args=[twin.pk, 1])))
    client.cookies["django_language"] = "ru"
    assert "разведены, как просил судья" in _text(client.get(reverse("tournaments:log", args=[event.pk])))
    play_games(event)


def test_a_table_round_that_cannot_part_them_seats_them_and_says_so() -> None:
    """Three at tables of three: one table, so the avoidance has to break; the round page says they meet."""
    chief = director()
    event = tournament(chief, rounds=1, seating=Seating.TABLES, table_size=3)
    enter(event, bots(3))
    first, second, _ = _entrants(event)
    avoidances.avoidance_add(tournament=event, first=first, second=second, by=chief, reason="a family")
    services.tournament_start(tournament=event, by=chief)
    text = _text(Client().get(reverse("tournaments:round", args=[event.pk, 1])))
    assert "no pairing of this round could do it: they meet" in text


def test_the_directors_page_adds_from_lists_and_refuses_forged_forms(client: Client) -> None:
    chief = director()
    event, other = tournament(chief, rounds=3), tournament(chief, rounds=3)
    enter(event, bots(3))
    enter(other, bots(2))
    client.force_login(chief)
    page = client.get(reverse("tournaments:direct", args=[event.pk])).content.decode()
    mine = _entrants(event)
    for entrant in mine:  # chosen from lists, by name: nothing to type
        assert f'<option value="{entrant.pk}">{entrant.key} · {entrant.user.public_name}</option>' in page
    add = reverse("tournaments:avoidance-add", args=[event.pk])
    forged = [
        {"first": mine[0].pk, "second": mine[0].pk, "reason": "x"},
        {"first": mine[0].pk, "second": _entrants(other)[0].pk, "reason": "x"},
        {"first": mine[0].pk, "second": "not-a-number", "reason": "x"},
        {"first": mine[0].pk, "second": mine[1].pk, "reason": ""},
    ]
    for data in forged:
        response = client.post(add, data, follow=True)
        assert response.status_code == 200
        assert "alert" in response.content.decode() or "error" in response.content.decode()
    assert not Avoidance.objects.exists()
    client.cookies["django_language"] = "ru"
    response = client.post(add, {"first": mine[0].pk, "second": mine[0].pk, "reason": "x"}, follow=True)
    assert "Выберите двух разных участников" in _text(response)
    response = client.post(add, {"first": mine[0].pk, "second": mine[2].pk, "reason": "один клуб"}, follow=True)
    assert Avoidance.objects.filter(tournament=event).count() == 1
    assert "один клуб" in _text(response)
    avoidance = Avoidance.objects.get()
    gone = client.post(reverse("tournaments:avoidance-remove", args=[other.pk, avoidance.pk]), {"reason": "x"})
    assert gone.status_code == 404, "an avoidance of another tournament is not found through this one"
    client.post(reverse("tournaments:avoidance-remove", args=[event.pk, avoidance.pk]), {"reason": ""})
    assert Avoidance.objects.exists(), "no reason, no removal"
    client.post(reverse("tournaments:avoidance-remove", args=[event.pk, avoidance.pk]), {"reason": "ошибка"})
    assert not Avoidance.objects.exists()


def test_a_heads_up_round_whose_only_pairing_breaks_the_avoidance_pairs_them_and_the_log_says_so(
    client: Client,
) -> None:
    """Two entrants who avoid each other and nobody else: the round pairs them, and says so in both languages."""
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(2))
    first, second = _entrants(event)
    avoidances.avoidance_add(tournament=event, first=first, second=second, by=chief, reason="a family")
    services.tournament_start(tournament=event, by=chief)
    assert _boards(event, 1) == {frozenset({first.pk, second.pk})}
    paired = AuditEntry.objects.get(tournament=event, action=AuditAction.ROUND_PAIRED, round_number=1)
    assert paired.details["avoidances"]["broken"] == [
        [f"{first.key} {first.user.public_name}", f"{second.key} {second.user.public_name}"]
    ]
    assert "no pairing of this round could do it: they meet" in _text(
        client.get(reverse("tournaments:log", args=[event.pk]))
    )
    client.cookies["django_language"] = "ru"
    assert "ни одна жеребьёвка этого тура не позволила их развести" in _text(
        client.get(reverse("tournaments:round", args=[event.pk, 1]))
    )
