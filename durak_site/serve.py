"""Daphne on uvloop: `python -m durak_site.serve` takes Daphne's command line (run_site, the tests' and the
benches' servers, docs/operations.md).

Daphne runs Twisted on an asyncio loop that it makes as it is imported; with uvloop's policy set first that
loop is uvloop's, whose scheduling and sockets are written in C. In the live bench's profile the loop's own
bookkeeping was about a fifth of a Daphne process's CPU.

Once Daphne (and with it autobahn and Twisted) is imported, `durak_site.wire` takes two costs off each
WebSocket frame: autobahn's debug log arguments are built without click's colours, and a TCP connection's
write is sent at once when nothing waits before it, instead of on the loop's next turn. It also makes
Twisted lose a connection whose socket uvloop gave up after a reset, where its next write raised instead.
"""

import asyncio

import uvloop

asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

from daphne.cli import CommandLineInterface  # noqa: E402  (after the policy: Daphne makes its loop on import)

from durak_site import wire  # noqa: E402

wire.plain_autobahn_debug_arguments()
wire.patch_twisted_write()
wire.patch_reactor_registration()

if __name__ == "__main__":
    CommandLineInterface.entrypoint()
