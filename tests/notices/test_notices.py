"""Notices: each player of a paired round is told of his pairing once (on the site and by e-mail, in his
language), reminded before the seat deadline if he has not taken his seat, and the director is told of
disputes and no-shows; the notices page and marking read, forged and stale requests included."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from accounts.models import User
from notices import selectors, services, tasks
from notices.models import Notice, NoticeKind
from tests.leakproof import cards_in
from tests.tournaments.factories import bot, director, enter, person, tournament
from tournaments import services as tournament_services
from tournaments.models import Pairing, PairingEntrant, PairingStatus, ResultKind, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any, Any]]]:
    """The notice tasks a commit would send, recorded instead of run on the in-process runner: the tests
    call them themselves, as often as they like."""
    calls: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(tasks.pairing_notices, "delay", lambda *args: calls.append(("pairing", args, None)))
    monkeypatch.setattr(
        tasks.seat_reminders, "apply_async",
        lambda args=None, eta=None, **_: calls.append(("reminder", tuple(args or ()), eta)),
    )  # fmt: skip
    yield calls


def _started(players: list[User], *, by: User | None = None, **options: Any) -> tuple[Tournament, Round]:
    event = tournament(by=by or director("dora"), rounds=2, **options)
    enter(event, players)
    tournament_services.tournament_start(tournament=event, by=event.director)
    return event, Round.objects.get(tournament=event, number=1)


def _times(round_: Round) -> tuple[datetime.datetime, datetime.datetime]:
    """When the round was paired and when its seat deadline is."""
    assert round_.paired_at is not None and round_.seat_deadline is not None
    return round_.paired_at, round_.seat_deadline


def _opponent_of(user: User, event: Tournament) -> User:
    seat = PairingEntrant.objects.get(pairing__tournament=event, entrant__user=user)
    other = PairingEntrant.objects.exclude(pk=seat.pk).get(pairing=seat.pairing)
    return other.entrant.user


def test_each_player_of_a_paired_round_is_told_once_on_the_site_and_by_e_mail_in_his_language(
    timed: list[tuple[str, Any, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris, vera, gleb = person("anna"), person("boris", language="ru"), person("vera", language="ru"), person("gleb")
    User.objects.filter(pk=gleb.pk).update(email="")  # no address: told on the site only
    helper = bot("notice-bot")
    with django_capture_on_commit_callbacks(execute=True):
        event, round_ = _started([anna, boris, vera, gleb, helper])
    # The pairing's commit sends the pairing notices' task, and times the reminder before the seat deadline.
    assert ("pairing", (round_.pk,), None) in timed
    reminder = next(eta for kind, args, eta in timed if kind == "reminder" and args == (round_.pk,))
    paired_at, deadline = _times(round_)
    assert paired_at < reminder < deadline
    assert reminder == services.reminder_time(paired_at=paired_at, seat_deadline=deadline)
    assert Notice.objects.count() == 0  # nothing before the task

    for _ in range(2):  # the task delivered twice tells nobody twice
        with django_capture_on_commit_callbacks(execute=True):
            tasks.pairing_notices(round_.pk)
    people = [anna, boris, vera, gleb]
    for user in people:
        assert Notice.objects.filter(user=user, kind=NoticeKind.PAIRING).count() == 1
    assert not Notice.objects.filter(user=helper).exists()  # bots are told nothing
    assert Notice.objects.count() == 4
    # One e-mail to each with an address, none to gleb, none twice.
    assert sorted(message.to[0] for message in mail.outbox) == sorted(f"{u.username}@example.com" for u in (anna, boris, vera))

    # The bye (five entrants): its holder is told he has one; the others their board, opponent, time, link.
    byes = {pe.entrant.user_id for pe in PairingEntrant.objects.filter(pairing__round=round_, pairing__bye=True)}
    for user in people:
        notice = Notice.objects.get(user=user)
        pairing = Pairing.objects.get(round=round_, seats__entrant__user=user)
        assert notice.url == f"/tournaments/{event.pk}/#my-pairing"
        with translation.override(user.preferred_language):
            text = selectors.shown([notice])[0].text
        if user.pk in byes:
            assert ("bye" if user.preferred_language == "en" else "пропускаете") in text
            continue
        opponent = _opponent_of(user, event)
        assert opponent.public_name in text and f" {pairing.board}" in text
        mine = next((message for message in mail.outbox if message.to == [user.email]), None)
        if user.preferred_language == "ru":
            assert "Тур 1" in text and "доска" in text
            if mine:
                assert "Тур 1" in mine.body and opponent.public_name in mine.body and "Ваша пара" in mine.subject
        else:
            assert "Round 1" in text and "board" in text
            if mine:
                assert "Round 1" in mine.body and "Your pairing" in mine.subject
        if mine:
            assert f"/tournaments/{event.pk}/#my-pairing" in mine.body
        assert not cards_in(text)


def test_a_board_decided_before_anyone_sat_down_tells_nobody(timed: list[tuple[str, Any, Any]]) -> None:
    """A board forfeited as it is paired (its other entrant withdrawn before the round) has nothing to play."""
    anna, boris = person("anna"), person("boris")
    _, round_ = _started([anna, boris])
    Pairing.objects.filter(round=round_).update(status=PairingStatus.FINISHED, result_kind=ResultKind.FORFEIT)
    assert services.pairing_notices_send(round_id=round_.pk) == 0
    assert not Notice.objects.exists()


def test_the_reminder_goes_before_the_deadline_to_whoever_has_not_taken_his_seat_once(
    timed: list[tuple[str, Any, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    anna, boris = person("anna"), person("boris", language="ru")
    event, round_ = _started([anna, boris])
    pairing = Pairing.objects.get(round=round_)
    tournament_services.pairing_check_in(pairing=pairing, user=anna)
    paired_at, deadline = _times(round_)
    at = services.reminder_time(paired_at=paired_at, seat_deadline=deadline)
    timed.clear()
    # Too early (a deadline moved later): nothing yet, the reminder is timed again.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.seat_reminders_send(round_id=round_.pk, now=at - datetime.timedelta(minutes=1)) == 0
    assert timed == [("reminder", (round_.pk,), at)]
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            services.seat_reminders_send(round_id=round_.pk, now=at)
    reminders = Notice.objects.filter(kind=NoticeKind.REMINDER)
    assert [notice.user for notice in reminders] == [boris]  # anna is seated
    assert [message.to for message in mail.outbox] == [[boris.email]]
    assert "Пора за стол" in mail.outbox[0].subject and anna.public_name in mail.outbox[0].body
    # While the tournament is paused nobody is reminded; the reminder looks again later (a resumed round
    # has a new deadline).
    Notice.objects.all().delete()
    Tournament.objects.filter(pk=event.pk).update(paused=True)
    timed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.seat_reminders_send(round_id=round_.pk, now=at) == 0
    assert timed == [("reminder", (round_.pk,), at + services.REMINDER_LEAD)]
    Tournament.objects.filter(pk=event.pk).update(paused=False)
    # Past the deadline nobody is reminded any more.
    Notice.objects.all().delete()
    assert services.seat_reminders_send(round_id=round_.pk, now=deadline + datetime.timedelta(seconds=1)) == 0


def test_the_director_is_told_of_a_dispute_without_its_words(
    timed: list[tuple[str, Any, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    dora = director("dora")
    User.objects.filter(pk=dora.pk).update(preferred_language="ru")
    anna, boris = person("anna"), person("boris")
    event, round_ = _started([anna, boris], by=dora)
    pairing = Pairing.objects.get(round=round_)
    with django_capture_on_commit_callbacks(execute=True):
        dispute = tournament_services.dispute_file(pairing=pairing, user=anna, text="he played 7S over AH and KD")
    notice = Notice.objects.get(user=dora)
    assert notice.kind == NoticeKind.DISPUTE and notice.params["by"] == anna.pk
    assert notice.url == f"/tournaments/{event.pk}/direct/?round=1"
    with translation.override("en"):
        text = selectors.shown([notice])[0].text
    assert text == f"{anna.public_name} disputes board 1 of round 1 in {event.name}."
    assert not cards_in(text) and "7S" not in str(notice.params)
    (message,) = mail.outbox
    assert message.to == [dora.email] and "оспаривает" in message.body and "7S" not in message.body
    assert dispute.pk and not Notice.objects.exclude(user=dora).exists()


@pytest.mark.parametrize("no_show", ["forfeit", "bot"])
def test_the_director_is_told_of_each_no_show_once(
    timed: list[tuple[str, Any, Any]], django_capture_on_commit_callbacks: Any, no_show: str
) -> None:
    dora = director("dora")
    anna, boris, vera, gleb = person("anna"), person("boris"), person("vera"), person("gleb")
    event, round_ = _started([anna, boris, vera, gleb], by=dora, no_show=no_show)
    for user in (anna, boris):
        pairing = Pairing.objects.get(round=round_, seats__entrant__user=user)
        tournament_services.pairing_check_in(pairing=pairing, user=user)
    absent = {pe.entrant.user for pe in PairingEntrant.objects.filter(pairing__round=round_, checked_in__isnull=True)}
    assert absent  # someone not paired with anna or boris, or their opponent
    later = _times(round_)[1] + datetime.timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_enforce_seat_deadline(tournament=event, number=1, now=later)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_enforce_seat_deadline(tournament=event, number=1, now=later)
    notices = list(Notice.objects.filter(user=dora, kind=NoticeKind.NO_SHOW))
    assert sorted(notice.params["entrant"]["user"] for notice in notices) == sorted(user.pk for user in absent)
    with translation.override("en"):
        texts = [shown.text for shown in selectors.shown(notices)]
    ending = "a bot plays instead." if no_show == "bot" else "and forfeits."
    assert all(text.endswith(ending) for text in texts)
    assert {user.public_name for user in absent} == {text.split(" did not")[0] for text in texts}
    assert len(mail.outbox) == len(absent) and all(message.to == [dora.email] for message in mail.outbox)


# --- the page, the bell and marking read ---------------------------------------------------------


def _notices_for(user: User, count: int) -> list[Notice]:
    made = []
    for index in range(count):
        made.append(Notice.objects.create(
            user=user, kind=NoticeKind.PAIRING, key=f"pairing:{1000 + index}", url="/tournaments/",
            params={"tournament": 1, "name": f"Cup {index}", "round": index + 1, "board": 3, "bye": False,
                    "opponents": [{"team": "Reds"}], "deadline": None},
            created=timezone.now() + datetime.timedelta(seconds=index),
        ))  # fmt: skip
    return made


def test_the_page_lists_the_notices_newest_first_with_the_unread_marked_and_the_bell_counts_them(client: Client) -> None:
    anna = person("anna")
    first, second, third = _notices_for(anna, 3)
    Notice.objects.filter(pk=first.pk).update(read_at=timezone.now())
    client.force_login(anna)
    home = client.get("/").content.decode()
    assert 'id="notice-bell"' in home and 'data-unread="2"' in home
    page = client.get("/notices/").content.decode()
    order = [page.index(f"Cup {index}") for index in (2, 1, 0)]
    assert order == sorted(order)
    assert page.count('class="notice unread"') == 2 and page.count('class="notice"') == 1
    assert f'name="upto" value="{third.pk}"' in page and 'hx-trigger="load"' in page
    # The page's own request, once loaded, marks what it showed read.
    assert client.post("/notices/read/", {"upto": third.pk}, HTTP_HX_REQUEST="true").status_code == 204
    assert not Notice.objects.filter(user=anna, read_at__isnull=True).exists()
    assert 'data-unread="0"' in client.get("/").content.decode()
    Client().get("/")  # an anonymous page has no bell
    assert 'id="notice-bell"' not in Client().get("/").content.decode()


def test_the_page_is_in_the_readers_language(client: Client) -> None:
    anna = person("anna")
    _notices_for(anna, 1)
    client.force_login(anna)
    page = client.get("/notices/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Уведомления" in page and "Тур 1 турнира «Cup 0»: доска 3, соперник — Reds." in page


def test_marking_read_is_stale_proof_and_touches_nobody_elses_notices(client: Client) -> None:
    anna, boris = person("anna"), person("boris")
    older, newer = _notices_for(anna, 2)
    (borises,) = _notices_for(boris, 1)
    client.force_login(anna)
    # The page showed only the older one: the newer, come since, stays unread.
    response = client.post("/notices/read/", {"upto": older.pk})
    assert response.status_code == 302 and response["Location"] == "/notices/"
    older.refresh_from_db()
    newer.refresh_from_db()
    assert older.read_at is not None and newer.read_at is None
    # A forged number (boris's notice, newer than all of anna's): anna's are read, boris's is not touched.
    client.post("/notices/read/", {"upto": borises.pk})
    borises.refresh_from_db()
    assert borises.read_at is None
    assert not Notice.objects.filter(user=anna, read_at__isnull=True).exists()


@pytest.mark.parametrize("upto", ["", "abc", "-3", "0"])
def test_a_malformed_request_to_mark_read_says_so_and_changes_nothing(client: Client, upto: str) -> None:
    anna = person("anna", language="ru")
    _notices_for(anna, 2)
    client.force_login(anna)
    response = client.post("/notices/read/", {"upto": upto}, follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Такого списка уведомлений сайт вам не показывал." in response.content.decode()
    assert Notice.objects.filter(read_at__isnull=True).count() == 2
    htmx = client.post("/notices/read/", {"upto": upto}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ru")
    assert htmx.status_code == 400 and "уведомлений" in htmx.content.decode()


def test_the_notices_need_a_sign_in_and_marking_read_a_post(client: Client) -> None:
    assert client.get("/notices/")["Location"].startswith("/accounts/log-in/")
    assert client.post("/notices/read/", {"upto": 1})["Location"].startswith("/accounts/log-in/")
    client.force_login(person("anna"))
    assert client.get("/notices/read/").status_code == 405
    assert 'id="no-notices"' in client.get("/notices/").content.decode()
