"""The lobby's list is read only where a socket listens to the lobby (games.broadcast._lobby_listened): a due
send with no lobby socket in this process nor in any other (no subscriber of the group's Redis channel) reads
no table; one with a socket here, or another process subscribed, reads and sends the list. With the in-memory
layer this process's group alone decides. Layer instances stand for processes, each on a loop of its own
thread, as a server's loop is (tests/foundation/test_channel_layer_alone.py)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.utils.module_loading import import_string

from accounts.models import User
from durak_site.channel_layer import LocalFirstChannelLayer
from durak_site.environment import channel_layer_settings
from games import broadcast, selectors
from games.models import Table

pytestmark = pytest.mark.django_db

T = TypeVar("T")


@pytest.fixture(autouse=True)
def connection_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The due sends run on the test's thread, in its transaction: the timer thread's closing of its database
    connection after a send would end that transaction."""
    monkeypatch.setattr(broadcast, "close_old_connections", lambda: None)


class LoopThread:
    """An event loop running on a thread of its own: a server's loop, or another process's."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        async def call() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(timeout=10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def loops() -> Iterator[Callable[[], LoopThread]]:
    started: list[LoopThread] = []

    def start() -> LoopThread:
        started.append(LoopThread())
        return started[-1]

    yield start
    for loop in started:
        loop.stop()


@pytest.fixture
def lists_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many tables each read of the lobby's list by a send found."""
    reads: list[int] = []
    read = broadcast.lobby_tables

    def counted() -> list[dict[str, Any]]:
        tables = read()
        reads.append(len(tables))
        return tables

    monkeypatch.setattr(broadcast, "lobby_tables", counted)
    return reads


@pytest.fixture
def a_table() -> Table:
    owner = User.objects.create(username="lobby-owner")
    return Table.objects.create(rules={"preset": "podkidnoy"}, seat_count=2, owner=owner, link_token="t")


@pytest.fixture
def no_server_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that serves no socket: its due send goes out on its own sending loop."""
    monkeypatch.setattr(broadcast, "_server_loop", None)


def _configured() -> dict[str, Any]:
    """The site's Redis layer, its channels' names of this test's own: a server the session started (Daphne,
    with a lobby page open in a browser) does not listen to them."""
    configured = channel_layer_settings(redis_url=os.environ["REDIS_URL"])
    configured["CONFIG"]["prefix"] += f"lobby-listeners-{os.getpid()}."
    return configured


@pytest.fixture
def redis_layer(real_services: None, settings: Any) -> Iterator[LocalFirstChannelLayer]:
    """This process's channel layer, the site's Redis layer; what it opened on the sending loop is closed after."""
    settings.CHANNEL_LAYERS = {"default": _configured()}
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstChannelLayer)
    yield layer
    sending = broadcast._sending_loop()
    if sending in layer._layers:
        asyncio.run_coroutine_threadsafe(layer.flush(), sending).result(timeout=10)


def _another_process() -> Any:
    configured = _configured()
    return import_string(configured["BACKEND"])(**configured["CONFIG"])


def _received(loop: LoopThread, layer: Any, channel: str) -> dict[str, Any]:
    return loop.run(lambda: asyncio.wait_for(layer.receive(channel), timeout=5))


def _lobby_message() -> dict[str, Any]:
    return {"type": "lobby.tables", "tables": selectors.lobby_tables()}


def test_with_no_lobby_socket_anywhere_a_due_send_reads_no_table(
    redis_layer: LocalFirstChannelLayer, no_server_loop: None, lists_read: list[int], a_table: Table,
    django_assert_num_queries: Any,
) -> None:  # fmt: skip
    assert broadcast._run_due(lambda: redis_layer.group_subscribers(broadcast.LOBBY_GROUP)) == 0
    with django_assert_num_queries(0):
        broadcast._send_due_lobby()
    assert lists_read == []


def test_a_lobby_socket_of_another_process_is_sent_the_list(
    redis_layer: LocalFirstChannelLayer, no_server_loop: None, lists_read: list[int], a_table: Table,
    loops: Callable[[], LoopThread],
) -> None:  # fmt: skip
    there, elsewhere = _another_process(), loops()
    socket = elsewhere.run(there.new_channel)
    elsewhere.run(lambda: there.group_add(broadcast.LOBBY_GROUP, socket))
    assert not redis_layer.group_has_sockets_here(broadcast.LOBBY_GROUP)
    broadcast._send_due_lobby()
    assert lists_read == [1]
    assert _received(elsewhere, there, socket) == _lobby_message()
    # Its last socket gone, the other process unsubscribes, and the next due send reads nothing.
    elsewhere.run(lambda: there.group_discard(broadcast.LOBBY_GROUP, socket))
    broadcast._send_due_lobby()
    assert lists_read == [1]
    elsewhere.run(there.flush)


def test_a_lobby_socket_of_this_process_is_sent_the_list_without_asking_redis(
    redis_layer: LocalFirstChannelLayer, lists_read: list[int], a_table: Table, loops: Callable[[], LoopThread],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    server = loops()
    monkeypatch.setattr(broadcast, "_server_loop", server.loop)
    socket = server.run(redis_layer.new_channel)
    server.run(lambda: redis_layer.group_add(broadcast.LOBBY_GROUP, socket))

    async def not_asked(group: str) -> int:
        raise AssertionError("Redis was asked who listens, where this process has a lobby socket")

    monkeypatch.setattr(redis_layer, "group_subscribers", not_asked)
    broadcast._send_due_lobby()
    assert lists_read == [1]
    assert _received(server, redis_layer, socket) == _lobby_message()
    server.run(redis_layer.flush)


@pytest.fixture
def memory_layer(settings: Any) -> InMemoryChannelLayer:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    return layer


def test_in_memory_the_process_lobby_group_decides(
    memory_layer: InMemoryChannelLayer, lists_read: list[int], a_table: Table, loops: Callable[[], LoopThread],
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any,
) -> None:  # fmt: skip
    server = loops()
    monkeypatch.setattr(broadcast, "_server_loop", server.loop)
    with django_assert_num_queries(0):
        broadcast._send_due_lobby()
    assert lists_read == []
    socket = server.run(memory_layer.new_channel)
    server.run(lambda: memory_layer.group_add(broadcast.LOBBY_GROUP, socket))
    broadcast._send_due_lobby()
    assert lists_read == [1]
    assert _received(server, memory_layer, socket) == _lobby_message()
    server.run(lambda: memory_layer.group_discard(broadcast.LOBBY_GROUP, socket))
    broadcast._send_due_lobby()
    assert lists_read == [1]
