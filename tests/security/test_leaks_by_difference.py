"""No reader of a running game is shown a card he has not seen, proved by difference (issue 39).

For each reader (each seat, a spectator, an anonymous visitor, a tournament director who is not playing) at
several points of a game (the deal, mid-bout, after a take, later on), everything he can fetch is produced
twice: under the deal as it was and under one that differs only in the cards he has not seen
(tests/leakproof.py). Fetched: every page of the URL configuration and every API answer (with its objects'
real ids, in JSON and CSV, in both languages), the game record's download, the socket's game.view as the
consumer builds it and as the game's broadcast event carries it, in both languages. Every output must be the
same. The card scan (tests.leakproof.cards_in) is the second net over the same outputs.

The planted-defect tests at the end show that the proof fails when a page, a message or an answer shows one
card of another hand or of the stock.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from accounts.models import User
from accounts.roles import Role
from accounts.services import user_role_grant
from games import broadcast, selectors
from games import services as game_services
from games.services import tables
from games.engine import seat_view
from games.models import Game
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.leakproof import (
    assert_same_under_another_deal,
    cards_in,
    hidden_from,
    outputs_same_under_another_deal,
    pin_first_attacker,
    site_urls,
)

pytestmark = pytest.mark.django_db

# For the scan only: the profile form's country list (ISO codes such as AS, AD, KH read as cards), the same for
# everyone, and pages whose text is the same for every game (the rules' examples, the API's documentation).
COUNTRY_SELECT = re.compile(r"<select[^>]*\bname=\"country\".*?</select>", re.DOTALL)
FIXED_TEXT = ("/rules/", "/api/docs/", "/api/redoc/", "/api/schema/", "/bots/")
PASSWORD_PAGES = ("/accounts/password/",)


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Any) -> None:
    """The proof asks every answer many times; a rate limit would answer 429 the same under both deals."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}


def _advance(game: Game, people: Mapping[int, User], moves: int, rng: random.Random) -> Game:
    """Play `moves` moves through the services, each seat's move chosen at random among its legal ones, a
    take whenever one is offered every other time (so that taken cards go into a hand face up)."""
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != "playing":
            break
        state = state_of(game)
        seat = waiting_seats(state)[0]
        legal = seat_view(state, seat)["legal"]
        takes = [move for move in legal if move["type"] == "take"]
        action = takes[0] if takes and rng.random() < 0.5 else rng.choice(legal)
        game_services.game_submit_action(game_id=game.pk, user=people[seat], action=action, seq=game.seq)
    game.refresh_from_db()
    return game


def socket_outputs(game: Game, seat: int | None) -> dict[str, Any]:
    """The game.view a socket of the reader is sent: asked for (the consumer's sync) and broadcast."""
    outputs: dict[str, Any] = {}
    state = state_of(game)
    event = broadcast.game_event(game=game, seats=selectors.game_seats(game), state=state, result=None)
    for language in ("en", "ru"):
        outputs[f"socket sync {language}"] = selectors.game_view_of_seat(game_id=game.pk, seat=seat, language=language)
        outputs[f"socket event {language}"] = selectors.message_in_language(
            broadcast.view_in_event(event, seat), language
        )
    return outputs


def page_outputs(client: Client, urls: list[str]) -> dict[str, Any]:
    outputs: dict[str, Any] = {}
    for url in urls:
        variants = [url]
        if url.startswith("/api/v1/"):
            variants += [f"{url}?format=csv", f"{url}?lang=ru"]
        for variant in variants:
            response = client.get(variant, HTTP_ACCEPT="*/*")
            content = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
            outputs[variant] = f"{response.status_code} {response.get('Location', '')}\n" + content.decode(
                errors="replace"
            )
    return outputs


class Readers:
    """A running heads-up game and everyone who might look at it."""

    def __init__(self, rules: dict[str, Any] | None = None, seats: int = 2, *, seed: str = "issue-39") -> None:
        self.people = {number: person() for number in range(seats)}
        at = table(self.people[0], seats=seats, rules=rules, turn_seconds=3600)
        # A fixed deal, so that every run proves the same thing.
        with mock.patch.object(tables, "shuffle_seed", return_value=seed):
            for user in self.people.values():
                game_services.table_join(table=at, user=user)
        self.table = at
        self.game = latest_game(at)
        pin_first_attacker(self.game)
        # Seats follow the joining order; read them back rather than assume it.
        self.people = {seat.number: seat.user for seat in at.seats.select_related("user") if seat.user is not None}
        self.watcher = person()
        self.director = person()
        user_role_grant(user=self.director, role=Role.TOURNAMENT_DIRECTOR)
        self.objects = {"game_id": self.game.pk, "table_id": self.table.pk, "username": self.people[0].username,
                        "token": self.table.link_token, "slug": "podkidnoy-36-heads-up", "format": "json"}  # fmt: skip
        # Pages made from code alone, the same whatever the game (the API's schema and documentation, the
        # rules, a password reset's form): the card scan passes them by too; they cost a third of the time.
        self.urls = [url for url in site_urls(self.objects) if not url.startswith(FIXED_TEXT + PASSWORD_PAGES)]

    def clients(self) -> Iterator[tuple[str, int | None, Client]]:
        for seat, user in self.people.items():
            client = Client()
            client.force_login(user)
            yield f"seat {seat}", seat, client
        for name, user in (("spectator", self.watcher), ("director", self.director)):
            client = Client()
            client.force_login(user)
            yield name, None, client
        yield "anonymous", None, Client()


