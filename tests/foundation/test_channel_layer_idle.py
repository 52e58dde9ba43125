"""A game socket may stay quiet for long (a player thinking): the Redis channel layer waits for its next
message without failing. With redis-py 8's default 5 s socket timeout, channels-redis's list layer's 5 s
blocking pop raised TimeoutError on an idle channel, and Daphne closed the player's socket with 1011.
Both Redis layers the site may run on (durak_site.environment.channel_layer_settings) are checked."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest
from django.utils.module_loading import import_string

from durak_site.environment import channel_layer_settings


def _layer(kind: str) -> Any:
    configured = channel_layer_settings(redis_url=os.environ["REDIS_URL"], kind=kind)
    assert configured["BACKEND"] != "channels.layers.InMemoryChannelLayer"
    return import_string(configured["BACKEND"])(**configured["CONFIG"])


@pytest.mark.asyncio
@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["pubsub", "lists"])
async def test_an_idle_channel_waits_past_the_blocking_pop_and_still_gets_its_message(
    real_services: None, kind: str
) -> None:
    layer = _layer(kind)
    channel = await layer.new_channel()
    started = time.monotonic()
    with pytest.raises(asyncio.TimeoutError):  # nothing came: the wait goes on, no error
        await asyncio.wait_for(layer.receive(channel), timeout=12)
    assert time.monotonic() - started >= 11

    async def send_later() -> None:
        await asyncio.sleep(6)
        await layer.send(channel, {"type": "game.view", "payload": {"seq": 1}})

    sender = asyncio.ensure_future(send_later())
    message = await asyncio.wait_for(layer.receive(channel), timeout=20)
    await sender
    assert message == {"type": "game.view", "payload": {"seq": 1}}


@pytest.mark.asyncio
@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["pubsub", "lists"])
async def test_sites_on_two_databases_of_one_redis_do_not_hear_each_other(real_services: None, kind: str) -> None:
    """Pub/Sub channels belong to the Redis server, not to a database: a site on another database of the
    same Redis (a staging copy, a benchmark beside the tests) once heard this site's group messages, and its
    sockets were sent views of a game of the same id. Each site's layer hears only its own group."""
    url = os.environ["REDIS_URL"]
    base, _, database = url.rpartition("/")
    other_url = f"{base}/{(int(database or 0) + 1) % 16}"

    def layer_of(redis_url: str) -> Any:
        configured = channel_layer_settings(redis_url=redis_url, kind=kind)
        return import_string(configured["BACKEND"])(**configured["CONFIG"])

    ours, theirs = layer_of(url), layer_of(other_url)
    mine, other = await ours.new_channel(), await theirs.new_channel()
    await ours.group_add("game.2", mine)
    await theirs.group_add("game.2", other)
    await asyncio.sleep(0.5)  # Pub/Sub: the subscriptions reach Redis
    await theirs.group_send("game.2", {"type": "game.view", "site": "theirs"})
    await ours.group_send("game.2", {"type": "game.view", "site": "ours"})
    assert await asyncio.wait_for(ours.receive(mine), timeout=10) == {"type": "game.view", "site": "ours"}
    assert await asyncio.wait_for(theirs.receive(other), timeout=10) == {"type": "game.view", "site": "theirs"}
    with pytest.raises(asyncio.TimeoutError):  # nothing else came: not the other site's message
        await asyncio.wait_for(ours.receive(mine), timeout=2)
    await ours.group_discard("game.2", mine)
    await theirs.group_discard("game.2", other)
    for layer in (ours, theirs):
        if hasattr(layer, "flush"):
            await layer.flush()
