"""The table's and the lobby's WebSockets (docs/protocol.md): thin, every change goes through games.services.

Every socket of a game joins the game's group; of each event there (every seat's view and the public
one, games.broadcast) a seated person's socket receives his seat's view, anyone else watching the public
view. Errors go to the sender only.

Moves and surrenders of different games are applied side by side, each on a thread of `GAME_WRITERS`
with a connection borrowed from the database pool, so that one game's commit (a flush to disk) does not
hold up every other game of the process; two moves of one game still queue on the game's row lock. A
socket's admission, its count at the seat and a view on request run on those threads too; the lobby's
reads and the session's user stay on Channels' one database thread.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

import orjson

from channels.consumer import get_handler_name
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from durak_site.consumers import LiveConsumer
from durak_site.db import database_call
from games import broadcast, lag, rematch, selectors, services
from games.broadcast import LOBBY_GROUP, game_group, remember_server_loop, view_in_event
from games.services import GameActionError, error_message, loop_moves

CLOSE_NO_GAME = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_FLOOD = 4429

# Bad input (issue 10): no message of the protocol comes near this size. The rate allows a program that
# answers every view at once (a bot client, a scripted test: tens of moves a second) and stops a flood; a
# socket that goes on flooding after its refusals is closed.
MAX_MESSAGE_CHARS = 8 * 1024
MESSAGES_PER_S = 30.0
MESSAGE_BURST = 60
REFUSALS_BEFORE_CLOSE = 100

LIMIT_TEXTS = {
    "too_large": _("That message is too large."),
    "rate_limited": _("Too many messages at once; wait a moment."),
}


class MessageBudget:
    """A token bucket: `burst` messages at once, refilled at `rate` a second (by `clock`, which a test may stop)."""

    clock = staticmethod(time.monotonic)

    def __init__(self, rate: float = MESSAGES_PER_S, burst: int = MESSAGE_BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.checked = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.rate)
        self.checked = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


REMATCH_SERVICES = {
    "rematch.offer": rematch.rematch_offer,
    "rematch.accept": rematch.rematch_accept,
    "rematch.decline": rematch.rematch_decline,
}

GAME_WRITERS = ThreadPoolExecutor(max_workers=settings.GAME_WRITER_THREADS, thread_name_prefix="game-writer")


def _game_writer(function: Any) -> Any:
    """`function` run on a game writer thread, its database connection given back to the pool after it."""
    return database_call(function, thread_sensitive=False, executor=GAME_WRITERS)


async def _write_then_send(function: Any, **kwargs: Any) -> Any:
    """A service's change of the game on a game writer thread; the views its commit leaves to the caller
    (`broadcast.deferring`) are sent here, on the loop, as the call returns (also when it raised after a
    commit)."""
    sends: list[broadcast.Send] = []
    try:
        return await _game_writer(broadcast.deferring(function, sends))(**kwargs)
    finally:
        for send in sends:
            await send()


# The latest events' encoded views by (game, event, seat or None, language): (JSON text, seq, waiting seats).
# Only the loop's consumers use it, one at a time; the oldest goes first.
_ENCODED: dict[tuple[Any, ...], tuple[str, int, tuple[int, ...]]] = {}
_ENCODED_KEPT = 512


class GameConsumer(LiveConsumer):
    game_id: int
    seat: int | None
    group: str
    language: str

    async def connect(self) -> None:
        remember_server_loop()
        self.budget = MessageBudget()
        self.refusals = 0
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.seat = None
        self.group = ""
        user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.language = _language(user, query)
        # Admitting and counting a socket run on the game writers' threads too: on Channels' one database
        # thread they queued behind every other socket's work, and under load (the soak of issue 10) a
        # socket waited longer for its admission than Daphne lets a handshake take.
        found = await _game_writer(self._admit)(user, query.get("token", [""])[0])
        if found is None:
            await self.close(code=CLOSE_NO_GAME)
            return
        admitted, seat = found
        if not admitted:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = seat
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if seat is not None:
            # Counting him in sends every socket of the game a view that shows him connected, this one too.
            await _game_writer(self._count_connection)(user, +1)
        else:
            await self._send_current_view()

    def _admit(self, user: Any, token: str) -> tuple[bool, int | None] | None:
        return selectors.game_admission(game_id=self.game_id, user=user, token=token)

    def _count_connection(self, user: Any, change: int) -> None:
        services.seat_connected_to(game_id=self.game_id, user=user, change=change)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await _game_writer(self._count_connection)(self.scope.get("user"), -1)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        refused = await _refuse_over_limits(self, len(text_data or bytes_data or ""))
        if refused:
            return
        try:
            content = orjson.loads(text_data or bytes_data or b"")  # 0.3 us a move where json took 2.4
        except (ValueError, UnicodeDecodeError, RecursionError):
            await self._send_error(GameActionError("malformed", "not JSON"))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self._send_current_view()
            return
        if isinstance(kind, str) and kind in REMATCH_SERVICES:
            await self._rematch(REMATCH_SERVICES[kind])
            return
        if kind not in ("action", "surrender", "redeal"):
            await self._send_error(GameActionError("malformed", f"unknown message type {kind!r}"))
            return
        seq = content.get("seq")
        try:
            if kind == "action":
                if isinstance(seq, bool) or not isinstance(seq, int):
                    raise GameActionError("malformed", "an action needs its version 'seq'")
                moved = await loop_moves.kept_move_on_loop(
                    game_id=self.game_id, user=self.scope.get("user"), action=content.get("action"), seq=seq
                )
                if moved:
                    return
                await _write_then_send(
                    services.game_submit_action,
                    game_id=self.game_id, user=self.scope.get("user"), action=content.get("action"), seq=seq,
                )  # fmt: skip
            else:
                if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
                    raise GameActionError("malformed", "'seq' must be a whole number")
                service = services.game_surrender if kind == "surrender" else services.game_redeal
                await _write_then_send(service, game_id=self.game_id, user=self.scope.get("user"), seq=seq)
        except GameActionError as error:
            await self._send_error(error)
            if error.code == "stale":
                await self._send_current_view()

    async def _rematch(self, service: Any) -> None:
        """An offer, acceptance or refusal of a rematch (games.rematch); its answer is the group's
        game.rematch message, a refusal goes to the sender only."""
        user, language = self.scope.get("user"), self.language

        def call() -> Any:
            # In the reader's language: a next game that cannot be dealt says why (games.services' words).
            with translation.override(language):
                return service(game_id=self.game_id, user=user)

        try:
            await _game_writer(call)()
        except GameActionError as error:
            await self._send_error(error)

    async def _send_error(self, error: GameActionError) -> None:
        with translation.override(self.language):
            if isinstance(error, rematch.RematchError):
                message = rematch.rematch_error_message(error)
            else:
                message = error_message(error)
        await self.send_json({"type": "game.error", "code": error.code, "message": message})

    async def _send_current_view(self) -> None:
        message = await _game_writer(self._current_view)()
        await self.send_json(message)

    def _current_view(self) -> dict[str, Any]:
        """The view as the game stands, a late one noted as the group's are (games.lag); read again if the
        turn timer played its version between the read and the note."""
        for _attempt in range(2):
            message, since = selectors.game_view_and_since(game_id=self.game_id, seat=self.seat, language=self.language)
            if self.seat is None or self.seat not in (message.get("waiting") or ()):
                break
            if lag.deliver_now(game_id=self.game_id, seq=message["seq"], seat=self.seat, since=since):
                break
            services.seat_arrived(game_id=self.game_id, seat=self.seat)
        return message

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every message it dispatches: a hop to its one
        # database thread, where a view on its way to the player would queue behind other sockets'
        # database work. Every database call of this consumer goes through durak_site.db.database_call, which
        # gives its connection back to the pool itself, in the context the call ran in.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def _message_of(self, event: dict[str, Any]) -> dict[str, Any]:
        """The game.view this socket is sent of a game event: its reader's view, in his language."""
        return selectors.message_in_language(view_in_event(event, self.seat), self.language)

    async def game_view(self, event: dict[str, Any]) -> None:
        # One view and one encoding an event for each kind of reader (a seat, or the spectators) and language
        # in this process, however many of its sockets are here: the event's `sent` tells it apart.
        sent = event.get("sent")
        key = (self.game_id, sent, event["common"].get("seq"), self.seat, self.language)
        encoded = _ENCODED.get(key) if sent is not None else None
        if encoded is None:
            message = self._message_of(event)
            encoded = (await self.encode_json(message), message["seq"], tuple(message.get("waiting") or ()))
            if sent is not None:
                if len(_ENCODED) >= _ENCODED_KEPT:
                    del _ENCODED[next(iter(_ENCODED))]
                _ENCODED[key] = encoded
        text, seq, waiting = encoded
        if await self._may_show(event, seq, waiting):
            await self.send(text_data=text)

    async def _may_show(self, event: dict[str, Any], seq: int, waiting: tuple[int, ...]) -> bool:
        """Whether this socket may send its view of `event` (version `seq`, waiting for `waiting`): a view that
        waits for its player, late, is noted before it is sent, and not sent at all if the turn timer has
        played its version meanwhile (games.lag; the timer's move sends the next view)."""
        if self.seat is None or self.seat not in waiting:
            return True
        if await lag.deliver(game_id=self.game_id, seq=int(seq), seat=self.seat, since=event.get("since")):
            return True
        # His turn was played while he was being shown it: he is here, the autopilot is not his.
        await _game_writer(services.seat_arrived)(game_id=self.game_id, seat=self.seat)
        return False

    async def game_rematch(self, event: dict[str, Any]) -> None:
        # The same for every reader: seats, a status and the new game's URL (games.aftermath).
        await self.send_json(event["message"])

    async def game_decision(self, event: dict[str, Any]) -> None:
        # A director stopped and decided the game: the same for every reader (games.decisions), no card.
        await self.send_json(event["message"])


