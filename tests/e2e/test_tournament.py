"""A tournament in real Chromium against Daphne: a director creates it on the site and enters a bot, a player
signs up and registers, the director starts it, the round is paired and the player is told on the page he
keeps open; he takes his seat, plays (he gives up at once), and a spectator's tournament page shows the new
standings and the winner without a reload.

The game's end and the scoring run in the server process (in-process tasks) or, under CI=true, in a real
Celery worker on Redis.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.models import BotLevel
from accounts.roles import Role
from accounts.services import bot_account_ensure, user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def director_and_bot(live_server_url: str) -> None:
    """The accounts the test starts from; made before the browser starts (Playwright's sync API runs an event
    loop, and Django refuses database calls from a thread that has one)."""
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    bot_account_ensure(username="bot-rita", display_name="Random Rita", engine="random", level=BotLevel.EASY)


def _local(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_a_director_runs_a_tournament_and_its_page_follows_live(
    director_and_bot: None, tasks_run: None, browser: Browser, live_server_url: str
) -> None:
    errors: list[str] = []

    # The director creates the tournament on the site.
    director = browser.new_page(locale="en-GB")
    director.on("pageerror", lambda error: errors.append(str(error)))
    log_in(director, live_server_url, "chief")
    director.goto(f"{live_server_url}/tournaments/")
    director.get_by_role("link", name="Create a tournament").click()
    director.locator("#id_name").fill("Browser Cup")
    director.locator("#id_rounds").fill("1")
    director.locator("#id_turn_seconds").select_option("900")
    director.locator("#id_starts_at").fill(_local(timezone.now() + datetime.timedelta(hours=1)))
    director.locator("#id_registration_closes").fill(_local(timezone.now() + datetime.timedelta(hours=1)))
    director.get_by_role("button", name="Open registration").click()
    expect(director.locator("h1")).to_have_text("Browser Cup")
    tournament_url = director.url

    # He enters a bot; a player signs up and registers himself.
    director.get_by_role("link", name="Direct", exact=True).click()
    director.locator("#bots-form select[name=level]").select_option("easy")
    director.get_by_role("button", name="Add the bots").click()
    expect(director.locator(".messages")).to_contain_text("Entered: Random Rita.")

    player = browser.new_page(locale="en-GB")
    player.on("pageerror", lambda error: errors.append(str(error)))
    player.goto(f"{live_server_url}/accounts/sign-up/")
    player.get_by_label("Username").fill("anna")
    player.get_by_label("E-mail").fill("anna@example.com")
    player.locator("#id_password1").fill(PASSWORD)
    player.locator("#id_password2").fill(PASSWORD)
    player.get_by_role("button", name="Create my account").click()
    player.goto(tournament_url)
    player.get_by_role("button", name="Register").click()
    expect(player.locator(".messages")).to_contain_text("You are entered.")
    expect(player.locator("#standings")).to_contain_text("anna")

    # A spectator keeps the tournament page open from here on, without ever reloading it.
    spectator = browser.new_page(locale="en-GB")
    spectator.on("pageerror", lambda error: errors.append(str(error)))
    spectator.goto(tournament_url)
    expect(spectator.locator("#tournament-state")).to_contain_text("Open for registration")

    # The director starts it: the round is paired, and the player's open page tells him so.
    director.get_by_role("button", name="Start now").click()
    expect(director.locator(".messages")).to_contain_text("Started.")
    expect(player.locator("#take-seat")).to_be_visible(timeout=15_000)
    expect(spectator.locator("#tournament-state")).to_contain_text("Round 1 of 1.", timeout=15_000)

    # He takes his seat; the bot is there already, so the game is dealt and he is taken to it.
    player.locator("#take-seat").click()
    player.wait_for_url(re.compile(r".*/play/game/\d+/"))
    expect(player.locator("[data-part=connection]")).to_have_text("Connected")
    player.on("dialog", lambda dialog: dialog.accept())
    player.locator("[data-part=surrender]").click()
    expect(player.locator("[data-part=result]")).to_be_visible(timeout=30_000)

    # The spectator's page shows the result, the new standings and the winner without a reload.
    standings = spectator.locator("#standings")
    expect(standings.locator("tr[data-entrant]").first).to_contain_text("Random Rita", timeout=30_000)
    expect(standings.locator("tr[data-entrant]").first.locator(".points")).to_have_text("1")
    expect(spectator.locator("#tournament-state")).to_contain_text("Winner: Random Rita", timeout=30_000)
    expect(spectator.locator(".pairings")).to_contain_text(re.compile("1 – 0|0 – 1"))
    assert spectator.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert errors == [], f"a page's script failed: {errors}"
