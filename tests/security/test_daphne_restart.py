"""Daphne killed in the middle of 20 games and started again (issue 10, faults; CI=true).

Forty scripted players (two a game) play random legal moves over real WebSockets. When enough moves have
been made, the server process is killed with SIGKILL and a new one is started on the same port. The
players reconnect, get their view again and play on (after three more moves of his own, the first player
of each game gives up, to keep the test short). Every game ends, and each is intact: the stored game
is what its record replays to, with one action-log row per version (nothing lost, nothing applied twice).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts.models import User
from durak_site.management.commands.run_site import daphne_command
from games import services
from games.engine import load_record, play
from games.engine.actions import action_from_json
from games.models import ActionLog, Game, GameStatus
from games.snapshots import forget_all, state_of
from tests import processes
from tests.games.factories import latest_game, person, table

GAMES = 20
KILL_AFTER_MOVES = 100
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def _cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _daphne_command(port: int) -> list[str]:
    return daphne_command("127.0.0.1", port)


async def _player(
    port: int, cookie: str, game_id: int, seed: int, reconnects: list[int], *, surrender_after: int | None = None
) -> None:
    """Play random legal moves until the game is over, reconnecting whenever the socket drops. With
    `surrender_after`, give up once that many moves of his own landed after a reconnection (to keep the
    test short: what matters is that play goes on after the restart)."""
    import websockets
    from websockets.typing import Origin

    rng = random.Random(seed)
    url = f"ws://127.0.0.1:{port}/ws/game/{game_id}/"
    acted = -1
    moved_since = 0
    give_up = time.monotonic() + 400
    while time.monotonic() < give_up:
        try:
            origin = Origin(f"http://127.0.0.1:{port}")
            async with websockets.connect(url, additional_headers={"Cookie": cookie}, origin=origin) as socket:
                await socket.send(json.dumps({"type": "sync"}))
                while True:
                    try:
                        raw = await asyncio.wait_for(socket.recv(), timeout=10)
                    except TimeoutError:
                        # Ten seconds without a word: ask for the view again, as the game page does.
                        await socket.send(json.dumps({"type": "sync"}))
                        acted = -1
                        continue
                    message = json.loads(raw)
                    if message["type"] == "game.error":
                        # A move that crossed the other's (stale), or the other gave up meanwhile (finished).
                        assert message["code"] in ("stale", "finished"), message
                        if message["code"] == "finished":
                            return
                        continue
                    if message["status"] == "finished":
                        return
                    legal = message["view"]["legal"]
                    if surrender_after is not None and game_id in reconnects and moved_since >= surrender_after:
                        await socket.send(json.dumps({"type": "surrender", "seq": message["seq"]}))
                        surrender_after = None
                        continue
                    if message["seat"] in message["waiting"] and legal and message["seq"] > acted:
                        if game_id in reconnects and acted >= 0:
                            moved_since += 1
                        acted = message["seq"]
                        choice = rng.choice([action for action in legal if action["type"] != "accuse"] or legal)
                        await socket.send(json.dumps({"type": "action", "action": choice, "seq": acted}))
        except (OSError, websockets.exceptions.WebSocketException):
            reconnects.append(game_id)
            acted = -1  # the move sent before the drop may or may not have landed: ask again
            await asyncio.sleep(0.3)
    raise AssertionError(f"game {game_id} did not end")


def _moves_made() -> int:
    try:
        return sum(Game.objects.filter(table__name__startswith="restart-").values_list("seq", flat=True))
    finally:
        connection.close()  # called on a helper thread: leave no session open on the test database


def _assert_intact(game: Game) -> None:
    forget_all()
    replayed = load_record({**game.record, "actions": []}).initial_state()
    for raw in game.record["actions"]:
        play(replayed, raw["seat"], action_from_json(raw))
    stored = state_of(game)
    assert replayed.hands == stored.hands
    assert stored.finished or game.surrendered is not None
    seqs = list(ActionLog.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    # A surrender (or a fall) is an engine action, the record's last: the version is the log's length.
    moves = game.seq
    assert seqs == list(range(moves)) and len(game.record["actions"]) == moves, (game.pk, seqs, game.seq)


def test_games_resume_after_daphne_is_killed_and_started_again(real_services: None, test_database_url: str) -> None:
    players: list[tuple[str, int]] = []
    for number in range(GAMES):
        anna, boris = person(), person()
        at = table(anna, seats=2, name=f"restart-{number}", turn_seconds=3600)
        services.table_join(table=at, user=anna)
        services.table_join(table=at, user=boris)
        game = latest_game(at)
        players += [(_cookie(anna), game.pk), (_cookie(boris), game.pk)]

    port = processes.free_port()
    environment = processes.subprocess_environment(database=test_database_url)
    first = processes.started(_daphne_command(port), environment=environment, name="daphne-1")
    reconnects: list[int] = []
    with first as server:
        deadline = time.monotonic() + 60
        while not processes._port_open(port):
            assert time.monotonic() < deadline and server.process.poll() is None, server.log()[-2000:]
            time.sleep(0.1)

        async def everything() -> None:
            tasks = [
                asyncio.create_task(
                    _player(port, cookie, game_id, seed, reconnects, surrender_after=3 if seed % 2 == 0 else None)
                )
                for seed, (cookie, game_id) in enumerate(players)
            ]
            while await asyncio.to_thread(_moves_made) < KILL_AFTER_MOVES:
                assert not any(task.done() for task in tasks), "a game ended before the server was killed"
                await asyncio.sleep(0.2)
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            killed_at = await asyncio.to_thread(_moves_made)
            with processes.started(_daphne_command(port), environment=environment, name="daphne-2") as again:
                await asyncio.gather(*tasks)
                assert again.process.poll() is None
            assert await asyncio.to_thread(_moves_made) > killed_at

        asyncio.run(everything())

    assert len(set(reconnects)) == GAMES  # every game lost its sockets, and every one came back
    games = list(Game.objects.filter(table__name__startswith="restart-"))
    assert len(games) == GAMES
    assert all(game.status == GameStatus.FINISHED for game in games)
    for game in games:
        _assert_intact(game)
