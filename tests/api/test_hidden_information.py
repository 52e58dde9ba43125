"""No API answer carries a running game's hidden cards: another seat's unseen cards, the stock's order, the
deck or the record. Every GET operation of the OpenAPI schema is asked about a running game (its ids filled
with the game, its table, an open tournament, a pool that exists), by a spectator, by a player of the game and
anonymously; each must answer its expected status (EXPECTED_STATUS) before its body is scanned, and the
self-tests show the proof failing on one stock card and on one wrong status. A finished game's record and deck
are shown to all."""

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
from games.engine.cards import card_name, names
from games.logtext import card_text
from games.models import Game
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.api.conftest import token_client
from tests.games.factories import latest_game, person, table
from tests.leakproof import cards_in
from tests.ratings.helpers import finished_game
from tests.tournaments.factories import enter, tournament

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


# What each GET operation answers about the running game, its table and an open tournament: (anonymous, a
# spectator with a token, a player of the game with a token). A new operation fails the test until its answers
# are written here, so that an operation answering 403, 404 or 500 to everyone cannot pass for one that shows
# nothing hidden.
EXPECTED_STATUS: dict[str, tuple[int, int, int]] = {
    "/api/v1/account/": (401, 200, 200),
    "/api/v1/account/games/": (401, 200, 200),
    "/api/v1/games/": (200, 200, 200),
    "/api/v1/games/{id}/": (200, 200, 200),
    "/api/v1/games/{id}/analysis/": (401, 403, 409),  # only its players may read it, once the game is over
    "/api/v1/games/{id}/record/": (409, 409, 409),  # a running game's record: not yet
    "/api/v1/games/{id}/view/": (200, 200, 200),
    "/api/v1/players/": (200, 200, 200),
    "/api/v1/players/{username}/": (200, 200, 200),
    "/api/v1/players/{username}/history/": (200, 200, 200),
    "/api/v1/pools/": (200, 200, 200),
    "/api/v1/pools/{slug}/": (200, 200, 200),
    "/api/v1/pools/{slug}/leaderboard/": (200, 200, 200),
    "/api/v1/tables/": (200, 200, 200),
    "/api/v1/tables/{id}/": (200, 200, 200),
    "/api/v1/tokens/": (401, 200, 200),
    "/api/v1/tournaments/": (200, 200, 200),
    "/api/v1/tournaments/{id}/": (200, 200, 200),
    "/api/v1/tournaments/{id}/audit/": (200, 200, 200),
    "/api/v1/tournaments/{id}/entrants/": (200, 200, 200),
    "/api/v1/tournaments/{id}/export/": (200, 200, 200),
    "/api/v1/tournaments/{id}/rounds/": (200, 200, 200),
    "/api/v1/tournaments/{id}/standings/": (200, 200, 200),
}


