"""A finished game's analysis socket (ws/analysis/<game id>/): the progress of its analyses and a last
message when one is done.

Only a reader who may read the game's analysis (review.selectors.can_review: a player, a director of its
tournament, staff) is admitted; the messages carry counts, a status and accuracies, never a card (only finished
games are analysed, whose cards are public anyway).
"""

from __future__ import annotations

from typing import Any

from durak_site.consumers import LiveConsumer
from durak_site.db import database_call
from games.broadcast import remember_server_loop
from games.models import Game
from review import selectors
from review.broadcast import analysis_group

CLOSE_NOT_SIGNED_IN = 4401
CLOSE_NOT_ALLOWED = 4403
CLOSE_NO_GAME = 4404


def _admission(user: Any, game_id: int) -> tuple[int | None, list[dict[str, Any]]]:
    """(a close code, or None to admit; the messages of the game's analyses as they stand)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return CLOSE_NO_GAME, []
    if not selectors.can_review(user=user, game=game):
        return CLOSE_NOT_ALLOWED, []
    return None, [selectors.progress_message(analysis) for analysis in selectors.analyses_of_game(game_id=game_id)]


class AnalysisConsumer(LiveConsumer):
    group: str

    async def connect(self) -> None:
        remember_server_loop()
        self.group = ""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        refused, messages = await database_call(_admission)(user, game_id)
        if refused is not None:
            await self.close(code=refused)
            return
        self.group = analysis_group(game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        for message in messages:
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """The socket only listens: what a client sends is dropped unread."""

    async def analysis_changed(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
