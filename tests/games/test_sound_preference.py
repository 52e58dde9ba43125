"""The game page's mute switch kept for the account: the POST endpoint (logged in, CSRF, a strict value, JSON
answers in the reader's language), the page's JSON that hands it to static/games/sound.js, and the profile form."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import BotLevel, User
from accounts.services import bot_account_ensure, user_sign_up
from games import services
from games.engine import Rules
from games.engine.cards import card_name, names
from games.models import Game
from games.snapshots import state_of

pytestmark = pytest.mark.django_db

URL = "/accounts/sound/"


def _person(username: str, language: str = "en") -> User:
    return user_sign_up(
        username=username, email=f"{username}@example.com", password="a-Long-passw0rd", preferred_language=language
    )


def _logged_in(user: User, *, enforce_csrf_checks: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf_checks)
    client.force_login(user)
    return client


def _page_json(client: Client, game: Game, element: str = "game-sound") -> dict:
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    found = re.search(rf'<script id="{element}" type="application/json">(.*?)</script>', html, re.S)
    assert found, f"no {element} JSON on the page"
    return json.loads(found.group(1))


@pytest.fixture
def game() -> Game:
    anna, boris = _person("sound-anna"), _person("sound-boris")
    return services.game_start_reserved(
        owner=anna, rules=Rules.from_dict({"preset": "podkidnoy"}), players=[anna, boris], turn_seconds=900
    )


def test_the_url_is_the_one_the_page_posts_to() -> None:
    assert reverse("accounts:sound-muted") == URL


def test_a_player_mutes_and_unmutes_and_every_game_page_reads_it(game: Game) -> None:
    anna = User.objects.get(username="sound-anna")
    client = _logged_in(anna)
    assert _page_json(client, game)["muted"] is False
    assert _page_json(client, game)["account"] is True

    response = client.post(URL, {"muted": "true"})
    assert response.status_code == 200
    assert response.json() == {"muted": True}
    anna.refresh_from_db()
    assert anna.sound_muted is True
    assert _page_json(client, game)["muted"] is True

    other = services.game_start_reserved(
        owner=anna, rules=Rules.from_dict({"preset": "podkidnoy"}), players=[anna, _person("sound-vera")]
    )
    assert _page_json(client, other)["muted"] is True, "another game's page starts muted too"

    assert client.post(URL, {"muted": "false"}).json() == {"muted": False}
    anna.refresh_from_db()
    assert anna.sound_muted is False


def test_the_page_json_names_the_endpoint_and_carries_a_csrf_token(game: Game) -> None:
    settings = _page_json(_logged_in(User.objects.get(username="sound-anna")), game)
    assert settings["url"] == URL
    assert len(settings["csrf"]) >= 32
    assert settings["strings"]["your_move_title"] == "Your move · Durak"


def test_a_russian_page_says_your_move_in_russian(game: Game) -> None:
    client = _logged_in(User.objects.get(username="sound-anna"))
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Без звука" in html and "Уведомлять" in html
    assert _page_json(client, game)["strings"]["your_move_title"] == "Ваш ход · Дурак"


def test_a_logged_out_reader_is_refused_and_keeps_his_switch_in_the_browser(game: Game) -> None:
    client = Client()
    settings = _page_json(client, game)
    assert settings["account"] is False and settings["muted"] is False
    response = client.post(URL, {"muted": "true"}, headers={"Accept-Language": "ru"})
    assert response.status_code == 403
    assert response.json() == {"error": "Войдите, чтобы настройка звука сохранялась в вашей учётной записи."}


def test_a_bot_account_is_refused() -> None:
    bot = bot_account_ensure(username="sound-bot", display_name="Bot", engine="easy", level=BotLevel.EASY)
    response = _logged_in(bot).post(URL, {"muted": "true"})
    assert response.status_code == 403
    bot.refresh_from_db()
    assert bot.sound_muted is False


@pytest.mark.parametrize("body", [{"muted": "yes"}, {"muted": ""}, {"muted": "True "}, {"mute": "true"}, {}])
def test_a_bad_value_is_refused_in_the_readers_language_and_changes_nothing(body: dict[str, str]) -> None:
    vera = _person("sound-vera", language="ru")
    vera.sound_muted = True
    vera.save(update_fields=["sound_muted"])
    client = _logged_in(vera)
    client.cookies["django_language"] = "ru"
    response = client.post(URL, body)
    assert response.status_code == 400
    assert response.json() == {"error": "Настройка звука должна быть «true» или «false»."}
    vera.refresh_from_db()
    assert vera.sound_muted is True


def test_a_bad_value_in_english_says_so_in_english() -> None:
    response = _logged_in(_person("sound-ed")).post(URL, {"muted": "1"})
    assert response.status_code == 400
    assert response.json() == {"error": "The sound setting must be “true” or “false”."}


def test_a_forged_request_without_the_csrf_token_is_refused_and_changes_nothing() -> None:
    anna = _person("sound-forged", language="ru")
    client = _logged_in(anna, enforce_csrf_checks=True)
    client.cookies["django_language"] = "ru"
    response = client.post(URL, {"muted": "true"})
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert "Ошибка проверки CSRF" in response.content.decode(), "the refusal speaks the reader's language"
    anna.refresh_from_db()
    assert anna.sound_muted is False


def test_a_get_is_not_a_way_to_set_it() -> None:
    anna = _person("sound-get")
    response = _logged_in(anna).get(URL, {"muted": "true"})
    assert response.status_code == 405
    anna.refresh_from_db()
    assert anna.sound_muted is False


def test_the_profile_form_sets_it_too() -> None:
    anna = _person("sound-profile")
    client = _logged_in(anna)
    assert "id_sound_muted" in client.get(reverse("accounts:profile")).content.decode()
    form = {"display_name": "Anna", "country": "", "preferred_language": "en"}
    client.post(reverse("accounts:profile"), {**form, "sound_muted": "on"})
    anna.refresh_from_db()
    assert anna.sound_muted is True
    client.post(reverse("accounts:profile"), form)
    anna.refresh_from_db()
    assert anna.sound_muted is False


def test_the_sound_json_carries_the_switch_and_its_texts_and_nothing_of_the_game(game: Game) -> None:
    """The page's new JSON (game-sound) holds no card: not the reader's hand, not the other's, not the stock."""
    settings = _page_json(_logged_in(User.objects.get(username="sound-anna")), game)
    assert set(settings) == {"account", "muted", "url", "csrf", "strings"}
    state = state_of(game)
    cards = {card for hand in state.hands for card in names(hand)} | {card_name(card) for card in state.stock}
    assert len(cards) == 36
    text = json.dumps(settings, ensure_ascii=False)
    assert not [card for card in cards if re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text)]
