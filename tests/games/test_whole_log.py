"""The game page starts from the whole game's log (a view carries only its last LOG_LINES lines), in the
reader's language; the page keeps each view's lines beside those it had (static/games/table.js, wholeLog)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client

from games import services
from games.engine import seat_view
from games.selectors import LOG_LINES
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db


def test_the_game_page_starts_from_the_whole_log() -> None:
    anna, boris = person(), person()
    at = table(anna, seats=2, turn_seconds=3600)
    services.table_join(table=at, user=anna)
    services.table_join(table=at, user=boris)
    game = latest_game(at)
    people = {seat.number: seat.user for seat in at.seats.select_related("user") if seat.user is not None}
    rng = random.Random(7)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != "playing" or len(game.record["actions"]) > LOG_LINES + 5:
            break
        state = state_of(game)
        seat = waiting_seats(state)[0]
        legal = seat_view(state, seat)["legal"]
        takes = [move for move in legal if move["type"] == "take"]  # long games: every lead is taken
        action = takes[0] if takes else rng.choice(legal)
        services.game_submit_action(game_id=game.pk, user=people[seat], action=action, seq=game.seq)
    game.refresh_from_db()
    actions = len(game.record["actions"])
    assert actions > LOG_LINES
    client = Client()
    client.force_login(anna)
    page = client.get(f"/play/game/{game.pk}/?lang=ru").content.decode()
    found = re.search(r'<script id="game-initial" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    initial = json.loads(found[1])
    assert [line["seq"] for line in initial["log"]] == list(range(actions))
    assert all(line["text"] for line in initial["log"])
