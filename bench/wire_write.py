"""Benchmark of `durak_site.wire`: a Twisted TCP connection's write sent at once or by Twisted, and autobahn's
frame sent with its debug log arguments coloured or plain.

A Twisted `tcp.Server` over a loopback TCP connection, in an `AsyncioSelectorReactor` on a uvloop loop as in a
Daphne process (`durak_site.serve`), writes ``WRITES`` messages of ``MESSAGE_BYTES``, ``PER_ITERATION`` of them
in each loop iteration (a callback that writes and schedules itself again), while the other end reads them
on the same loop. Each way of writing runs ``ROUNDS`` times, alternating; the figures are the least CPU time
per write of each (the reading included, the same for both):

- ``twisted_us_per_write``, ``at_once_us_per_write``: one write per iteration (a view frame to a socket);
- ``twisted_batch_us_per_write``, ``at_once_batch_us_per_write``: ``BATCH`` writes per iteration, where
  Twisted sends them in one `send` and writing at once makes one each;
- ``autobahn_coloured_us_per_frame``, ``autobahn_plain_us_per_frame``: autobahn's `sendData` of a frame to a
  Twisted test transport (no socket), before and after `plain_autobahn_debug_arguments`.

Usage: ``python bench/wire_write.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
import types
from pathlib import Path
from typing import Any

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import uvloop
from twisted.internet import tcp
from twisted.internet.asyncioreactor import AsyncioSelectorReactor
from twisted.internet.protocol import Protocol
from twisted.internet.testing import StringTransport

from bench._common import parse_args, print_table, write_report
from durak_site import wire

WRITES = 20_000
MESSAGE_BYTES = 1_500
BATCH = 4
ROUNDS = 5


def _connected_pair() -> tuple[socket.socket, socket.socket]:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    for end in (client, server):
        end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as Twisted's HTTPChannel sets it
    return server, client


def cpu_seconds(loop: asyncio.AbstractEventLoop, reactor: Any, *, writes: int, per_iteration: int) -> float:
    """CPU seconds of this process to write `writes` messages through a `tcp.Server`, `per_iteration` a loop
    iteration, and read them all at the other end."""
    server_socket, client_socket = _connected_pair()
    client_socket.setblocking(False)
    protocol: Any = Protocol()  # Any: Twisted's interfaces are zope's, not mypy's
    port: Any = types.SimpleNamespace(_realPortNumber=0)
    transport = tcp.Server(server_socket, protocol, ("127.0.0.1", 1), port, 0, reactor)
    protocol.makeConnection(transport)
    message = b"x" * MESSAGE_BYTES
    expected = writes * MESSAGE_BYTES
    done = loop.create_future()
    received = 0
    written = 0

    def read() -> None:
        nonlocal received
        try:
            while chunk := client_socket.recv(1 << 20):
                received += len(chunk)
        except BlockingIOError:
            pass
        if received >= expected and not done.done():
            done.set_result(None)

    def write() -> None:
        nonlocal written
        for _ in range(per_iteration):
            transport.write(message)
        written += per_iteration
        if written < writes:
            loop.call_soon(write)

    loop.add_reader(client_socket.fileno(), read)
    started = time.process_time()
    loop.call_soon(write)
    loop.run_until_complete(done)
    elapsed = time.process_time() - started
    loop.remove_reader(client_socket.fileno())
    transport.loseConnection()
    loop.run_until_complete(asyncio.sleep(0.01))
    client_socket.close()
    return elapsed


def autobahn_us_per_frame(frames: int) -> float:
    """Microseconds of CPU per `sendData` of a 1,500-byte frame through autobahn's Twisted server protocol."""
    from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol

    factory = WebSocketServerFactory()
    factory.protocol = WebSocketServerProtocol
    protocol: Any = factory.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)
    frame = b"x" * MESSAGE_BYTES
    best = float("inf")
    for _ in range(ROUNDS):
        transport.clear()
        started = time.process_time()
        for _ in range(frames):
            protocol.sendData(frame)
        best = min(best, (time.process_time() - started) / frames * 1e6)
    return best


def main() -> None:
    args = parse_args(__doc__ or "")
    writes = WRITES // 10 if args.quick else WRITES
    rounds = 2 if args.quick else ROUNDS
    loop = uvloop.new_event_loop()
    reactor = AsyncioSelectorReactor(loop)
    ways = {"twisted": tcp.Connection.write, "at_once": wire.write_at_once}
    best: dict[str, float] = {}
    for _ in range(rounds):
        for way, write in ways.items():
            tcp.Server.write = write  # type: ignore[method-assign,assignment]
            for suffix, per_iteration in (("", 1), ("_batch", BATCH)):
                seconds = cpu_seconds(loop, reactor, writes=writes, per_iteration=per_iteration)
                name = f"{way}{suffix}_us_per_write"
                best[name] = min(best.get(name, float("inf")), seconds / writes * 1e6)
    tcp.Server.write = tcp.Connection.write  # type: ignore[method-assign]
    best["autobahn_coloured_us_per_frame"] = autobahn_us_per_frame(writes)
    wire.plain_autobahn_debug_arguments()
    best["autobahn_plain_us_per_frame"] = autobahn_us_per_frame(writes)
    print_table(
        ["writes per iteration", "Twisted (us/write)", "at once (us/write)"],
        [
            [1, best["twisted_us_per_write"], best["at_once_us_per_write"]],
            [BATCH, best["twisted_batch_us_per_write"], best["at_once_batch_us_per_write"]],
        ],
    )
    print()
    print_table(
        ["autobahn sendData", "coloured (us/frame)", "plain (us/frame)"],
        [["debug log arguments", best["autobahn_coloured_us_per_frame"], best["autobahn_plain_us_per_frame"]]],
    )
    if args.json:
        write_report(args.json, best)


if __name__ == "__main__":
    main()
