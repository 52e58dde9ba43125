"""The bot socket: the table's game protocol (docs/protocol.md) for a program that plays a bot account.

It is games.consumers.GameConsumer with token authentication (api.middleware) and two more fields on
every game.view, so that a program can rebuild what its seat may know without keeping the socket open from
the first move: `actions`, the game's public action log up to the view's version (every card in it was laid
face up), and `face_up`, the card that lay face up under the stock at the deal. Moves go through the same
service and checks as a person's.
"""

from __future__ import annotations

from typing import Any

from api import services
from durak_site.db import database_call
from games.consumers import GameConsumer
from games.engine import played_deal
from games.models import Game

CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_A_BOT = 4403


class BotGameConsumer(GameConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        if not await database_call(services.is_bot_account)(user):
            await self.close(code=CLOSE_NOT_A_BOT)
            return
        await super().connect()

    def _admit(self, user: Any, token: str) -> tuple[bool, int | None] | None:
        """A bot plays its own games and watches no others: without a seat it is refused (4403)."""
        found = super()._admit(user, token)
        if found is not None and found[1] is None:
            return False, None
        return found

    def _current_view(self) -> dict[str, Any]:
        message = super()._current_view()
        return {**message, **self._public_history(int(message["seq"]))}

    async def game_view(self, event: dict[str, Any]) -> None:
        message = self._message_of(event)
        if not await self._may_show(event, message["seq"], tuple(message.get("waiting") or ())):
            return
        history = await database_call(self._public_history)(int(message["seq"]))
        await self.send_json({**message, **history})

    def _public_history(self, seq: int) -> dict[str, Any]:
        record = Game.objects.values_list("record", flat=True).get(pk=self.game_id)
        # The deal being played and its moves: a redeal (RULES.md, redeal_five_same_suit) starts them afresh.
        redeals = len(record.get("redeals", []))
        actions = [
            {key: value for key, value in raw.items() if key not in ("timer", "autopilot")}
            for raw in record.get("actions", [])[redeals:seq]
        ]
        stock = played_deal(record).get("stock") or []
        # The last card of the stock was dealt face up: public from the start.
        return {"actions": actions, "face_up": stock[-1] if stock else None}
