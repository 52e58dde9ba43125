"""No log line names a card (issue 10): a whole game, refused moves included, logged at DEBUG level from every
logger, and not one record mentions a card. Logs go to files and services that players' secrecy must not
depend on; the action log in the database is the game's memory, not the server log."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from games import services, tasks
from games.engine.cards import card_name
from games.models import Game, GameStatus, Seat
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.games.test_no_leaks import _cards_named

pytestmark = pytest.mark.django_db


def test_a_whole_game_with_refused_moves_logs_no_card(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    caplog.set_level(logging.DEBUG)
    anna = person()
    at = table(anna, seats=2, stake=0, turn_seconds=3600)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_join(table=at, user=anna)
        services.table_add_bot(table=at, level="medium")
    game = latest_game(at)
    anna_seat = Seat.objects.get(table=at, user=anna, bot_level="").number
    refused = 0
    for _ in range(600):
        game = Game.objects.get(pk=game.pk)
        if game.status == GameStatus.FINISHED:
            break
        state = state_of(game)
        seat = waiting_seats(state)[0]
        with django_capture_on_commit_callbacks(execute=True):
            if seat != anna_seat:
                services.game_bot_move(game_id=game.pk, seq=game.seq)
                continue
            # First a card she cannot see (the bot's or the stock's), then a stale version: both refused.
            hidden = state.hands[1 - anna_seat] | sum(1 << card for card in state.stock)
            other = next((card for card in range(52) if hidden >> card & 1), None)
            if other is None:
                services.game_timeout(game_id=game.pk, seq=game.seq)
                continue
            for bad, seq in (
                ({"type": "attack", "cards": [card_name(other)]}, game.seq),
                ({"type": "take"}, game.seq + 5),
            ):
                with pytest.raises(services.GameActionError):
                    services.game_submit_action(game_id=game.pk, user=anna, action=bad, seq=seq)
                refused += 1
            services.game_timeout(game_id=game.pk, seq=game.seq)  # her default move
    assert game.status == GameStatus.FINISHED
    with django_capture_on_commit_callbacks(execute=True):
        services.game_finalise(game_id=game.pk)
    assert refused > 0
    assert len(caplog.records) > 0
    named = [(record.name, record.getMessage()) for record in caplog.records if _cards_named(record.getMessage())]
    assert named == []
