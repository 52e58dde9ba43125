"""Bad input on the game socket (issue 10): random JSON, wrong types, unknown actions, other seats' cards,
huge payloads and floods get a clear error each, change nothing, and reveal nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from games import consumers, services
from games.engine.cards import card_name, names
from games.models import ActionLog, Game, Seat
from games.snapshots import state_of
from tests.games.test_consumers import _heads_up, _socket
from tests.games.test_no_leaks import _cards_named

SUITS = "SCDH♠♣♦♥"
RANKS = ["2", "6", "7", "9", "10", "J", "Q", "K", "A", "1", "0", "", "XX"]
KEYS = ["type", "seq", "action", "cards", "card", "target", "kind", "seat", "game", "by"]
TYPES = ["action", "surrender", "sync", "attack", "cover", "take", "pass", "transfer", "show_trump", "accuse", "", None]


@pytest.fixture(autouse=True)
def quiet_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    with override_settings(TASKS_IN_PROCESS=True):
        yield


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice(
            [None, True, False, 0, -1, 1, 2**63, 1.5, float("inf"), "", "x" * rng.randint(1, 40),
             rng.choice(RANKS) + rng.choice(SUITS), rng.choice(TYPES), [], {}]
        )  # fmt: skip
    if roll < 0.6:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): _value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def _message(rng: random.Random, seq: int) -> str:
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([" ", "{", "null", "[1,2", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"), "🂡"])
    if roll < 0.55:
        cards = [rng.choice(RANKS) + rng.choice(SUITS) for _ in range(rng.randint(0, 3))]
        action: Any = {"type": rng.choice(TYPES), "cards": rng.choice([cards, cards[:1], "6H", None, 7])}
        if rng.random() < 0.3:
            action["target"] = _value(rng, 2)
        message: Any = {"type": "action", "seq": rng.choice([seq, seq, seq + 1, -1, "0", None, True]), "action": action}
    else:
        message = _value(rng)
    return json.dumps(message, allow_nan=True)


def _seat_number(game: Game, user: Any) -> int:
    return Seat.objects.get(table=game.table, user=user, bot_level="").number


def _snapshot(game_id: int) -> tuple[int, Any, int]:
    game = Game.objects.get(pk=game_id)
    return game.seq, game.record, ActionLog.objects.filter(game=game).count()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_random_messages_get_errors_and_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consumers.MessageBudget, "take", lambda self: True)  # the flood test covers the limit
    anna, boris, game = await database_sync_to_async(_heads_up)()
    before = await database_sync_to_async(_snapshot)(game.pk)
    state = await database_sync_to_async(state_of)(game)
    # Anna's socket; Boris's cards and the stock must never show up in what she is told.
    anna_seat = await database_sync_to_async(_seat_number)(game, anna)
    hidden = set(names(state.hands[1 - anna_seat])) | {card_name(card) for card in state.stock[:-1]}
    anna_socket = await _socket(f"/ws/game/{game.pk}/", anna)
    await anna_socket.receive_json_from(timeout=5)  # her view as she connects
    rng = random.Random(20261129)
    errors = sent = 0
    # A random message may be a move she may make (a lead with a card she holds, at the current version)
    # or a surrender; those change the game, rightly. The deal is random, so they are left out by content.
    held = set(names(state.hands[anna_seat]))
    while sent < 300:
        text = _message(rng, before[0])
        if _cards_named(text) & held or '"surrender"' in text or '"redeal"' in text:
            continue
        sent += 1
        await anna_socket.send_to(text_data=text)
        reply = await anna_socket.receive_json_from(timeout=5)
        assert reply["type"] in ("game.error", "game.view"), reply
        if reply["type"] == "game.error":
            errors += 1
            assert reply["code"] in services.GameActionError.CODES, reply
            assert reply["message"]
            named = _cards_named(reply["message"]) & hidden
            assert named <= _cards_named(text), (text, reply)  # only cards she named herself, echoed back
            if reply["code"] == "stale":  # a stale version's refusal is followed by the current view
                assert (await anna_socket.receive_json_from(timeout=5))["type"] == "game.view"
    assert errors > 200
    assert await database_sync_to_async(_snapshot)(game.pk) == before
    await anna_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_card_of_another_hand_is_refused_like_any_card_she_does_not_hold() -> None:
    anna, boris, game = await database_sync_to_async(_heads_up)()
    state = await database_sync_to_async(state_of)(game)
    anna_seat = await database_sync_to_async(_seat_number)(game, anna)
    anna_socket = await _socket(f"/ws/game/{game.pk}/", anna)
    await anna_socket.receive_json_from(timeout=5)
    others = [card_name(card) for card in range(52) if state.hands[1 - anna_seat] >> card & 1]
    stock = [card_name(card) for card in state.stock[:-1]]
    replies = []
    for card in (others[0], stock[0]):
        await anna_socket.send_json_to(
            {"type": "action", "seq": game.seq, "action": {"type": "attack", "cards": [card]}}
        )
        reply = await anna_socket.receive_json_from(timeout=5)
        assert reply["type"] == "game.error"
        replies.append(reply["message"].replace(card, "<card>"))
    # Whether the card lies in Boris's hand or in the stock, she is told the same thing.
    assert replies[0] == replies[1]
    await anna_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_huge_message_is_refused_unread() -> None:
    anna, _boris, game = await database_sync_to_async(_heads_up)()
    before = await database_sync_to_async(_snapshot)(game.pk)
    anna_socket = await _socket(f"/ws/game/{game.pk}/", anna)
    await anna_socket.receive_json_from(timeout=5)
    huge = json.dumps({"type": "action", "seq": 0, "action": {"type": "attack", "cards": ["6H"] * 100_000}})
    await anna_socket.send_to(text_data=huge)
    reply = await anna_socket.receive_json_from(timeout=5)
    assert reply == {"type": "game.error", "code": "too_large", "message": "That message is too large."}
    assert await database_sync_to_async(_snapshot)(game.pk) == before
    await anna_socket.disconnect()


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The message budget's clock stands still, so that no token comes back while a flood is sent, however
    slowly a loaded machine sends it."""
    monkeypatch.setattr(consumers.MessageBudget, "clock", staticmethod(lambda: 1000.0))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_flood_is_refused_then_cut_off(stopped_clock: None) -> None:
    anna, _boris, game = await database_sync_to_async(_heads_up)()
    before = await database_sync_to_async(_snapshot)(game.pk)
    anna_socket = await _socket(f"/ws/game/{game.pk}/", anna)
    await anna_socket.receive_json_from(timeout=5)
    codes: list[str] = []
    closed_with = None
    for _ in range(consumers.MESSAGE_BURST + consumers.REFUSALS_BEFORE_CLOSE + 5):
        await anna_socket.send_json_to({"type": "nonsense"})
    for _ in range(consumers.MESSAGE_BURST + consumers.REFUSALS_BEFORE_CLOSE + 5):
        output = await anna_socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            closed_with = output["code"]
            break
        codes.append(json.loads(output["text"])["code"])
    assert codes.count("malformed") >= consumers.MESSAGE_BURST  # the burst is read (and refused as nonsense)
    assert "rate_limited" in codes
    assert closed_with == consumers.CLOSE_FLOOD
    assert await database_sync_to_async(_snapshot)(game.pk) == before


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_refuses_floods_too(stopped_clock: None) -> None:
    socket = WebsocketCommunicator(consumers.LobbyConsumer.as_asgi(), "/ws/lobby/")
    connected, _ = await socket.connect()
    assert connected
    await socket.receive_json_from(timeout=5)
    for _ in range(consumers.MESSAGE_BURST + 3):
        await socket.send_to(text_data="{}")
    codes = [(await socket.receive_json_from(timeout=5))["code"] for _ in range(consumers.MESSAGE_BURST + 3)]
    assert codes == ["malformed"] * consumers.MESSAGE_BURST + ["rate_limited"] * 3
    await socket.disconnect()


def test_the_message_budget_refills_at_its_rate_up_to_its_burst(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(consumers.MessageBudget, "clock", staticmethod(lambda: now[0]))
    budget = consumers.MessageBudget(rate=10.0, burst=3)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.1  # a tenth of a second brings one message back
    assert [budget.take() for _ in range(2)] == [True, False]
    now[0] = 60.0  # a long pause fills the bucket only up to its burst
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
