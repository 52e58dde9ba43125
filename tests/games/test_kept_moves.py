"""A person's move made from the game its process kept (games.services.kept), on PostgreSQL.

The next move after a process wrote a game is one statement, with no row lock; a write by anyone else in
between (a timer on a worker, a lag credit, another process's move) makes the kept move write nothing and
the move go the locked way, where it is applied or refused as ever: nothing lost, nothing doubled.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.engine import load_record, play
from games.engine.actions import action_from_json
from games.models import ActionLog, Game, GameStatus, Seat
from games.selectors import game_view_for
from games.services import actions, changes, kept, loop_moves
from games.snapshots import forget_all, state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.leakproof import cards_in, hidden_from

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("real_services", "quiet_tasks")]


@pytest.fixture
def quiet_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No worker joins in: the other writers are the calls the tests make."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    kept.forget_all()
    yield
    kept.forget_all()


@pytest.fixture
def loop_writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The versions written by kept moves made on a socket's loop (games.services.loop_moves)."""
    writes: list[int] = []
    written = loop_moves.kept_move_written

    def recorded(move: Any, row_version: str) -> None:
        writes.append(move.game.seq)
        written(move, row_version)

    monkeypatch.setattr(loop_moves, "kept_move_written", recorded)
    return writes


@pytest.fixture
def kept_writes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each kept move's write: True when it wrote, False when the row had changed."""
    writes: list[bool] = []
    write = actions._write_if_unchanged

    def recorded(*args: Any) -> str | None:
        version = write(*args)
        writes.append(version is not None)
        return version

    monkeypatch.setattr(actions, "_write_if_unchanged", recorded)
    return writes


def _people_game(**options: Any) -> Game:
    people = [person(), person()]
    at = table(people[0], seats=2, **({"turn_seconds": 3600} | options))
    for someone in people:
        services.table_join(table=at, user=someone)
    return latest_game(at)


def _user(game: Game, seat: int) -> User:
    user = Seat.objects.select_related("user").get(table=game.table, number=seat).user
    assert user is not None
    return user


def _first_legal(game: Game, seat: int) -> dict[str, Any]:
    legal = game_view_for(game=game, user=_user(game, seat))["view"]["legal"]
    preferred = [action for action in legal if action["type"] in ("attack", "cover")] or legal
    return dict(preferred[0])


def _move(game: Game) -> tuple[int, dict[str, Any]]:
    """The waiting seat's move on the game's current version (the game is read again first)."""
    game.refresh_from_db()
    seat = waiting_seats(state_of(game))[0]
    return seat, _first_legal(game, seat)


def _replay_matches(game: Game) -> None:
    """The stored row is what its record's actions give, one log row for each and none more."""
    game.refresh_from_db()
    forget_all()
    replayed = load_record({**game.record, "actions": []}).initial_state()
    for raw in game.record["actions"]:
        play(replayed, raw["seat"], action_from_json(raw))
    stored = state_of(game)
    assert (replayed.hands, replayed.attack, replayed.cover) == (stored.hands, stored.attack, stored.cover)
    logged = list(ActionLog.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "action"))
    assert logged == [(index, raw["seat"], {k: v for k, v in raw.items() if k not in ("seat", "timer", "autopilot")})
                      for index, raw in enumerate(game.record["actions"])]  # fmt: skip
    assert len(logged) == game.seq


def _as_if_elsewhere(game: Game, write: Any) -> None:
    """`write` made as another process would make it: this process's kept copy of the game stays as it was."""
    copy = kept.take(game.pk)
    assert copy is not None, "nothing was kept"
    write()
    kept.keep(copy)


def test_the_next_persons_move_is_one_statement_from_the_kept_game(kept_writes: list[bool]) -> None:
    game = _people_game()
    seat, action = _move(game)
    services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)
    assert kept_writes == []  # the first move of the process reads the row under its lock, and keeps it
    for _ in range(6):
        seat, action = _move(game)
        user = _user(game, seat)
        with CaptureQueriesContext(connection) as queries:
            moved = services.game_submit_action(game_id=game.pk, user=user, action=action, seq=game.seq)
        statements = [query["sql"] for query in queries.captured_queries]
        assert len(statements) == 1, statements
        assert "xmin" in statements[0] and "FOR UPDATE" not in statements[0]
        assert moved.seq == game.seq + 1
    assert kept_writes == [True] * 6
    _replay_matches(game)


def test_a_move_written_elsewhere_meanwhile_makes_the_kept_move_fall_back_and_refuse_it(kept_writes: list[bool]) -> None:
    """The turn timer plays on a worker (another process) after this process kept version 1; the player's
    move for version 1 then matches the kept copy, but its write finds the row changed and writes nothing,
    and the locked way refuses it as stale. The timer's move stays, the log has each version once."""
    game = _people_game()
    seat, action = _move(game)
    services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)
    seat, action = _move(game)
    version = game.seq
    _as_if_elsewhere(game, lambda: services.game_timeout(game_id=game.pk, seq=version))
    with pytest.raises(services.GameActionError) as refused:
        services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=version)
    assert refused.value.code == "stale"
    assert kept_writes == [False]
    game.refresh_from_db()
    assert game.seq > version and game.record["actions"][version].get("timer") is True
    _replay_matches(game)


