"""The replay page of a finished game (games.views_replay) and the analysis board (api.pages.analysis) through
Django's test client: the positions it ships (the deal, move N, the end, every hand face up, the stock in its
order), ?move out of range, a running game refused without a card, visibility, the shuffle's check in words,
the analysis when there is one, and the board's refusals of bad records in both languages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services, views_replay
from games.replays import replay_steps
from games.bots.review import JudgedDecision, JudgedGame
from games.engine import load_record, play
from games.engine.cards import card_name, names
from games.models import Game
from tests.games.factories import latest_game, person, table
from tests.leakproof import cards_in
from tests.ratings.helpers import play_out

pytestmark = pytest.mark.django_db


def _client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _finished(first: User, second: User, *, private: bool = False) -> Game:
    at = table(first, seats=2, private=private, turn_seconds=900)
    services.table_join(table=at, user=first, seat=0)
    services.table_join(table=at, user=second, seat=1)
    game = play_out(latest_game(at))
    services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


def _running(first: User, second: User) -> Game:
    at = table(first, seats=2, turn_seconds=900)
    services.table_join(table=at, user=first, seat=0)
    services.table_join(table=at, user=second, seat=1)
    return latest_game(at)


def _data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert found, "the page ships its positions"
    return dict(json.loads(found.group(1)))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _url(game: Game, query: str = "") -> str:
    return reverse("games:game-replay", args=[game.pk]) + query


def _positions(game: Game) -> list[Any]:
    """The engine's own states of the game, after 0, 1, 2, ... actions."""
    record = load_record(game.record)
    state = record.initial_state()
    states = [state.copy()]
    for seat, action in record.actions:
        play(state, seat, action)
        states.append(state.copy())
    return states


def test_the_replay_ships_every_position_with_every_hand_face_up_and_the_stock_in_order() -> None:
    first, second = person("rita"), person("semen")
    game = _finished(first, second)
    html = _client_for(first).get(_url(game)).content.decode()
    data = _data(html)
    states = _positions(game)
    steps = data["steps"]

    assert len(steps) == len(game.record["actions"]) + 1
    deal = steps[0]
    assert deal["n"] == 0 and deal["line"] is None
    assert deal["position"]["hands"] == game.record["hands"], "every hand of the deal, face up"
    assert deal["position"]["stock"] == game.record["stock"], "the stock top first, the face-up trump last"
    assert deal["position"]["trump_card"] == game.record["stock"][-1]
    middle = len(steps) // 2
    assert steps[middle]["position"]["hands"] == [names(hand) for hand in states[middle].hands]
    assert steps[middle]["position"]["stock"] == [card_name(card) for card in reversed(states[middle].stock)]
    assert steps[middle]["position"]["discard"] == states[middle].discard_count
    assert steps[-1]["position"]["finished"] is True
    # Each move in words as the log writes it: "rita leads 6♠".
    action = game.record["actions"][0]
    assert steps[1]["line"].startswith("rita " if action["seat"] == 0 else "semen ")
    assert data["start"] == len(steps) - 1, "without ?move the replay opens at the end"
    assert "is the durak." in data["result_line"] or "A draw" in data["result_line"]


def test_move_n_opens_there_and_a_move_out_of_range_opens_at_the_end() -> None:
    first, second = person("tanya"), person("ulyana")
    game = _finished(first, second)
    client = _client_for(first)
    last = len(game.record["actions"])

    assert _data(client.get(_url(game, "?move=0")).content.decode())["start"] == 0
    assert _data(client.get(_url(game, "?move=5")).content.decode())["start"] == 5
    assert _data(client.get(_url(game, f"?move={last}")).content.decode())["start"] == last
    beyond = client.get(_url(game, f"?move={last + 40}"))
    assert beyond.status_code == 200
    assert _data(beyond.content.decode())["start"] == last
    assert f"This game has {last} moves: the replay opens at its end." in _text(beyond.content.decode())
    for junk in ("-3", "abc", "1e5", "٣"):
        response = client.get(_url(game, f"?move={junk}"))
        assert response.status_code == 200 and _data(response.content.decode())["start"] == last


def test_a_running_game_is_refused_without_any_card() -> None:
    first, second = person("vera"), person("yakov")
    game = _running(first, second)
    for reader in (first, second, person("zlata"), None):
        response = _client_for(reader).get(_url(game))
        html = response.content.decode()
        assert response.status_code == 403
        assert "This game is still being played: its replay opens once the game is over." in _text(html)
        assert "replay-data" not in html
        assert not cards_in(response.content), "no card in any form: not one of a hand, the stock or the trump"


def test_a_private_game_is_replayed_only_by_those_who_may_see_it() -> None:
    first, second = person("agata"), person("boris")
    game = _finished(first, second, private=True)
    stranger = _client_for(person("chuzhoy"))
    assert stranger.get(_url(game)).status_code == 404
    assert stranger.get(reverse("games:game-record", args=[game.pk])).status_code == 404
    stranger.get(reverse("games:table-link", args=[game.table.link_token]))
    assert stranger.get(_url(game)).status_code == 200
    assert _client_for(second).get(_url(game)).status_code == 200
    assert _client_for(None).get(_url(game)).status_code == 404


