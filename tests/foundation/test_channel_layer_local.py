"""The site's Redis channel layer hands a group message to the sending process's own sockets itself
(durak_site.channel_layer): each socket of the group, here or in another process, gets it once, the sender's
own copy back from Redis is dropped, and a message to one channel still goes through Redis. Two layers
stand for two server processes."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from django.utils.module_loading import import_string

from durak_site.channel_layer import _Local
from durak_site.environment import channel_layer_settings


def _layer() -> Any:
    configured = channel_layer_settings(redis_url=os.environ["REDIS_URL"])
    return import_string(configured["BACKEND"])(**configured["CONFIG"])


async def _nothing_more(layer: Any, channel: str) -> None:
    # The queue looked at, not a receive left to time out: a cancelled receive unsubscribes its channel.
    await asyncio.sleep(1.5)
    assert layer._get_layer().channels[channel].empty()


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_group_message_reaches_every_socket_once_here_and_in_another_process(real_services: None) -> None:
    here, there = _layer(), _layer()
    first, second, remote = await here.new_channel(), await here.new_channel(), await there.new_channel()
    for layer, channel in ((here, first), (here, second), (there, remote)):
        await layer.group_add("game.7", channel)
    await asyncio.sleep(0.5)  # Pub/Sub: the subscriptions reach Redis
    event = {"type": "game.view", "common": {"seq": 3, "log_entries": b"[]"}, "readers": [{"seat": 0}]}
    await here.group_send("game.7", event)
    # Each local socket has its own copy of the message at once, before Redis has been heard from.
    got_first, got_second = here._get_layer().channels[first].get_nowait(), here._get_layer().channels[second].get_nowait()
    assert isinstance(got_first, _Local) and isinstance(got_second, _Local)
    here._get_layer().channels[first].put_nowait(got_first)
    here._get_layer().channels[second].put_nowait(got_second)
    received = [await asyncio.wait_for(here.receive(channel), timeout=5) for channel in (first, second)]
    assert received == [event, event]
    received[0]["changed"] = True  # a socket's copy is its own
    assert "changed" not in received[1] and "changed" not in event
    # The other process gets it through Redis, once, as msgpack gives it back.
    assert await asyncio.wait_for(there.receive(remote), timeout=5) == event
    # The sender's copy back from Redis was dropped: no socket gets the message twice.
    for layer, channel in ((here, first), (here, second), (there, remote)):
        await _nothing_more(layer, channel)

    # The other way: a message from the other process reaches the local sockets through Redis.
    await there.group_send("game.7", {"type": "game.view", "from": "there"})
    for channel in (first, second):
        assert await asyncio.wait_for(here.receive(channel), timeout=5) == {"type": "game.view", "from": "there"}
    assert await asyncio.wait_for(there.receive(remote), timeout=5) == {"type": "game.view", "from": "there"}
    await _nothing_more(there, remote)

    # A message to one channel of the sending process still comes back through Redis (and only once).
    await here.send(first, {"type": "ping.echo", "payload": 1})
    assert await asyncio.wait_for(here.receive(first), timeout=5) == {"type": "ping.echo", "payload": 1}
    await _nothing_more(here, first)

    # A message msgpack cannot pack is refused before any socket has it, here as with the plain layer.
    with pytest.raises(TypeError):
        await here.group_send("game.7", {"type": "game.view", "unpackable": object()})
    await _nothing_more(here, first)

    # A socket that left the group gets nothing more of it.
    await here.group_discard("game.7", second)
    await here.group_send("game.7", {"type": "game.view", "seq": 4})
    assert await asyncio.wait_for(here.receive(first), timeout=5) == {"type": "game.view", "seq": 4}
    assert await asyncio.wait_for(there.receive(remote), timeout=5) == {"type": "game.view", "seq": 4}
    await _nothing_more(here, second)
    for layer in (here, there):
        await layer.flush()