def _fill(path: str, objects: dict[str, int | str]) -> str:
    """The path with each parameter the object it names: the resource before `{id}` says which."""
    resource = path.split("{", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    filled = path.replace("{id}", str(objects[resource])) if "{id}" in path else path
    return filled.replace("{username}", str(objects["username"])).replace("{slug}", str(objects["slug"]))


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Any) -> None:
    """Some hundred answers in a row: a rate limit would answer 429 to all of them."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}


def _answers_failing(game: Game, clients: dict[Any, APIClient], objects: dict[str, int | str]) -> list[str]:
    """Every GET operation asked by every client: an unexpected status, or a card the client may not see."""
    paths = _get_paths()
    assert sorted(paths) == sorted(EXPECTED_STATUS), "an operation was added or removed: write its answers above"
    failures = []
    for index, (reader, client) in enumerate(clients.items()):
        hidden = _hidden_from(game, reader if isinstance(reader, int) else None)
        assert len(hidden) > 20 and _card_tokens(game.record) & hidden  # the record would leak: the check bites
        for path in paths:
            for suffix in ("", "?format=csv", "?lang=ru"):
                response = client.get(_fill(path, objects) + suffix, HTTP_ACCEPT="*/*")
                expected = EXPECTED_STATUS[path][index]
                if response.status_code != expected and not (suffix == "?format=csv" and response.status_code == 404):
                    failures.append(f"{path}{suffix} answered {reader!r} {response.status_code}, not {expected}")
                    continue
                body = response.content.decode()
                leaked = (cards_in(KEY_SHOWN.sub("", body)) | _card_tokens(KEY_SHOWN.sub("", body))) & hidden
                if leaked:
                    failures.append(f"{path}{suffix} shows {reader!r} hidden cards {sorted(leaked)}")
                if game.salt in body or game.seed in body:
                    failures.append(f"{path}{suffix} shows {reader!r} the deal's salt or seed")
    return failures


def _readers() -> tuple[Game, dict[Any, APIClient], dict[str, int | str]]:
    anna, boris, watcher = person("anna"), person("boris"), person("watcher")
    game = _running_game(anna, boris)
    event = tournament()
    enter(event, [anna])
    clients = {None: APIClient(), "watcher": token_client(watcher), 0: token_client(anna)}
    objects: dict[str, int | str] = {
        "games": game.pk, "tables": game.table_id, "tournaments": event.pk, "username": "anna",
        "slug": "podkidnoy-36-heads-up",
    }  # fmt: skip
    return game, clients, objects


def test_no_answer_about_a_running_game_shows_a_hidden_card() -> None:
    game, clients, objects = _readers()
    assert _answers_failing(game, clients, objects) == []
    # The player's own view shows his own hand (so the check above looked at real card tokens).
    own = clients[0].get(f"/api/v1/games/{game.pk}/view/").json()
    assert set(own["view"]["hand"]) == set(names(state_of(game).hands[0]))


def test_the_api_proof_fails_on_an_answer_that_names_one_stock_card(monkeypatch: pytest.MonkeyPatch) -> None:
    from api import serializers

    game, clients, objects = _readers()
    stock = state_of(game).stock
    assert len(stock) > 1
    stock_card = card_name(stock[-1])  # the top card, face down (the face-up card lies first)
    original = serializers.GameDetailSerializer.to_representation

    def leaky(self: Any, instance: Any) -> Any:
        return {**original(self, instance), "next": stock_card}

    monkeypatch.setattr(serializers.GameDetailSerializer, "to_representation", leaky)
    failures = _answers_failing(game, clients, objects)
    assert failures and all("/api/v1/games/{id}/" in failure and stock_card in failure for failure in failures)


def test_the_api_proof_fails_on_an_operation_that_answers_other_than_expected(monkeypatch: pytest.MonkeyPatch) -> None:
    game, clients, objects = _readers()
    monkeypatch.setitem(EXPECTED_STATUS, "/api/v1/games/{id}/record/", (200, 200, 200))
    assert "/api/v1/games/{id}/record/ answered None 409, not 200" in _answers_failing(game, clients, objects)


def test_a_finished_game_shows_its_record_and_revealed_deck_to_anyone() -> None:
    game, _ = finished_game([person("anna"), person("boris")])
    client = APIClient()
    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    assert detail["deck"] == game.revealed_deck and detail["salt"] == game.salt
    record = client.get(f"/api/v1/games/{game.pk}/record/").json()
    assert record["hands"] == game.record["hands"] and record["deck"] == game.revealed_deck
    from games.engine import verify_commitment

    assert verify_commitment(detail["commitment"], detail["salt"], detail["deck"])


# --- a duplicate round (issue 37): a finished board while another board plays the same deck --------------------

# Pages whose text is the same whatever the game (tests/security/test_crawl.py): the rules' examples, the docs.
FIXED_TEXT = ("/rules/", "/api/docs/", "/api/redoc/", "/api/schema/", "/bots/")
COUNTRY_SELECT = re.compile(r"<select[^>]*\bname=\"country\".*?</select>", re.DOTALL)


def _duplicate_round() -> tuple[Game, Game, User, int]:
    """A duplicate tournament's round 1: a board of bots played to its end, anna's board dealt and being played.
    The finished game, anna's game, anna, her seat."""
    from django.utils import timezone

    from tests.tournaments.factories import bots, finish_game
    from tournaments import services as tournament_services
    from tournaments.models import MatchGame, Pairing

    anna = person("anna")
    event = tournament(duplicate=True, turn_seconds=3600, starts_at=timezone.now())
    enter(event, [anna, *bots(3)])
    tournament_services.tournament_start(tournament=event, by=event.director)
    mine = Pairing.objects.get(tournament=event, seats__entrant__user=anna)
    tournament_services.pairing_check_in(pairing=mine, user=anna)
    anna_game = MatchGame.objects.get(pairing=mine).game
    done = MatchGame.objects.exclude(pairing=mine).get(pairing__tournament=event).game
    finish_game(done)
    done.refresh_from_db()
    anna_game.refresh_from_db()
    assert done.status == "finished" and anna_game.status == "playing" and done.seed == anna_game.seed
    seat = next(one.number for one in game_services_seats(anna_game) if one.user_id == anna.pk)
    return done, anna_game, anna, seat


