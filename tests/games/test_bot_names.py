"""Bots at one table are different accounts with different names, in the reader's language: the game.view
message's players list, its log, the game page and the table's seats name each bot apart."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

from accounts.bot_names import BOT_BENCH, bot_persona
from accounts.models import User
from games import services
from games.models import Game
from games.broadcast import game_event, view_in_event
from games.selectors import game_log_lines, game_seats, game_view_for, message_in_language
from games.snapshots import state_of
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from games import tasks

    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    yield


def _three_bots_and_a_person(level: str = "easy") -> tuple[User, Game]:
    owner = person()
    at = table(owner, seats=4)
    services.table_join(table=at, user=owner)
    services.table_fill_bots(table=at, level=level)
    return owner, latest_game(at)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_three_bots_of_one_level_have_three_names_in_the_message(language: str) -> None:
    owner, game = _three_bots_and_a_person()
    message = game_view_for(game=game, user=owner, language=language)
    bots = [player for player in message["players"] if player["bot"]]
    assert len(bots) == 3
    names = [player["name"] for player in bots]
    assert len(set(names)) == 3, names
    expected = []
    with translation.override(language):
        expected = [str(persona.name) for persona in BOT_BENCH["easy"][:3]]
    assert names == expected
    # The names are words of the reader's language: Cyrillic in Russian, Latin in English.
    cyrillic = [any("а" <= letter.lower() <= "я" for letter in name) for name in names]
    assert all(cyrillic) if language == "ru" else not any(cyrillic)
    # Three accounts, not one account seated three times: each keeps a rating of its own.
    accounts = {seat.user_id for seat in game_seats(game) if seat.is_bot}
    assert len(accounts) == 3
    assert "bench_bots" not in message


def test_one_event_gives_each_reader_the_names_in_his_language() -> None:
    """The group event is built once (in whatever language the sending thread has); each socket's message
    names the bots in its reader's language, in the players list and in the log."""
    owner, game = _three_bots_and_a_person()
    with translation.override("en"):
        event = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
    seat = next(one.number for one in game_seats(game) if one.user_id == owner.pk)
    english = message_in_language(view_in_event(event, seat), "en")
    russian = message_in_language(view_in_event(event, seat), "ru")
    english_names = [player["name"] for player in english["players"] if player["bot"]]
    russian_names = [player["name"] for player in russian["players"] if player["bot"]]
    assert english_names == ["Random Rita", "Lucky Lyosha", "Merry Mila"]
    assert russian_names == ["Рита Наугад", "Лёша Везунчик", "Мила Весёлая"]
    assert "bench_bots" not in russian and "names" not in russian


def test_log_lines_and_the_game_page_name_each_bot() -> None:
    owner, game = _three_bots_and_a_person()
    mine = next(one.number for one in game_seats(game) if one.user_id == owner.pk)
    for _ in range(40):
        game.refresh_from_db()
        view = game_view_for(game=game, user=owner, language="en")
        if mine in view["waiting"]:
            action = next(one for one in view["view"]["legal"] if one["type"] != "accuse")
            services.game_submit_action(game_id=game.pk, user=owner, action=action, seq=game.seq)
        elif services.game_bot_move(game_id=game.pk, seq=game.seq) is None:
            break
    game.refresh_from_db()
    russian = " ".join(line["text"] for line in game_log_lines(game=game, language="ru"))
    english = " ".join(line["text"] for line in game_log_lines(game=game, language="en"))
    bot_seats = [one.number for one in game_seats(game) if one.is_bot]
    moved = {raw["seat"] for raw in game.record["actions"]} & set(bot_seats)
    assert moved, "no bot moved"
    for seat in moved:
        account = game_seats(game)[seat].user
        assert account is not None
        persona = bot_persona(account.username)
        assert persona is not None
        with translation.override("ru"):
            assert str(persona.name) in russian
        with translation.override("en"):
            assert str(persona.name) in english
    client = Client()
    client.force_login(owner)
    for language, names in (("en", ["Random Rita", "Lucky Lyosha", "Merry Mila"]),
                            ("ru", ["Рита Наугад", "Лёша Везунчик", "Мила Весёлая"])):  # fmt: skip
        client.cookies["django_language"] = language
        page = client.get(f"/play/game/{game.pk}/").content.decode()
        found = re.search(r'<script id="game-initial" type="application/json">(.*?)</script>', page, re.S)
        assert found is not None
        drawn = [player["name"] for player in json.loads(found.group(1))["players"] if player["bot"]]
        assert drawn == names, language


def test_a_second_table_seats_the_same_bench_and_a_tournament_bot_keeps_its_name() -> None:
    """The bench is reused from table to table (the same accounts, so their ratings grow), and a bot account
    outside the bench (a tournament's entrant) is named by its display name."""
    _, first = _three_bots_and_a_person("medium")
    _, second = _three_bots_and_a_person("medium")
    assert [seat.user_id for seat in game_seats(first) if seat.is_bot] == [
        seat.user_id for seat in game_seats(second) if seat.is_bot
    ]
    from accounts.models import BotLevel
    from accounts.services import bot_account_ensure

    own = bot_account_ensure(username="demo-anya", display_name="Anya", engine="heuristic", level=BotLevel.MEDIUM)
    assert bot_persona(own.username) is None
    with translation.override("ru"):
        assert own.public_name == "Anya"


def test_a_person_named_like_a_bench_bot_is_passed_over_and_a_full_bench_is_seated_again() -> None:
    person("bot-easy-lyosha")  # a person took the second bench name
    first = services.bot_account_for("easy")
    second = services.bot_account_for("easy", seated={first.pk})
    assert second.is_bot and second.username == "bot-easy-mila"
    every = [services.bot_account_for("easy")]
    for _ in range(len(BOT_BENCH["easy"]) - 1):
        every.append(services.bot_account_for("easy", seated={one.pk for one in every}))
    assert all(one.is_bot for one in every)
    assert every[-1] == first  # the bench is used up: the first bot again, never a person
