"""durak_site.wire, in this process: autobahn's debug log arguments without colour, and Twisted's TCP write sent
at once, on a socketpair in a Twisted reactor on a uvloop loop as in Daphne (the real server: test_servers.py)."""

from __future__ import annotations

import asyncio
import socket
import struct
import sys
import time
import types
from collections.abc import Callable, Iterator
from typing import Any, cast

import click
import pytest
import uvloop
from twisted.internet import error, tcp
from twisted.internet.asyncioreactor import AsyncioSelectorReactor
from twisted.internet.protocol import Protocol, connectionDone
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from durak_site import wire

# Bigger than Twisted's SEND_LIMIT (128 KiB, the most one writeSomeData sends) and than a socketpair's buffers.
LARGE = bytes(range(256)) * 4096 + b"end"


@pytest.fixture
def autobahn_names() -> Iterator[None]:
    """Give back every autobahn module's hl, hltype and hlval after the test."""
    import autobahn.websocket.protocol  # noqa: F401  (the module whose sendData logs each frame)

    kept = [
        (module, name, getattr(module, name))
        for module_name, module in list(sys.modules.items())
        if module is not None and module_name.split(".")[0] == "autobahn"
        for name in ("hl", "hltype", "hlval")
        if hasattr(module, name)
    ]
    yield
    for module, name, value in kept:
        setattr(module, name, value)


def test_autobahn_debug_arguments_keep_their_text_without_colour(autobahn_names: None) -> None:
    import autobahn.twisted.websocket
    import autobahn.util
    import autobahn.websocket.protocol

    method = autobahn.websocket.protocol.WebSocketProtocol().sendData
    coloured = [autobahn.util.hltype(method), autobahn.util.hltype(42), autobahn.util.hlval("tcp4:127.0.0.1:9")]
    assert coloured[0] != click.unstyle(coloured[0])

    wire.plain_autobahn_debug_arguments()

    for module in (autobahn.util, autobahn.websocket.protocol, autobahn.twisted.websocket):
        plain = [module.hltype(method), module.hltype(42), module.hlval("tcp4:127.0.0.1:9")]
        assert plain == [click.unstyle(text) for text in coloured]
    assert autobahn.util.hl(7) == "7"
    assert autobahn.util.hlid(7) == "7"  # util's own users of hl: no colour either


def test_a_frame_sent_calls_nothing_of_autobahn_util(autobahn_names: None) -> None:
    import autobahn.util
    from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol

    factory = WebSocketServerFactory()
    factory.protocol = WebSocketServerProtocol  # Daphne's factory has its own subclass
    protocol: Any = factory.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)

    def util_calls_of_send_data() -> list[str]:
        called: list[str] = []

        def profile(frame: types.FrameType, event: str, arg: Any) -> None:
            if event == "call" and frame.f_code.co_filename == autobahn.util.__file__:
                called.append(frame.f_code.co_name)

        sys.setprofile(profile)
        try:
            protocol.sendData(b"frame")
        finally:
            sys.setprofile(None)
        return called

    assert {"hltype", "hlval", "hl"} <= set(util_calls_of_send_data())  # the debug log's arguments, coloured
    wire.plain_autobahn_debug_arguments()
    assert util_calls_of_send_data() == []
    assert transport.value() == b"frame" * 2


def assert_same_bytes(got: bytes, expected: bytes) -> None:
    """`got == expected`, said briefly when not (pytest's own diff of megabytes would take minutes)."""
    same = got == expected
    first_difference = next((index for index, (a, b) in enumerate(zip(got, expected)) if a != b), None)
    assert same, f"got {len(got)} bytes for {len(expected)}, first difference at {first_difference}"


class Recording(Protocol):
    def __init__(self) -> None:
        self.lost: list[Failure] = []
        self.received = 0

    def dataReceived(self, data: bytes) -> None:
        self.received += len(data)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.lost.append(reason)


def loopback_tcp_pair() -> tuple[socket.socket, socket.socket]:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    return server, client