def _prove(readers: Readers, rng: random.Random, extra: Callable[[int | None], Mapping[str, Any]] | None = None) -> int:
    compared = 0
    game = readers.game
    for name, seat, client in readers.clients():

        def produce(seat: int | None = seat, client: Client = client) -> dict[str, Any]:
            outputs = {**page_outputs(client, readers.urls), **socket_outputs(game, seat)}
            if extra is not None:
                outputs.update(extra(seat))
            return outputs

        outputs = outputs_same_under_another_deal(game, seat, produce, rng=rng)
        compared += len(outputs)
        # The second net: no output the reader was given under the real deal names a card he has not seen.
        hidden = hidden_from(game, seat)
        for output, text in outputs.items():
            if output.startswith(FIXED_TEXT):
                continue
            leaked = cards_in(COUNTRY_SELECT.sub("", text) if isinstance(text, str) else text) & hidden
            assert not leaked, f"{output} shows {name} the hidden cards {sorted(leaked)}"
    return compared


@pytest.mark.parametrize(
    ("rules", "seats", "checkpoints"),
    [
        ({"preset": "podkidnoy"}, 2, (0, 5, 14)),
        ({"preset": "perevodnoy", "transfer_by_showing_trump": True}, 3, (3, 12)),
        ({"preset": "aktobe"}, 2, (0, 8, 30)),
    ],
)
def test_no_reader_sees_a_difference_between_deals_that_differ_only_in_what_he_has_not_seen(
    rules: dict[str, Any], seats: int, checkpoints: tuple[int, ...]
) -> None:
    rng = random.Random(39)
    readers = Readers(rules, seats)
    assert len(readers.urls) > 20
    played = 0
    compared = 0
    for checkpoint in checkpoints:
        readers.game = _advance(readers.game, readers.people, checkpoint - played, rng)
        played = checkpoint
        assert readers.game.status == "playing"
        compared += _prove(readers, rng)
    assert compared > len(checkpoints) * (seats + 3) * len(readers.urls)


# --- the proof bites -------------------------------------------------------------------------------------


def test_the_proof_fails_when_a_socket_message_shows_another_hand_in_a_form_no_scan_knows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readers = Readers()
    readers.game = _advance(readers.game, readers.people, 4, random.Random(1))
    original = selectors.game_view_of_seat

    def leaky(*, game_id: int, seat: int | None, language: str) -> dict[str, Any]:
        message = original(game_id=game_id, seat=seat, language=language)
        state = state_of(Game.objects.get(pk=game_id))
        # The other hand as a number under a name that says nothing of cards: no scan would see it.
        message["x"] = state.hands[1 - seat if seat is not None else 0]
        return message

    monkeypatch.setattr(selectors, "game_view_of_seat", leaky)
    with pytest.raises(AssertionError, match="may not see"):
        assert_same_under_another_deal(readers.game, 0, lambda: socket_outputs(readers.game, 0), rng=random.Random(2))


def test_the_proof_fails_when_a_page_names_one_stock_card(monkeypatch: pytest.MonkeyPatch) -> None:
    from games import views

    readers = Readers()
    readers.game = _advance(readers.game, readers.people, 2, random.Random(3))
    original = views.client_strings

    def leaky() -> dict[str, Any]:
        game = Game.objects.get(pk=readers.game.pk)
        return {**original(), "next_card": game.record["stock"][0]}

    monkeypatch.setattr(views, "client_strings", leaky)
    client = Client()
    client.force_login(readers.watcher)
    urls = [f"/play/game/{readers.game.pk}/"]
    with pytest.raises(AssertionError, match="may not see"):
        assert_same_under_another_deal(readers.game, None, lambda: page_outputs(client, urls), rng=random.Random(4))
    # The scan sees it too: the card is named.
    assert cards_in(page_outputs(client, urls)[urls[0]]) & hidden_from(readers.game, None)


def test_the_proof_fails_when_an_api_answer_names_one_card_of_another_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    from api import serializers

    readers = Readers()
    readers.game = _advance(readers.game, readers.people, 3, random.Random(5))
    target = serializers.GameDetailSerializer
    original = target.to_representation

    def leaky(self: Any, instance: Any) -> Any:
        answer = original(self, instance)
        if isinstance(answer, dict) and isinstance(instance, Game):
            from games.engine.cards import names

            answer["note"] = f"the last card of seat 1 is {names(state_of(instance).hands[1])[-1]}"
        return answer

    monkeypatch.setattr(target, "to_representation", leaky)
    client = Client()
    client.force_login(readers.people[0])
    urls = [f"/api/v1/games/{readers.game.pk}/", "/api/v1/games/"]
    with pytest.raises(AssertionError, match="may not see"):
        assert_same_under_another_deal(readers.game, 0, lambda: page_outputs(client, urls), rng=random.Random(6))


def test_the_card_scan_finds_a_card_in_every_form() -> None:
    for form in ("QS", "SQ", "Q♠", "♠Q", "Q\\u2660", "Q&spades;", "Q&#9824;", "Д♠", "queen of spades", "дама пик",
                 "Queen of Spades", '{"card": 40}', '{"hand": [40]}', '{"mask": 1099511627776}'):  # fmt: skip
        assert "QS" in cards_in(f"<p>{form}</p>") if not form.startswith("{") else "QS" in cards_in(form), form
    assert "10H" in cards_in("десятка червей") and "10H" in cards_in("H10") and "10H" in cards_in("♥10")
    # Not cards: words and tokens that only contain the letters.
    assert cards_in("SQL QUERY KS1 aQSx quick brown fox 2024") == set()
