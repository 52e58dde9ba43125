"""A tournament's live socket (ws/tournament/<id>/): thin, it tells the page that the tournament moved.

The page then fetches its live part (standings, the round's pairings, the reader's own game) over HTTP,
so the event carries nothing, and nothing private can leak through it.
"""

from __future__ import annotations

from typing import Any

from durak_site.consumers import LiveConsumer
from durak_site.db import database_call
from games.broadcast import remember_server_loop
from tournaments.broadcast import tournament_group
from tournaments.models import Tournament

CLOSE_NO_TOURNAMENT = 4404


class TournamentConsumer(LiveConsumer):
    group: str

    async def connect(self) -> None:
        remember_server_loop()
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = ""
        exists = await database_call(Tournament.objects.filter(pk=tournament_id).exists)()
        if not exists:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Nothing is asked of this socket; a "sync" is answered so that a page can check it is alive."""
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.send_json({"type": "tournament.changed"})

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "tournament.changed"})