class Wire:
    """A Twisted `tcp.Server` on one end of a socketpair (or of a loopback TCP connection), in its own reactor
    on a uvloop loop; the test reads the other end (`peer`)."""

    def __init__(self, make_pair: Callable[[], tuple[socket.socket, socket.socket]] = socket.socketpair) -> None:
        self.loop = uvloop.new_event_loop()
        reactor: Any = AsyncioSelectorReactor(self.loop)  # Any: Twisted's interfaces are zope's, not mypy's
        self.reactor = reactor
        server_end, self.peer = make_pair()
        self.peer.setblocking(False)
        self.protocol = Recording()
        port: Any = types.SimpleNamespace(_realPortNumber=0)
        protocol: Any = self.protocol
        self.transport = tcp.Server(server_end, protocol, ("127.0.0.1", 1), port, 0, reactor)
        self.protocol.makeConnection(self.transport)
        self.received = bytearray()
        self.peer_closed = False

    def read_now(self) -> bytes:
        """What the peer can read now, without the loop turning."""
        try:
            while chunk := self.peer.recv(1 << 20):
                self.received += chunk
            self.peer_closed = True
        except BlockingIOError:
            pass
        return bytes(self.received)

    def turn_until(self, done: Callable[[], bool], *, read: bool = True, timeout_s: float = 5.0) -> None:
        """Run the loop (reading the peer as it goes, unless told not to) until `done()`."""

        async def wait() -> None:
            deadline = time.monotonic() + timeout_s
            while not done():
                assert time.monotonic() < deadline, "timed out"
                await asyncio.sleep(0.001)

        if read:
            self.loop.add_reader(self.peer.fileno(), self.read_now)
        try:
            self.loop.run_until_complete(wait())
        finally:
            if read:
                self.loop.remove_reader(self.peer.fileno())

    def flushed(self) -> bytes:
        """Everything the peer got once Twisted's buffer is empty (the peer read as the loop turns)."""
        self.turn_until(lambda: not self.writing())
        return self.read_now()

    def writing(self) -> bool:
        return self.transport in self.reactor.getWriters()

    def close(self) -> None:
        if self.transport.connected:
            self.transport.abortConnection()
            self.turn_until(lambda: bool(self.protocol.lost), read=False)
        self.peer.close()
        self.loop.close()


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tcp.Server, "write", wire.write_at_once)


@pytest.fixture
def pair(at_once: None) -> Iterator[Wire]:
    connection = Wire()
    yield connection
    connection.close()


def test_a_write_is_sent_before_the_loop_turns_and_registers_no_writer(pair: Wire) -> None:
    pair.transport.write(b"first")
    pair.transport.write(b"second")
    assert pair.read_now() == b"firstsecond"
    assert not pair.writing()


def test_a_write_waits_behind_buffered_data_and_everything_arrives_in_order(pair: Wire) -> None:
    pair.transport.write(b"a" * 10)
    pair.transport.writeSequence([b"b" * 10, b"c" * 10])  # Twisted's own: buffered
    pair.transport.write(b"d" * 10)
    for number in range(500):
        pair.transport.write(b"<%d>" % number)
    assert pair.read_now() == b"a" * 10
    expected = b"a" * 10 + b"b" * 10 + b"c" * 10 + b"d" * 10 + b"".join(b"<%d>" % number for number in range(500))
    assert_same_bytes(pair.flushed(), expected)


def test_what_the_kernel_does_not_take_is_buffered_and_sent_whole(pair: Wire) -> None:
    pair.transport.write(LARGE)
    sent_at_once = len(pair.read_now())
    assert 0 < sent_at_once < len(LARGE)
    assert pair.writing()
    pair.transport.write(b"after")
    assert_same_bytes(pair.flushed(), LARGE + b"after")


def test_lose_connection_after_a_write_flushes_it_first(pair: Wire) -> None:
    pair.transport.write(b"small")
    pair.transport.write(LARGE)
    pair.transport.loseConnection()
    pair.turn_until(lambda: pair.peer_closed)
    assert_same_bytes(bytes(pair.received), b"small" + LARGE)
    pair.turn_until(lambda: bool(pair.protocol.lost), read=False)
    assert pair.protocol.lost[0].check(error.ConnectionDone)


def test_a_write_to_a_closed_peer_raises_nothing_and_the_connection_is_lost(pair: Wire) -> None:
    pair.peer.close()
    pair.transport.write(b"to nobody")  # EPIPE: Twisted's write takes it, the reactor loses the connection
    pair.transport.write(b"again")
    pair.turn_until(lambda: bool(pair.protocol.lost), read=False)
    assert pair.protocol.lost[0].check(error.ConnectionLost, error.ConnectionDone)
    assert not pair.transport.connected