def test_a_write_that_keeps_the_version_also_makes_the_kept_move_fall_back(kept_writes: list[bool]) -> None:
    """A lag credit (games.lag) changes a clock game's row without a new version: the kept copy's clocks are
    out of date. The move is made the locked way from the row, so the credited time stays his."""
    game = _people_game(clock_base=600, clock_increment=0)
    seat, action = _move(game)
    services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)
    seat, action = _move(game)
    before_ms = game.clock_ms[seat]

    def credit() -> None:
        with changes.game_change(game.pk) as change:
            since = change.game.clock_since
            assert since is not None
            # His view was delivered 30 s after his turn began: his clock gets those 30 s back.
            assert actions._credit_lag(change, {seat: since.timestamp() + 30})

    _as_if_elsewhere(game, credit)
    moved = services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)
    game.refresh_from_db()
    assert game.clock_ms[seat] > before_ms + 25_000  # the credit, less the moment the move took
    assert moved.seq == game.seq
    assert kept_writes == [False]
    _replay_matches(game)


def test_a_refused_move_is_refused_the_locked_way_and_writes_nothing(kept_writes: list[bool]) -> None:
    game = _people_game()
    seat, action = _move(game)
    services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)
    seat, action = _move(game)
    other = 1 - seat
    with pytest.raises(services.GameActionError) as refused:
        services.game_submit_action(game_id=game.pk, user=_user(game, seat), action={"type": "attack"}, seq=game.seq)
    assert refused.value.code == "malformed"
    with pytest.raises(services.GameActionError) as stale:
        services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq - 1)
    assert stale.value.code == "stale"
    with pytest.raises(services.GameActionError):
        services.game_submit_action(game_id=game.pk, user=_user(game, other), action=action, seq=game.seq)
    assert kept_writes == []  # a refusal writes nothing, kept or not
    assert ActionLog.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.seq == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("on_loop", [True, False], ids=["on_loop", "on_thread"])
async def test_over_the_sockets_moves_after_the_first_are_kept_ones_and_each_seat_sees_only_his_hand(
    kept_writes: list[bool], loop_writes: list[int], settings: Any, on_loop: bool
) -> None:
    """Two players' sockets on this process, as the balancer keeps them: the first move is read under the
    lock (the sockets' arrival changed the row), the next ones are kept moves, made on the socket's loop
    (or, with the loop's connections off, on a writer thread), and each move's views reach both seats, each
    with his own hand only."""
    from channels.db import database_sync_to_async

    from games.engine.cards import names
    from tests.games.test_consumers import _next, _socket

    settings.GAMES_LOOP_CONNECTIONS = 4 if on_loop else 0
    game = await database_sync_to_async(_people_game)()
    users = [await database_sync_to_async(_user)(game, seat) for seat in range(2)]
    sockets = [await _socket(f"/ws/game/{game.pk}/", user) for user in users]
    views = [await _next(socket, "game.view", seq=0) for socket in sockets]
    for seq in range(5):
        mover = next(seat for seat, view in enumerate(views) if seat in view["waiting"])
        legal = views[mover]["view"]["legal"]
        move = next((action for action in legal if action["type"] in ("attack", "cover")), legal[0])
        await sockets[mover].send_json_to({"type": "action", "action": move, "seq": seq})
        views = [await _next(socket, "game.view", seq=seq + 1) for socket in sockets]
        stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        state = await database_sync_to_async(state_of)(stored)
        for seat, view in enumerate(views):
            assert view["seat"] == seat and view["view"]["hand"] == names(state.hands[seat])
            hidden = await database_sync_to_async(hidden_from)(stored, seat)
            assert hidden and not cards_in(view) & hidden, "a view shows a card its seat has not seen"
    if on_loop:
        assert (kept_writes, loop_writes) == ([], [2, 3, 4, 5])
    else:
        assert (kept_writes, loop_writes) == ([True] * 4, [])
    for socket in sockets:
        await socket.disconnect()
    await database_sync_to_async(_replay_matches)(game)


async def _two_sockets(game: Game) -> tuple[list[Any], list[dict[str, Any]]]:
    from channels.db import database_sync_to_async

    from tests.games.test_consumers import _next, _socket

    users = [await database_sync_to_async(_user)(game, seat) for seat in range(2)]
    sockets = [await _socket(f"/ws/game/{game.pk}/", user) for user in users]
    return sockets, [await _next(socket, "game.view", seq=game.seq) for socket in sockets]


