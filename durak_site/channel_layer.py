"""The site's channel layer with Redis: channels-redis's Pub/Sub layer, its own sockets served first.

A group message (a move's views, `games.broadcast`) is handed at once to the sending process's own sockets
in the group, as the message itself, without Redis: they do not wait for the PUBLISH and the copy back, and
no msgpack unpacking is done for each of them. The message is still published once for the other processes' sockets
of the group, prefixed with the sender's origin (random bytes of each process's layer on each event loop),
and the sender drops its own copy, by that prefix, before unpacking it. A balancer that keeps a game's
sockets together (issue 36) makes most of a game's views local: the mover's process holds both players.

A message to one channel (`send`) goes through Redis as before, with the prefix, and is delivered whoever
sent it. Every process of the site must use this layer (the prefix is part of what is published): the
settings give it to all of them, Celery workers included (`durak_site.environment.channel_layer_settings`).

Delivery stays at most once, as with the Pub/Sub layer: the local hand-off cannot be lost, and what goes
through Redis is lost as before while a process reconnects.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts

ORIGIN_BYTES = 16


class _Local:
    """A message handed to a socket of the sending process: its queue holds this instead of bytes."""

    __slots__ = ("message",)

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message


class LocalFirstChannelLayer(RedisPubSubChannelLayer):
    """channels-redis's Pub/Sub layer whose per-loop layers serve their own sockets first (the module's text)."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

    def deserialize(self, message: Any) -> Any:
        # A local message is each socket's own shallow copy (its consumer may add keys; the values are shared
        # and nobody changes them: the event is built after the commit from values that are replaced, not
        # changed, by the next move). A message from Redis has had its origin taken off by the receiver.
        if isinstance(message, _Local):
            return dict(message.message)
        return super().deserialize(message)


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its channels, its groups, its Redis connection and its origin."""

    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts, **kwargs)
        self.origin = os.urandom(ORIGIN_BYTES)
        self._shards = [LocalFirstShard(host, self) for host in decode_hosts(hosts)]

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        shard = self._get_shard(channel)
        await shard.publish(channel, self.origin + self.channel_layer.serialize(message))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        group_channel = self._get_group_channel_name(group)
        # Packed first: a message msgpack refuses reaches no socket, as with the plain layer.
        packed = self.origin + self.channel_layer.serialize(message)
        for channel in self.groups.get(group_channel, ()):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(_Local(message))
        shard = self._get_shard(group_channel)
        await shard.publish(group_channel, packed)


class LocalFirstShard(RedisSingleShardConnection):
    """The Redis connection of a loop's layer: what it receives loses its origin, and its own group
    messages (already handed to its sockets) are dropped unread."""

    def _receive_message(self, message: Any) -> None:
        if message is None:
            return
        data = message["data"]
        if not isinstance(data, bytes) or len(data) < ORIGIN_BYTES:
            return  # not a message of this layer's: nothing here could unpack it
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        if data[:ORIGIN_BYTES] == self.channel_layer.origin and name in self.channel_layer.groups:
            return
        super()._receive_message({"channel": name, "data": data[ORIGIN_BYTES:]})
