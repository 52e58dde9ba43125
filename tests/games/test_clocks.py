"""A clock per player (games.clocks): each seat's clock runs only while the game waits for him, a move earns
the increment, a fall ends the game with him as the durak, a stale timer does nothing, the sweep re-arms a
lost fall, and the settings are checked with translated errors.

The services' time source (django.utils.timezone.now) is a controlled clock that the tests move by hand:
nothing here sleeps.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from games import services, tasks
from games.clocks import Clocks, clock_text, clocks_after_move
from games.engine import legal_actions
from games.models import Game, GameStatus, Result
from games.recovery import games_resume_stalled, stalled_games
from games.selectors import game_view_for
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 4, 12, 0, 0, tzinfo=datetime.UTC)


class ControlledClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ControlledClock:
    controlled = ControlledClock()
    monkeypatch.setattr("django.utils.timezone.now", controlled)
    monkeypatch.setattr("games.lag._now", lambda: controlled().timestamp())  # games.lag reads time.time()
    return controlled


class Broker:
    """Keeps the tasks the services schedule (with their countdowns) and runs none."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], float | None]] = []

    def take(self) -> list[tuple[str, tuple[Any, ...], float | None]]:
        calls, self.calls = self.calls, []
        return calls

    def timers(self) -> list[tuple[tuple[Any, ...], float | None]]:
        return [(args, countdown) for name, args, countdown in self.take() if name == "turn_timeout"]


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    kept = Broker()
    for name in ("bot_move", "turn_timeout", "finalise_game"):
        task = getattr(tasks, name)
        monkeypatch.setattr(task, "delay", lambda *args, _name=name: kept.calls.append((_name, args, None)))
        monkeypatch.setattr(
            task, "apply_async",
            lambda args=(), countdown=None, _name=name, **kwargs: kept.calls.append((_name, tuple(args), countdown)),
        )  # fmt: skip
    return kept


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Iterator[Any]:
    yield lambda: django_capture_on_commit_callbacks(execute=True)


def _clock_game(committed: Any, *, base: int = 180, increment: int = 2) -> tuple[Game, list[Any]]:
    owner, guest = person(), person()
    clocked = table(owner, seats=2, clock_base=base, clock_increment=increment)
    with committed():
        services.table_join(table=clocked, user=owner)
        services.table_join(table=clocked, user=guest)
    return latest_game(clocked), [owner, guest]


def _play(game: Game, users: list[Any], committed: Any) -> int:
    """The seat the game waits for plays its first legal move; returns that seat."""
    game.refresh_from_db()
    state = state_of(game)
    seat = waiting_seats(state)[0]
    action = legal_actions(state, seat)[0]
    with committed():
        services.game_submit_action(game_id=game.pk, user=users[seat], action=action.to_json(), seq=game.seq)
    return seat


