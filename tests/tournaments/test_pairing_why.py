"""The director's "Why this pairing?" fold on a round page: stored with each board when the round is paired
(``Pairing.explanation``), shown to the director in his language, never to a player or a visitor."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import bots, director, enter, person, tournament
from tournaments import services
from tournaments.models import Entrant, Pairing
from tournaments.services import avoidances

pytestmark = pytest.mark.django_db

FOLD_EN, FOLD_RU = "Why this pairing?", "Почему такая пара?"


def _text(response: Any) -> str:
    assert response.status_code == 200
    page = response.content.decode()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _name(entrant: Entrant) -> str:
    return f"{entrant.key} {entrant.user.public_name}"


def test_the_director_sees_why_each_board_was_paired_and_a_player_does_not(settings: Any) -> None:
    """Five entrants, the exact Dutch engine: round 1 pairs S1 v S2 in order and the fifth gets the bye. Each
    board's fold names its FIDE articles and its players, in English and Russian; a player and a visitor see
    the same page without the folds."""
    settings.TOURNAMENT_DUTCH_PAIRING = True
    chief = director()
    player = person()
    event = tournament(chief, rounds=3)
    enter(event, [player, *bots(4)])
    services.tournament_start(tournament=event, by=chief)
    pairings = list(Pairing.objects.filter(tournament=event, round__number=1).order_by("board"))
    assert [pairing.bye for pairing in pairings] == [False, False, True]
    first = pairings[0]
    codes = [fact["code"] for fact in first.explanation["facts"]]
    assert codes == ["bracket", "first_candidate", "E.5"]
    assert [fact["code"] for fact in pairings[2].explanation["facts"]] == ["bye"]
    seats = list(first.seats.select_related("entrant__user").order_by("position"))
    attacker = _name(seats[0].entrant)
    url = reverse("tournaments:round", args=[event.pk, 1])

    client = Client()
    client.force_login(chief)
    text = _text(client.get(url))
    assert text.count(FOLD_EN) == 3
    assert "C.04.3 B.3" in text and "the first candidate, nothing had to be changed" in text
    assert f"C.04.3 E.5 {attacker} attacks first: by the higher-ranked player's pairing number" in text
    assert "gets the bye: the field is odd" in text
    client.cookies["django_language"] = "ru"
    text = _text(client.get(url))
    assert text.count(FOLD_RU) == 3
    assert f"{attacker} ходит первым: по стартовому номеру" in text and "первый вариант" in text

    for reader in (player, None):
        other = Client()
        if reader is not None:
            other.force_login(reader)
        text = _text(other.get(url))
        assert seats[1].entrant.user.public_name in text, "the pairings are there"
        assert FOLD_EN not in text and "C.04.3" not in text and "attacks first:" not in text


def test_the_older_swiss_explains_only_what_the_avoidances_did(settings: Any) -> None:
    """The Swiss engine (setting off) has no brackets to tell; the boards an avoidance moved say so, the
    others have no fold."""
    settings.TOURNAMENT_DUTCH_PAIRING = False
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(4))
    ranked = sorted(Entrant.objects.filter(tournament=event).select_related("user"), key=lambda e: (-e.rating, e.number))
    avoidances.avoidance_add(tournament=event, first=ranked[0], second=ranked[2], by=chief, reason="one club")
    services.tournament_start(tournament=event, by=chief)
    explained = [pairing.explanation for pairing in Pairing.objects.filter(tournament=event, round__number=1)]
    assert all(fact["code"] == "avoid_kept" for board in explained for fact in board.get("facts", []))
    client = Client()
    client.force_login(chief)
    text = _text(client.get(reverse("tournaments:round", args=[event.pk, 1])))
    assert text.count(FOLD_EN) == sum(1 for board in explained if board)
    assert f"{_name(ranked[0])} would have met {_name(ranked[2])}; they are kept apart as the director asked" in text
