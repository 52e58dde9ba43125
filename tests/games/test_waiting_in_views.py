"""Every game.view the server sends carries `waiting`, the seats the game waits for (games.turns.waiting_seats):
the table's script (static/games/table.js, waitingOn) reads it and does not work it out from the table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import services
from games.broadcast import game_event, view_in_event
from games.selectors import game_seats, game_view_for, game_view_of_seat, message_in_language
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from games import tasks

    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    yield


def test_every_reader_of_a_game_in_play_is_sent_who_must_act() -> None:
    owner = person()
    at = table(owner, seats=3)
    services.table_join(table=at, user=owner)
    services.table_fill_bots(table=at, level="easy")
    game = latest_game(at)
    expected = waiting_seats(state_of(game))
    assert expected
    # The page's first view, for a player and for a spectator; a socket's view when it connects.
    messages = [game_view_for(game=game, user=owner, language="en"), game_view_for(game=game, user=None, language="en")]
    messages += [game_view_of_seat(game_id=game.pk, seat=seat, language="ru") for seat in (0, 1, 2, None)]
    # The broadcast after a change, as each seat's socket and a spectator's unpack it.
    event = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
    messages += [message_in_language(view_in_event(event, seat), "en") for seat in (0, 1, 2, None)]
    for message in messages:
        assert message["status"] == "playing"
        assert message["waiting"] == expected
