"""The director's "Why this pairing?" folds on a round page in real Chromium against Daphne: round 2 of a Swiss
paired by the exact Dutch engine, the folds opened on a phone and a desktop, in English and Russian; a player's
page has none. BROWSER_SCREENSHOT_DIR set: the pages are saved there to be looked at."""

from __future__ import annotations

import datetime
import os
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, ViewportSize, expect

from accounts.roles import Role
from accounts.services import user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, log_in
from tests.tournaments.factories import bots, enter
from tournaments import services
from tournaments.models import Entrant, Pairing
from tournaments.services import avoidances

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT_DIR = os.environ.get("BROWSER_SCREENSHOT_DIR")
VIEWS: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}


@pytest.fixture
def second_round(live_server_url: str, settings: Any) -> dict[str, Any]:
    """Eleven entrants, round 1 decided by the director (the higher board wins, board 3 a draw), an avoidance,
    round 2 paired by the Dutch engine (made before the browser starts: Django refuses database calls from
    Playwright's event loop; the pairing runs here, so the setting is this process's)."""
    settings.TOURNAMENT_DUTCH_PAIRING = True
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    anna = user_sign_up(username="anna", email="anna@example.com", password=PASSWORD, preferred_language="en")
    # Rounds an hour apart: the worker (whose settings are its own) must not start round 2 first.
    event = services.tournament_create(director=chief, name="Why Cup", rounds=4, round_interval=3600,
                                       starts_at=timezone.now() + datetime.timedelta(hours=1))  # fmt: skip
    enter(event, [anna, *bots(10)])
    services.tournament_start(tournament=event, by=chief, deal_games=False)
    for pairing in Pairing.objects.filter(tournament=event, round__number=1, bye=False).order_by("board"):
        points = [0.5, 0.5] if pairing.board == 3 else [1.0, 0.0]
        services.pairing_set_result(pairing=pairing, points=points, by=chief, reason="score sheet")
    ranked = sorted(Entrant.objects.filter(tournament=event), key=lambda entrant: (-entrant.rating, entrant.number))
    avoidances.avoidance_add(tournament=event, first=ranked[0], second=ranked[1], by=chief, reason="one club")
    services.round_start_due(tournament=event, number=2, now=timezone.now() + datetime.timedelta(days=1),
                             deal_games=False)  # fmt: skip
    assert Pairing.objects.filter(tournament=event, round__number=2).exists()
    return {"tournament": event.pk}


def test_the_director_opens_why_each_board_was_paired(
    second_round: dict[str, Any], browser: Browser, live_server_url: str
) -> None:
    url = f"{live_server_url}/tournaments/{second_round['tournament']}/round/2/"
    for language, fold in (("en", "Why this pairing?"), ("ru", "Почему такая пара?")):
        for view, size in VIEWS.items():
            page = browser.new_page(locale="en-GB", viewport=size)
            log_in(page, live_server_url, "chief")
            page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])
            page.goto(url)
            summaries = page.locator(".pairing-why summary")
            expect(summaries.first).to_have_text(fold)
            assert summaries.count() == page.locator("table.pairings tbody tr[data-board]").count()
            for index in range(summaries.count()):
                summaries.nth(index).click()
            expect(page.locator(".pairing-why li").first).to_be_visible()
            expect(page.locator(".pairing-why").first).to_contain_text("C.04.3")
            if SCREENSHOT_DIR:
                page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"round-why-{language}-{view}.png"), full_page=True)
            page.close()
    player = browser.new_page(locale="en-GB")
    log_in(player, live_server_url, "anna")
    player.goto(url)
    expect(player.locator("table.pairings")).to_be_visible()
    expect(player.locator(".pairing-why")).to_have_count(0)
