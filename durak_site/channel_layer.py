"""The site's channel layer with Redis: channels-redis's Pub/Sub layer, its own sockets served first, and
nothing published where nobody else listens.

A group message (a move's views, `games.broadcast`) is handed at once to the sending process's own sockets
in the group, as the message itself, without Redis: they do not wait for the PUBLISH and the copy back, and
no msgpack unpacking is done for each of them. Where another process may have sockets of the group, the
message is also published, prefixed with the sender's origin (random bytes of each process's layer on each
event loop), and the sender drops its own copy, by that prefix, before unpacking it. Where the sender knows
that no other process listens to the group, it neither packs nor publishes the message: a balancer that
keeps a game's sockets together (issue 36) makes that the common case, and in a profile of a Daphne process
under bench/live.py the PUBLISH was 7 % of its CPU and dropping the copy back 5 %, besides the packing.

How a process knows it is alone. A layer's first socket of a group subscribes it to the group's Redis
channel, waits until Redis has the subscription (a PING on the subscribing connection, answered after the
SUBSCRIBE), and publishes a hello there. PUBLISH answers how many subscribers got it: 1 is the layer itself,
and the group is "alone" (its messages are not published) until another's hello comes. More than 1: the
group is "shared" (published, as the plain layer does), and `group_add` waits for an ack from each of the
others (at most `HELLO_TIMEOUT_S`, then a warning) before it returns. A layer with sockets of the group that
hears another's hello marks the group shared, and every layer acks every hello it hears.

Why a newcomer misses nothing. The game's consumer joins the group before it reads the game
(`games.consumers.GameConsumer.connect`: `group_add`, then the seat counted, which sends the view, or the
current view read). A view is sent after its commit, on the loop of the server's consumers: the deferred sends
of a socket's own move on the loop after the writer thread's call returned (`games.broadcast.deferring`), the
on-commit sends of a writer thread by `async_to_sync`, which asgiref runs on the loop that started the thread.
An alone layer hears the hello on that same loop, marks the group shared at once, and acks only after that:
a view it sent without publishing went out, and was committed, before the ack, so before the newcomer
reads the game; every view after it is published, and the newcomer, subscribed before its hello, gets it. A
send from a thread the loop did not start runs on another loop's layer, which has no socket of the group
and so publishes, as does a Celery worker. Of two layers joining at once, the one whose subscription
reached Redis later publishes its hello after both did: the other hears it, and the later one's PUBLISH
counts the other. A hello heard while the layer's own is on its way marks the group shared, whatever its
own PUBLISH answers.

What the layer forgets and when it says hello again. A group's state (alone or shared) goes when the
layer's last socket leaves it; the next first socket says hello again. Another process leaving is not
noticed: a shared group stays published to until then. A process without sockets of the
group (a Celery worker, a web process answering a request) never subscribed and publishes always. When the
connection that receives (redis-py's PubSub) reconnects, it may have missed hellos, and another process may
have found itself alone while this one was not subscribed: every group of that connection is marked shared
and, once resubscribed, this layer says hello again in each, which makes the others shared. Views sent while
a connection was down, or before the hello after it, may be lost, as anything through Redis was during a
reconnect: delivery stays at most once, and a socket that hears nothing asks for its view again.

Who listens to a group, for a sender that builds a message only where someone reads it (the lobby's list,
`games.broadcast._lobby_listened`): `group_has_sockets_here` looks at this process's groups on all its loops,
`group_subscribers` asks Redis how many connections subscribe to the group's channel (PUBSUB NUMSUB of
`<prefix>__group__<group>`, channels-redis's name for it), which counts each process with a socket of it.

Hellos and acks are 13 bytes (a kind, the hello's id: 8 bytes of the origin and a count), shorter than any
message (16 bytes of origin and msgpack), so a layer tells them apart by length. A message to one channel
(`send`) goes through Redis as before, with the prefix, and is delivered whoever sent it. Every process of the
site must run this layer, of the same release (the prefix is part of what is published; a process of an
older release neither says hello nor acks): the settings give it to all of them, Celery workers included
(`durak_site.environment.channel_layer_settings`). An alone group's message is not packed, so a message
msgpack refuses reaches its local sockets there and raises only where the group is shared.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

logger = logging.getLogger(__name__)

ORIGIN_BYTES = 16
# A hello or an ack: its kind, then the hello's id (the first 8 bytes of its sender's origin, a 4-byte count).
HELLO, ACK = b"h", b"a"
HELLO_ID_BYTES = 12
CONTROL_BYTES = 1 + HELLO_ID_BYTES
# How long a first socket's `group_add` waits for Redis to have its subscription, then for the others' acks.
HELLO_TIMEOUT_S = 2.0


class _Local:
    """A message handed to a socket of the sending process: its queue holds this instead of bytes."""

    __slots__ = ("message",)

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message


class _Hello:
    """A hello on its way: the acks heard so far, and how many are awaited once PUBLISH has answered."""

    __slots__ = ("acks", "expected", "done")

    def __init__(self) -> None:
        self.acks = 0
        self.expected: int | None = None
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def acked(self) -> None:
        self.acks += 1
        self._check()

    def expect(self, others: int) -> None:
        self.expected = others
        self._check()

    def _check(self) -> None:
        if self.expected is not None and self.acks >= self.expected and not self.done.done():
            self.done.set_result(None)


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

    def group_has_sockets_here(self, group: str) -> bool:
        """Whether a socket of this process, on any of its loops, is in the group. Any thread may ask: each
        loop's groups are only looked up, not changed."""
        for layer in list(self._layers.values()):
            if layer.groups.get(layer._get_group_channel_name(group)):
                return True
        return False

    async def group_subscribers(self, group: str) -> int:
        """How many Redis connections, of any process, subscribe to the group's channel (PUBSUB NUMSUB): a
        process subscribes with its first socket of the group and unsubscribes with its last."""
        layer = self._get_layer()
        group_channel = layer._get_group_channel_name(group)
        return await layer._get_shard(group_channel).subscribers(group_channel)

    def deserialize(self, message: Any) -> Any:
        # A local message is each socket's own shallow copy (its consumer may add keys; the values are shared
        # and nobody changes them: the event is built after the commit from values that are replaced, not
        # changed, by the next move). A message from Redis has had its origin taken off by the receiver.
        if isinstance(message, _Local):
            return dict(message.message)
        return super().deserialize(message)


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its channels, its groups, its Redis connection and its origin, and which
    of its groups no other process listens to."""

    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts, **kwargs)
        self.origin = os.urandom(ORIGIN_BYTES)
        self._shards = [LocalFirstShard(host, self) for host in decode_hosts(hosts)]
        self._hello_counter = itertools.count()
        self._reset_groups_state()

    def _reset_groups_state(self) -> None:
        # Group channel names. Alone: nothing published. Shared: another listener heard of, which an alone
        # hello's answer must not undo. Greeted: this layer's hello done. Joining: the first socket's hello
        # on its way, which the group's other sockets wait for.
        self._alone: set[str] = set()
        self._shared: set[str] = set()
        self._greeted: set[str] = set()
        self._joining: dict[str, asyncio.Future[None]] = {}
        self._hellos: dict[bytes, _Hello] = {}
        self._acks_sending: set[asyncio.Task[None]] = set()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        shard = self._get_shard(channel)
        await shard.publish(channel, self.origin + self.channel_layer.serialize(message))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        group_channel = self._get_group_channel_name(group)
        if group_channel in self._alone:
            for channel in self.groups.get(group_channel, ()):
                queue = self.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(_Local(message))
            return
        # Packed first: a message msgpack refuses reaches no socket, as with the plain layer.
        packed = self.origin + self.channel_layer.serialize(message)
        for channel in self.groups.get(group_channel, ()):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(_Local(message))
        shard = self._get_shard(group_channel)
        await shard.publish(group_channel, packed)

    async def group_add(self, group: str, channel: str) -> None:
        if channel not in self.channels:
            await super().group_add(group, channel)  # refused there, in channels-redis's words
        group_channel = self._get_group_channel_name(group)
        self.groups.setdefault(group_channel, set()).add(channel)
        # Returns once this layer's hello in the group is done: by the first socket's call, or by a later one
        # where the first's failed (Redis down: it raised to its caller). The hello subscribes the layer.
        while group_channel not in self._greeted and channel in self.groups.get(group_channel, ()):
            joining = self._joining.get(group_channel)
            if joining is not None:
                await asyncio.shield(joining)
                continue
            joining = self._joining[group_channel] = asyncio.get_running_loop().create_future()
            try:
                await self._say_hello(group_channel, joining)
            finally:
                if self._joining.get(group_channel) is joining:
                    del self._joining[group_channel]
                joining.set_result(None)

    async def _say_hello(self, group_channel: str, joining: asyncio.Future[None]) -> None:
        shard = self._get_shard(group_channel)
        subscribed = await shard.subscribe_confirmed(group_channel)
        hello_id = self.origin[:8] + (next(self._hello_counter) % 2**32).to_bytes(4, "big")
        hello = self._hellos[hello_id] = _Hello()
        try:
            listeners = await shard.publish(group_channel, HELLO + hello_id)
            others = listeners - 1
            hello.expect(others)
            try:
                await asyncio.wait_for(asyncio.shield(hello.done), HELLO_TIMEOUT_S)
            except TimeoutError:
                logger.warning(
                    "%s: %d of %d other listeners acked the hello in %.0f s; its group is published to",
                    group_channel, hello.acks, others, HELLO_TIMEOUT_S,
                )  # fmt: skip
        finally:
            del self._hellos[hello_id]
        if self._joining.get(group_channel) is not joining:
            return  # its last socket left meanwhile: what the hello found is not this group's state any more
        if not subscribed or others != 0:
            self._shared.add(group_channel)
        elif group_channel not in self._shared:
            self._alone.add(group_channel)
        self._greeted.add(group_channel)

    async def group_discard(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        if self.groups.get(group_channel) == {channel}:
            self._forget(group_channel)
        await super().group_discard(group, channel)

    def _forget(self, group_channel: str) -> None:
        self._alone.discard(group_channel)
        self._shared.discard(group_channel)
        self._greeted.discard(group_channel)
        self._joining.pop(group_channel, None)

    def heard(self, group_channel: str, control: bytes) -> None:
        """A hello or an ack heard on a group's channel (the receiving connection's task calls it)."""
        kind, hello_id = control[:1], control[1:]
        if kind == ACK:
            hello = self._hellos.get(hello_id)
            if hello is not None:
                hello.acked()
            return
        if kind != HELLO or hello_id[:8] == self.origin[:8]:
            return
        if group_channel in self.groups:
            self._alone.discard(group_channel)
            self._shared.add(group_channel)
        # Acked even without a socket of the group (its last one leaving): the hello counted this layer.
        task = asyncio.ensure_future(self._ack(group_channel, hello_id))
        self._acks_sending.add(task)
        task.add_done_callback(self._acks_sending.discard)

    async def _ack(self, group_channel: str, hello_id: bytes) -> None:
        try:
            await self._get_shard(group_channel).publish(group_channel, ACK + hello_id)
        except Exception:
            logger.exception("%s: the ack of a hello was not published", group_channel)

    def reconnected(self, shard: LocalFirstShard) -> list[str]:
        """The shard's receiving connection is back (it may have missed hellos): its groups are shared from
        now on; returns them, for the shard to say hello in again."""
        groups = [name for name in self.groups if self._get_shard(name) is shard]
        for group_channel in groups:
            self._alone.discard(group_channel)
            self._shared.add(group_channel)
        return groups

    async def announce(self, group_channel: str) -> None:
        """A hello after a reconnect: it makes the group shared in the processes that found themselves alone
        while this one was not subscribed; nobody waits for its acks."""
        shard = self._get_shard(group_channel)
        hello_id = self.origin[:8] + (next(self._hello_counter) % 2**32).to_bytes(4, "big")
        await shard.publish(group_channel, HELLO + hello_id)

    async def flush(self) -> None:
        self._reset_groups_state()
        await super().flush()


class _ReceivingPubSub(PubSub):
    """redis-py's PubSub that tells its shard when its connection is made again (redis-py resubscribes it
    then, in `on_connect`; the first connection is made before the callback is registered)."""

    def __init__(self, shard: LocalFirstShard, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shard = shard

    async def on_connect(self, connection: Any) -> None:
        groups = self.shard.channel_layer.reconnected(self.shard)
        await super().on_connect(connection)
        self.shard.after_reconnect(groups)


class LocalFirstShard(RedisSingleShardConnection):
    """The Redis connection of a loop's layer: what it receives loses its origin, its own group messages
    (already handed to its sockets) are dropped unread, hellos and acks go to its layer, and its receiving
    connection's reconnects are told to its layer."""

    channel_layer: LocalFirstLoopLayer
    _redis: Any  # a Redis, made on first use
    _pubsub: Any  # a _ReceivingPubSub, made with it

    def __init__(self, host: Any, channel_layer: LocalFirstLoopLayer) -> None:
        super().__init__(host, channel_layer)
        self._pongs: dict[bytes, asyncio.Future[None]] = {}
        self._ping_counter = itertools.count()
        self._announcing: set[asyncio.Task[None]] = set()

    def _ensure_redis(self) -> None:
        if self._redis is None:
            redis = aioredis.Redis(connection_pool=create_pool(self.host))
            self._redis = redis
            self._pubsub = _ReceivingPubSub(
                self, redis.connection_pool, event_dispatcher=getattr(redis, "_event_dispatcher", None)
            )

    async def publish(self, channel: str, message: bytes) -> int:
        """PUBLISH; how many subscribers got it."""
        async with self._lock:
            self._ensure_redis()
            return int(await self._redis.publish(channel, message))

    async def subscribers(self, channel: str) -> int:
        """PUBSUB NUMSUB: how many connections subscribe to the channel."""
        async with self._lock:
            self._ensure_redis()
            answer = await self._redis.pubsub_numsub(channel)
        return int(answer[0][1])

    async def subscribe_confirmed(self, channel: str) -> bool:
        """Subscribe to the channel and wait until Redis has the subscription: a PING on the receiving
        connection, after the SUBSCRIBE there, is answered after it. False if no answer came in time."""
        pong_id = b"subscribed %d" % next(self._ping_counter)
        answered = self._pongs[pong_id] = asyncio.get_running_loop().create_future()
        try:
            async with self._lock:
                self._ensure_redis()
                self._ensure_receiver()
                if channel not in self._subscribed_to:
                    await self._pubsub.subscribe(channel)
                    self._subscribed_to.add(channel)
                await self._pubsub.ping(pong_id)
            await asyncio.wait_for(asyncio.shield(answered), HELLO_TIMEOUT_S)
            return True
        except TimeoutError:
            logger.warning("%s: Redis did not confirm the subscription in %.0f s", channel, HELLO_TIMEOUT_S)
            return False
        finally:
            del self._pongs[pong_id]

    def after_reconnect(self, groups: list[str]) -> None:
        task = asyncio.ensure_future(self._announce(groups))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _announce(self, groups: list[str]) -> None:
        try:
            for group_channel in groups:
                if group_channel in self.channel_layer.groups:
                    await self.subscribe_confirmed(group_channel)  # said after the resubscription, if in time
                    await self.channel_layer.announce(group_channel)
        except Exception:
            logger.exception("the hellos after a reconnect were not all published")

    def _receive_message(self, message: Any) -> None:
        if message is None:
            return
        data = message["data"]
        if message.get("type") == "pong":
            answered = self._pongs.get(data)
            if answered is not None and not answered.done():
                answered.set_result(None)
            return
        if not isinstance(data, bytes) or len(data) < ORIGIN_BYTES:
            name = message["channel"]
            if isinstance(data, bytes) and len(data) == CONTROL_BYTES and name is not None:
                self.channel_layer.heard(name.decode() if isinstance(name, bytes) else name, data)
            return  # else not a message of this layer's: nothing here could unpack it
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        if data[:ORIGIN_BYTES] == self.channel_layer.origin and name in self.channel_layer.groups:
            return
        super()._receive_message({"channel": name, "data": data[ORIGIN_BYTES:]})
