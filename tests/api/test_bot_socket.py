"""The bot socket (/ws/bot/game/<id>/): token authentication, bot accounts only, their own seats only, the
game protocol with the public move log, and moves through the same service as a person's."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from api import services
from durak_site.asgi import application
from games import services as game_services
from games.models import ActionLog, Game
from tests.api.conftest import bot_account
from tests.api.test_hidden_information import _card_tokens, _hidden_from
from tests.games.factories import latest_game, person, table

_spec = importlib.util.spec_from_file_location("bot_client", Path(__file__).resolve().parents[2] / "examples/bot_client.py")
assert _spec is not None and _spec.loader is not None
bot_client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bot_client)


def _key(user: User) -> str:
    return services.token_create(user=user, name="socket").key


async def _connect(path: str, key: str | None) -> tuple[WebsocketCommunicator, bool, Any]:
    headers = [(b"authorization", f"Bearer {key}".encode())] if key else []
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


def _bot_game() -> tuple[User, Game]:
    robot = bot_account("robot")
    at = table(robot, turn_seconds=3600)
    game_services.table_join(table=at, user=robot)
    game_services.table_add_bot(table=at, level="easy")
    return robot, latest_game(at)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_strangers_people_and_other_games() -> None:
    robot, game = await database_sync_to_async(_bot_game)()
    path = f"/ws/bot/game/{game.pk}/"
    _, connected, code = await _connect(path, None)
    assert not connected and code == 4401
    _, connected, code = await _connect(path, "durak_wrong")
    assert not connected and code == 4401
    human = await database_sync_to_async(person)("human")
    _, connected, code = await _connect(path, await database_sync_to_async(_key)(human))
    assert not connected and code == 4403
    other_bot = await database_sync_to_async(bot_account)("other")
    _, connected, code = await _connect(path, await database_sync_to_async(_key)(other_bot))
    assert not connected and code == 4403  # a bot plays its own games and watches none
    _, connected, code = await _connect("/ws/bot/game/999999/", await database_sync_to_async(_key)(robot))
    assert not connected and code == 4404
    # The site's cookie socket does not take a token instead of a session.
    cookie_socket = WebsocketCommunicator(application, path.replace("/bot/", "/"),
                                          headers=[(b"authorization", b"Bearer x"), (b"origin", b"http://localhost")])
    connected, _ = await cookie_socket.connect()
    assert connected  # as an anonymous spectator of a public game
    view = await cookie_socket.receive_json_from(timeout=5)
    assert view["seat"] is None and "actions" not in view
    await cookie_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_bot_gets_its_seats_view_with_the_public_log_and_its_moves_go_through_the_service() -> None:
    robot, game = await database_sync_to_async(_bot_game)()
    socket, connected, _ = await _connect(f"/ws/bot/game/{game.pk}/", await database_sync_to_async(_key)(robot))
    assert connected
    rng = random.Random(3)
    moves = 0
    for _ in range(60):
        message: dict[str, Any] = await socket.receive_json_from(timeout=10)
        if message["type"] != "game.view":
            continue
        assert message["seat"] == 0 and "hand" in message["view"] and len(message["actions"]) == message["seq"]
        hidden = await database_sync_to_async(lambda: _hidden_from(Game.objects.get(pk=game.pk), 0))()
        assert not _card_tokens(message) & hidden, "the bot socket showed a hidden card"
        assert message["face_up"] == (await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).record)())["stock"][-1]
        if message["status"] != "playing" or moves >= 4:
            break
        if 0 in message["waiting"]:
            action = bot_client.choose(message, rng)
            await socket.send_json_to({"type": "action", "action": action, "seq": message["seq"]})
            moves += 1
        elif 1 in message["waiting"]:
            await database_sync_to_async(game_services.game_bot_move)(game_id=game.pk, seq=message["seq"])
    assert moves >= 1
    seats = await database_sync_to_async(lambda: set(ActionLog.objects.filter(game=game).values_list("seat", flat=True)))()
    assert 0 in seats
    await socket.send_json_to({"type": "action", "action": {"type": "take"}, "seq": 0})
    error = await socket.receive_json_from(timeout=5)
    while error["type"] != "game.error":
        error = await socket.receive_json_from(timeout=5)
    assert error["code"] in ("stale", "illegal")
    await socket.disconnect()
