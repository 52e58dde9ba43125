"""The analysis socket through the real ASGI application: a player of the game hears the analysis go and end;
a stranger and an anonymous visitor are refused at the door."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from review import consumers, services
from review.models import GameAnalysis
from tests.games.test_consumers import LOCAL_ORIGIN, _socket
from tests.leakproof import cards_in
from tests.ratings.helpers import finished_game, person
from tests.review.conftest import FakeSearch


def _finished_and_asked() -> tuple[Any, Any, Any, int]:
    anna, boris, stranger = person("anna"), person("boris"), person("stranger")
    game, _ = finished_game([anna, boris])
    return anna, stranger, game, len(game.record["actions"])


async def _refused(path: str, user: Any = None) -> int:
    headers = [LOCAL_ORIGIN]
    if user is not None:
        from tests.games.test_consumers import _cookie

        headers.append((b"cookie", await database_sync_to_async(_cookie)(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    assert not connected
    return int(code)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_hears_the_analysis_go_and_end_and_a_stranger_is_refused(
    search: FakeSearch, queued: list[int]
) -> None:
    anna, stranger, game, total = await database_sync_to_async(_finished_and_asked)()
    path = f"/ws/analysis/{game.pk}/"
    assert await _refused(path, stranger) == consumers.CLOSE_NOT_ALLOWED
    assert await _refused(path) == consumers.CLOSE_NOT_SIGNED_IN
    assert await _refused("/ws/analysis/999999/", anna) == consumers.CLOSE_NO_GAME

    socket = await _socket(path, anna)
    assert await socket.receive_nothing(timeout=0.2)  # nothing asked for yet
    analysis = await database_sync_to_async(services.analysis_request)(user=anna, game=game)
    assert queued == [analysis.pk]
    await database_sync_to_async(services.analysis_run)(analysis_id=analysis.pk)

    heard: list[dict[str, Any]] = []
    while not heard or heard[-1]["type"] != "analysis.done":
        heard.append(await socket.receive_json_from(timeout=5))
    progress = heard[:-1]
    assert progress[0] == {"type": "analysis.progress", "game": game.pk, "budget": "default", "status": "running",
                           "done": 0, "total": total}  # fmt: skip
    assert progress[-1]["done"] == total and all(message["status"] == "running" for message in progress)
    stored = await database_sync_to_async(GameAnalysis.objects.get)(pk=analysis.pk)
    assert heard[-1] == {"type": "analysis.done", "game": game.pk, "budget": "default", "status": "done",
                         "done": total, "total": total, "accuracy": stored.accuracy,
                         "url": f"/review/game/{game.pk}/analysis.json?budget=default"}  # fmt: skip
    assert not cards_in(str(heard))
    # What a client sends is dropped; a socket opened later hears how the analysis stands.
    await socket.send_json_to({"type": "analysis.progress", "done": 1})
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()
    later = await _socket(path, anna)
    assert (await later.receive_json_from(timeout=5))["type"] == "analysis.done"
    await later.disconnect()
