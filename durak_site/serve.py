"""Daphne on uvloop: `python -m durak_site.serve` takes Daphne's command line (run_site, the tests' and the
benches' servers, docs/operations.md).

Daphne runs Twisted on an asyncio loop that it makes as it is imported; with uvloop's policy set first that
loop is uvloop's, whose scheduling and sockets are written in C. In the live bench's profile the loop's own
bookkeeping was about a fifth of a Daphne process's CPU.
"""

import asyncio

import uvloop

asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

from daphne.cli import CommandLineInterface  # noqa: E402  (after the policy: Daphne makes its loop on import)

if __name__ == "__main__":
    CommandLineInterface.entrypoint()