class LobbyConsumer(LiveConsumer):
    async def connect(self) -> None:
        remember_server_loop()
        self.budget = MessageBudget()
        self.refusals = 0
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        tables = await database_call(selectors.lobby_tables)()
        await self.send_json({"type": "lobby.tables", "tables": tables})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if await _refuse_over_limits(self, len(text_data or bytes_data or "")):
            return
        try:
            content = json.loads(text_data or "")
        except (ValueError, RecursionError):
            content = None
        if isinstance(content, dict) and content.get("type") == "sync":
            tables = await database_call(selectors.lobby_tables)()
            await self.send_json({"type": "lobby.tables", "tables": tables})
            return
        await self.send_json({"type": "lobby.error", "code": "malformed", "message": "expected {\"type\": \"sync\"}"})

    async def lobby_tables(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby.tables", "tables": event["tables"]})


async def _refuse_over_limits(consumer: GameConsumer | LobbyConsumer, size: int) -> bool:
    """Refuse (and say so) a message over the size or the rate limit; close a socket that keeps flooding.
    True when the message is refused and must not be read."""
    if size > MAX_MESSAGE_CHARS:
        code = "too_large"
    elif not consumer.budget.take():
        code = "rate_limited"
    else:
        # A refusal is forgiven per message read, so a flood (refused far more often than read) is closed
        # however the bucket refills meanwhile.
        consumer.refusals = max(0, consumer.refusals - 1)
        return False
    consumer.refusals += 1
    if consumer.refusals > REFUSALS_BEFORE_CLOSE:
        await consumer.close(code=CLOSE_FLOOD)
        return True
    language = getattr(consumer, "language", None) or translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        message = str(LIMIT_TEXTS[code])
    prefix = "game" if isinstance(consumer, GameConsumer) else "lobby"
    await consumer.send_json({"type": f"{prefix}.error", "code": code, "message": message})
    return True


def _language(user: Any, query: dict[str, list[str]]) -> str:
    wanted = query.get("lang", [""])[0]
    if wanted in dict(settings.LANGUAGES):
        return wanted
    return selectors.user_language(user)