async def _play_over(sockets: list[Any], views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The waiting seat's move on the views' version, sent over his socket; the next views of both seats."""
    from tests.games.test_consumers import _next

    seq = views[0]["seq"]
    mover = next(seat for seat, view in enumerate(views) if seat in view["waiting"])
    legal = views[mover]["view"]["legal"]
    move = next((action for action in legal if action["type"] in ("attack", "cover")), legal[0])
    await sockets[mover].send_json_to({"type": "action", "action": move, "seq": seq})
    return [await _next(socket, "game.view", seq=seq + 1) for socket in sockets]


@pytest.mark.asyncio
async def test_a_repeated_or_stale_message_finds_no_kept_move_on_the_loop_and_is_refused(loop_writes: list[int]) -> None:
    """The same move sent twice with one version: the first is made on the loop, the second is refused as
    stale (the thread's way, from the row) and writes nothing."""
    from channels.db import database_sync_to_async

    from tests.games.test_consumers import _next

    game = await database_sync_to_async(_people_game)()
    sockets, views = await _two_sockets(game)
    views = await _play_over(sockets, views)  # the locked way: the sockets' arrival changed the row
    seq = views[0]["seq"]
    mover = next(seat for seat, view in enumerate(views) if seat in view["waiting"])
    legal = views[mover]["view"]["legal"]
    move = next((action for action in legal if action["type"] in ("attack", "cover")), legal[0])
    for _ in range(2):
        await sockets[mover].send_json_to({"type": "action", "action": move, "seq": seq})
    error = await _next(sockets[mover], "game.error")
    assert error["code"] == "stale"
    assert loop_writes == [seq + 1]
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.seq == seq + 1
    for socket in sockets:
        await socket.disconnect()
    await database_sync_to_async(_replay_matches)(game)


@pytest.mark.asyncio
async def test_a_move_written_elsewhere_meanwhile_makes_the_loop_move_write_nothing_and_refuse_it(
    loop_writes: list[int],
) -> None:
    """The turn timer plays on a worker while the process keeps the version it wrote on the loop: the player's
    move for that version matches the copy, its statement matches no row, and the thread's way refuses it."""
    from channels.db import database_sync_to_async

    from tests.games.test_consumers import _next

    game = await database_sync_to_async(_people_game)()
    sockets, views = await _two_sockets(game)
    views = await _play_over(sockets, views)
    views = await _play_over(sockets, views)  # made on the loop, and kept
    version = views[0]["seq"]
    assert loop_writes == [version]
    mover = next(seat for seat, view in enumerate(views) if seat in view["waiting"])
    legal = views[mover]["view"]["legal"]
    await database_sync_to_async(_as_if_elsewhere)(game, lambda: services.game_timeout(game_id=game.pk, seq=version))
    await sockets[mover].send_json_to({"type": "action", "action": legal[0], "seq": version})
    error = await _next(sockets[mover], "game.error")
    assert error["code"] == "stale"
    assert loop_writes == [version]
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.seq > version and stored.record["actions"][version].get("timer") is True
    for socket in sockets:
        await socket.disconnect()
    await database_sync_to_async(_replay_matches)(game)


@pytest.mark.asyncio
async def test_a_failed_statement_on_the_loop_leaves_the_move_to_a_writer_thread(
    loop_writes: list[int], kept_writes: list[bool], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_people_game)()
    sockets, views = await _two_sockets(game)
    views = await _play_over(sockets, views)
    statement = loop_moves.kept_write_sql
    monkeypatch.setattr(loop_moves, "kept_write_sql", lambda: "SELECT * FROM no_such_table")
    views = await _play_over(sockets, views)  # refused by the database on the loop, made on a thread
    assert views[0]["seq"] == 2 and loop_writes == [] and kept_writes == []
    assert "failed on the loop" in caplog.text
    monkeypatch.setattr(loop_moves, "kept_write_sql", statement)
    views = await _play_over(sockets, views)  # the loop's next connection
    assert loop_writes == [3]
    for socket in sockets:
        await socket.disconnect()
    await database_sync_to_async(_replay_matches)(game)


@pytest.mark.asyncio
async def test_the_loops_connections_are_few_and_a_move_waits_for_one() -> None:
    import asyncio

    pool = loop_moves.LoopConnections(1, asyncio.get_running_loop())
    first = await pool.take()
    waiting = asyncio.ensure_future(pool.take())
    await asyncio.sleep(0.05)
    assert first is not None and not waiting.done() and pool.opened == 1
    pool.give_back(first)
    assert await waiting is first
    await first.execute("BEGIN")  # a connection given back in a transaction is closed, not kept
    again = asyncio.ensure_future(pool.take())
    await asyncio.sleep(0.05)
    pool.give_back(first)
    assert await again is None  # the waiting move goes to a writer thread
    assert pool.idle == [] and pool.opened == 0 and first.is_closed()
