"""The server's lag is credited to the player it kept waiting (games.lag, issue 36): the view's delivery
starts his turn. A view that reached a waited-for player late, measured from when the game began to wait at
its version (not from when that view was sent: a socket's first view, a resync), lengthens his turn to its
delivery plus the turn's length (a clock game: gives his clock that time back) instead of the timer playing
for him; a delivery counts once a version and seat and at most `CREDIT_MAX_MS` late; a view on time, a
spectator's, or one that does not wait for its reader notes nothing; a player with no view delivered, or
who idles after his view came on time, still loses his turn; and a view of a version the timer played is
not sent."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache

from games import lag, services
from games.broadcast import game_event
from games.models import ActionLog, Game, GameStatus
from games.selectors import game_seats
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.games.test_clocks import Broker, ControlledClock, _clock_game, broker, clock, committed

pytestmark = pytest.mark.django_db
__all__ = ["broker", "clock", "committed"]  # fixtures used below


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _turn_game(committed: Any) -> Game:
    anna, boris = person("anna"), person("boris")
    heads_up = table(anna, turn_seconds=30)
    with committed():
        services.table_join(table=heads_up, user=anna)
        services.table_join(table=heads_up, user=boris)
    return latest_game(heads_up)


def _consumer(game: Game, seat: int | None) -> tuple[Any, list[dict[str, Any]]]:
    """A game socket's consumer of `seat` whose frames are kept instead of sent."""
    from games.consumers import GameConsumer

    consumer = GameConsumer()
    consumer.game_id, consumer.seat, consumer.language = game.pk, seat, "en"
    sent: list[dict[str, Any]] = []

    async def send(text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        sent.append(json.loads(text_data or ""))

    consumer.send = send  # type: ignore[method-assign]
    return consumer, sent


def _view_now(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The game's event built now (as a socket's first view or any resend is) and handed to a socket of
    `seat`: the frames it sent."""
    game.refresh_from_db()
    event = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
    consumer, sent = _consumer(game, seat)
    async_to_sync(consumer.game_view)(event)
    return sent


def _timer(game: Game, committed: Any, seq: int = 0) -> Game:
    with committed():
        services.game_timeout(game_id=game.pk, seq=seq)
    game.refresh_from_db()
    return game


def test_a_view_delivered_late_starts_the_turn_then_the_timer_plays_for_an_idle_player(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    # The bench's case (issue 36): the game is dealt, and the waited-for player's socket connects and is
    # shown his turn 29 s later, by a view sent then (its own sending is on time).
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    deadline = game.deadline
    assert deadline is not None
    broker.take()
    clock.advance(29)
    assert [frame["seq"] for frame in _view_now(game, waited)] == [0]

    clock.advance(1)
    game = _timer(game, committed)
    assert game.seq == 0 and not ActionLog.objects.filter(game=game).exists()  # nothing played for him
    assert game.deadline == deadline + datetime.timedelta(seconds=29)  # 30 s from his view
    assert broker.timers() == [((game.pk, 0), 29.0)]

    # He has had his 30 s and does not move: the timer of the new deadline plays his default move, and a
    # view of that version sent again (another socket, a reconnection) buys nothing more.
    clock.advance(28)
    _view_now(game, waited)
    clock.advance(1)
    game = _timer(game, committed)
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


def test_a_player_shown_his_turn_on_time_who_idles_loses_it_at_the_deadline(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    assert _view_now(game, waited)  # on time: nothing noted
    clock.advance(30)
    game = _timer(game, committed)
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


@pytest.mark.django_db(transaction=True)
def test_an_absent_player_times_out_and_a_view_of_the_version_played_is_not_sent(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    stale_event = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
    clock.advance(30)
    game = _timer(game, committed)  # no socket of his was shown the turn: he is absent
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer
    # The version's view, still on its way to his socket (a server a whole turn behind), is not sent: he
    # would answer a version that is gone. The timer's move has its own view.
    consumer, sent = _consumer(game, waited)
    async_to_sync(consumer.game_view)(stale_event)
    assert sent == []


def test_a_delivery_counts_once_and_at_most_the_cap_late(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    deadline = game.deadline
    assert deadline is not None
    # A socket shown the turn ten minutes late (a server failing): no later than the cap counts.
    clock.advance(600)
    _view_now(game, waited)
    game = _timer(game, committed)
    assert game.seq == 0
    assert game.deadline == deadline + datetime.timedelta(milliseconds=lag.CREDIT_MAX_MS)
    clock.advance(lag.CREDIT_MAX_MS / 1000)
    _view_now(game, waited)  # shown again, later still: noted once a version, nothing more
    game = _timer(game, committed)
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


def test_a_short_delay_another_version_or_another_seat_gets_no_credit(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    clock.advance((lag.CREDIT_FROM_MS - 1) / 1000)
    _view_now(game, waited)  # the ordinary cost of a move
    clock.advance(5)
    _view_now(game, 1 - waited)  # late, but the game does not wait for him
    _view_now(game, None)  # a spectator
    async_to_sync(lag.deliver)(game_id=game.pk, seq=1, seat=waited, since=lag.turn_since(game))  # another version
    clock.advance(25)
    game = _timer(game, committed)
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


def test_a_view_read_on_request_is_noted_too(clock: ControlledClock, broker: Broker, committed: Any) -> None:
    # A socket's resync (or the answer to a stale move) sends the game as it stands, read from the database.
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    consumer, _sent = _consumer(game, waited)
    broker.take()
    clock.advance(10)
    assert consumer._current_view()["seq"] == 0
    clock.advance(20)
    game = _timer(game, committed)
    assert game.seq == 0 and broker.timers() == [((game.pk, 0), 10.0)]


def test_a_delivery_noted_as_the_timer_closes_the_version_wins() -> None:
    # The timer found nothing and closes the seats' keys; one seat's socket noted its delivery between.
    cache.add("game-lag:7:0:1", 1_000.0, lag.KEPT_S)
    assert lag.close(game_id=7, seq=0, seats=[0, 1]) == {1: 1_000.0}
    # The turn goes on: the other seat's key was opened again, and his view may still be noted and sent.
    assert async_to_sync(lag.deliver)(game_id=7, seq=0, seat=0, since=1.0)
    assert lag.take(game_id=7, seq=0, seats=[0, 1])[0] > 1.0
    assert lag.take(game_id=7, seq=0, seats=[0, 1]) == {}  # taken once


def test_a_clock_game_gives_the_running_clock_its_delay_back(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game, _ = _clock_game(committed, base=60, increment=0)
    first = waiting_seats(state_of(game))[0]
    broker.take()
    clock.advance(3)
    _view_now(game, first)
    clock.advance(57)
    game = _timer(game, committed)
    assert game.status == GameStatus.PLAYING and game.flagged is None
    assert game.clock_ms[first] == 63_000 and game.clock_ms[1 - first] == 60_000
    assert broker.timers() == [((game.pk, 0), 3.0)]
    clock.advance(3)
    game = _timer(game, committed)
    assert game.status == GameStatus.FINISHED and game.flagged == first


def test_the_event_carries_when_the_version_began_and_no_reader_sees_it(committed: Any) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    event = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
    assert game.deadline is not None
    assert event["since"] == (game.deadline - datetime.timedelta(seconds=30)).timestamp()
    consumer, sent = _consumer(game, waited)
    async_to_sync(consumer.game_view)(event)
    assert sent and "since" not in sent[0] and "sent" not in sent[0]


@pytest.mark.django_db(transaction=True)
def test_a_player_whose_turn_the_timer_played_as_he_was_shown_it_takes_his_seat_back_from_the_autopilot(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    # A socket let in a whole turn late: its player's third turn in a row timed out (the autopilot now plays
    # his seat) while the view of that turn was on its way to him. He is there: the seat is his again.
    game = _turn_game(committed)
    while True:
        waited = waiting_seats(state_of(game))[0]
        on_its_way = game_event(game=game, seats=game_seats(game), state=state_of(game), result=None)
        clock.advance(30)
        game = _timer(game, committed, seq=game.seq)
        if game.autopilot[waited]:
            break
    assert game.status == GameStatus.PLAYING
    consumer, sent = _consumer(game, waited)
    with committed():
        async_to_sync(consumer.game_view)(on_its_way)
    assert sent == []  # that turn is gone
    game.refresh_from_db()
    assert game.autopilot[waited] is False and game.timeouts[waited] == 0
