"""The director's entrants panel in real Chromium against Daphne: he adds two people by searching their names
(one with the keyboard, a Cyrillic name with a click) and three bots in one act, never typing a username."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.roles import Role
from accounts.services import user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, log_in
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club_night(live_server_url: str) -> int:
    """A director's tournament and two people whose usernames are nothing like their names (made before the
    browser starts: Django refuses database calls from Playwright's thread)."""
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    for username, name in (("u-7731", "Anya Smirnova"), ("u-8812", "Борис Петров")):
        person = user_sign_up(username=username, email=f"{username}@example.com", password=PASSWORD,
                              preferred_language="en")
        person.display_name = name
        person.save()
    event = services.tournament_create(director=chief, name="Club Night", rounds=3,
                                       starts_at=timezone.now() + datetime.timedelta(hours=1))
    return event.pk


def test_a_director_adds_two_people_by_name_and_three_bots_in_one_act(
    club_night: int, browser: Browser, live_server_url: str
) -> None:
    errors: list[str] = []
    page = browser.new_page(locale="en-GB")
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, "chief")
    page.goto(f"{live_server_url}/tournaments/{club_night}/direct/")

    # The keyboard: type part of a name, the arrow keys move through the listbox, Enter enters him.
    search = page.get_by_role("combobox", name="Player's name")
    search.press_sequentially("smirn")
    options = page.get_by_role("listbox").get_by_role("option")
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("Anya Smirnova")
    expect(options.first).to_contain_text("unrated")
    search.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    search.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Anya Smirnova is entered.")

    # A click, on a Cyrillic name typed in lower case; someone entered already is shown as such.
    page.get_by_role("combobox", name="Player's name").press_sequentially("борис")
    page.get_by_role("listbox").get_by_role("option", name="Борис Петров").click()
    expect(page.locator(".messages")).to_contain_text("Борис Петров is entered.")
    page.get_by_role("combobox", name="Player's name").press_sequentially("anya")
    expect(page.get_by_role("listbox").get_by_role("option").first).to_contain_text("entered")

    # Three bots of a level in one act: three accounts, three names.
    page.get_by_label("How many").fill("3")
    page.get_by_label("Level").select_option("easy")
    page.get_by_role("button", name="Add the bots").click()
    expect(page.locator(".messages")).to_contain_text("Entered: Random Rita, Lucky Lyosha, Merry Mila.")
    entrants = page.locator("#entrants-heading + .table-scroll table tbody tr")
    expect(entrants).to_have_count(5)
    for name in ("Anya Smirnova", "Борис Петров", "Random Rita", "Lucky Lyosha", "Merry Mila"):
        expect(page.locator("#entrants-heading + .table-scroll table")).to_contain_text(name)
    assert errors == []
