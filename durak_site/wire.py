"""What `durak_site.serve` changes in autobahn and Twisted (issue 36): two costs of each WebSocket frame, and a
socket uvloop gave up.

Plain debug log arguments. autobahn's protocols log every frame sent and every chunk received at debug level
with arguments coloured by `autobahn.util.hltype` and `hlval` (click's styling), and Python evaluates them
even though the debug level is off (txaio's disabled levels are a no-op function, called all the same).
`plain_autobahn_debug_arguments` gives every loaded autobahn module that imported them, and `autobahn.util`
itself, versions that return the same text without the colour.

A write sent at once. Twisted's `FileDescriptor.write` only appends to a buffer and registers the socket for
writing (an `epoll_ctl` through the asyncio loop's `add_writer`); the next loop iteration sends it and
unregisters the socket (another `epoll_ctl`). `write_at_once` sends straight away when nothing is waiting
before the data, as asyncio's own transports do, and hands whatever the kernel did not take (all of it on an
error) to Twisted's own write, which buffers it and finds any error again on its next send, so the connection
is lost Twisted's way, from the reactor, never raised into the writer.

A socket uvloop gave up. uvloop watches each file descriptor Twisted registers with a poll handle; when epoll
reports an error on the socket (a reset from the peer) it runs the reader once and closes the handle. When
that read still found data (the peer sent more than one read takes, then reset), Twisted's connection goes
on as if nothing happened: it never hears from the socket again, and its next `add_writer` or `add_reader`
raises RuntimeError ("the handler is closed") into whoever wrote, Daphne's application included (with
Twisted's write as with `write_at_once`). `patch_reactor_registration` makes that error lose the connection
instead, on the reactor's next turn, as a send's error would.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from twisted.internet import error, tcp
from twisted.internet.asyncioreactor import AsyncioSelectorReactor

# Twisted's own write of a TCP connection (TLS-aware; tcp.Server has none of its own): the fallback.
_twisted_write = tcp.Connection.write
_twisted_add_reader = AsyncioSelectorReactor.addReader
_twisted_add_writer = AsyncioSelectorReactor.addWriter


def _plain_hl(text: Any, bold: bool = False, color: str = "yellow") -> str:
    """`autobahn.util.hl` without the colour."""
    return text if isinstance(text, str) else f"{text}"


def _plain_hltype(obj: Any) -> str:
    """`autobahn.util.hltype` without the colour: the same text (`_qn`'s "unknown" included)."""
    if isinstance(obj, type | types.FunctionType | types.MethodType):
        return f"<{obj.__module__}.{obj.__qualname__}>"
    return "<unknown.>"


def _plain_hlval(val: Any, color: str = "white", bold: bool = True) -> str:
    """`autobahn.util.hlval` without the colour."""
    return f"{val}"


def plain_autobahn_debug_arguments() -> None:
    """Replace `hl`, `hltype` and `hlval` in `autobahn.util` and in every loaded autobahn module that imported
    them: call it once autobahn's protocols are imported (Daphne's import does that)."""
    import autobahn.util

    plain = {"hl": _plain_hl, "hltype": _plain_hltype, "hlval": _plain_hlval}
    originals = {name: getattr(autobahn.util, name) for name in plain}
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "autobahn" or module_name.startswith("autobahn.")):
            continue
        for name, original in originals.items():
            if original is not plain[name] and getattr(module, name, None) is original:
                setattr(module, name, plain[name])


def write_at_once(self: tcp.Server, data: bytes) -> None:
    """`tcp.Server.write`: send `data` now if nothing is waiting before it, else (and whatever of it the kernel
    did not take) as Twisted does.

    Only for plain TCP (a connection that started TLS writes through its TLS layer) and only when Twisted's
    own write would send it next: the connection connected, not closing, not aborted, not half-closed, its
    buffers empty, and no producer that expects Twisted's flush (a pull producer is resumed from there; a
    streaming one only when the buffer had paused it). `writeSomeData` sends at most `SEND_LIMIT` bytes and
    answers how many went, or an exception for a lost connection.
    """
    if (
        data
        and type(data) is bytes
        and self.__class__ is tcp.Server
        and self.connected
        and not self.disconnecting
        and not self.TLS
        and not self._tempDataLen
        and not self.dataBuffer
        and not self._writeDisconnecting
        and not self._writeDisconnected
        and not self._aborting
        and (self.producer is None or (self.streamingProducer and not self.producerPaused))
    ):
        sent = self.writeSomeData(data)
        if type(sent) is int:
            if sent == len(data):
                return
            if sent > 0:
                data = data[sent:]
    _twisted_write(self, data)


def patch_twisted_write() -> None:
    """Make `write_at_once` the write of Twisted's server-side TCP connections (`tcp.Server`)."""
    tcp.Server.write = write_at_once  # type: ignore[method-assign,assignment]


def _lose(reactor: AsyncioSelectorReactor, selectable: Any) -> None:
    if not getattr(selectable, "disconnected", False):  # once, however many registrations failed
        reactor._disconnectSelectable(selectable, error.ConnectionLost(), False)


def _register_or_lose(reactor: AsyncioSelectorReactor, selectable: Any, register: Any) -> None:
    try:
        register(reactor, selectable)
    except RuntimeError:
        if reactor._asyncioEventloop.is_closed():
            raise
        # uvloop closed the socket's poll handle after an error on it: the connection is gone.
        reactor.callLater(0, _lose, reactor, selectable)


def add_reader_or_lose(self: AsyncioSelectorReactor, reader: Any) -> None:
    """`AsyncioSelectorReactor.addReader`, losing the connection whose socket uvloop gave up."""
    _register_or_lose(self, reader, _twisted_add_reader)


def add_writer_or_lose(self: AsyncioSelectorReactor, writer: Any) -> None:
    """`AsyncioSelectorReactor.addWriter`, losing the connection whose socket uvloop gave up."""
    _register_or_lose(self, writer, _twisted_add_writer)


def patch_reactor_registration() -> None:
    """Make `add_reader_or_lose` and `add_writer_or_lose` the asyncio reactor's addReader and addWriter."""
    AsyncioSelectorReactor.addReader = add_reader_or_lose  # type: ignore[method-assign]
    AsyncioSelectorReactor.addWriter = add_writer_or_lose  # type: ignore[method-assign]