def test_a_public_finished_game_is_replayed_by_anyone() -> None:
    game = _finished(person("dina"), person("efim"))
    assert _client_for(None).get(_url(game)).status_code == 200


def test_the_shuffle_check_says_the_deck_was_not_changed() -> None:
    game = _finished(person("fira"), person("gleb"))
    html = _client_for(None).get(_url(game)).content.decode()
    text = _text(html)
    assert (
        f"Before the deal the server published the fingerprint {game.commitment} of the shuffled deck; the deck "
        "revealed now gives the same fingerprint: the deck was not changed during the game." in text
    )
    assert 'data-ok="yes"' in html


def test_the_shuffle_check_says_so_when_the_deck_does_not_match() -> None:
    game = _finished(person("galina"), person("daniil"))
    order = game.revealed_deck.split()
    order[0], order[1] = order[1], order[0]
    Game.objects.filter(pk=game.pk).update(revealed_deck=" ".join(order))
    html = _client_for(None).get(_url(game)).content.decode()
    text = _text(html)
    assert "the deck revealed now gives a different fingerprint" in text
    assert "this is not the deck the server committed to before the game" in text
    assert 'data-ok="no"' in html


def test_the_shuffle_check_in_russian() -> None:
    game = _finished(person("irina", language="ru"), person("kirill"))
    client = _client_for(None)
    client.cookies["django_language"] = "ru"
    text = _text(client.get(_url(game), HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert f"Перед раздачей сервер опубликовал отпечаток {game.commitment} перетасованной колоды" in text
    assert "колода не менялась во время игры" in text


def _analysis_for(game: Game) -> dict[str, Any]:
    actions = game.record["actions"]
    blunder_ply = next(index for index, action in enumerate(actions) if action["type"] == "attack")
    seat = actions[blunder_ply]["seat"]
    played = {key: value for key, value in actions[blunder_ply].items() if key != "seat"}
    best = {"type": "attack", "cards": [names(load_record(game.record).hands[seat])[-1]]}
    decisions = [
        JudgedDecision(ply=blunder_ply, seat=seat, played=played, best=best, before=0.7, after=0.4, best_after=0.7,
                 forced=False, solved=False),
        JudgedDecision(ply=blunder_ply + 1, seat=actions[blunder_ply + 1]["seat"], played={"type": "take"},
                 best={"type": "take"}, before=0.5, after=0.5, best_after=0.5, forced=True, solved=False),
    ]  # fmt: skip
    return JudgedGame(budget="default", players=2, decisions=tuple(decisions)).to_json()


def test_the_analysis_is_shown_when_the_game_has_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(person("lev"), person("mila"))
    analysis = _analysis_for(game)
    monkeypatch.setattr(views_replay, "analysis_json_for", lambda of: analysis if of.pk == game.pk else None)
    html = _client_for(None).get(_url(game)).content.decode()
    data = _data(html)
    assert data["analysis"]["decisions"][0]["mark"] == "blunder"
    assert 'data-part="chart"' in html and "chart-4.6.1.umd.min.js" in html
    text = _text(html)
    assert "accuracy" in text and "0 ?! · 0 ? · 1 ??" in text


def test_without_an_analysis_no_chart_is_loaded() -> None:
    game = _finished(person("nadya"), person("oleg"))
    html = _client_for(None).get(_url(game)).content.decode()
    assert _data(html)["analysis"] is None
    assert "chart-4.6.1" not in html and 'data-part="chart"' not in html


# --- the analysis board -------------------------------------------------------------------------------


def _board(client: Client, text: str, language: str = "en") -> tuple[int, str]:
    response = client.post(reverse("api-pages:analysis"), {"record": text}, HTTP_ACCEPT_LANGUAGE=language)
    return response.status_code, response.content.decode()


HANDS = [["6S", "9S", "JH", "QH", "7C", "AS"], ["7S", "8S", "10D", "JD", "6H", "KC"]]
DECK = [rank + suit for suit in "CDHS" for rank in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
RECORD = {
    "rules": {"deck": 36}, "players": 2, "hands": HANDS,
    "stock": [card for card in DECK if not any(card in hand for hand in HANDS)],
    "first_attacker": 0, "actions": [],
}  # fmt: skip


def _record(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {**RECORD, "actions": actions}


def test_the_board_steps_through_a_pasted_record_with_the_replay() -> None:
    record = _record([{"seat": 0, "type": "attack", "cards": ["6S"]}, {"seat": 1, "type": "cover", "attack": "6S", "card": "7S"}])
    status, html = _board(Client(), json.dumps(record))
    assert status == 200
    data = _data(html)
    assert len(data["steps"]) == 3
    assert data["steps"][2]["line"] == "Seat 2 covers 6♠ with 7♠"
    assert data["steps"][0]["position"]["stock"] == record["stock"]


def test_the_board_says_which_move_is_not_allowed_and_keeps_the_paste() -> None:
    record = _record([{"seat": 0, "type": "attack", "cards": ["9S"]}, {"seat": 1, "type": "cover", "attack": "9S", "card": "7S"}])
    pasted = json.dumps(record)
    status, html = _board(Client(), pasted)
    text = _text(html)
    assert status == 400
    assert "Move 2 is not allowed: 7♠ does not beat 9♠." in text
    assert "Traceback" not in html and "IllegalAction" not in html
    assert "cover 7S does not beat 9S" not in text, "not the engine's words for programs"
    assert json.dumps(record).replace('"', "&quot;") in html, "the paste stays in the text box"
    data = _data(html)
    assert len(data["steps"]) == 2, "the moves before the refused one can be stepped through"


def test_the_board_says_it_in_russian() -> None:
    record = _record([{"seat": 0, "type": "attack", "cards": ["9S"]}, {"seat": 1, "type": "cover", "attack": "9S", "card": "QH"}])
    status, html = _board(Client(), json.dumps(record), language="ru")
    assert status == 400
    assert "Ход 2 не по правилам: Д♥ нет на руках у игрока Место 2." in _text(html)
    status, html = _board(Client(), "{not json", language="ru")
    text = _text(html)
    assert status == 400 and "Это не запись игры: текст не в формате JSON (строка 1, столбец 2)." in text
    assert "Expecting" not in text
    assert "{not json" in html


def test_the_board_refuses_bad_records_in_words() -> None:
    client = Client()
    status, html = _board(client, "[1, 2]")
    assert status == 400 and "A game record is a JSON object with rules, players, hands, stock and actions." in _text(html)
    status, html = _board(client, json.dumps({**RECORD, "hands": [["6S", "XX"], ["7S"]]}))
    assert status == 400 and "“XX” is not a card: write cards as 6S, 10H, QD, AC." in _text(html)
    status, html = _board(client, "not json")
    assert status == 400 and "This is not a game record: the text is not JSON (line 1, column 1)." in _text(html)
    assert "Expecting value" not in html


# --- links to the replay ------------------------------------------------------------------------------


def test_the_game_page_and_the_players_profile_link_to_the_replay() -> None:
    from tests.ratings.helpers import finished_game

    anna, boris = person("links-anna"), person("links-boris")
    game, _ = finished_game([anna, boris], rated=True)
    replay = _url(game)
    page = _client_for(anna).get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'data-part="replay" href="{replay}"' in page
    profile = Client().get(reverse("ratings:player", args=[anna.username])).content.decode()
    assert f'href="{replay}" data-part="replay"' in profile


def test_the_tournament_pages_link_each_finished_game_to_its_replay() -> None:
    from tests.tournaments.factories import bots, director, enter, play_games, tournament
    from tournaments import services as tournament_services
    from tournaments.models import MatchGame

    chief = director()
    event = tournament(chief, rounds=1, name="Replay Cup")
    enter(event, bots(4))
    tournament_services.tournament_start(tournament=event, by=chief)
    play_games(event)
    game_id = MatchGame.objects.filter(pairing__tournament=event).values_list("game_id", flat=True).first()
    replay = reverse("games:game-replay", args=[game_id])
    client = _client_for(chief)
    for page in (
        reverse("tournaments:round", args=[event.pk, 1]),
        reverse("tournaments:entrant", args=[event.pk, 1]),
        reverse("tournaments:direct", args=[event.pk]),
    ):
        assert f'href="{replay}"' in client.get(page).content.decode(), page


def test_the_api_names_a_finished_games_replay() -> None:
    game = _finished(person("api-anna"), person("api-boris"))
    answer = Client().get(f"/api/v1/games/{game.pk}/").json()
    assert answer["replay_url"] == f"http://testserver{_url(game)}"
    running = _running(person("api-vera"), person("api-gleb"))
    assert Client().get(f"/api/v1/games/{running.pk}/").json()["replay_url"] is None


def test_an_aktobe_replay_shows_the_hidden_cards_and_the_card_under_the_trump() -> None:
    from games.engine import Record, deal, preset_rules

    dealt = deal(preset_rules("aktobe"), 3, seed="aktobe-replay", salt="salt")
    record = Record(rules=dealt.rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump,
                    hidden=dealt.hidden, hidden_trump=dealt.hidden_trump).to_json()  # fmt: skip
    position = replay_steps(record).steps[0]["position"]
    assert dealt.hidden is not None
    assert position["face_down"] == [card_name(card) for card in dealt.hidden]
    assert position["under_trump"] == card_name(dealt.hidden_trump)
    assert position["stock"] == [card_name(card) for card in dealt.stock]


def test_a_surrendered_game_ends_its_replay_with_the_surrender() -> None:
    first, second = person("pavel"), person("raisa")
    game = _running(first, second)
    services.game_surrender(game_id=game.pk, user=second)
    services.game_finalise(game_id=game.pk)
    data = _data(_client_for(first).get(_url(game)).content.decode())
    assert len(data["steps"]) == 2, "given up before the first move: the deal, then the surrender"
    assert data["steps"][-1]["line"] == "raisa surrenders"
    assert data["result_line"] == "raisa surrendered. raisa is the durak."
