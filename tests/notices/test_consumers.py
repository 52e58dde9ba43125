"""The notices socket through the real ASGI application: a signed-in person hears his own count and his new
notice, in his page's language, and nothing of anybody else's; nobody else is admitted."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from notices import services, tasks
from notices.models import Notice
from tests.games.test_consumers import LOCAL_ORIGIN, _socket
from tests.leakproof import cards_in
from tests.tournaments.factories import director, enter, person, tournament
from tournaments import services as tournament_services
from tournaments.models import Round


@pytest.fixture(autouse=True)
def no_timed_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairing's commit would send the notice tasks to the in-process runner: this test runs them."""
    monkeypatch.setattr(tasks.pairing_notices, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.seat_reminders, "apply_async", lambda *args, **kwargs: None)


def _paired_round() -> tuple[Any, Any, int]:
    anna, boris = person("anna"), person("boris", language="ru")
    boris.time_zone = "Europe/London"  # his times in his zone; anna's in the site's (Moscow)
    boris.save(update_fields=["time_zone"])
    event = tournament(by=director("dora"), rounds=2)
    enter(event, [anna, boris])
    tournament_services.tournament_start(tournament=event, by=event.director)
    return anna, boris, Round.objects.get(tournament=event, number=1).pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_player_hears_his_own_pairing_once_over_his_socket_in_his_language() -> None:
    anna, boris, round_id = await database_sync_to_async(_paired_round)()
    outsider = await database_sync_to_async(person)("olga")
    sockets = {
        "anna": await _socket("/ws/notices/?lang=en", anna),
        "boris": await _socket("/ws/notices/", boris),  # no language asked: his profile's
        "olga": await _socket("/ws/notices/?lang=en", outsider),
    }
    for socket in sockets.values():
        assert await socket.receive_json_from(timeout=5) == {"type": "notices.unread", "unread": 0}

    await database_sync_to_async(tasks.pairing_notices)(round_id)
    heard = {name: await sockets[name].receive_json_from(timeout=5) for name in ("anna", "boris")}
    assert heard["anna"]["unread"] == 1 and heard["boris"]["unread"] == 1
    assert heard["anna"]["notice"]["title"] == "Your pairing"
    assert heard["anna"]["notice"]["text"].startswith("Round 1 of ") and boris.public_name in heard["anna"]["notice"]["text"]
    assert heard["boris"]["notice"]["title"] == "Ваша пара" and anna.public_name in heard["boris"]["notice"]["text"]
    assert heard["boris"]["notice"]["text"].endswith(" GMT.") and heard["anna"]["notice"]["text"].endswith(" MSK.")
    for message in heard.values():
        assert set(message) == {"type", "unread", "notice"} and not cards_in(str(message))
    assert await sockets["olga"].receive_nothing(timeout=0.3)  # another person's notices are not his business

    # The task again: nothing new, nobody told again.
    await database_sync_to_async(tasks.pairing_notices)(round_id)
    assert await sockets["anna"].receive_nothing(timeout=0.3)
    assert await database_sync_to_async(Notice.objects.filter(user=anna).count)() == 1

    # Read on another page: the count goes to 0, and the notice is not announced again.
    newest = await database_sync_to_async(lambda: Notice.objects.get(user=anna).pk)()
    await database_sync_to_async(services.notices_mark_read)(user=anna, upto=newest)
    assert await sockets["anna"].receive_json_from(timeout=5) == {"type": "notices.unread", "unread": 0}
    # What is not the protocol is dropped, and the socket stays.
    await sockets["anna"].send_to(text_data="not json {")
    await sockets["anna"].send_to(text_data="x" * 10_000)
    await sockets["anna"].send_json_to({"type": "mark-read", "notice": newest})
    assert await sockets["anna"].receive_nothing(timeout=0.3)
    await sockets["anna"].send_json_to({"type": "sync"})
    assert await sockets["anna"].receive_json_from(timeout=5) == {"type": "notices.unread", "unread": 0}
    assert await sockets["boris"].receive_nothing(timeout=0.3)
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_nobody_signed_out_is_admitted() -> None:
    socket = WebsocketCommunicator(application, "/ws/notices/", headers=[LOCAL_ORIGIN])
    connected, code = await socket.connect()
    assert not connected and code == 4401
