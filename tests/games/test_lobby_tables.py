"""The lobby's list and a table's detail are read as rows (games.selectors.lobby_tables, table_detail): what
they hold is what the models gave, field for field, in order and type, in each language, and the list costs
two queries however many tables it holds."""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

import pytest
from django.db.models import Prefetch
from django.utils import timezone, translation

from accounts.bot_names import bench_persona, bot_persona, english_name
from accounts.models import User
from games.clocks import clock_text
from games.models import Game, Seat, Table, TableStatus
from games.selectors import LOBBY_TABLES, lobby_tables, table_detail

pytestmark = pytest.mark.django_db


# The computation from models that lobby_tables and table_detail replaced, kept as the reference.
def _model_seat_name(seat: Seat) -> str:
    if seat.user is None:
        return ""
    return seat.user.public_name


def _model_table_json(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "name": str(table),
        "rules": table.rules,
        "seats": [
            {"number": seat.number, "name": _model_seat_name(seat) or None, "bot": seat.is_bot}
            for seat in table.seats.all()
        ],
        "stake": table.stake,
        "rated": table.rated,
        "status": table.status,
        "private": table.private,
        "turn_seconds": table.turn_seconds,
        "clock": (
            {"base": table.clock_base, "increment": table.clock_increment,
             "text": clock_text(table.clock_base, table.clock_increment)}
            if table.clock_base is not None else None
        ),  # fmt: skip
        "password": table.has_password,
    }


def _model_lobby_tables() -> list[dict[str, Any]]:
    tables = (
        Table.objects.filter(private=False, status__in=[TableStatus.OPEN, TableStatus.PLAYING])
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")[:LOBBY_TABLES]
    )
    return [_model_table_json(table) for table in tables]


def _model_table_detail(table_id: int) -> dict[str, Any]:
    table = Table.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
        pk=table_id
    )
    game = Game.objects.filter(table=table).order_by("-started").first()
    return {**_model_table_json(table), "owner": table.owner_id, "game": game.pk if game is not None else None}


def _same(new: Any, reference: Any) -> None:
    """Equal, with the keys in the same order and every value of the same JSON type (True is not 1)."""
    assert new == reference
    assert json.dumps(new, ensure_ascii=False) == json.dumps(reference, ensure_ascii=False)


def _bot(username: str, level: str, display_name: str | None = None) -> User:
    persona = bot_persona(username)
    return User.objects.create(
        username=username, is_bot=True, bot_level=level, bot_engine=persona.engine if persona else "heuristic",
        display_name=display_name if display_name is not None else (english_name(persona) if persona else ""),
    )  # fmt: skip


