"""A game socket may stay quiet for long (a player thinking): the Redis channel layer waits for its next
message without failing. With redis-py 8's default 5 s socket timeout, channels-redis's 5 s blocking pop
raised TimeoutError on an idle channel, and Daphne closed the player's socket with 1011."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.layers import get_channel_layer


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_an_idle_channel_waits_past_the_blocking_pop_and_still_gets_its_message(real_services: None) -> None:
    layer = get_channel_layer()
    assert layer is not None
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
