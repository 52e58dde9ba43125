"""A director stops a running tournament game in real Chromium against Daphne: on his console he clicks the
award, the dialog names what will happen and asks his reason, and the player's game page, open all along,
shows the decision at once, without a reload."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.roles import Role
from accounts.services import user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, log_in
from tournaments import services
from tournaments.models import MatchGame, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running_game(live_server_url: str) -> dict[str, int]:
    """A one-round tournament of anna and boris whose game is being played (made before the browser starts:
    Django refuses database calls from Playwright's event loop)."""
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    players = [user_sign_up(username=name, email=f"{name}@example.com", password=PASSWORD, preferred_language="en")
               for name in ("anna", "boris")]  # fmt: skip
    event = services.tournament_create(director=chief, name="Decision Cup", rounds=1, turn_seconds=900,
                                       starts_at=timezone.now() + datetime.timedelta(hours=1))
    for player in players:
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    pairing = Pairing.objects.get(tournament=event)
    for player in players:
        services.pairing_check_in(pairing=pairing, user=player)
    match_game = MatchGame.objects.get(pairing=pairing)
    return {"tournament": event.pk, "game": match_game.game_id}


def test_a_director_stops_a_game_and_the_players_page_shows_the_decision_at_once(
    running_game: dict[str, int], browser: Browser, live_server_url: str
) -> None:
    errors: list[str] = []
    player = browser.new_page(locale="en-GB")
    player.on("pageerror", lambda error: errors.append(str(error)))
    log_in(player, live_server_url, "anna")
    player.goto(f"{live_server_url}/play/game/{running_game['game']}/")
    expect(player.locator("[data-part=connection]")).to_have_text("Connected")
    expect(player.locator("[data-part=decision]")).to_be_hidden()

    director = browser.new_page(locale="en-GB")
    director.on("pageerror", lambda error: errors.append(str(error)))
    log_in(director, live_server_url, "chief")
    director.goto(f"{live_server_url}/tournaments/{running_game['tournament']}/direct/")
    expect(director.locator("#still-playing")).to_contain_text("anna")
    award = director.get_by_role("button", name="Award to boris")
    expect(award).to_have_class(re.compile("danger"))
    award.click()
    dialog = director.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("award it to boris")
    dialog.get_by_role("button", name="Award to boris").click()  # no reason yet: the dialog asks for one
    expect(dialog.locator("[data-part=missing]")).to_be_visible()
    dialog.locator("textarea").fill("Anna left the hall")
    dialog.get_by_role("button", name="Award to boris").click()
    expect(director.locator(".messages")).to_contain_text("players are told")

    panel = player.locator("[data-part=decision]")
    expect(panel).to_be_visible(timeout=15_000)
    expect(panel).to_contain_text("The director stopped the game")
    expect(panel).to_contain_text("awarded to boris")
    expect(panel).to_contain_text("Reason: Anna left the hall")
    expect(player.locator("[data-part=result]")).to_be_visible(timeout=15_000)
    assert player.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert errors == [], f"a page's script failed: {errors}"


def test_a_game_ordered_replayed_moves_the_players_page_to_the_new_deal(
    running_game: dict[str, int], browser: Browser, live_server_url: str
) -> None:
    player = browser.new_page(locale="en-GB")
    log_in(player, live_server_url, "boris")
    player.goto(f"{live_server_url}/play/game/{running_game['game']}/")
    expect(player.locator("[data-part=connection]")).to_have_text("Connected")

    director = browser.new_page(locale="en-GB")
    log_in(director, live_server_url, "chief")
    director.goto(f"{live_server_url}/tournaments/{running_game['tournament']}/direct/")
    director.get_by_role("button", name="Replay with a fresh deal").click()
    dialog = director.locator("#confirm-dialog")
    expect(dialog).to_contain_text("deal it again")
    dialog.locator("textarea").fill("A card was seen")
    dialog.get_by_role("button", name="Replay with a fresh deal").click()
    expect(director.locator(".messages")).to_contain_text("dealt again")

    expect(player.locator("[data-part=decision]")).to_contain_text("fresh deal", timeout=15_000)
    player.wait_for_url(re.compile(rf".*/play/game/(?!{running_game['game']}/)\d+/"), timeout=15_000)
    expect(player.locator("[data-part=connection]")).to_have_text("Connected")
    expect(player.locator("[data-part=result]")).to_be_hidden()