def test_a_pull_producer_gets_twisted_write_and_is_resumed_after_it(pair: Wire) -> None:
    resumed: list[int] = []
    producer = types.SimpleNamespace(resumeProducing=lambda: resumed.append(1), stopProducing=lambda: None)
    pair.transport.registerProducer(producer, False)
    assert len(resumed) == 1
    pair.transport.write(b"pulled")
    assert pair.read_now() == b""  # waits for the loop, as Twisted's write does
    pair.turn_until(lambda: len(resumed) == 2)
    assert bytes(pair.received) == b"pulled"


def test_a_streaming_producer_that_runs_does_not_stop_the_write_at_once(pair: Wire) -> None:
    # Daphne hands the socket of a WebSocket over with Twisted's HTTPChannel still its streaming producer.
    producer = types.SimpleNamespace(
        pauseProducing=lambda: None, resumeProducing=lambda: None, stopProducing=lambda: None
    )
    pair.transport.registerProducer(producer, True)
    pair.transport.write(b"view")
    assert pair.read_now() == b"view"
    pair.transport.producerPaused = True
    pair.transport.write(b"later")
    assert pair.read_now() == b"view"


def test_tls_aborted_and_other_connections_keep_twisted_write(pair: Wire) -> None:
    ciphertext: list[bytes] = []
    pair.transport.TLS = True
    pair.transport.protocol = cast(Any, types.SimpleNamespace(write=ciphertext.append))  # the TLS layer
    pair.transport.write(b"clear")
    assert ciphertext == [b"clear"]
    assert pair.read_now() == b""
    pair.transport.TLS = False
    pair.transport.protocol = cast(Any, pair.protocol)

    pair.transport.abortConnection()
    pair.transport.write(b"dropped")
    assert pair.read_now() == b""
    pair.turn_until(lambda: bool(pair.protocol.lost), read=False)
    assert pair.protocol.lost[0].check(error.ConnectionAborted)


def test_a_subclass_of_the_tcp_server_keeps_twisted_write(at_once: None) -> None:
    # twisted.internet.unix.Server is one, with a writeSomeData of its own.
    class Other(tcp.Server):
        pass

    connection = Wire()
    try:
        connection.transport.__class__ = Other
        connection.transport.write(b"later")
        assert connection.read_now() == b""
        assert connection.writing()
    finally:
        connection.close()


def test_without_the_patch_the_write_waits_for_the_loop() -> None:
    # What the tests above compare against: Twisted's own write.
    connection = Wire()
    try:
        connection.transport.write(b"later")
        assert connection.read_now() == b""
        assert connection.writing()
        assert connection.flushed() == b"later"
    finally:
        connection.close()


@pytest.mark.parametrize("write", [tcp.Connection.write, wire.write_at_once], ids=["twisted_write", "at_once"])
def test_a_reset_after_more_than_one_read_loses_the_connection_at_the_next_write(
    write: Callable[[tcp.Server, bytes], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tcp.Server, "write", write)
    monkeypatch.setattr(AsyncioSelectorReactor, "addReader", wire.add_reader_or_lose)
    monkeypatch.setattr(AsyncioSelectorReactor, "addWriter", wire.add_writer_or_lose)
    connection = Wire(loopback_tcp_pair)
    try:
        connection.peer.setblocking(True)
        connection.peer.sendall(b"x" * 300_000)
        connection.peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.peer.close()  # a reset, with most of that unread
        time.sleep(0.05)
        connection.turn_until(lambda: connection.protocol.received > 0, read=False)
        connection.loop.run_until_complete(asyncio.sleep(0.05))
        # uvloop saw the error, let Twisted read once and closed the socket's poll handle: Twisted knows nothing.
        assert connection.protocol.received == connection.transport.bufferSize
        assert connection.protocol.lost == []

        connection.transport.write(b"to nobody")  # without the patch: RuntimeError, "the handler is closed"
        connection.transport.write(b"again")
        connection.turn_until(lambda: bool(connection.protocol.lost), read=False)
        connection.loop.run_until_complete(asyncio.sleep(0.01))
        assert len(connection.protocol.lost) == 1
        assert connection.protocol.lost[0].check(error.ConnectionLost)
        assert connection.transport not in connection.reactor.getReaders()
    finally:
        connection.loop.close()
