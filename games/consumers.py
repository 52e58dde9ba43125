"""The table's and the lobby's WebSockets (docs/protocol.md): thin, every change goes through games.services.

A seated person's socket joins his seat's group and receives his seat's view; anyone else watching
joins the public group and receives the public view. Errors go to the sender only.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import selectors, services
from games.broadcast import LOBBY_GROUP, public_group, remember_server_loop, seat_group
from games.models import Game
from games.services import GameActionError, error_message

CLOSE_NO_GAME = 4404
CLOSE_FORBIDDEN = 4403


class GameConsumer(AsyncJsonWebsocketConsumer):
    game_id: int
    seat: int | None
    group: str
    language: str

    async def connect(self) -> None:
        remember_server_loop()
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.seat = None
        self.group = ""
        user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.language = _language(user, query)
        found = await database_sync_to_async(self._admit)(user, query.get("token", [""])[0])
        if found is None:
            await self.close(code=CLOSE_NO_GAME)
            return
        admitted, seat = found
        if not admitted:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = seat
        self.group = seat_group(self.game_id, seat) if seat is not None else public_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if seat is not None:
            # Counting him in sends every socket of the game a view that shows him connected, this one too.
            await database_sync_to_async(self._count_connection)(user, +1)
        else:
            await self._send_current_view()

    def _admit(self, user: Any, token: str) -> tuple[bool, int | None] | None:
        game = Game.objects.select_related("table").filter(pk=self.game_id).first()
        if game is None:
            return None
        seat = selectors.table_seat_of(table=game.table, user=user)
        if seat is not None and seat.number < game.players:
            return True, seat.number
        table = game.table
        return (not table.private or token == table.link_token), None

    def _count_connection(self, user: Any, change: int) -> None:
        game = Game.objects.select_related("table").get(pk=self.game_id)
        services.seat_connected(game=game, user=user, change=change)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(self._count_connection)(self.scope.get("user"), -1)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        try:
            content = json.loads(text_data or (bytes_data or b"").decode())
        except (ValueError, UnicodeDecodeError):
            await self._send_error(GameActionError("malformed", "not JSON"))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self._send_current_view()
            return
        if kind not in ("action", "surrender"):
            await self._send_error(GameActionError("malformed", f"unknown message type {kind!r}"))
            return
        seq = content.get("seq")
        try:
            if kind == "action":
                if isinstance(seq, bool) or not isinstance(seq, int):
                    raise GameActionError("malformed", "an action needs its version 'seq'")
                await database_sync_to_async(services.game_submit_action)(
                    game_id=self.game_id, user=self.scope.get("user"), action=content.get("action"), seq=seq
                )
            else:
                if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
                    raise GameActionError("malformed", "'seq' must be a whole number")
                await database_sync_to_async(services.game_surrender)(
                    game_id=self.game_id, user=self.scope.get("user"), seq=seq
                )
        except GameActionError as error:
            await self._send_error(error)
            if error.code == "stale":
                await self._send_current_view()

    async def _send_error(self, error: GameActionError) -> None:
        with translation.override(self.language):
            message = error_message(error)
        await self.send_json({"type": "game.error", "code": error.code, "message": message})

    async def _send_current_view(self) -> None:
        message = await database_sync_to_async(self._current_view)()
        await self.send_json(message)

    def _current_view(self) -> dict[str, Any]:
        game = Game.objects.select_related("table").get(pk=self.game_id)
        seats = selectors.game_seats(game)
        payload = selectors.view_payload(
            game=game, seats=seats, state=selectors.state_of(game), seat=self.seat, result=selectors.game_result(game)
        )
        return selectors.message_in_language(payload, self.language)

    async def game_view(self, event: dict[str, Any]) -> None:
        await self.send_json(selectors.message_in_language(event["payload"], self.language))


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        remember_server_loop()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        tables = await database_sync_to_async(selectors.lobby_tables)()
        await self.send_json({"type": "lobby.tables", "tables": tables})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        try:
            content = json.loads(text_data or "")
        except ValueError:
            content = None
        if isinstance(content, dict) and content.get("type") == "sync":
            tables = await database_sync_to_async(selectors.lobby_tables)()
            await self.send_json({"type": "lobby.tables", "tables": tables})
            return
        await self.send_json({"type": "lobby.error", "code": "malformed", "message": "expected {\"type\": \"sync\"}"})

    async def lobby_tables(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby.tables", "tables": event["tables"]})


def _language(user: Any, query: dict[str, list[str]]) -> str:
    wanted = query.get("lang", [""])[0]
    if wanted in dict(settings.LANGUAGES):
        return wanted
    return selectors.user_language(user)
