"""The bell in real Chromium against Daphne: a player keeps a page open, the director starts the tournament,
and the player's bell counts the pairing's notice without a reload; the bell opens his notices, the notice
takes him to his seat, and once he has seen it the bell says nothing is unread.

The pairing and the notices' task run in the server process (in-process tasks) or, under CI=true, in a real
Celery worker on Redis.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.models import BotLevel
from accounts.roles import Role
from accounts.services import bot_account_ensure, user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, log_in
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cup(live_server_url: str) -> int:
    """A tournament with a player and a bot entered, made before the browser starts (Playwright's sync API runs
    an event loop, and Django refuses database calls from its thread)."""
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    pavel = user_sign_up(username="pavel", email="pavel@example.com", password=PASSWORD, preferred_language="en")
    rita = bot_account_ensure(username="bot-rita", display_name="Random Rita", engine="random", level=BotLevel.EASY)
    event = tournament_services.tournament_create(
        director=chief, name="Bell Cup", starts_at=timezone.now() + datetime.timedelta(hours=1), rounds=1,
        turn_seconds=900,
    )  # fmt: skip
    for player in (pavel, rita):
        tournament_services.tournament_register(tournament=event, user=player, by=chief)
    return event.pk


def test_the_bell_rings_live_and_leads_to_the_seat(cup: int, tasks_run: None, browser: Browser, live_server_url: str) -> None:
    errors: list[str] = []
    player = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    player.on("pageerror", lambda error: errors.append(str(error)))
    log_in(player, live_server_url, "pavel")
    player.goto(f"{live_server_url}/")
    count = player.locator("#notice-bell [data-part=count]")
    expect(count).to_be_hidden()

    director = browser.new_page(locale="en-GB")
    log_in(director, live_server_url, "chief")
    director.goto(f"{live_server_url}/tournaments/{cup}/direct/")
    director.locator("#start-now").click()

    # Told without a reload.
    expect(count).to_be_visible(timeout=20_000)
    expect(count).to_contain_text("1")
    player.locator("#notice-bell").click()
    notice = player.locator("#notice-list .notice").first
    expect(notice).to_contain_text("Your pairing")
    expect(notice).to_contain_text("Round 1 of Bell Cup: board 1, against Random Rita. Take your seat by")
    # Seen: the bell says so at once.
    expect(count).to_be_hidden(timeout=10_000)
    notice.locator("a").click()
    expect(player).to_have_url(f"{live_server_url}/tournaments/{cup}/#my-pairing")
    expect(player.locator("#take-seat")).to_be_visible()
    expect(count).to_be_hidden()
    assert errors == []
