"""The play pages through Django's test client: the lobby, creating a table, seats, private tables, the game
page (which must never carry another player's hand) and the record download."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_sign_up
from games import services
from games.engine import Rules
from games.engine.cards import names
from games.models import Game, Seat, Table, TableStatus
from games.snapshots import state_of

pytestmark = pytest.mark.django_db

VALID = {
    "name": "", "preset": "podkidnoy", "deck": "36", "players": "2", "throw_in": "all", "first_bout_limit": "6",
    "teams": "", "stake": "0", "turn_seconds": "30", "password": "",
}  # fmt: skip


def _person(username: str) -> User:
    return user_sign_up(
        username=username, email=f"{username}@example.com", password="a-Long-passw0rd", preferred_language="en"
    )


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _table(owner: User, *, seats: int = 2, **options: Any) -> Table:
    return services.table_create(owner=owner, rules=Rules.from_dict({"preset": "podkidnoy"}), seats=seats, **options)


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def _game_with(first: User, second: User) -> Game:
    table = _table(first)
    services.table_join(table=table, user=first)
    services.table_join(table=table, user=second)  # the last seat taken: the game starts
    return Game.objects.get(table=table)


# --- lobby ----------------------------------------------------------------------------------------


def test_lobby_lists_open_public_tables_with_their_rules_in_words(client: Client) -> None:
    owner = _person("olga")
    services.table_create(
        owner=owner, rules=Rules.from_dict({"preset": "perevodnoy", "throw_in": "neighbours"}), seats=3, stake=10,
        name="Evening game",
    )  # fmt: skip
    _table(owner, private=True, name="Secret game")

    response = client.get(reverse("games:play"))

    assert response.status_code == 200
    text = _text(response.content)
    assert "Evening game" in text
    assert "Perevodnoy · 36 cards · 3 players · only the neighbours throw in" in text
    assert "stake 10 chips" in text
    assert "0 of 3 seats taken" in text
    assert "Secret game" not in text
    # Anonymous visitors may watch but are asked to log in before opening a table.
    assert "Log in" in text and 'id="create-table-form"' not in response.content.decode()


def test_lobby_list_alone_for_htmx_and_in_russian(client: Client) -> None:
    _table(_person("boris"), seats=4, name="Четверо")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    text = _text(client.get(reverse("games:lobby-tables")).content)
    assert "Подкидной · 36 карт · 4 игрока" in text
    assert "<html" not in text


def test_navigation_play_leads_to_the_lobby(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("games:play")}"' in html


# --- creating a table ----------------------------------------------------------------------------


def test_a_valid_table_is_created_and_its_owner_sits_down() -> None:
    owner = _person("anna")
    client = _client_for(owner)
    response = client.post(
        reverse("games:table-create"),
        {**VALID, "preset": "perevodnoy", "transfer_by_showing_trump": "on", "deck": "52", "players": "4",
         "teams": "2v2", "first_bout_limit": "5", "turn_seconds": "60", "name": "Team table"},
    )  # fmt: skip
    table = Table.objects.get(name="Team table")
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.rules == Rules.from_dict(
        {"preset": "perevodnoy", "deck": 52, "transfer_by_showing_trump": True, "teams": "2v2", "first_bout_limit": 5}
    ).to_dict()
    assert table.seat_count == 4 and table.turn_seconds == 60
    assert Seat.objects.get(table=table, number=0).user == owner


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"deck": "24", "players": "5"}, "players", "A deck of 24 cards seats at most 4 players."),
        ({"teams": "2v2", "players": "3"}, "teams", "Two against two needs exactly 4 players."),
        ({"teams": "3v3", "players": "4"}, "teams", "Three against three needs exactly 6 players."),
        ({"transfer_by_showing_trump": "on"}, "transfer_by_showing_trump", "Transfers by showing a trump need perevodnoy."),
        ({"rated": "on", "cheating": "on"}, "cheating", "A rated game is never played at a cheating table."),
        ({"password": "secret"}, "password", "Only a private table has a password."),
        ({"deck": "54"}, "deck", "Select a valid choice."),
        ({"stake": "-5"}, "stake", "greater than or equal to 0"),
    ],
)  # fmt: skip
def test_bad_combinations_are_refused_with_clear_errors(changes: dict[str, str], field: str, message: str) -> None:
    client = _client_for(_person("vera"))
    response = client.post(reverse("games:table-create"), {**VALID, **changes})
    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors
    assert any(message in error for error in form.errors[field])
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Table.objects.exists()


def test_errors_are_translated_into_russian() -> None:
    client = _client_for(_person("dima"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    response = client.post(reverse("games:table-create"), {**VALID, "deck": "24", "players": "6"})
    assert "С колодой в 24 карт играют не больше 4 игроков." in _text(response.content)


def test_creating_a_table_needs_an_account(client: Client) -> None:
    response = client.post(reverse("games:table-create"), VALID)
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert not Table.objects.exists()


# --- seats ---------------------------------------------------------------------------------------


def test_join_and_leave_a_seat() -> None:
    owner, guest = _person("gleb"), _person("inna")
    table = _table(owner, seats=3)
    client = _client_for(guest)

    page = client.get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 200 and "Sit here" in _text(page.content)

    response = client.post(reverse("games:table-join", args=[table.pk]), {"seat": "2"})
    assert response.status_code == 302
    assert Seat.objects.get(table=table, number=2).user == guest
    assert "Leave the seat" in _text(client.get(reverse("games:table", args=[table.pk])).content)

    client.post(reverse("games:table-leave", args=[table.pk]))
    assert Seat.objects.get(table=table, number=2).user is None
    assert "You left your seat." in _text(client.get(reverse("games:table", args=[table.pk])).content)


def test_a_taken_seat_is_refused_with_the_services_message() -> None:
    owner, guest = _person("kira"), _person("lev")
    table = _table(owner, seats=3)
    services.table_join(table=table, user=owner, seat=0)
    client = _client_for(guest)
    response = client.post(reverse("games:table-join", args=[table.pk]), {"seat": "0"}, follow=True)
    assert "That seat is taken." in _text(response.content)
    assert Seat.objects.get(table=table, number=0).user == owner


def test_the_owner_fills_the_seats_with_bots_and_the_game_starts() -> None:
    owner = _person("mila")
    table = _table(owner, seats=3)
    services.table_join(table=table, user=owner)
    client = _client_for(owner)

    response = client.post(reverse("games:table-bots", args=[table.pk]), {"level": "easy"})

    game = Game.objects.get(table=table)
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert [seat.bot_level for seat in Seat.objects.filter(table=table)] == ["", "easy", "easy"]


def test_only_the_owner_seats_bots() -> None:
    table = _table(_person("nina"), seats=3)
    response = _client_for(_person("oleg")).post(reverse("games:table-bots", args=[table.pk]), {"level": "hard"})
    assert response.status_code == 403
    assert not Seat.objects.filter(table=table).exclude(bot_level="").exists()


# --- private tables ------------------------------------------------------------------------------


def test_a_private_table_is_reached_only_by_its_link_and_its_password() -> None:
    owner, guest = _person("pavel"), _person("rita")
    table = _table(owner, seats=3, private=True, password="open sesame")
    client = _client_for(guest)
    table_url = reverse("games:table", args=[table.pk])

    assert client.get(table_url).status_code == 404
    assert client.post(reverse("games:table-join", args=[table.pk]), {"seat": "1"}).status_code == 404

    response = client.get(reverse("games:table-link", args=[table.link_token]))
    assert response.status_code == 302 and response["Location"] == table_url
    assert client.get(table_url).status_code == 200

    wrong = client.post(reverse("games:table-join", args=[table.pk]), {"seat": "1", "password": "guess"}, follow=True)
    assert "Wrong password." in _text(wrong.content)
    assert Seat.objects.get(table=table, number=1).user is None

    client.post(reverse("games:table-join", args=[table.pk]), {"seat": "1", "password": "open sesame"})
    assert Seat.objects.get(table=table, number=1).user == guest


def test_the_owner_sees_the_private_link() -> None:
    owner = _person("sasha")
    table = _table(owner, private=True)
    text = _text(_client_for(owner).get(reverse("games:table", args=[table.pk])).content)
    assert reverse("games:table-link", args=[table.link_token]) in text


# --- the game page -------------------------------------------------------------------------------


def _initial_message(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="game-initial" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the game page carries its first view"
    return dict(json.loads(match.group(1)))


def test_the_game_page_never_carries_another_players_hand() -> None:
    first, second = _person("tanya"), _person("yuri")
    game = _game_with(first, second)
    hands = [names(hand) for hand in state_of(game).hands]

    html = _client_for(first).get(reverse("games:game", args=[game.pk])).content.decode()

    message = _initial_message(html)
    assert message["seat"] == 0
    assert sorted(message["view"]["hand"]) == sorted(hands[0])
    assert message["view"]["hand_counts"] == [6, 6]
    for card in hands[0]:
        assert f'"{card}"' in html, "the page's own hand is what the script draws"
    for card in hands[1]:
        assert f'"{card}"' not in html, f"{card} of the other hand is in the page"
    assert 'data-socket-query="?lang=en"' in html


def test_a_spectator_sees_no_hand_at_all(client: Client) -> None:
    game = _game_with(_person("zoya"), _person("artem"))
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    message = _initial_message(html)
    assert message["seat"] is None and "hand" not in message["view"] and "legal" not in message["view"]
    for hand in state_of(game).hands:
        for card in names(hand):
            assert f'"{card}"' not in html


def test_a_private_game_is_watched_only_with_the_link() -> None:
    owner = _person("bella")
    table = _table(owner, private=True)
    services.table_join(table=table, user=owner)
    services.table_fill_bots(table=table, level="easy")
    game = Game.objects.get(table=table)
    stranger = _client_for(_person("egor"))
    assert stranger.get(reverse("games:game", args=[game.pk])).status_code == 404
    stranger.get(reverse("games:table-link", args=[table.link_token]))
    html = stranger.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"token={table.link_token}" in html


def test_the_table_page_sends_everyone_to_the_running_game(client: Client) -> None:
    game = _game_with(_person("fedor"), _person("galya"))
    assert game.table.status == TableStatus.PLAYING
    response = client.get(reverse("games:table", args=[game.table_id]))
    assert response["Location"] == reverse("games:game", args=[game.pk])


def test_the_record_is_refused_before_the_end_and_downloaded_after_it() -> None:
    first, second = _person("ivan"), _person("jana")
    game = _game_with(first, second)
    client = _client_for(first)
    url = reverse("games:game-record", args=[game.pk])

    refused = client.get(url)
    assert refused.status_code == 403
    assert "once the game is over" in refused.content.decode()

    services.game_surrender(game_id=game.pk, user=second)
    services.game_finalise(game_id=game.pk)
    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="durak-game-{game.pk}.json"'
    record = json.loads(response.content)
    game.refresh_from_db()
    assert record["deck"] == game.revealed_deck and record["commitment"] == game.commitment
    assert len(record["hands"]) == 2

    page = _initial_message(client.get(reverse("games:game", args=[game.pk])).content.decode())
    assert page["status"] == "finished"
    assert page["result"]["durak"] == 1 and page["result"]["deck"] == game.revealed_deck


def test_a_seated_player_waiting_at_the_table_is_sent_to_the_game_when_it_starts() -> None:
    owner, guest = _person("hanna"), _person("igor")
    table = _table(owner)
    services.table_join(table=table, user=owner)
    client = _client_for(owner)
    waiting = client.get(reverse("games:table-seats", args=[table.pk]))
    assert "HX-Redirect" not in waiting and "free seat" in _text(waiting.content)

    services.table_join(table=table, user=guest)

    started = client.get(reverse("games:table-seats", args=[table.pk]))
    assert started["HX-Redirect"] == reverse("games:game", args=[Game.objects.get(table=table).pk])


def test_the_game_page_speaks_russian() -> None:
    first = _person("lena")
    game = _game_with(first, _person("maks"))
    client = _client_for(first)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    match = re.search(r'<script id="game-strings" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the table's script gets its texts from the page"
    strings = json.loads(match.group(1))
    assert strings["beaten"] == "Бито" and strings["take"] == "Беру"
    assert strings["roles"]["defending"] == "отбивается"
    assert "Проверка тасовки" in _text(html.encode()) and 'data-socket-query="?lang=ru"' in html


def test_an_aktobe_table_with_its_joker_rule() -> None:
    """Issue 8: the Aktobe preset plays 54 cards with the neighbours throwing in, whatever the deck and throw-in
    fields say; the jokers' rule is chosen beside it."""
    owner = _person("aigerim")
    client = _client_for(owner)
    response = client.post(
        reverse("games:table-create"),
        {**VALID, "preset": "aktobe", "players": "3", "joker_beats": "same_colour", "name": "Aktobe table"},
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Aktobe table")
    assert table.rules == Rules.from_dict({"preset": "aktobe", "joker_beats": "same_colour"}).to_dict()
    assert table.rules["deck"] == 54 and table.rules["throw_in"] == "neighbours"


def test_aktobe_seats_at_most_seven() -> None:
    client = _client_for(_person("timur"))
    response = client.post(reverse("games:table-create"), {**VALID, "preset": "aktobe", "players": "8"})
    assert response.status_code == 400
    assert "Aktobe seats at most 7 players." in response.content.decode()
