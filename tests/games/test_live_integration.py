"""A whole game over the real stack: Daphne, Redis, PostgreSQL and a Celery worker (CI=true provides them).

Two people play through WebSocket clients over TCP and a bot takes the third seat (its moves run on the
worker, on the `bots` queue). At the end the stored result, the chip ledger and the action log agree
with a replay of the stored record.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import LedgerEntry, LedgerKind, User
from games import services
from games.engine import load_record, replay_record, settlement, verify_commitment
from games.models import ActionLog, Game, GameStatus, Result
from games.selectors import game_record_json
from tests.games.factories import latest_game, person, table
from tests.processes import RunningProcess

STAKE = 40
PAUSE_S = 0.04


def _cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def _play(url: str, cookie: str, game_id: int, rng: random.Random) -> dict[str, Any]:
    """Answer every view that waits for this seat with a random legal move; return the final view."""
    import websockets

    origin = url.replace("ws://", "http://")
    acted = -1
    async with websockets.connect(f"{url}/ws/game/{game_id}/", additional_headers={"Cookie": cookie},
                                  origin=origin) as socket:  # type: ignore[arg-type]
        async for raw in socket:
            message = json.loads(raw)
            if message["type"] == "game.error":
                # Two throwers may answer the same version; the slower one is refused as stale.
                assert message["code"] == "stale", message
                continue
            if message["status"] == "finished":
                if message["result"] is not None:
                    return dict(message)
                continue
            legal = message["view"]["legal"]
            if message["seat"] in message["waiting"] and legal and message["seq"] > acted:
                acted = message["seq"]
                # At most 25 moves a second, as a quick person: the socket refuses more than 30 a second on
                # average (games.consumers.MessageBudget), and a fast game can ask for more.
                await asyncio.sleep(PAUSE_S)
                await socket.send(json.dumps({"type": "action", "action": rng.choice(legal), "seq": acted}))
    raise AssertionError("the socket closed before the game ended")


@pytest.mark.needs_services
@pytest.mark.django_db(transaction=True)
def test_two_people_and_a_bot_play_a_game_to_the_end(live_server_url: str, celery_worker: RunningProcess) -> None:
    anna, boris = person("anna"), person("boris")
    three = table(anna, seats=3, stake=STAKE, turn_seconds=600, rules={"preset": "podkidnoy"})
    services.table_join(table=three, user=anna)
    services.table_join(table=three, user=boris)
    services.table_add_bot(table=three, level="easy")
    game = latest_game(three)
    cookies = [_cookie(anna), _cookie(boris)]
    url = live_server_url.replace("http://", "ws://")

    async def both() -> list[dict[str, Any]]:
        return list(await asyncio.wait_for(
            asyncio.gather(*(_play(url, cookie, game.pk, random.Random(seat)) for seat, cookie in enumerate(cookies))),
            timeout=240,
        ))  # fmt: skip

    finals = asyncio.run(both())

    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    result = Result.objects.get(game=game)
    replay = replay_record(load_record(game_record_json(game=game)))
    assert replay.ok and replay.state is not None and replay.state.finished
    engine_result = replay.state.result
    assert engine_result is not None
    assert (result.outcome, result.durak, result.out_order) == (
        engine_result.outcome, engine_result.durak, list(engine_result.out_order)
    )
    assert result.chips == settlement(replay.state)
    for final in finals:
        assert final["result"]["chips"] == result.chips and final["seq"] == game.seq
        assert verify_commitment(final["result"]["commitment"], final["result"]["salt"], final["result"]["deck"])

    players = [anna, boris, User.objects.get(seats__table=three, seats__number=2)]
    for seat, user in enumerate(players):
        rows = LedgerEntry.objects.filter(game=game, user=user)
        assert rows.filter(kind=LedgerKind.STAKE).get().amount == -STAKE
        assert sum(rows.values_list("amount", flat=True)) == result.chips[seat]

    logged = [(row.seat, row.action) for row in ActionLog.objects.filter(game=game).order_by("seq")]
    recorded = [(raw["seat"], {k: v for k, v in raw.items() if k != "seat"}) for raw in game_record_json(game=game)["actions"]]
    assert logged == recorded and len(logged) == game.seq
    # The bot's moves were made by the worker.
    assert "games.tasks.bot_move" in celery_worker.log()
    assert any(seat == 2 for seat, _ in logged)
