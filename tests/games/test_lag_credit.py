"""The server's lag is credited to the player it kept waiting (games.lag, issue 36): a view that reached a
waited-for player late lengthens his turn (a clock game: gives his clock the delay back) instead of the turn
timer playing for him; the credit is taken once; a view on time, a spectator's, or one that does not wait
for its reader notes nothing; and the consumer measures the delay from the event's sending."""

from __future__ import annotations

import datetime
import json
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache

from games import lag, services
from games.broadcast import game_event
from games.models import ActionLog, GameStatus
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


def _note(game_id: int, seq: int, seat: int, delay_ms: int) -> None:
    async_to_sync(lag.note)(game_id=game_id, seq=seq, seat=seat, delay_ms=delay_ms)


def _turn_game(committed: Any) -> Any:
    anna, boris = person("anna"), person("boris")
    heads_up = table(anna, turn_seconds=30)
    with committed():
        services.table_join(table=heads_up, user=anna)
        services.table_join(table=heads_up, user=boris)
    return latest_game(heads_up)


def test_a_late_view_lengthens_the_turn_once_instead_of_the_timer_playing(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    deadline = game.deadline
    broker.take()
    _note(game.pk, 0, waited, 4_000)  # his view went out four seconds after the change
    _note(game.pk, 0, waited, 2_500)  # another of his sockets, sooner: the longest delay stands

    clock.advance(30)
    with committed():
        assert services.game_timeout(game_id=game.pk, seq=0) is None
    game.refresh_from_db()
    assert game.seq == 0 and not ActionLog.objects.filter(game=game).exists()  # nothing played for him
    assert game.deadline == deadline + datetime.timedelta(seconds=4)
    assert broker.timers() == [((game.pk, 0), 4.0)]

    # The credit was taken: the timer of the new deadline plays his default move.
    clock.advance(4)
    with committed():
        services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


def test_a_short_delay_another_version_or_another_seat_gets_no_credit(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game = _turn_game(committed)
    waited = waiting_seats(state_of(game))[0]
    _note(game.pk, 0, waited, lag.CREDIT_FROM_MS - 1)  # the ordinary cost of a move
    _note(game.pk, 1, waited, 5_000)  # a version the game is not at
    _note(game.pk, 0, 1 - waited, 5_000)  # a seat the game does not wait for
    clock.advance(30)
    with committed():
        services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    assert game.seq == 1 and ActionLog.objects.get(game=game, seq=0).by_timer


def test_a_clock_game_gives_the_running_clock_its_delay_back(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game, _ = _clock_game(committed, base=60, increment=0)
    first = waiting_seats(state_of(game))[0]
    broker.take()
    _note(game.pk, 0, first, 3_000)
    clock.advance(60)
    with committed():
        assert services.game_timeout(game_id=game.pk, seq=0) is None
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.flagged is None
    assert game.clock_ms[first] == 63_000 and game.clock_ms[1 - first] == 60_000
    assert broker.timers() == [((game.pk, 0), 3.0)]
    clock.advance(3)
    with committed():
        services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.flagged == first


def test_the_consumer_notes_only_a_late_view_that_waits_for_its_reader(committed: Any) -> None:
    from games.consumers import GameConsumer

    game = _turn_game(committed)
    state = state_of(game)
    waited = waiting_seats(state)[0]
    event = game_event(game=game, seats=game_seats(game), state=state, result=None)
    assert abs(event["sent"] - time.time()) < 5
    assert lag.late_ms({**event, "sent": time.time() - 2}) >= 2_000
    assert lag.late_ms({"readers": []}) == 0

    def deliver(seat: int | None, sent_ago: float) -> dict[int, int]:
        consumer = GameConsumer()
        consumer.game_id, consumer.seat, consumer.language = game.pk, seat, "en"
        sent: list[Any] = []

        async def send(text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
            sent.append(json.loads(text_data or ""))

        consumer.send = send  # type: ignore[method-assign]
        async_to_sync(consumer.game_view)({**event, "sent": time.time() - sent_ago})
        assert sent and sent[0]["seq"] == 0 and "sent" not in sent[0]  # the reader never sees the moment
        return lag.take(game_id=game.pk, seq=0, seats=[0, 1])

    assert deliver(waited, 0.0) == {}  # on time
    assert deliver(1 - waited, 3.0) == {}  # late, but the game does not wait for him
    assert deliver(None, 3.0) == {}  # a spectator
    credited = deliver(waited, 3.0)
    assert list(credited) == [waited] and 3_000 <= credited[waited] < 4_000


def test_a_credit_is_never_longer_than_the_cap() -> None:
    _note(7, 0, 0, 10 * lag.CREDIT_MAX_MS)
    assert lag.take(game_id=7, seq=0, seats=[0]) == {0: lag.CREDIT_MAX_MS}
    assert lag.take(game_id=7, seq=0, seats=[0]) == {}
