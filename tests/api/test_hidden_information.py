"""No API answer carries a running game's hidden cards: another seat's unseen cards, the stock's order, the
deck or the record. Every GET operation of the OpenAPI schema is asked about a running game, by a
spectator, by a player of the game and anonymously; a finished game's record and deck are shown to all."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import User
from api.services import KEY_PREFIX
from games import services as game_services
from games.engine.cards import names
from games.logtext import card_text
from games.models import Game
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.api.conftest import token_client
from tests.games.factories import latest_game, person, table
from tests.ratings_app.helpers import finished_game

pytestmark = pytest.mark.django_db

# A card name standing alone: not a piece of a token's key or another random string ("aJSx" names no card).
TOKEN = re.compile(r"(?<![0-9A-Za-zА-Яа-яЁё_])(?:10|[2-9JQKAВДКТ])[SCDH♠♣♦♥](?![0-9A-Za-zА-Яа-яЁё_])")
# The shown start of an API key ("durak_" and random URL-safe characters) can end in "-QS": about 1 key in
# 5,000 would read as a card. Keys are cut out before looking for cards.
KEY_SHOWN = re.compile(re.escape(KEY_PREFIX) + r"[A-Za-z0-9_-]*")


def _get_paths() -> list[str]:
    schema = yaml.safe_load(APIClient().get(reverse("api:schema")).content)
    return [path for path, operations in schema["paths"].items() if "get" in operations]


def _running_game(anna: User, boris: User) -> Game:
    """A heads-up game some moves in, with a bout taken so that some cards in a hand are public."""
    at = table(anna, turn_seconds=3600)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = latest_game(at)
    people = {0: anna, 1: boris}
    for _ in range(12):
        game.refresh_from_db()
        seat = waiting_seats(state_of(game))[0]
        from games.engine import seat_view

        legal = seat_view(state_of(game), seat)["legal"]
        action = next((move for move in legal if move["type"] == "take"), legal[0])
        game_services.game_submit_action(game_id=game.pk, user=people[seat], action=action, seq=game.seq)
    game.refresh_from_db()
    assert game.status == "playing"
    return game


def _hidden_from(game: Game, seat: int | None) -> set[str]:
    """The cards the reader at `seat` (None: a spectator) may not see, in both notations."""
    from games.bots.knowledge import seen_in_log

    state = state_of(game)
    seen = seen_in_log(game.record["actions"])
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.update(names(hand & ~seen))
    stock = list(state.stock)
    if stock and state.trump_card >= 0:
        stock.remove(state.trump_card)  # dealt face up: public
    hidden.update(names(sum(1 << card for card in stock)))
    # In both notations of the log: the engine's letters and the Russian reader's (В, Д, К, Т).
    with translation.override("ru"):
        russian = {card_text(card) for card in hidden}
    return hidden | {card_text(card) for card in hidden} | russian


def _card_tokens(answer: Any) -> set[str]:
    text = json.dumps(answer, ensure_ascii=False) if not isinstance(answer, str) else answer
    return set(TOKEN.findall(text))


def _fill(path: str, game: Game, username: str) -> str:
    return (path.replace("{pk}", str(game.pk)).replace("{id}", str(game.pk)).replace("{username}", username)
            .replace("{slug}", "podkidnoy-heads-up").replace("{format}", "json"))


def test_no_answer_about_a_running_game_shows_a_hidden_card() -> None:
    anna, boris, watcher = person("anna"), person("boris"), person("watcher")
    game = _running_game(anna, boris)
    clients = {None: APIClient(), "watcher": token_client(watcher), 0: token_client(anna)}
    paths = _get_paths()
    assert len(paths) >= 12
    checked = 0
    for reader, client in clients.items():
        hidden = _hidden_from(game, reader if isinstance(reader, int) else None)
        assert len(hidden) > 20 and _card_tokens(game.record) & hidden  # the record would leak: the check bites
        for path in paths:
            for suffix in ("", "?format=csv", "?lang=ru"):
                response = client.get(_fill(path, game, "anna") + suffix, HTTP_ACCEPT="*/*")
                body = response.content.decode()
                leaked = _card_tokens(KEY_SHOWN.sub("", body)) & hidden
                assert not leaked, f"{path}{suffix} shows {reader!r} hidden cards {sorted(leaked)}"
                assert game.salt not in body and game.seed not in body
                checked += 1
    assert checked >= 3 * 3 * 12
    # The player's own view shows his own hand (so the check above looked at real card tokens).
    own = clients[0].get(f"/api/v1/games/{game.pk}/view/").json()
    assert set(own["view"]["hand"]) == set(names(state_of(game).hands[0]))


def test_a_finished_game_shows_its_record_and_revealed_deck_to_anyone() -> None:
    game, _ = finished_game([person("anna"), person("boris")])
    client = APIClient()
    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    assert detail["deck"] == game.revealed_deck and detail["salt"] == game.salt
    record = client.get(f"/api/v1/games/{game.pk}/record/").json()
    assert record["hands"] == game.record["hands"] and record["deck"] == game.revealed_deck
    from games.engine import verify_commitment

    assert verify_commitment(detail["commitment"], detail["salt"], detail["deck"])
