"""The entrants' pages (tournaments.views_entrants): the director's panel and search, his acts with forged or
stale input refused in words, the CSV preview and import, a private event's link, the player's check-in on
the tournament page and the list, and an invitation's sign-up."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.tournaments.factories import bot, director, enter, person, tournament
from tournaments.models import Attendance, Entrant, Invitation, Tournament
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


def _text(response: object) -> str:
    html = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _said(response: object) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]


def _directing() -> tuple[Tournament, Client]:
    chief = director()
    event = tournament(chief, name="Club Night")
    client = Client()
    client.force_login(chief)
    return event, client


def _act(event: Tournament, act: str) -> str:
    return reverse("tournaments:entrants-act", args=[event.pk, act])


def test_the_directors_page_has_the_entrants_panel_and_the_search_answers_with_names_and_ratings() -> None:
    event, client = _directing()
    page = client.get(reverse("tournaments:direct", args=[event.pk]))
    assert page.status_code == 200
    assert 'id="people-query"' in page.content.decode() and "Add the bots" in _text(page)
    anya = person("demo-anya")
    anya.display_name = "Anya Smirnova"
    anya.save()
    bot("anya-bot")
    answer = client.get(reverse("tournaments:people-search", args=[event.pk]), {"q": "anya"})
    html = answer.content.decode()
    assert answer.status_code == 200 and f'data-person="{anya.pk}"' in html and "unrated" in html
    assert "anya-bot" not in html
    assert "Nobody called" in _text(client.get(reverse("tournaments:people-search", args=[event.pk]), {"q": "zzz"}))
    outsider = Client()
    outsider.force_login(person())
    assert outsider.get(reverse("tournaments:people-search", args=[event.pk]), {"q": "anya"}).status_code == 403


def test_a_chosen_person_is_entered_by_id_and_a_forged_id_is_refused_in_words() -> None:
    event, client = _directing()
    anya = person("anya2")
    response = client.post(_act(event, "add_person"), {"person": anya.pk})
    assert response.status_code == 302 and Entrant.objects.filter(tournament=event, user=anya).exists()
    for forged in ("", "abc", "999999", str(bot().pk)):
        response = client.post(_act(event, "add_person"), {"person": forged})
        assert response.status_code == 302
        said = " ".join(_said(response))
        assert "Choose a person" in said or "cannot be found" in said, forged
    again = client.post(_act(event, "add_person"), {"person": anya.pk})
    assert "Already entered" in " ".join(_said(again))
    assert Entrant.objects.filter(tournament=event).count() == 1


def test_bots_are_added_in_one_act_and_a_bad_number_is_refused() -> None:
    event, client = _directing()
    response = client.post(_act(event, "add_bots"), {"count": "3", "level": "hard"})
    assert "Entered:" in " ".join(_said(response))
    assert Entrant.objects.filter(tournament=event, user__is_bot=True, user__bot_level="hard").count() == 3
    for data in ({"count": "x", "level": "hard"}, {"count": "500", "level": "hard"}, {"count": "2", "level": "god"}):
        said = _said(client.post(_act(event, "add_bots"), data))[-1]
        assert "Entered" not in said
    assert Entrant.objects.filter(tournament=event).count() == 3
    assert client.post(_act(event, "nothing")).status_code == 404


def test_a_csv_is_previewed_then_applied_and_a_malformed_one_is_explained_per_line() -> None:
    event, client = _directing()
    known = person("known")
    known.display_name = "Known Player"
    known.save()
    upload = SimpleUploadedFile("players.csv", "Имя;Рейтинг\nKnown Player;1600\nНовый Игрок\nBad;strong\n".encode("utf-8-sig"))
    preview = client.post(reverse("tournaments:import-preview", args=[event.pk]), {"file": upload})
    text = _text(preview)
    assert preview.status_code == 200
    assert "account Known Player" in text and "gets a link" in text and "is not a number" in text
    assert "To enter: 1; to invite: 1; left out: 1." in text
    assert not Entrant.objects.filter(tournament=event).exists()  # only a preview
    payload = re.search(r'<textarea name="players" hidden>(.*?)</textarea>', preview.content.decode(), re.S)
    assert payload is not None
    import html as html_module

    applied = client.post(_act(event, "import"), {"players": html_module.unescape(payload.group(1))})
    assert "Entered 1, invited 1, left out 1." in " ".join(_said(applied))
    assert Entrant.objects.get(tournament=event).user == known
    invitation = Invitation.objects.get(tournament=event)
    page = client.get(reverse("tournaments:direct", args=[event.pk])).content.decode()
    assert invitation.name in page and f"/tournaments/invitation/{invitation.token}/" in page
    unreadable = client.post(reverse("tournaments:import-preview", args=[event.pk]),
                             {"file": SimpleUploadedFile("x.csv", "Анна".encode("cp1251"))})
    assert unreadable.status_code == 302 and "not in UTF-8" in " ".join(_said(unreadable))


def test_a_private_event_shows_registration_only_with_its_link() -> None:
    event, client = _directing()
    client.post(_act(event, "code"), {"required": "1"})
    event.refresh_from_db()
    player = Client()
    player.force_login(person("guest1"))
    detail = reverse("tournaments:detail", args=[event.pk])
    plain = player.get(detail)
    assert "Registration is by invitation" in _text(plain) and 'id="register-form"' not in plain.content.decode()
    wrong = player.get(detail, {"code": "guess"})
    assert "not valid any more" in _text(wrong)
    refused = player.post(reverse("tournaments:register", args=[event.pk]), {"code": "guess"})
    assert "not valid" in " ".join(_said(refused)) and not Entrant.objects.filter(tournament=event).exists()
    linked = player.get(detail, {"code": event.registration_code})
    assert 'id="register-form"' in linked.content.decode()
    # The live part, redrawn without the query, still offers the form: the code is remembered.
    assert 'id="register-form"' in player.get(reverse("tournaments:live", args=[event.pk])).content.decode()
    player.post(reverse("tournaments:register", args=[event.pk]), {"code": event.registration_code})
    assert Entrant.objects.filter(tournament=event, user__username="guest1").exists()


def test_the_check_in_button_shows_on_the_tournament_page_and_the_list() -> None:
    chief = director()
    event = tournament(chief, name="Check Cup", starts_at=timezone.now() + datetime.timedelta(minutes=5))
    entrants.presence_set(tournament=event, by=chief, minutes=10)
    player = person("present")
    enter(event, [player])
    client = Client()
    client.force_login(player)
    assert f'id="presence-button-{event.pk}"' in client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'id="presence-button-{event.pk}"' in client.get(reverse("tournaments:list")).content.decode()
    response = client.post(reverse("tournaments:presence", args=[event.pk]), {"next": reverse("tournaments:list")})
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:list")
    assert Attendance.objects.get(entrant__user=player, round_number=1).present
    assert "Checked in for round 1" in _text(client.get(reverse("tournaments:detail", args=[event.pk])))
    stranger = Client()
    stranger.force_login(person())
    refused = stranger.post(reverse("tournaments:presence", args=[event.pk]))
    assert "not entered" in " ".join(_said(refused))


def test_the_director_marks_presence_and_a_foreign_entrant_is_not_found() -> None:
    event, client = _directing()
    entrants.presence_set(tournament=event, by=event.director, minutes=10)
    player = person("marked")
    enter(event, [player])
    entrant = Entrant.objects.get(tournament=event, user=player)
    missing_reason = client.post(_act(event, "mark"), {"entrant": entrant.pk, "present": "0", "reason": ""})
    assert "Say why" in " ".join(_said(missing_reason)) and not Attendance.objects.exists()
    client.post(_act(event, "mark"), {"entrant": entrant.pk, "present": "0", "reason": "went home"})
    assert not Attendance.objects.get(entrant=entrant).present
    other = tournament(director())
    assert client.post(_act(other, "mark"), {"entrant": entrant.pk, "present": "1", "reason": "x"}).status_code == 404


def test_an_invitation_link_signs_up_logs_in_and_enters_once() -> None:
    event, _client = _directing()
    invitation = entrants.players_import(tournament=event, data="Маша Петрова;;masha@example.com",
                                         by=event.director).invitations[0]
    url = reverse("tournaments:invitation", args=[invitation.token])
    visitor = Client()
    form = visitor.get(url)
    assert form.status_code == 200 and 'value="Маша Петрова"' in form.content.decode()
    assert 'value="masha@example.com"' in form.content.decode()
    bad = visitor.post(url, {"username": "masha", "email": "masha@example.com", "password1": "x", "password2": "y",
                             "preferred_language": "ru", "display_name": "Маша Петрова"})
    assert bad.status_code == 200 and not User.objects.filter(username="masha").exists()
    done = visitor.post(url, {"username": "masha", "email": "masha@example.com", "password1": "a-Long-passw0rd",
                              "password2": "a-Long-passw0rd", "preferred_language": "ru", "display_name": "Маша Петрова"})
    assert done.status_code == 302 and done["Location"] == reverse("tournaments:detail", args=[event.pk])
    masha = User.objects.get(username="masha")
    assert masha.display_name == "Маша Петрова" and Entrant.objects.filter(tournament=event, user=masha).exists()
    assert int(visitor.session["_auth_user_id"]) == masha.pk
    again = Client().post(url, {"username": "masha2", "email": "m2@example.com", "password1": "a-Long-passw0rd",
                                "password2": "a-Long-passw0rd", "preferred_language": "ru"})
    assert "used already" in _text(Client().get(url)) and not User.objects.filter(username="masha2").exists()
    assert again.status_code == 200
    assert Client().get(reverse("tournaments:invitation", args=["forged"])).status_code == 404


def test_the_round_and_the_crosstable_show_who_was_absent(client: Client) -> None:
    chief = director()
    event = tournament(chief, rounds=2, starts_at=timezone.now() + datetime.timedelta(minutes=5))
    entrants.presence_set(tournament=event, by=chief, minutes=10)
    here, away = person("here"), person("away")
    here.display_name, away.display_name = "Hanna Here", "Andrei Away"
    here.save()
    away.save()
    enter(event, [here, away, bot(), bot()])
    entrants.presence_confirm(tournament=event, user=here)
    from tournaments import services

    services.tournament_start(tournament=event, by=chief)
    round_page = _text(client.get(reverse("tournaments:round", args=[event.pk, 1])))
    assert "Absent (not checked in, no points): Andrei Away" in round_page
    crosstable = client.get(reverse("tournaments:crosstable", args=[event.pk]))
    row = next(line for line in crosstable.content.decode().split("<tr>") if "Andrei Away" in line)
    assert re.search(r'<td class="number">a</td>', row)
    other = next(line for line in crosstable.content.decode().split("<tr>") if "Hanna Here" in line)
    assert '<td class="number">a</td>' not in other
