"""The API app's pages: the bot guide in both languages, tokens and the bot account mark, the analysis board."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from api.models import ApiToken, BotAccount
from games.selectors import game_record_json
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import finished_game

pytestmark = pytest.mark.django_db


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Bots and the API", "bot account", "Authorization: Bearer", "/ws/bot/game/", "examples/bot_client.py")),
    ("ru", ("Боты и API", "бот-аккаунт", "Authorization: Bearer", "/ws/bot/game/", "examples/bot_client.py")),
])  # fmt: skip
def test_the_bot_guide_explains_the_api_in_both_languages(client: Client, language: str, words: tuple[str, ...]) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = _text(client.get(reverse("api-pages:bot-guide")).content)
    for word in words:
        assert word in text
    if language == "ru":
        assert "A program can play" not in text
    assert client.get(reverse("api:docs")).status_code == 200
    assert client.get(reverse("api:schema")).status_code == 200


def test_tokens_are_made_shown_once_revoked_and_an_account_becomes_a_bot(client: Client) -> None:
    assert client.get(reverse("api-pages:tokens")).status_code == 302  # log in first
    anna = person("anna")
    client.force_login(anna)
    made = client.post(reverse("api-pages:tokens"), {"name": "laptop"})
    key = re.search(r"durak_[A-Za-z0-9_-]+", made.content.decode())
    assert made.status_code == 200 and key is not None and made["Cache-Control"] == "no-store"
    again = client.get(reverse("api-pages:tokens")).content.decode()
    assert key.group(0) not in again and key.group(0)[:12] in again and "laptop" in again

    token = ApiToken.objects.get(user=anna)
    client.post(reverse("api-pages:token-revoke", args=[token.pk]))
    assert not ApiToken.objects.filter(user=anna).exists()
    assert client.post(reverse("api-pages:token-revoke", args=[token.pk])).status_code == 404

    client.post(reverse("api-pages:bot-account"), {})
    assert not BotAccount.objects.exists()  # not confirmed
    client.post(reverse("api-pages:bot-account"), {"confirm": "yes"})
    assert BotAccount.objects.filter(user=anna).exists()


def test_the_analysis_board_steps_through_a_pasted_record_and_a_finished_game(client: Client) -> None:
    game, _ = finished_game([person("anna"), person("boris")])
    record = game_record_json(game=game)
    pasted = client.post(reverse("api-pages:analysis"), {"record": json.dumps(record)})
    assert pasted.status_code == 200 and 'id="replay-data"' in pasted.content.decode()
    data = json.loads(re.search(r'id="replay-data"[^>]*>(.*?)</script>', pasted.content.decode(), re.S).group(1))  # type: ignore[union-attr]
    assert len(data["steps"]) == len(record["actions"]) + 1

    shown = client.get(reverse("api-pages:analysis") + f"?game={game.pk}")
    assert shown.status_code == 200 and "anna" in shown.content.decode()

    broken = client.post(reverse("api-pages:analysis"), {"record": '{"rules": {}, "hands": 5}'})
    assert broken.status_code == 400
    assert client.post(reverse("api-pages:analysis"), {"record": "not json"}).status_code == 400

    running = table(person("vera"))
    from games import services

    services.table_join(table=running, user=running.owner)
    services.table_join(table=running, user=person("gleb"))
    refused = client.get(reverse("api-pages:analysis") + f"?game={latest_game(running).pk}")
    assert refused.status_code == 400 and "once the game is over" in refused.content.decode()
    assert "hands" not in refused.content.decode()
