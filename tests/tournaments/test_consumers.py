"""The tournament's live socket through the real ASGI application: a page is told when the tournament
moves (a registration, a result), with nothing in the message but that."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from durak_site.db import database_call
from tests.tournaments.factories import director, person, tournament
from tournaments import services
from tournaments.broadcast import tournament_changed
from tournaments.models import Tournament

LOCAL_ORIGIN = (b"origin", b"http://localhost")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_page_is_told_when_the_tournament_moves() -> None:
    event: Tournament = await database_sync_to_async(tournament)()
    socket = WebsocketCommunicator(application, f"/ws/tournament/{event.pk}/", headers=[LOCAL_ORIGIN])
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_nothing(timeout=0.2)
    await database_sync_to_async(tournament_changed)(event.pk)
    assert await socket.receive_json_from(timeout=5) == {"type": "tournament.changed"}
    # A registration commits and tells the page.
    anna = await database_sync_to_async(person)()
    await database_sync_to_async(services.tournament_register)(tournament=event, user=anna)
    assert await socket.receive_json_from(timeout=5) == {"type": "tournament.changed"}
    await socket.send_json_to({"type": "sync"})
    assert await socket.receive_json_from(timeout=5) == {"type": "tournament.changed"}
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_socket_for_a_tournament_that_does_not_exist() -> None:
    await database_sync_to_async(director)()
    socket = WebsocketCommunicator(application, "/ws/tournament/999999/", headers=[LOCAL_ORIGIN])
    connected, code = await socket.connect()
    assert not connected and code == 4404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_refused_socket_gives_its_database_connection_back(real_services: None) -> None:
    """A socket refused at connect (no such tournament) leaves no connection checked out of the process's
    pool (durak_site.db: channels' own close misses the connection the call used)."""
    from django.db import connection

    pool = getattr(connection, "pool", None)
    assert pool is not None, "the PostgreSQL settings pool their connections"

    def checked_out() -> int:
        stats = pool.get_stats()
        return int(stats["pool_size"] - stats["pool_available"])

    await database_call(lambda: None)()  # what earlier calls of this context left open goes back first
    before = checked_out()
    for missing in (999999, 999998, 999997):
        socket = WebsocketCommunicator(application, f"/ws/tournament/{missing}/", headers=[LOCAL_ORIGIN])
        connected, code = await socket.connect()
        assert not connected and code == 4404
    assert checked_out() == before