def game_services_seats(game: Game) -> list[Any]:
    from games.selectors import game_seats

    return game_seats(game)


def test_a_finished_duplicate_board_names_no_card_of_the_deck_while_another_board_plays() -> None:
    from django.test import Client

    from games.broadcast import game_event, view_in_event
    from games.selectors import game_result, message_in_language
    from tests.leakproof import hidden_from, site_urls

    done, anna_game, anna, seat = _duplicate_round()
    # Every card of the round's deck that anna's own game has not shown her (the same deck, seats rotated).
    hidden = hidden_from(anna_game, seat)
    assert len(hidden) >= 20 and hidden & {card for hand in done.record["hands"] for card in hand}
    secrets = {done.salt, done.seed, anna_game.salt}
    watcher = person("watcher")
    readers: dict[str, Any] = {"anonymous": Client(), "watcher": Client(), "anna": Client()}
    readers["watcher"].force_login(watcher)
    readers["anna"].force_login(anna)
    tournament_id = int(done.match_game.pairing.tournament_id)
    objects = {"game_id": done.pk, "table_id": done.table_id, "tournament_id": tournament_id,
               "number": 1, "username": "anna", "slug": "podkidnoy-36-heads-up", "token": done.table.link_token}  # fmt: skip
    urls = [url for url in site_urls(objects) if not url.startswith(FIXED_TEXT)]
    api_paths = [_fill(path, {"games": done.pk, "tables": done.table_id, "tournaments": tournament_id,
                              "username": "anna", "slug": "podkidnoy-36-heads-up"}) for path in _get_paths()]  # fmt: skip
    failures = []
    for name, client in readers.items():
        for url in sorted(set(urls + api_paths)):
            for suffix in ("", "?lang=ru"):
                response = client.get(url + suffix, HTTP_ACCEPT="*/*")
                if response.status_code >= 500:
                    failures.append(f"{url}{suffix} answered {name} {response.status_code}")
                    continue
                body = COUNTRY_SELECT.sub("", KEY_SHOWN.sub("", response.content.decode(errors="replace")))
                leaked = cards_in(body) & hidden
                if leaked:
                    failures.append(f"{url}{suffix} shows {name} cards of the round's deck {sorted(leaked)}")
                if any(secret in body for secret in secrets):
                    failures.append(f"{url}{suffix} shows {name} a salt or the deal's seed")
    assert failures == []
    # The socket: what a spectator of the finished board is sent.
    event = game_event(game=done, seats=game_services_seats(done), state=state_of(done), result=game_result(done))
    message = message_in_language(view_in_event(event, None), "en")
    assert not cards_in(message) & hidden and message["log"] == [] and not any(secret in json.dumps(message) for secret in secrets)
    # Its own players saw the game: their view keeps its log.
    seated = message_in_language(view_in_event(event, 0), "en")
    assert seated["log"]


def test_the_duplicate_proof_bites_on_a_finished_board_shown_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the hold (the deck shown when the game ends, as for any game) the scan above finds the cards."""
    from games.selectors import game_record_json

    done, anna_game, _, seat = _duplicate_round()
    hidden = _hidden_from(anna_game, seat)
    Game.objects.filter(pk=done.pk).update(deck_held=False)
    done.refresh_from_db()
    assert _card_tokens(game_record_json(game=done)) & hidden
