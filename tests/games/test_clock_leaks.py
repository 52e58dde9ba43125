"""The clocks are public (every reader sees every seat's clock), and a game.view that carries them still
names no card its reader could not see: clock games played to the end and one lost on time, every message
to every seat and to spectators through the leak checks of tests/games/test_no_leaks.py."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from games import services
from games.engine import legal_actions
from games.models import Game, GameStatus
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.games.test_no_leaks import RecordingLayer, _check_game, layer

pytestmark = pytest.mark.django_db
__all__ = ["layer"]  # a fixture used by the tests below

CLOCK_KEYS = {"remaining_ms", "running", "at", "increment_ms", "flagged"}


def _check_clocks(game: Game, sent: list[tuple[str, dict[str, Any]]]) -> None:
    """Every event of the game carries the clocks, the same for every reader, with nothing but numbers,
    seats and the server's time in them."""
    events = [event for group, event in sent if group == f"game.{game.pk}"]
    assert events
    for event in events:
        clocks = event["common"]["clocks"]
        assert set(clocks) == CLOCK_KEYS
        assert len(clocks["remaining_ms"]) == game.players
        assert all(isinstance(left, int) and left >= 0 for left in clocks["remaining_ms"])
        assert all(0 <= seat < game.players for seat in clocks["running"])
        assert all("clocks" not in reader for reader in event["readers"])  # shared, not per reader
        datetime.datetime.fromisoformat(clocks["at"])


@pytest.mark.timeout(600)
def test_clock_games_messages_pass_the_leak_checks(
    layer: RecordingLayer, django_capture_on_commit_callbacks: Any
) -> None:
    checked = 0
    variants: list[tuple[dict[str, Any], int]] = [
        ({"preset": "podkidnoy"}, 2), ({"preset": "perevodnoy", "deck": 24}, 3), ({"preset": "aktobe"}, 2),
    ]  # fmt: skip
    for rules, players in variants:
        layer.sent.clear()
        bot_table = table(person(), seats=players, rules=rules, clock_base=600, clock_increment=2)
        with django_capture_on_commit_callbacks(execute=True):
            services.table_fill_bots(table=bot_table, level="medium")
        game = latest_game(bot_table)
        for _ in range(3000):
            if game.status == GameStatus.FINISHED:
                break
            with django_capture_on_commit_callbacks(execute=True):
                moved = services.game_bot_move(game_id=game.pk, seq=game.seq)
            assert moved is not None, "a bot game stalled"
            game = moved
        with django_capture_on_commit_callbacks(execute=True):
            services.game_finalise(game_id=game.pk)
        game.refresh_from_db()
        assert game.flagged is None
        _check_clocks(game, layer.sent)
        checked += _check_game(game, layer.sent)
    assert checked > 100


def test_a_game_lost_on_time_passes_the_leak_checks(
    layer: RecordingLayer,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [datetime.datetime(2026, 12, 4, 12, 0, tzinfo=datetime.UTC)]
    monkeypatch.setattr("django.utils.timezone.now", lambda: now[0])
    anna = person()
    clocked = table(anna, seats=2, clock_base=60, clock_increment=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_join(table=clocked, user=anna)
        services.table_add_bot(table=clocked, level="easy")
    game = latest_game(clocked)
    moves = 0
    while moves < 6 and game.status == GameStatus.PLAYING:
        seat = waiting_seats(state_of(game))[0]
        now[0] += datetime.timedelta(seconds=3)
        with django_capture_on_commit_callbacks(execute=True):
            if seat == 0:
                action = legal_actions(state_of(game), 0)[0]
                services.game_submit_action(game_id=game.pk, user=anna, action=action.to_json(), seq=game.seq)
            else:
                services.game_bot_move(game_id=game.pk, seq=game.seq)
        game.refresh_from_db()
        moves += 1
    assert game.status == GameStatus.PLAYING
    while waiting_seats(state_of(game)) != [0]:  # the bot plays on until Anna is to move
        with django_capture_on_commit_callbacks(execute=True):
            services.game_bot_move(game_id=game.pk, seq=game.seq)
        game.refresh_from_db()
    now[0] += datetime.timedelta(seconds=61)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_timeout(game_id=game.pk, seq=game.seq)
        services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    assert game.flagged == 0 and game.result.durak == 0
    _check_clocks(game, layer.sent)
    assert _check_game(game, layer.sent) > 10
    # The checks do read the clocks: a hidden card slipped into them is caught.
    hidden = game.record["hands"][1][0]
    first = next(event for group, event in layer.sent if group == f"game.{game.pk}")
    first["common"]["clocks"] = {**first["common"]["clocks"], "running": [0], "note": hidden}
    with pytest.raises(AssertionError):
        _check_game(game, layer.sent)
