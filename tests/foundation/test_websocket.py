"""WebSocket through the real ASGI stack: origin check, session authentication, routing, channel layer."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.services import user_sign_up
from durak_site.asgi import application

LOCAL_ORIGIN = (b"origin", b"http://localhost")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_ping_is_answered_through_the_channel_layer() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[LOCAL_ORIGIN])
    connected, _ = await communicator.connect()
    assert connected

    await communicator.send_json_to({"type": "ping", "payload": {"n": 17}})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong", "payload": {"n": 17}, "user": None}

    await communicator.send_json_to({"type": "hello"})
    answer = await communicator.receive_json_from(timeout=5)
    assert answer["type"] == "error"
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_session_cookie_identifies_the_player() -> None:
    def logged_in_cookie() -> bytes:
        user = user_sign_up(
            username="sonya", email="s@example.com", password="a-Long-passw0rd", preferred_language="en"
        )
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()

    cookie = await database_sync_to_async(logged_in_cookie)()
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[LOCAL_ORIGIN, (b"cookie", cookie)])
    connected, _ = await communicator.connect()
    assert connected

    await communicator.send_json_to({"type": "ping", "payload": "hi"})
    assert (await communicator.receive_json_from(timeout=5))["user"] == "sonya"
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_page_of_another_site_cannot_open_the_socket() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"https://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_unknown_path_is_refused() -> None:
    communicator = WebsocketCommunicator(application, "/ws/nothing-here/", headers=[LOCAL_ORIGIN])
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect()


@pytest.mark.asyncio
async def test_a_message_to_a_socket_closed_meanwhile_is_dropped_not_raised() -> None:
    """Daphne raises autobahn's Disconnected when a consumer sends on a socket its client has just closed
    (a move's view taken from the group before the close reached the consumer); the consumer drops the
    message. Any other failure of a send still raises."""
    from autobahn.exception import Disconnected

    from durak_site.consumers import LiveConsumer

    sent: list[dict[str, object]] = []
    failure: list[Exception] = [Disconnected("Attempt to send on a closed protocol")]

    async def base_send(message: dict[str, object]) -> None:
        if failure:
            raise failure[0]
        sent.append(message)

    consumer = LiveConsumer()
    consumer.base_send = base_send
    await consumer.send_json({"type": "game.view"})
    await consumer.send(text_data="{}")
    assert sent == []

    failure[0] = ValueError("Socket has not been accepted, so cannot send over it")
    with pytest.raises(ValueError):
        await consumer.send_json({"type": "game.view"})

    failure.clear()
    await consumer.send_json({"type": "game.view"})
    assert [message["type"] for message in sent] == ["websocket.send"]
    assert json.loads(str(sent[0]["text"])) == {"type": "game.view"}
