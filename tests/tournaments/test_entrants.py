"""tournaments.services.entrants: the people search, bots in numbers, the CSV of players and its invitations,
the registration code, and presence before each round (absentees left out of the pairing)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import override

from accounts.bot_names import BOT_BENCH, bench_persona, bot_persona
from accounts.models import User
from ratings.models import PlayerRating, RatingPool
from tests.tournaments.factories import bot, bots, director, enter, person, play_games, tournament
from tournaments import services
from tournaments.models import (
    Attendance, AuditAction, AuditEntry, Entrant, Invitation, PairingEntrant, StandingRow, Tournament,
)
from tournaments.services import entrants
from tournaments.services.entrants import ImportOutcome, players_csv_parse

pytestmark = pytest.mark.django_db


def named(username: str, display_name: str = "", **fields: object) -> User:
    user = person(username)
    user.display_name = display_name
    for name, value in fields.items():
        setattr(user, name, value)
    user.save()
    return user


# --- the people search -------------------------------------------------------------------------------


def test_the_search_finds_display_names_in_any_case_cyrillic_too_best_match_first() -> None:
    chief = director()
    event = tournament(chief)
    anya = named("demo-anya", "Anya")
    named("annabel", "Annabel Lee")
    named("joanna", "Joanna")
    found = entrants.people_search(tournament=event, query="anya", by=chief)
    assert [candidate.user for candidate in found] == [anya]
    ranked = [candidate.user.username for candidate in entrants.people_search(tournament=event, query="ann", by=chief)]
    assert ranked[0] == "annabel" and "joanna" in ranked  # a name beginning with it before one containing it
    olya = named("olya", "Ольга Петрова")
    for query in ("ольга", "ОЛЬГА", "петр", "Петрова"):
        assert [c.user for c in entrants.people_search(tournament=event, query=query, by=chief)] == [olya], query


def test_the_search_leaves_out_bots_and_closed_accounts_and_marks_the_entered() -> None:
    chief = director()
    event = tournament(chief)
    named("closed-kate", "Kate Closed", is_active=False)
    bot("kate-bot")
    kate = named("kate", "Kate")
    enter(event, [kate])
    found = entrants.people_search(tournament=event, query="kate", by=chief)
    assert [(candidate.user, candidate.entered) for candidate in found] == [(kate, True)]


def test_the_search_shows_the_rating_in_the_tournaments_pool_or_none() -> None:
    chief = director()
    pool = RatingPool.objects.first() or pytest.skip("no rating pool in the database")
    event = tournament(chief, rating_pool=pool, rules=pool.rules)
    rated, fresh = named("rated", "Rita Rated"), named("fresh", "Rita Fresh")
    PlayerRating.objects.create(pool=pool, user=rated, rating=1733.0)
    found = {c.user: c.rating for c in entrants.people_search(tournament=event, query="rita", by=chief)}
    assert found == {rated: 1733.0, fresh: None}


def test_only_a_director_searches_and_enters_by_id() -> None:
    chief = director()
    event = tournament(chief)
    stranger, anya = person(), named("anya-x", "Anya")
    with pytest.raises(ValidationError):
        entrants.people_search(tournament=event, query="anya", by=stranger)
    with pytest.raises(ValidationError):
        entrants.person_enter(tournament=event, user_id=anya.pk, by=stranger)
    with pytest.raises(ValidationError, match="cannot be found"):
        entrants.person_enter(tournament=event, user_id=bot().pk, by=chief)
    entrant = entrants.person_enter(tournament=event, user_id=anya.pk, by=chief, reason="club member")
    assert entrant.user == anya
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.REGISTERED, actor=chief).exists()


# --- bots ----------------------------------------------------------------------------------------------


def test_n_bots_of_a_level_are_distinct_accounts_named_past_the_bench() -> None:
    chief = director()
    event = tournament(chief)
    added = entrants.bots_enter(tournament=event, level="easy", count=9, by=chief)
    users = [entrant.user for entrant in added]
    assert len({user.pk for user in users}) == 9 and all(user.is_bot and user.bot_level == "easy" for user in users)
    names = [user.public_name for user in users]
    assert len(set(names)) == 9
    assert names[7] == f"{BOT_BENCH['easy'][0].name} II"
    more = entrants.bots_enter(tournament=event, level="easy", count=2, by=chief)
    assert {entrant.user.pk for entrant in more}.isdisjoint(user.pk for user in users)
    with override("ru"):
        assert User.objects.get(username="bot-random-2").public_name == f"{BOT_BENCH['easy'][0].name} II"
        assert "II" in str(bench_persona("easy", 7).name) and str(bench_persona("easy", 7).name) != "Random Rita II"
    assert bot_persona("bot-easy-mila-3") is not None and bot_persona("bot-easy-mila-x") is None


def test_bots_in_numbers_are_refused_when_they_do_not_fit() -> None:
    chief = director()
    event = tournament(chief, capacity=3)
    with pytest.raises(ValidationError, match="level"):
        entrants.bots_enter(tournament=event, level="genius", count=2, by=chief)
    with pytest.raises(ValidationError):
        entrants.bots_enter(tournament=event, level="easy", count=0, by=chief)
    with pytest.raises(ValidationError, match="places"):
        entrants.bots_enter(tournament=event, level="easy", count=4, by=chief)
    with pytest.raises(ValidationError):
        entrants.bots_enter(tournament=event, level="easy", count=2, by=person())
    assert not Entrant.objects.filter(tournament=event).exists()


# --- the CSV of players ------------------------------------------------------------------------------


def test_a_csv_is_read_with_or_without_header_bom_and_with_semicolons() -> None:
    text = "\ufeffИмя;Рейтинг;Почта\r\nАнна Иванова;1650,5;anna@example.com\r\nBoris\r\n"
    lines = players_csv_parse(text.encode("utf-8"))
    assert [(line.name, line.rating, line.email, line.error) for line in lines] == [
        ("Анна Иванова", 1650.5, "anna@example.com", ""), ("Boris", None, "", "")]
    lines = players_csv_parse(b"Carl,1500\nDora,,dora@example.com\n")
    assert [(line.number, line.name, line.rating, line.email) for line in lines] == [
        (1, "Carl", 1500.0, ""), (2, "Dora", None, "dora@example.com")]


@pytest.mark.parametrize(("text", "error"), [
    ("Anna,strong\n", "is not a number"),
    ("Anna,9000\n", "out of range"),
    ("Anna,1500,not-an-address\n", "is not an e-mail address"),
    (",1500,anna@example.com\n", "name is missing"),
    ("Anna,1500,anna@example.com,extra\n", "More than three columns"),
    ("A" * 41 + "\n", "longer than 40"),
])
def test_each_malformed_line_says_what_is_wrong(text: str, error: str) -> None:
    lines = players_csv_parse(("Fine Player\n" + text).encode())
    assert lines[0].error == "" and error in lines[1].error and lines[1].number == 2


@pytest.mark.parametrize(("data", "error"), [
    (b"", "lists no players"),
    (b"name\n\n", "lists no players"),
    ("Анна\n".encode("cp1251"), "not in UTF-8"),
    (b'Anna\n"Boris,1500\nCarl\n', "Line 2 cannot be read: a quotation mark"),
    (b"x\n" * 501, "too large"),
])
def test_a_file_that_cannot_be_read_is_refused(data: bytes, error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        players_csv_parse(data)


def test_the_import_matches_accounts_invites_the_others_and_refuses_with_reasons(
    django_capture_on_commit_callbacks: Any,
) -> None:
    chief = director()
    event = tournament(chief)
    by_mail = named("zed", "Someone Else", email="zed@club.ru")
    by_name = named("kolya", "Коля Смирнов")
    by_username = named("petya", "Pyotr Sidorov")
    named("twin1", "Ivan Twin")
    named("twin2", "Ivan Twin")
    entered = named("already", "Already In")
    enter(event, [entered])
    bot("Botty")
    text = "\n".join([
        "name;rating;email", "Z;1700;ZED@club.ru", "коля смирнов", "petya", "Ivan Twin", "Already In", "Botty",
        "New Person;1400;new@example.com", "Second New", "Коля Смирнов", "Bad;x",
    ])
    plan = entrants.players_import_plan(tournament=event, data=text, by=chief)
    outcomes = [(line.line.name, line.outcome, line.user) for line in plan]
    assert outcomes[:3] == [("Z", ImportOutcome.MATCHED, by_mail), ("коля смирнов", ImportOutcome.MATCHED, by_name),
                            ("petya", ImportOutcome.MATCHED, by_username)]
    assert [line.outcome for line in plan[3:]] == [ImportOutcome.REFUSED, ImportOutcome.REFUSED, ImportOutcome.REFUSED,
                                                   ImportOutcome.INVITED, ImportOutcome.INVITED, ImportOutcome.REFUSED,
                                                   ImportOutcome.REFUSED]
    reasons = [line.reason for line in plan if line.outcome == ImportOutcome.REFUSED]
    assert "Several accounts" in reasons[0] and "Already entered" in reasons[1] and "bot" in reasons[2]
    assert "earlier line" in reasons[3] and "not a number" in reasons[4]
    assert not Invitation.objects.exists() and Entrant.objects.filter(tournament=event).count() == 1  # a preview

    with django_capture_on_commit_callbacks(execute=True):
        result = entrants.players_import(tournament=event, data=text, by=chief, base_url="https://club.example")
    assert Entrant.objects.get(tournament=event, user=by_mail).rating == 1700.0
    assert set(Entrant.objects.filter(tournament=event).values_list("user__username", flat=True)) == {
        "zed", "kolya", "petya", "already"}
    assert [invitation.name for invitation in result.invitations] == ["New Person", "Second New"]
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["new@example.com"]
    assert f"https://club.example/tournaments/invitation/{result.invitations[0].token}/" in mail.outbox[0].body


def test_an_import_the_rules_refuse_changes_nothing() -> None:
    chief = director()
    event = tournament(chief, capacity=2)
    enter(event, [person()])
    named("one", "One")
    named("two", "Two")
    with pytest.raises(ValidationError, match="Line 3"):
        entrants.players_import(tournament=event, data="Third Invited\nOne\nTwo\n", by=chief)
    assert Entrant.objects.filter(tournament=event).count() == 1 and not Invitation.objects.exists()


def _invitation(event: Tournament, name: str = "New Person") -> Invitation:
    result = entrants.players_import(tournament=event, data=f"{name};1450;new@example.com", by=event.director)
    return result.invitations[0]


def test_an_invitation_signs_up_and_enters_once_and_a_forged_token_is_refused() -> None:
    event = tournament(director())
    invitation = _invitation(event)
    user, entrant = entrants.invitation_sign_up(
        token=invitation.token, username="newbie", email="new@example.com", password="a-Long-passw0rd",
        display_name="New Person", preferred_language="ru",
    )  # fmt: skip
    assert entrant.tournament == event and entrant.user == user and entrant.rating == 1450.0
    assert user.display_name == "New Person" and user.check_password("a-Long-passw0rd")
    invitation.refresh_from_db()
    assert invitation.accepted_by == user
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.INVITATION_ACCEPTED, actor=user).exists()
    with pytest.raises(ValidationError, match="used already"):
        entrants.invitation_sign_up(token=invitation.token, username="again", email="a@example.com",
                                    password="a-Long-passw0rd", display_name="x", preferred_language="en")
    assert not User.objects.filter(username="again").exists()
    with pytest.raises(ValidationError, match="not valid"):
        entrants.invitation_accept(token="forged-token", user=person())


def test_a_logged_in_player_accepts_his_invitation_with_his_account() -> None:
    event = tournament(director())
    invitation = _invitation(event, "Vera")
    vera = person("vera")
    assert entrants.invitation_accept(token=invitation.token, user=vera).user == vera


# --- the registration code ----------------------------------------------------------------------------


def test_registration_by_code_needs_the_current_code() -> None:
    chief = director()
    event = tournament(chief)
    entrants.registration_code_set(tournament=event, by=chief, required=True, reason="private")
    event.refresh_from_db()
    first = event.registration_code
    assert first
    with pytest.raises(ValidationError, match="by invitation"):
        services.tournament_register(tournament=event, user=person())
    for wrong in ("guess", "ключ"):
        with pytest.raises(ValidationError, match="not valid"):
            services.tournament_register(tournament=event, user=person(), code=wrong)
    assert not entrants.registration_code_ok(event, "ключ")
    services.tournament_register(tournament=event, user=person("insider"), code=first)
    entrants.registration_code_set(tournament=event, by=chief, required=True)
    event.refresh_from_db()
    assert event.registration_code != first
    with pytest.raises(ValidationError, match="not valid"):
        services.tournament_register(tournament=event, user=person(), code=first)
    entrants.registration_code_set(tournament=event, by=chief, required=False)
    services.tournament_register(tournament=event, user=person("anyone"))
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.CODE_CHANGED).count() == 3
    with pytest.raises(ValidationError):
        entrants.registration_code_set(tournament=event, by=person(), required=True)


# --- presence before each round ----------------------------------------------------------------------


def _checking_event(minutes: int = 15) -> tuple[Tournament, list[User], list[User]]:
    chief = director()
    event = tournament(chief, rounds=2, starts_at=timezone.now() + datetime.timedelta(minutes=10))
    entrants.presence_set(tournament=event, by=chief, minutes=minutes, reason="club night")
    people = [person() for _ in range(4)]
    robots = bots(2)
    enter(event, people + robots)
    event.refresh_from_db()
    return event, people, robots


def test_the_check_in_window_opens_minutes_before_the_round() -> None:
    event, people, _robots = _checking_event(minutes=5)
    assert entrants.presence_round(event) is None  # the start is 10 minutes away
    with pytest.raises(ValidationError, match="not open"):
        entrants.presence_confirm(tournament=event, user=people[0])
    later = event.starts_at - datetime.timedelta(minutes=4)
    assert entrants.presence_round(event, now=later) == 1
    assert entrants.presence_confirm(tournament=event, user=people[0], now=later).present
    with pytest.raises(ValidationError, match="not entered"):
        entrants.presence_confirm(tournament=event, user=person(), now=later)


def test_whoever_has_not_checked_in_is_left_out_of_the_round_as_absent() -> None:
    event, people, robots = _checking_event()
    for player in people[:2]:
        entrants.presence_confirm(tournament=event, user=player)
    services.tournament_start(tournament=event, by=event.director)
    paired = set(PairingEntrant.objects.filter(pairing__tournament=event).values_list("entrant__user", flat=True))
    assert paired == {user.pk for user in people[:2] + robots}
    absent = Attendance.objects.filter(tournament=event, round_number=1, present=False)
    assert {row.entrant.user for row in absent} == set(people[2:])
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.ABSENT, round_number=1).count() == 2
    assert set(entrants.absent_in_round(event, 1)) == {row.entrant for row in absent}
    play_games(event)  # the bots' board; the people's waits for them
    # The absentees' round counts as not played: no result at all in the pure core's history, 0 points.
    history = services._results_by_round(event, upto=1)[0]
    keys = {key for result in history for key in result.entrants}
    assert not keys & {row.entrant.key for row in absent}
    for row in StandingRow.objects.filter(tournament=event, entrant__in=[a.entrant for a in absent]):
        assert row.points == 0


def test_the_director_overrides_presence_with_a_reason() -> None:
    event, people, _robots = _checking_event()
    entrants.presence_confirm(tournament=event, user=people[0])
    with pytest.raises(ValidationError, match="Say why"):
        entrants.presence_mark(entrant=Entrant.objects.get(user=people[1]), by=event.director, present=True, reason="")
    with pytest.raises(ValidationError):
        entrants.presence_mark(entrant=Entrant.objects.get(user=people[1]), by=person(), present=True, reason="x")
    entrants.presence_mark(entrant=Entrant.objects.get(user=people[1]), by=event.director, present=True,
                           reason="phoned in")
    entrants.presence_mark(entrant=Entrant.objects.get(user=people[0]), by=event.director, present=False,
                           reason="left the hall")
    with pytest.raises(ValidationError, match="marked you absent"):
        entrants.presence_confirm(tournament=event, user=people[0])
    services.tournament_start(tournament=event, by=event.director)
    paired = set(PairingEntrant.objects.filter(pairing__tournament=event).values_list("entrant__user", flat=True))
    assert people[1].pk in paired and people[0].pk not in paired
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.ABSENT, actor=event.director)
    assert entry.reason == "left the hall"
    # A form shown before he was disqualified is stale: refused in words.
    gone = Entrant.objects.get(user=people[1])
    services.entrant_disqualify(entrant=gone, by=event.director, reason="cheating")
    with pytest.raises(ValidationError, match="not playing"):
        entrants.presence_mark(entrant=gone, by=event.director, present=True, reason="stale form")


def test_without_check_in_everyone_is_paired() -> None:
    event, people, robots = _checking_event(minutes=0)
    services.tournament_start(tournament=event, by=event.director)
    assert PairingEntrant.objects.filter(pairing__tournament=event).count() == 6
    assert not Attendance.objects.exists()


def test_a_name_that_is_one_accounts_username_and_anothers_display_name_is_ambiguous() -> None:
    chief = director()
    event = tournament(chief)
    named("lena", "Elena Borisova")
    named("lena-k", "Lena")
    plan = entrants.players_import_plan(tournament=event, data="Lena\nElena Borisova\n", by=chief)
    assert plan[0].outcome == ImportOutcome.REFUSED and "Several accounts" in plan[0].reason
    assert plan[1].outcome == ImportOutcome.MATCHED and plan[1].user is not None and plan[1].user.username == "lena"
