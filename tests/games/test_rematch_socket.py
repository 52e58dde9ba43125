"""The rematch over the game socket (docs/protocol.md): offer, decline, offer again, accept, through the real
ASGI application; refusals go to the sender only in his language and change nothing; every page of the game,
spectators' too, is told each change and the new game's URL. And what these messages and the result's view
hold: never a hand, during the game or after it (a card name appears in none of them)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from django.urls import reverse

from durak_site.inprocess_tasks import in_process_runner
from games.engine.cards import names
from games.models import Game, Rematch, RematchStatus
from games.snapshots import state_of
from tests.games.factories import person
from tests.games.test_consumers import _heads_up, _socket

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[SCDH](?![A-Za-z0-9])|(?<![A-Za-z])[RB]J(?![A-Za-z])")


@pytest.fixture(autouse=True)
def tasks_in_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Finalisations run on the in-process runner (also under CI=true); no turn timer waits there."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    with override_settings(TASKS_IN_PROCESS=True):
        yield
        assert in_process_runner().wait_until_idle(timeout_s=30)


class Reader:
    """A socket and every message it received, in order."""

    def __init__(self, socket: WebsocketCommunicator) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []

    async def next(self, kind: str, **match: Any) -> dict[str, Any]:
        for _ in range(30):
            message: dict[str, Any] = await self.socket.receive_json_from(timeout=5)
            self.received.append(message)
            if message["type"] == kind and all(message.get(key) == value for key, value in match.items()):
                return message
        raise AssertionError(f"no {kind} {match}")

    async def drain(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        """What arrives until nothing has for `timeout` seconds (views of sockets counted in, say)."""
        drained = []
        while not await self.socket.receive_nothing(timeout=timeout):
            message: dict[str, Any] = await self.socket.receive_json_from(timeout=5)
            self.received.append(message)
            drained.append(message)
        return drained

    async def rematch(self, status: str) -> dict[str, Any]:
        while True:
            message = await self.next("game.rematch")
            if message["rematch"]["status"] == status:
                return message


async def _finished_heads_up() -> tuple[Any, Any, Game, Reader, Reader, Reader, list[str]]:
    anna, boris, game = await database_sync_to_async(_heads_up)()
    hands = [names(hand) for hand in (await database_sync_to_async(state_of)(game)).hands]
    readers = [
        Reader(await _socket(f"/ws/game/{game.pk}/", anna)),
        Reader(await _socket(f"/ws/game/{game.pk}/", boris)),
        Reader(await _socket(f"/ws/game/{game.pk}/", await database_sync_to_async(person)("rm-watcher"))),
    ]
    for reader in readers:
        await reader.next("game.view")
    anna_socket, boris_socket, watcher = readers

    # During the game: no rematch, refused to the sender only; its refusal names no card.
    await anna_socket.socket.send_json_to({"type": "rematch.offer"})
    error = await anna_socket.next("game.error")
    assert error["code"] == "not_finished" and error["message"] == "A rematch can be offered once the game is over."
    assert not [message for message in await boris_socket.drain() if message["type"] != "game.view"]
    await boris_socket.socket.send_json_to({"type": "rematch.accept"})
    assert (await boris_socket.next("game.error"))["code"] == "not_finished"
    assert not await database_sync_to_async(Rematch.objects.filter(game=game).exists)()

    await anna_socket.socket.send_json_to({"type": "surrender"})
    for reader in readers:
        while (await reader.next("game.view"))["result"] is None:
            pass
    return anna, boris, game, anna_socket, boris_socket, watcher, hands[0]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_offer_declined_then_offered_again_and_accepted_moves_every_page_to_the_new_game() -> None:
    anna, boris, game, anna_socket, boris_socket, watcher, _ = await _finished_heads_up()
    readers = [anna_socket, boris_socket, watcher]

    # A spectator may not offer; Boris may not accept what nobody offered. Boris reads Russian.
    await watcher.socket.send_json_to({"type": "rematch.offer"})
    assert (await watcher.next("game.error"))["code"] == "forbidden"
    await boris_socket.socket.send_json_to({"type": "rematch.accept"})
    refused = await boris_socket.next("game.error")
    assert refused["code"] == "no_offer" and refused["message"] != "Nobody has offered a rematch."

    await anna_socket.socket.send_json_to({"type": "rematch.offer"})
    for reader in readers:
        offer = (await reader.rematch("open"))["rematch"]
        assert (offer["offered_by"], offer["accepted"], offer["url"]) == (0, [0], None)
    await anna_socket.socket.send_json_to({"type": "rematch.offer"})
    assert (await anna_socket.next("game.error"))["code"] == "offered"

    await boris_socket.socket.send_json_to({"type": "rematch.decline"})
    for reader in readers:
        declined = (await reader.rematch("declined"))["rematch"]
        assert declined["declined_by"] == 1 and declined["game"] is None
    assert await database_sync_to_async(Game.objects.filter(table_id=game.table_id).count)() == 1

    await anna_socket.socket.send_json_to({"type": "rematch.offer"})
    for reader in readers:
        await reader.rematch("open")
    await boris_socket.socket.send_json_to({"type": "rematch.accept"})
    started = [(await reader.rematch("started"))["rematch"] for reader in readers]
    rematch = await database_sync_to_async(Rematch.objects.get)(game=game)
    assert rematch.status == RematchStatus.STARTED and rematch.new_game_id is not None
    url = reverse("games:game", args=[rematch.new_game_id])
    assert all(state["url"] == url and state["game"] == rematch.new_game_id for state in started)

    # A page that asks again after the start sees it in the result's view.
    await watcher.socket.send_json_to({"type": "sync"})
    view = await watcher.next("game.view")
    assert view["result"]["rematch"]["url"] == url
    for reader in readers:
        await reader.socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_rematch_messages_and_the_result_view_show_no_hand() -> None:
    anna, boris, game, anna_socket, boris_socket, watcher, anna_hand = await _finished_heads_up()
    await anna_socket.socket.send_json_to({"type": "rematch.offer"})
    await boris_socket.rematch("open")
    await boris_socket.socket.send_json_to({"type": "rematch.accept"})
    for reader in (anna_socket, boris_socket, watcher):
        await reader.rematch("started")

    fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    for reader, seat in ((anna_socket, 0), (boris_socket, 1), (watcher, None)):
        for message in reader.received:
            text = json.dumps(message)
            if message["type"] in ("game.rematch", "game.error"):
                # No card at all: these messages name seats, a status and a URL.
                assert not CARD.findall(text), message
                continue
            assert message["type"] == "game.view"
            own = message["view"].get("hand")
            if seat is None:
                assert own is None
            if message["result"] is None:
                # During the game nobody but Anna sees her hand (Boris and the watcher: no card of hers
                # that is not on the table).
                if seat != 0:
                    on_table = {card for pair in message["view"]["table"] for card in pair.values() if card}
                    assert not (set(anna_hand) - on_table) & set(CARD.findall(text)), message
            else:
                result = message["result"]
                assert result["deck"] == fresh.revealed_deck
                assert set(result) >= {"rating_change", "rematch", "tournament"}
    for reader in (anna_socket, boris_socket, watcher):
        await reader.socket.disconnect()


def _stake_lost() -> tuple[Any, Any, Game]:
    """Anna and Boris (who reads Russian) at a table whose stake is all Boris's chips; he gave up and lost them."""
    from accounts.ledger import ledger_balance
    from games import rematch, services
    from tests.games.factories import latest_game, table

    anna, boris = person("rm-stake-anna"), person("rm-stake-boris", language="ru")
    at = table(anna, stake=ledger_balance(user=boris), turn_seconds=3600)
    services.table_join(table=at, user=anna)
    services.table_join(table=at, user=boris)
    game = latest_game(at)
    services.game_surrender(game_id=game.pk, user=boris)
    services.game_finalise(game_id=game.pk)
    rematch.rematch_offer(game_id=game.pk, user=anna)
    return anna, boris, game


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_rematch_that_cannot_be_dealt_says_why_in_the_readers_language() -> None:
    anna, boris, game = await database_sync_to_async(_stake_lost)()
    socket = Reader(await _socket(f"/ws/game/{game.pk}/", boris))
    await socket.next("game.view")
    await socket.socket.send_json_to({"type": "rematch.accept"})
    error = await socket.next("game.error")
    assert error["code"] == "cannot_start"
    assert error["message"].startswith("Реванш не может начаться: У игрока rm-stake-boris меньше"), error
    rematch = await database_sync_to_async(Rematch.objects.get)(game=game)
    assert (rematch.status, rematch.accepted) == (RematchStatus.OPEN, [0])
    assert await database_sync_to_async(Game.objects.filter(table_id=game.table_id).count)() == 1
    await socket.socket.disconnect()