@pytest.fixture
def lobby() -> dict[str, Any]:
    """More public tables than the list shows, open and played, their `created` out of the order of their ids;
    private and finished ones; seats empty, of people with and without a display name, of bench bots of every
    level (a second generation's among them) and of bots that are not on the bench; a table of no seat rows."""
    chance = random.Random(36)
    owner = User.objects.create(username="lobby-owner")
    people = [
        User.objects.create(username=f"person-{number}", display_name=f"Person {number}" if number % 2 else "")
        for number in range(12)
    ]
    bots = [
        _bot("bot-random", "easy"),
        _bot("bot-easy-mila", "easy"),
        _bot("bot-heuristic", "medium"),
        _bot("bot-search", "hard"),
        _bot("bot-search-expert", "expert"),
        _bot(bench_persona("easy", 8).username, "easy"),  # "Lucky Lyosha II"
        _bot("cup-bot", "hard", display_name="Cup Bot"),  # a tournament's own bot: its display name
        _bot("cup-bot-plain", "medium", display_name=""),  # ... or its username
    ]
    public = LOBBY_TABLES + 15
    rows = []
    for number in range(public + 12):
        clocked = number % 3 == 0
        rows.append(Table(
            name=f"Evening {number}" if number % 4 else "", rules={"preset": "podkidnoy", "deck": 36 + number % 2 * 16},
            seat_count=2 + number % 5, stake=(0, 10, 50)[number % 3], private=number >= public and number % 2 == 0,
            link_token=f"lobby-{number}", rated=number % 2 == 1, turn_seconds=15 + number % 4 * 15, owner=owner,
            clock_base=(30, 180, 75)[number // 3 % 3] if clocked else None, clock_increment=number % 4 if clocked else 0,
            status=TableStatus.FINISHED if number >= public and number % 2 else (TableStatus.OPEN, TableStatus.PLAYING)[number % 2],
            password_hash="md5$salt$hash" if number % 7 == 0 else "",
        ))  # fmt: skip
    tables = Table.objects.bulk_create(rows)
    start = timezone.now() - datetime.timedelta(days=1)
    order = list(range(len(tables) - 1))
    chance.shuffle(order)
    order.insert(0, len(tables))  # the first table, of no seat rows, is the newest
    for table, place in zip(tables, order, strict=True):
        table.created = start + datetime.timedelta(seconds=place)
    Table.objects.bulk_update(tables, ["created"])
    seats = []
    for table in tables[1:]:  # the first has no seat rows
        sitters = iter(chance.sample(people, table.seat_count))
        for number in range(table.seat_count):
            kind = chance.random()
            if kind < 0.3:
                seats.append(Seat(table=table, number=number, user=next(sitters)))
            elif kind < 0.7:
                bot = chance.choice(bots)
                seats.append(Seat(table=table, number=number, user=bot, bot_level=bot.bot_level))
            else:
                seats.append(Seat(table=table, number=number))
    chance.shuffle(seats)  # their ids out of the seats' order
    Seat.objects.bulk_create(seats)
    return {"tables": tables, "public": public, "owner": owner}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_lobby_list_is_what_the_models_gave(lobby: dict[str, Any], language: str) -> None:
    with translation.override(language):
        listed = lobby_tables()
        _same(listed, _model_lobby_tables())
    shown = sorted(lobby["tables"][: lobby["public"]], key=lambda table: table.created, reverse=True)
    assert [table["id"] for table in listed] == [table.pk for table in shown[:LOBBY_TABLES]]
    assert listed[0]["id"] == lobby["tables"][0].pk and listed[0]["seats"] == []
    # The lobby is as varied as it claims: every kind of seat and name is in the list compared.
    seats = [seat for table in listed for seat in table["seats"]]
    names = {seat["name"] for seat in seats}
    with translation.override(language):
        bench_names = {str(bot_persona(username).name) for username in ("bot-random", "bot-easy-lyosha-2")}  # type: ignore[union-attr]
    assert bench_names.isdisjoint({"Random Rita", "Lucky Lyosha II"}) == (language == "ru")
    assert {None, "Person 1", "person-2", "Cup Bot", "cup-bot-plain", *bench_names} <= names
    assert {seat["bot"] for seat in seats} == {True, False}
    assert {table["status"] for table in listed} == {"open", "playing"}
    assert {table["password"] for table in listed} == {True, False}
    assert None in [table["clock"] for table in listed] and any(table["clock"] for table in listed)


def test_the_lobby_list_is_two_queries(lobby: dict[str, Any], django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(2):
        assert len(lobby_tables()) == LOBBY_TABLES


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_table_detail_is_what_the_models_gave(
    lobby: dict[str, Any], language: str, django_assert_num_queries: Any
) -> None:
    tables = lobby["tables"]
    private = next(table for table in tables if table.private)
    finished = next(table for table in tables if table.status == TableStatus.FINISHED)
    played = tables[5]
    for started in (2, 1):  # the later game is the table's
        Game.objects.create(
            table=played, rules={}, players=2, record={}, seed="s", salt="s", commitment=f"c{started}"
        )  # fmt: skip
    Game.objects.filter(commitment="c1").update(started=timezone.now() - datetime.timedelta(minutes=1))
    Game.objects.filter(commitment="c2").update(started=timezone.now() - datetime.timedelta(minutes=2))
    with translation.override(language):
        for table in (private, finished, played, tables[0]):
            with django_assert_num_queries(3):
                detail = table_detail(table_id=table.pk)
            _same(detail, _model_table_detail(table.pk))
    assert detail["owner"] == lobby["owner"].pk
    assert table_detail(table_id=played.pk)["game"] == Game.objects.get(commitment="c1").pk
    with pytest.raises(Table.DoesNotExist):
        table_detail(table_id=max(table.pk for table in tables) + 1)
