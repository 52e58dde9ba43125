"""The site's Redis channel layer publishes nothing of a group that no other process listens to
(durak_site.channel_layer): a first socket's hello finds out, another's hello or a reconnect makes the group
published again, and a process without sockets of the group always publishes. Layer instances stand for
processes; what each publishes is seen by wrapping its shard's PUBLISH (a subscriber of our own on the
group's channel would be a listener, and the layer would not be alone)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

import pytest
import redis.asyncio as aioredis
from django.utils.module_loading import import_string

from durak_site import channel_layer
from durak_site.channel_layer import ORIGIN_BYTES
from durak_site.environment import channel_layer_settings


def _layer() -> Any:
    configured = channel_layer_settings(redis_url=os.environ["REDIS_URL"])
    return import_string(configured["BACKEND"])(**configured["CONFIG"])


def _published(layer: Any) -> list[bytes]:
    """The group and channel messages the layer publishes from now on (not its hellos and acks)."""
    sent: list[bytes] = []
    shard = layer._get_layer()._shards[0]
    publish = shard.publish

    async def spying(channel: str, message: bytes) -> int:
        if len(message) >= ORIGIN_BYTES:
            sent.append(message)
        return int(await publish(channel, message))

    shard.publish = spying
    return sent


def _group_channel(layer: Any, group: str) -> str:
    return str(layer._get_layer()._get_group_channel_name(group))


async def _until_subscribers(client: aioredis.Redis, group_channel: str, count: int) -> None:
    """Until Redis counts `count` subscribers of the channel (an UNSUBSCRIBE is not waited for by the layer)."""
    for _attempt in range(100):
        if (await client.pubsub_numsub(group_channel))[0][1] == count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{group_channel} never had {count} subscribers")


async def _nothing_more(layer: Any, channel: str) -> None:
    # The queue looked at, not a receive left to time out: a cancelled receive unsubscribes its channel.
    await asyncio.sleep(0.5)
    assert layer._get_layer().channels[channel].empty()


async def _receives(layer: Any, channel: str, message: dict[str, Any]) -> None:
    assert await asyncio.wait_for(layer.receive(channel), timeout=5) == message


async def _flush(*layers: Any) -> None:
    for layer in layers:
        await layer.flush()


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_group_with_only_local_sockets_is_not_published(real_services: None) -> None:
    here = _layer()
    published = _published(here)
    first, second = await here.new_channel(), await here.new_channel()
    await here.group_add("game.11", first)
    await here.group_add("game.11", second)
    event = {"type": "game.view", "common": {"seq": 3, "log_entries": b"[]"}, "readers": [{"seat": 0}]}
    await here.group_send("game.11", event)
    for channel in (first, second):
        await _receives(here, channel, event)
    assert published == []
    for channel in (first, second):
        await _nothing_more(here, channel)
    await _flush(here)


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_second_process_joining_is_sent_the_very_next_message(
    real_services: None, caplog: pytest.LogCaptureFixture
) -> None:
    here, there = _layer(), _layer()
    published_here, published_there = _published(here), _published(there)
    mine, theirs = await here.new_channel(), await there.new_channel()
    await here.group_add("game.12", mine)
    caplog.set_level(logging.WARNING, logger="durak_site.channel_layer")
    started = time.monotonic()
    await there.group_add("game.12", theirs)
    # here acked the hello: no wait for the timeout, no warning.
    assert time.monotonic() - started < channel_layer.HELLO_TIMEOUT_S / 2
    assert not caplog.records
    await here.group_send("game.12", {"type": "game.view", "seq": 1})
    await _receives(there, theirs, {"type": "game.view", "seq": 1})
    await _receives(here, mine, {"type": "game.view", "seq": 1})
    assert len(published_here) == 1
    # The newcomer knew from its hello's answer that here listens.
    await there.group_send("game.12", {"type": "game.view", "seq": 2})
    await _receives(here, mine, {"type": "game.view", "seq": 2})
    await _receives(there, theirs, {"type": "game.view", "seq": 2})
    assert len(published_there) == 1
    await _nothing_more(here, mine)
    await _nothing_more(there, theirs)
    await _flush(here, there)


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_process_without_sockets_of_the_group_publishes(real_services: None) -> None:
    here, worker = _layer(), _layer()
    published_here, published_worker = _published(here), _published(worker)
    mine = await here.new_channel()
    await here.group_add("game.13", mine)
    await worker.group_send("game.13", {"type": "game.view", "from": "worker"})
    await _receives(here, mine, {"type": "game.view", "from": "worker"})
    assert len(published_worker) == 1
    # A sender that never subscribed said no hello: here is still alone.
    await here.group_send("game.13", {"type": "game.view", "from": "here"})
    await _receives(here, mine, {"type": "game.view", "from": "here"})
    assert published_here == []
    await _flush(here, worker)


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_group_is_found_alone_again_after_its_last_socket_left(
    real_services: None
) -> None:
    here, there = _layer(), _layer()
    redis_client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    published = _published(here)
    group_channel = _group_channel(here, "game.14")
    mine, theirs = await here.new_channel(), await there.new_channel()
    await here.group_add("game.14", mine)
    await there.group_add("game.14", theirs)
    await there.group_discard("game.14", theirs)
    await _until_subscribers(redis_client, group_channel, 1)
    # Here does not know that there left: it publishes until its own last socket leaves.
    await here.group_send("game.14", {"type": "game.view", "seq": 1})
    await _receives(here, mine, {"type": "game.view", "seq": 1})
    assert len(published) == 1
    await here.group_discard("game.14", mine)
    await _until_subscribers(redis_client, group_channel, 0)

    again = await here.new_channel()
    await here.group_add("game.14", again)
    await here.group_send("game.14", {"type": "game.view", "seq": 2})
    await _receives(here, again, {"type": "game.view", "seq": 2})
    assert len(published) == 1
    # There's next first socket says hello again, and here publishes again.
    back = await there.new_channel()
    await there.group_add("game.14", back)
    await here.group_send("game.14", {"type": "game.view", "seq": 3})
    await _receives(there, back, {"type": "game.view", "seq": 3})
    await _receives(here, again, {"type": "game.view", "seq": 3})
    assert len(published) == 2
    await _flush(here, there)
    await redis_client.aclose()


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_after_a_reconnect_both_processes_publish(
    real_services: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Here's receiving connection is cut and held down while there joins: there's hello reaches nobody
    else and there finds itself alone. Once here is back, both publish."""
    here, there = _layer(), _layer()
    redis_client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    published_here, published_there = _published(here), _published(there)
    group_channel = _group_channel(here, "game.15")
    mine, theirs = await here.new_channel(), await there.new_channel()
    await here.group_add("game.15", mine)

    receiving = here._get_layer()._shards[0]._pubsub.connection
    back_up = asyncio.Event()
    connect = type(receiving).connect

    async def held_connect(self: Any) -> None:
        if self is receiving:
            await back_up.wait()
        await connect(self)

    monkeypatch.setattr(type(receiving), "connect", held_connect)
    host, port = receiving._writer.get_extra_info("sockname")[:2]
    await redis_client.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}")
    await _until_subscribers(redis_client, group_channel, 0)

    await there.group_add("game.15", theirs)
    await there.group_send("game.15", {"type": "game.view", "seq": 1})  # lost for here, as while any reconnect
    await _receives(there, theirs, {"type": "game.view", "seq": 1})
    assert published_there == []

    back_up.set()
    await _until_subscribers(redis_client, group_channel, 2)
    for _attempt in range(100):  # here's hello after the reconnect reaches there
        if group_channel not in there._get_layer()._alone:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("there never heard here's hello after the reconnect")
    await here.group_send("game.15", {"type": "game.view", "seq": 2})
    await _receives(there, theirs, {"type": "game.view", "seq": 2})
    await _receives(here, mine, {"type": "game.view", "seq": 2})
    await there.group_send("game.15", {"type": "game.view", "seq": 3})
    await _receives(here, mine, {"type": "game.view", "seq": 3})
    await _receives(there, theirs, {"type": "game.view", "seq": 3})
    assert (len(published_here), len(published_there)) == (1, 1)
    await _flush(here, there)
    await redis_client.aclose()


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_listener_that_does_not_ack_costs_the_timeout_and_the_group_is_published(
    real_services: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A subscriber that is not this layer (a process of an older release, a debugging client) never acks:
    the first socket's `group_add` waits `HELLO_TIMEOUT_S`, warns, and the group is published."""
    monkeypatch.setattr(channel_layer, "HELLO_TIMEOUT_S", 0.5)
    here = _layer()
    redis_client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    published = _published(here)
    group_channel = _group_channel(here, "game.16")
    stranger = redis_client.pubsub()
    await stranger.subscribe(group_channel)
    await _until_subscribers(redis_client, group_channel, 1)
    mine = await here.new_channel()
    caplog.set_level(logging.WARNING, logger="durak_site.channel_layer")
    started = time.monotonic()
    await here.group_add("game.16", mine)
    assert time.monotonic() - started >= 0.5
    assert "0 of 1 other listeners acked the hello" in caplog.text
    await here.group_send("game.16", {"type": "game.view", "seq": 1})
    await _receives(here, mine, {"type": "game.view", "seq": 1})
    assert len(published) == 1
    await stranger.aclose()
    await _flush(here)
    await redis_client.aclose()


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_hello_heard_while_its_own_is_on_its_way_makes_the_group_published(real_services: None) -> None:
    """Another's hello may be read from the receiving connection before the own hello's PUBLISH has
    answered 1 (that one came first, on another connection): the group is shared all the same."""
    here = _layer()
    published = _published(here)
    group_channel = _group_channel(here, "game.17")
    shard = here._get_layer()._shards[0]
    publish = shard.publish

    async def hello_crossed(channel: str, message: bytes) -> int:
        listeners = int(await publish(channel, message))
        if message[:1] == channel_layer.HELLO:
            here._get_layer().heard(group_channel, channel_layer.HELLO + bytes(channel_layer.HELLO_ID_BYTES))
        return listeners

    shard.publish = hello_crossed
    mine = await here.new_channel()
    await here.group_add("game.17", mine)
    await here.group_send("game.17", {"type": "game.view", "seq": 1})
    await _receives(here, mine, {"type": "game.view", "seq": 1})
    assert len(published) == 1
    await _flush(here)
