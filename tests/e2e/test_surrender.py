"""A surrender confirmed while the other player moved, in real Chromium against Daphne: the page's view is a
version behind when the player confirms, and the game still ends with him as the durak. The page sends a
surrender without a version (docs/protocol.md allows that): giving up does not depend on the last card played,
and with the version the server refused it as stale, so the player had to give up twice (a CI run's
tournament test surrendered as the bot led)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from games import services
from games.engine import Rules, legal_actions
from games.models import Game, GameStatus
from games.snapshots import state_of
from tests.e2e.browsing import in_thread, log_in
from tests.e2e.test_play_a_game import DESKTOP
from tests.games.factories import person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch, live_server_url: str) -> Game:
    """Anna (seat 0, leading) and Boris at a heads-up game, made before the browser starts (Playwright's sync
    API runs an event loop, and Django refuses database calls from a thread that has one); no turn timer."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    anna, boris = person("surrender-anna"), person("surrender-boris")
    return services.game_start_reserved(owner=anna, rules=Rules.from_dict({"preset": "podkidnoy"}),
                                        players=[anna, boris], turn_seconds=900, name="Surrender", first_attacker=0)


def test_a_surrender_confirmed_after_the_other_player_moved_ends_the_game(
    game: Game, live_server_url: str, browser: Browser
) -> None:
    errors: list[str] = []
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, "surrender-boris")

    # Boris's socket goes through the test, which can hold back what the server sends him.
    holding = {"on": False}

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        server.on_message(lambda message: None if holding["on"] else socket.send(message))

    page.route_web_socket(re.compile(r".*/ws/game/.*"), route)
    page.goto(f"{live_server_url}/play/game/{game.pk}/")
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    page.wait_for_function("window.durakTable && window.durakTable.message && window.durakTable.message.seq === 0")

    # Anna leads while Boris's page hears nothing of it: his view stays at version 0.
    holding["on"] = True
    lead = legal_actions(state_of(game), 0)[0]

    def anna_leads() -> Game:
        return services.game_submit_action(game_id=game.pk, user=game.table.owner, action=lead.to_json(), seq=0)

    assert in_thread(anna_leads).seq == 1
    holding["on"] = False
    assert page.evaluate("window.durakTable.message.seq") == 0

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-part=surrender]").click()
    expect(page.locator("[data-part=result]")).to_be_visible(timeout=30_000)
    fresh = in_thread(lambda: Game.objects.get(pk=game.pk))
    assert (fresh.status, fresh.surrendered) == (GameStatus.FINISHED, 1)
    assert errors == [], f"the page's script failed: {errors}"