def _clocks(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    message = game_view_for(game=game, user=None, language="en")
    clocks = message["clocks"]
    assert clocks is not None
    return dict(clocks)


def test_each_clock_runs_only_on_its_owners_move_and_the_mover_earns_the_increment(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game, users = _clock_game(committed)
    first = waiting_seats(state_of(game))[0]
    other = 1 - first
    assert game.clock_ms == [180_000, 180_000] and game.clock_running == [first]
    assert game.deadline == T0 + datetime.timedelta(seconds=180)  # the turn timer waits for the first fall
    assert broker.timers() == [((game.pk, 0), 180.0)]

    clock.advance(10)
    shown = _clocks(game)
    assert shown["remaining_ms"][first] == 170_000 and shown["remaining_ms"][other] == 180_000
    assert shown["running"] == [first]
    assert shown["at"] == "2026-12-04T12:00:10Z"
    assert shown["increment_ms"] == 2000

    assert _play(game, users, committed) == first  # his move at 10 s: 170 s left, 2 s more
    game.refresh_from_db()
    assert game.clock_ms[first] == 172_000 and game.clock_ms[other] == 180_000
    assert game.clock_running == [other]
    assert game.deadline == T0 + datetime.timedelta(seconds=10 + 180)
    # The timer on its way (due at 180 s) fires before the new deadline: no second task.
    assert broker.timers() == []

    clock.advance(25)
    shown = _clocks(game)
    assert shown["remaining_ms"][first] == 172_000  # his clock stands still while the other thinks
    assert shown["remaining_ms"][other] == 155_000

    assert _play(game, users, committed) == other
    game.refresh_from_db()
    assert game.clock_ms[other] == 157_000 and game.clock_ms[first] == 172_000
    assert game.status == GameStatus.PLAYING


def test_a_flag_fall_ends_the_game_with_that_player_as_the_durak(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game, users = _clock_game(committed, base=60, increment=0)
    first = waiting_seats(state_of(game))[0]
    broker.take()

    clock.advance(30)
    # A timer that fires before the fall (a rounded countdown, two machines' clocks) plays nothing and
    # schedules the fall's timer again.
    with committed():
        assert services.game_timeout(game_id=game.pk, seq=0) is None
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.seq == 0
    assert broker.timers() == [((game.pk, 0), 30.0)]

    clock.advance(30)
    with committed():
        ended = services.game_timeout(game_id=game.pk, seq=0)
    assert ended is not None
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.flagged == first and game.surrendered == first
    assert game.clock_running == [] and game.clock_ms[first] == 0
    assert ("finalise_game", (game.pk,), None) in broker.take()
    result = services.game_finalise(game_id=game.pk)
    assert result.durak == first and result.outcome == "durak"
    assert result.surrendered is None  # he lost on time; he did not give up
    assert Result.objects.filter(game=game).count() == 1

    with translation.override("ru"):
        message = game_view_for(game=game, user=users[1 - first], language="ru")
    assert message["result"]["flagged"] == first
    assert message["clocks"]["running"] == [] and message["clocks"]["flagged"] == first
    assert "время" in message["log"][-1]["text"]  # "... время вышло" in the reader's language


def test_a_move_sent_after_the_fall_loses_on_time_instead_of_being_played(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    game, users = _clock_game(committed, base=30, increment=5)
    first = waiting_seats(state_of(game))[0]
    clock.advance(30.5)  # his clock fell; its timer has not come yet
    action = legal_actions(state_of(game), first)[0]
    with committed():
        services.game_submit_action(game_id=game.pk, user=users[first], action=action.to_json(), seq=0)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.flagged == first
    # The move was not played: the fall alone is recorded, as his surrender.
    assert game.record.get("actions", []) == [{"seat": first, "type": "surrender"}]


def test_a_stale_clock_timer_does_nothing(clock: ControlledClock, broker: Broker, committed: Any) -> None:
    game, users = _clock_game(committed, base=60, increment=0)
    clock.advance(20)
    first = _play(game, users, committed)
    game.refresh_from_db()
    seq, remaining = game.seq, list(game.clock_ms)
    broker.take()

    # The first version's timer fires at 60 s, past the first seat's old deadline: he moved in time.
    clock.advance(40)
    with committed():
        assert services.game_timeout(game_id=game.pk, seq=0) is None
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.flagged is None
    assert game.seq == seq and game.clock_ms == remaining
    assert game.clock_ms[first] == 40_000
    # It schedules the current version's timer for the other seat's fall (60 s after his clock started).
    assert broker.timers() == [((game.pk, seq), 20.0)]


def test_the_sweep_rearms_a_lost_clock_timer(clock: ControlledClock, broker: Broker, committed: Any) -> None:
    game, users = _clock_game(committed, base=45, increment=0)
    first = waiting_seats(state_of(game))[0]
    broker.take()  # the fall's timer is lost with the broker

    clock.advance(44)
    assert stalled_games(now=clock.now).total == 0  # his time runs: no stall
    clock.advance(1 + 10)
    found = games_resume_stalled(now=clock.now)
    assert found.timers == [game.pk] and found.bot_moves == []
    assert broker.timers() == [((game.pk, 0), None)]
    with committed():
        services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.flagged == first


def test_a_clock_bot_game_whose_bot_move_was_lost_is_resumed_not_flagged(
    clock: ControlledClock, broker: Broker, committed: Any
) -> None:
    owner = person()
    clocked = table(owner, seats=2, clock_base=600, clock_increment=0)
    with committed():
        services.table_fill_bots(table=clocked, level="easy")
    game = latest_game(clocked)
    broker.take()
    clock.advance(5)
    assert stalled_games(now=clock.now, bot_after_s=20).total == 0
    clock.advance(20)
    found = stalled_games(now=clock.now, bot_after_s=20)
    assert found.bot_moves == [game.pk] and found.timers == []


def test_the_clock_settings_are_checked_with_errors_under_their_fields() -> None:
    owner = person()
    for base, increment, fields in [(29, 0, {"clock_base"}), (3601, 0, {"clock_base"}),
                                    (60, 61, {"clock_increment"}), (10, -1, {"clock_base", "clock_increment"})]:  # fmt: skip
        with pytest.raises(ValidationError) as raised:
            table(owner, seats=2, clock_base=base, clock_increment=increment)
        assert set(raised.value.message_dict) == fields
    with translation.override("ru"):
        with pytest.raises(ValidationError) as raised:
            services.clock_check(base_seconds=20, increment_seconds=0)
        assert "Основное время" in raised.value.message_dict["clock_base"][0]
    accepted = table(owner, seats=2, clock_base=30, clock_increment=60)
    assert (accepted.clock_base, accepted.clock_increment) == (30, 60)
    # Without a base the table plays the per-move timer, and an increment alone is dropped.
    plain = table(owner, seats=2, clock_increment=5)
    assert plain.clock_base is None and plain.clock_increment == 0


def test_a_per_move_timer_game_carries_no_clocks(broker: Broker, committed: Any) -> None:
    owner, guest = person(), person()
    plain = table(owner, seats=2, turn_seconds=30)
    with committed():
        services.table_join(table=plain, user=owner)
        services.table_join(table=plain, user=guest)
    game = latest_game(plain)
    assert game.clock_ms == [] and game_view_for(game=game, user=owner, language="en")["clocks"] is None


def test_a_tournament_deals_its_games_with_its_clock() -> None:
    from tests.tournaments.factories import bots, enter, tournament
    from tournaments import services as tournament_services
    from tournaments.models import MatchGame

    event = tournament(rounds=1, clock_base=120, clock_increment=1)
    assert (event.clock_base, event.clock_increment) == (120, 1)
    enter(event, bots(4))
    # What it schedules after the commit (its tasks, the games' first moves) is not this test's subject.
    tournament_services.tournament_start(tournament=event, by=event.director)
    games = [match.game for match in MatchGame.objects.filter(pairing__tournament=event).select_related("game__table")]
    assert len(games) == 2
    for game in games:
        assert (game.table.clock_base, game.table.clock_increment) == (120, 1)
        assert game.clock_ms == [120_000, 120_000] and game.clock_increment_ms == 1000
        assert game.clock_running == waiting_seats(state_of(game))
    with translation.override("en"), pytest.raises(ValidationError) as raised:
        tournament(rounds=1, clock_base=20)
    assert "The base time is 30 seconds to 60 minutes." in raised.value.messages


def test_clock_values() -> None:
    start = Clocks(remaining_ms=(5000, 5000, 5000), running=(1, 2), since=T0)
    later = T0 + datetime.timedelta(seconds=2)
    assert start.at(later) == (5000, 3000, 3000)
    assert start.falls_at() == T0 + datetime.timedelta(seconds=5)
    assert start.fallen(T0 + datetime.timedelta(seconds=5)) == 1
    # Seat 0 moves though nobody waited for him (a throw-in): no increment; seat 1 was waited for: his.
    assert clocks_after_move(start, mover=0, increment_ms=1000, running=[2], now=later).remaining_ms == (
        5000,
        3000,
        3000,
    )
    moved = clocks_after_move(start, mover=1, increment_ms=1000, running=[2], now=later)
    assert moved.remaining_ms == (5000, 4000, 3000) and moved.running == (2,) and moved.since == later
    assert [clock_text(180, 2), clock_text(30, 0), clock_text(90, 1), clock_text(3600, 60)] == [
        "3+2",
        "0.5+0",
        "1.5+1",
        "60+60",
    ]
