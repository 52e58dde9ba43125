"""The hall screen in real Chromium against Daphne: a projector's page follows the tournament live. A director
records a result through the API (the service, in the server's process), and the open hall screen shows it on
its board and in the standings without a reload, while it turns between its screens by itself."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from api.services import token_create
from tests.tournaments.factories import bots, director, enter, tournament
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def paired(live_server_url: str) -> dict[str, Any]:
    """A Swiss of four bots with round 1 paired and not dealt (made before the browser starts: Playwright's
    sync API runs an event loop, and Django refuses database calls from a thread that has one)."""
    chief = director()
    event = tournament(chief, rounds=2, name="Club Night")
    enter(event, bots(4))
    services.tournament_start(tournament=event, by=chief, deal_games=False)
    pairing = Pairing.objects.filter(tournament=event, board=1).prefetch_related("seats__entrant__user").get()
    first = pairing.seats.get(position=0).entrant
    return {"event": event, "pairing": pairing, "first": first, "key": token_create(user=chief, name="hall").key}


def _record_result(base: str, paired: dict[str, Any]) -> None:
    event, pairing = paired["event"], paired["pairing"]
    request = urllib.request.Request(
        f"{base}/api/v1/tournaments/{event.pk}/pairings/{pairing.pk}/result/",
        data=json.dumps({"points": [1, 0], "reason": "the score sheet, signed"}).encode(),
        headers={"Authorization": f"Bearer {paired['key']}", "Content-Type": "application/json"}, method="POST",
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def test_the_hall_screen_follows_a_result_live_and_turns_by_itself(
    paired: dict[str, Any], browser: Browser, live_server_url: str
) -> None:
    errors: list[str] = []
    hall = browser.new_page(locale="en-GB", viewport={"width": 1366, "height": 768})
    hall.on("pageerror", lambda error: errors.append(str(error)))
    hall.goto(f"{live_server_url}/tournaments/{paired['event'].pk}/hall/?seconds=5")
    live = hall.locator("#hall-live")
    board = live.locator('tr[data-board="1"]')
    expect(board).to_contain_text("waiting for the players")
    expect(hall.locator("#hall-screen-name")).to_have_text("Round 1: boards")

    _record_result(live_server_url, paired)
    # Sooner than the page's half-minute poll: the tournament's socket said it changed.
    expect(board).to_contain_text("1 – 0", timeout=10_000)
    leader = live.locator(f'tr[data-entrant="{paired["first"].key}"]')
    expect(leader.locator(".points")).to_have_text("1")
    # It turns to the standings by itself, and they show the new points.
    expect(hall.locator("#hall-screen-name")).to_have_text("Standings", timeout=10_000)
    expect(leader).to_be_visible()
    assert hall.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert errors == [], f"the hall's script failed: {errors}"
