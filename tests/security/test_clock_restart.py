"""A clock game whose Daphne is killed mid-game and started again (CI=true: PostgreSQL, Redis, a real
Celery worker).

Two scripted players play a few moves over real WebSockets, then the server process is killed with
SIGKILL and a new one is started on the same port. The message each player gets after reconnecting shows
the clocks as they were, the running one less exactly the server time that passed (the clocks live on the
game's row, not in the server). Then nobody moves: the running clock falls after the restart, the turn
timer's task (on Redis, run by the worker) ends the game, and the player whose clock fell is the durak.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import signal
import time
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from durak_site.management.commands.run_site import daphne_command
from games import services
from games.models import Game, GameStatus
from tests import processes
from tests.games.factories import latest_game, person, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

BASE_SECONDS = 30


def _cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _at(clocks: dict[str, Any]) -> datetime.datetime:
    return datetime.datetime.fromisoformat(clocks["at"].replace("Z", "+00:00"))


async def _connect(port: int, cookie: str, game_id: int) -> Any:
    import websockets
    from websockets.typing import Origin

    url = f"ws://127.0.0.1:{port}/ws/game/{game_id}/"
    for _ in range(100):
        try:
            return await websockets.connect(url, additional_headers={"Cookie": cookie},
                                            origin=Origin(f"http://127.0.0.1:{port}"))  # fmt: skip
        except OSError:
            await asyncio.sleep(0.2)
    raise AssertionError("the server did not come back")


async def _view(socket: Any, *, timeout: float = 15) -> dict[str, Any]:
    """The next game.view on the socket (errors skipped: a crossed move is refused as stale)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=timeout))
        if message["type"] == "game.view":
            return dict(message)


async def _view_at(socket: Any, seq: int) -> dict[str, Any]:
    while True:
        message = await _view(socket)
        if message["seq"] >= seq:
            return message


def test_a_clock_game_keeps_its_clocks_across_a_daphne_restart_and_flags_after_it(
    real_services: None, test_database_url: str, celery_worker: processes.RunningProcess
) -> None:
    anna, boris = person(), person()
    at = table(anna, seats=2, name="clock-restart", clock_base=BASE_SECONDS, clock_increment=1)
    services.table_join(table=at, user=anna)
    services.table_join(table=at, user=boris)
    game = latest_game(at)
    cookies = [_cookie(anna), _cookie(boris)]

    port = processes.free_port()
    environment = processes.subprocess_environment(database=test_database_url)
    server = processes.started(daphne_command("127.0.0.1", port), environment=environment, name="daphne-1")

    async def play() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        with server as first:
            sockets = [await _connect(port, cookie, game.pk) for cookie in cookies]
            for socket in sockets:
                await socket.send(json.dumps({"type": "sync"}))
            views = [await _view(socket) for socket in sockets]
            # Four moves, each made a second after the view that asks for it, by the seat waited for.
            for _ in range(4):
                seq = views[0]["seq"]
                mover = views[0]["waiting"][0]
                await asyncio.sleep(1)
                legal = [action for action in views[mover]["view"]["legal"] if action["type"] != "accuse"]
                await sockets[mover].send(json.dumps({"type": "action", "action": legal[0], "seq": seq}))
                views = [await _view_at(socket, seq + 1) for socket in sockets]
            before = views[0]
            assert before["status"] == "playing" and before["clocks"]["running"] == before["waiting"]
            first.process.send_signal(signal.SIGKILL)
            first.process.wait()
            await asyncio.sleep(2)  # the clock runs on while no server is up
        with processes.started(daphne_command("127.0.0.1", port), environment=environment, name="daphne-2") as again:
            sockets = [await _connect(port, cookie, game.pk) for cookie in cookies]
            after = [await _view(socket) for socket in sockets]  # sent unasked on connect
            # Nobody moves: the running clock falls, the worker's timer ends the game, the result follows.
            # (Views of the other player's reconnection may come first: the fall is up to a base time away.)
            ended = await _view(sockets[0], timeout=BASE_SECONDS + 20)
            while ended["result"] is None:
                ended = await _view(sockets[0], timeout=BASE_SECONDS + 20)
            for socket in sockets:
                await socket.close()
            assert again.process.poll() is None
        return before, after, ended

    started = time.monotonic()
    before, after, ended = asyncio.run(play())

    running = before["clocks"]["running"]
    assert len(running) == 1
    flagged = running[0]
    waiting_for = 1 - flagged
    for message in after:
        assert message["seq"] == before["seq"] and message["clocks"]["running"] == running
        # The seat not waited for kept his time to the millisecond; the running one lost exactly the time
        # between the two messages (both reckoned by the server from the game's row).
        assert message["clocks"]["remaining_ms"][waiting_for] == before["clocks"]["remaining_ms"][waiting_for]
        passed_ms = (_at(message["clocks"]) - _at(before["clocks"])) / datetime.timedelta(milliseconds=1)
        assert passed_ms >= 2000
        shown = message["clocks"]["remaining_ms"][flagged]
        assert abs(before["clocks"]["remaining_ms"][flagged] - passed_ms - shown) <= 2, (
            before["clocks"],
            message["clocks"],
        )
    # Two moves each, a second's increment each: no clock above its base time and two increments.
    assert all(0 < left <= BASE_SECONDS * 1000 + 2000 for left in before["clocks"]["remaining_ms"])

    assert ended["status"] == "finished"
    assert ended["result"]["durak"] == flagged and ended["result"]["flagged"] == flagged
    assert ended["clocks"]["remaining_ms"][flagged] == 0 and ended["clocks"]["running"] == []
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == GameStatus.FINISHED and stored.flagged == flagged and stored.result.durak == flagged
    # The fall came when the clock said, not when some later sweep noticed it.
    assert stored.finished is not None and stored.clock_since is not None
    assert time.monotonic() - started < BASE_SECONDS + 40
